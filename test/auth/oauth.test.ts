// OAuth 2.1 over HTTP with no browser: dynamic client registration, PKCE, sign-in, consent, code
// exchange, then the REST API with the token; audiences, expiry, refresh rotation, revocation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Browser, csrfOf, $ } from './browser.ts';
import { liveApp, makeUser, pkce, PASSWORD, type LiveApp } from './helpers.ts';
import type { User } from '../../src/auth/users.ts';

let t: LiveApp;
let user: User;
before(async () => {
  t = await liveApp();
  user = await makeUser(t.store);
});
after(async () => {
  await t.cleanup();
});

const REDIRECT = 'http://127.0.0.1:9/callback';

async function register(extra: Record<string, unknown> = {}) {
  const r = await fetch(`${t.base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test Agent',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...extra,
    }),
  });
  assert.equal(r.status, 201, await r.clone().text());
  return r.json() as Promise<{ client_id: string }>;
}

/** Runs the authorization request through sign-in and consent; returns the redirect back to the client. */
async function authorize(
  b: Browser,
  clientId: string,
  opts: { resource?: string; scope?: string; signIn?: boolean; redirect?: string } = {},
) {
  const { verifier, challenge } = pkce();
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: opts.redirect ?? REDIRECT,
    scope: opts.scope ?? 'account:read listings:write',
    state: 'st-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  if (opts.resource) q.set('resource', opts.resource);
  let page = await b.go(`/oauth/authorize?${q}`);
  assert.equal(page.res.status, 200, page.text);
  assert.match(page.url, /\/oauth\/interaction\//);
  if (opts.signIn !== false) {
    assert.match($(page.text)('h1').text(), /Sign in to connect/);
    const action = $(page.text)('form:has(input[name=password])').attr('action')!;
    page = await b.go(action, { form: { _csrf: csrfOf(page.text, action), email: user.email, password: PASSWORD } });
  }
  assert.equal(page.res.status, 200, page.text);
  const consent = page;
  const confirm = $(consent.text)('form[action$="/confirm"]').attr('action')!;
  assert.ok(confirm, 'consent page has an Allow form');
  const back = await b.go(confirm, { form: { _csrf: csrfOf(consent.text, confirm) } });
  assert.equal(back.res.status, 303);
  return { consent, url: new URL(back.url), verifier };
}

async function token(params: Record<string, string>) {
  const r = await fetch(`${t.base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return { status: r.status, body: (await r.json()) as Record<string, any> };
}

const me = (accessToken: string) =>
  fetch(`${t.base}/api/v1/me`, { headers: { authorization: `Bearer ${accessToken}` } });

test('metadata: issuer is PUBLIC_URL exactly, PKCE S256, registration, CIMD, iss in responses', async () => {
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    const r = await fetch(t.base + path);
    assert.equal(r.status, 200);
    const m = await r.json();
    assert.equal(m.issuer, t.base);
    assert.deepEqual(m.code_challenge_methods_supported, ['S256']);
    assert.equal(m.registration_endpoint, `${t.base}/oauth/register`);
    assert.equal(m.authorization_endpoint, `${t.base}/oauth/authorize`);
    assert.equal(m.token_endpoint, `${t.base}/oauth/token`);
    assert.equal(m.revocation_endpoint, `${t.base}/oauth/revoke`);
    assert.equal(m.client_id_metadata_document_supported, true);
    assert.equal(m.authorization_response_iss_parameter_supported, true);
    assert.deepEqual(m.response_types_supported, ['code']);
    for (const s of ['account:read', 'listings:write', 'orders:write']) assert.ok(m.scopes_supported.includes(s));
    assert.equal(new Set(m.scopes_supported).size, m.scopes_supported.length, 'each scope listed once');
  }
  const prm = await (await fetch(`${t.base}/.well-known/oauth-protected-resource/api/v1`)).json();
  assert.equal(prm.resource, `${t.base}/api/v1`);
  assert.deepEqual(prm.authorization_servers, [t.base]);
});

test('full flow: DCR, PKCE, sign in, consent, code exchange, GET /api/v1/me with the token', async () => {
  const { client_id } = await register();
  const b = new Browser(t.base);
  const { consent, url, verifier } = await authorize(b, client_id);
  // The consent page names the client, where it sends the person back and each scope in plain words.
  const c = $(consent.text);
  assert.match(c('h1').text(), /Allow “Test Agent”/);
  assert.match(consent.text, /127\.0\.0\.1:9/);
  assert.match(c('main').text(), /See your account, your drafts, listings, claims and orders/);
  assert.match(c('main').text(), /Draft, edit and publish your listings/);
  assert.doesNotMatch(c('main').text(), /Price products/);
  assert.ok(c('form[action$="/abort"] button').text().includes('Deny'));

  assert.equal(url.origin + url.pathname, REDIRECT);
  assert.equal(url.searchParams.get('state'), 'st-123');
  assert.equal(url.searchParams.get('iss'), t.base); // RFC 9207
  const code = url.searchParams.get('code')!;
  assert.ok(code);

  // PKCE: the wrong verifier is refused, and the code cannot then be used twice.
  const wrong = await token({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id,
    code_verifier: pkce().verifier,
  });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.error, 'invalid_grant');

  const ok = await token({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id,
    code_verifier: verifier,
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.token_type, 'Bearer');
  assert.equal(ok.body.scope, 'account:read listings:write');
  assert.ok(ok.body.refresh_token);
  assert.ok(ok.body.expires_in > 0 && ok.body.expires_in <= 3600);

  const r = await me(ok.body.access_token);
  assert.equal(r.status, 200);
  const body = await r.json();
  assert.equal(body.user.id, user.id);
  assert.equal(body.user.email, user.email);
  assert.deepEqual(body.credential, { type: 'oauth', name: 'Test Agent', client_id });
  assert.deepEqual(body.scopes, ['account:read', 'listings:write']);
  assert.equal(body.allows.length, 2);

  // A token without orders:write is refused on an orders:write operation with 403 naming the scope.
  const quote = await fetch(`${t.base}/api/v1/orders/quote`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ok.body.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ items: [{ product: 'launch' }] }),
  });
  assert.equal(quote.status, 403);
  assert.equal((await quote.json()).error.code, 'insufficient_scope');
  assert.match(
    quote.headers.get('www-authenticate') ?? '',
    /error="insufficient_scope".*scope="orders:write"|scope="orders:write".*error="insufficient_scope"/,
  );

  // The code is single use: a replay is refused and revokes what it issued.
  const replay = await token({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id,
    code_verifier: verifier,
  });
  assert.equal(replay.status, 400);
  assert.equal(replay.body.error, 'invalid_grant');
  assert.equal((await me(ok.body.access_token)).status, 401);
});

test('PKCE is required: an authorization request without code_challenge is refused', async () => {
  const { client_id } = await register();
  const q = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    scope: 'account:read',
    state: 's',
  });
  const r = await fetch(`${t.base}/oauth/authorize?${q}`, { redirect: 'manual' });
  assert.equal(r.status, 303);
  const back = new URL(r.headers.get('location')!);
  assert.equal(back.searchParams.get('error'), 'invalid_request');
  assert.match(back.searchParams.get('error_description') ?? '', /PKCE/);
  // plain is not accepted either
  const plain = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    scope: 'account:read',
    code_challenge: 'x'.repeat(43),
    code_challenge_method: 'plain',
  });
  const r2 = await fetch(`${t.base}/oauth/authorize?${plain}`, { redirect: 'manual' });
  assert.equal(new URL(r2.headers.get('location')!).searchParams.get('error'), 'invalid_request');
});

test('Deny sends the person back with access_denied and no code', async () => {
  const { client_id } = await register({ client_name: 'Denied App' });
  const b = new Browser(t.base);
  const { challenge } = pkce();
  const q = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    scope: 'account:read',
    state: 'd',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  let page = await b.go(`/oauth/authorize?${q}`);
  const action = $(page.text)('form:has(input[name=password])').attr('action')!;
  page = await b.go(action, { form: { _csrf: csrfOf(page.text, action), email: user.email, password: PASSWORD } });
  const abort = $(page.text)('form[action$="/abort"]').attr('action')!;
  const back = await b.go(abort, { form: { _csrf: csrfOf(page.text, abort) } });
  const u = new URL(back.url);
  assert.equal(u.searchParams.get('error'), 'access_denied');
  assert.equal(u.searchParams.get('code'), null);
  assert.equal(u.searchParams.get('iss'), t.base);
});

test('a wrong password on the OAuth sign-in page is refused and no code is issued', async () => {
  const { client_id } = await register();
  const b = new Browser(t.base);
  const { challenge } = pkce();
  const q = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    scope: 'account:read',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const page = await b.go(`/oauth/authorize?${q}`);
  const action = $(page.text)('form:has(input[name=password])').attr('action')!;
  const again = await b.go(action, {
    form: { _csrf: csrfOf(page.text, action), email: user.email, password: 'not the password' },
  });
  assert.equal(again.res.status, 400);
  assert.match(again.text, /email or password is not right/);
  // And without the CSRF token the form is refused outright.
  const noCsrf = await b.request(action, { form: { email: user.email, password: PASSWORD } });
  assert.equal(noCsrf.status, 403);
});

test('audience binding (RFC 8707): a token for the MCP server is refused by the REST API, and vice versa', async () => {
  const { client_id } = await register({ client_name: 'MCP Agent' });
  const b = new Browser(t.base);
  const { url, verifier } = await authorize(b, client_id, { resource: `${t.base}/mcp`, scope: 'account:read' });
  const res = await token({
    grant_type: 'authorization_code',
    code: url.searchParams.get('code')!,
    redirect_uri: REDIRECT,
    client_id,
    code_verifier: verifier,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const r = await me(res.body.access_token);
  assert.equal(r.status, 401);
  assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer .*error="invalid_token"/);
  assert.equal((await r.json()).error.code, 'unauthorized');
  // The verifier the MCP endpoint uses accepts it for its own audience only.
  const verify = t.server.deps.verifyAccessToken!;
  const p = await verify(res.body.access_token, `${t.base}/mcp`);
  assert.equal(p?.kind, 'user');
  assert.equal(await verify(res.body.access_token, `${t.base}/api/v1`), null);

  // An unknown resource is refused at the authorization endpoint.
  const { challenge } = pkce();
  const q = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    scope: 'account:read',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: 'https://elsewhere.example/api',
  });
  const bad = await fetch(`${t.base}/oauth/authorize?${q}`, { redirect: 'manual' });
  assert.equal(new URL(bad.headers.get('location')!).searchParams.get('error'), 'invalid_target');
});

test('an expired access token gets 401 invalid_token', async () => {
  const { client_id } = await register();
  const b = new Browser(t.base);
  const { url, verifier } = await authorize(b, client_id, { scope: 'account:read' });
  const res = await token({
    grant_type: 'authorization_code',
    code: url.searchParams.get('code')!,
    redirect_uri: REDIRECT,
    client_id,
    code_verifier: verifier,
  });
  assert.equal((await me(res.body.access_token)).status, 200);
  // Move the token's expiry into the past, as an hour passing would.
  const rows = await t.store.db
    .selectFrom('oauth_store')
    .select(['id', 'payload'])
    .where('model', '=', 'AccessToken')
    .execute();
  for (const row of rows) {
    const p = JSON.parse(row.payload);
    p.exp = Math.floor(Date.now() / 1000) - 5;
    await t.store.db
      .updateTable('oauth_store')
      .set({ payload: JSON.stringify(p) })
      .where('model', '=', 'AccessToken')
      .where('id', '=', row.id)
      .execute();
  }
  const r = await me(res.body.access_token);
  assert.equal(r.status, 401);
  assert.match(r.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  // A made-up token is refused the same way.
  assert.equal((await me('not-a-real-token-value-at-all')).status, 401);
});

test('refresh tokens rotate; reusing an old one is refused; revocation and disconnect stop the tokens', async () => {
  const { client_id } = await register({ client_name: 'Rotating App' });
  const b = new Browser(t.base);
  const { url, verifier } = await authorize(b, client_id, { scope: 'account:read orders:write' });
  const first = await token({
    grant_type: 'authorization_code',
    code: url.searchParams.get('code')!,
    redirect_uri: REDIRECT,
    client_id,
    code_verifier: verifier,
  });
  assert.equal(first.status, 200);
  const second = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id });
  assert.equal(second.status, 200, JSON.stringify(second.body));
  assert.notEqual(second.body.refresh_token, first.body.refresh_token);
  assert.equal((await me(second.body.access_token)).status, 200);
  // Reusing a rotated refresh token is refused, and (theft detection) ends the tokens issued after it.
  const reuse = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id });
  assert.equal(reuse.status, 400);
  assert.equal(reuse.body.error, 'invalid_grant');
  assert.equal((await me(second.body.access_token)).status, 401);
  assert.equal(
    (await token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token, client_id })).status,
    400,
  );

  // Token revocation (RFC 7009) on a fresh authorization.
  const again = await authorize(b, client_id, { scope: 'account:read orders:write', signIn: false }); // still signed in: consent only
  const third = await token({
    grant_type: 'authorization_code',
    code: again.url.searchParams.get('code')!,
    redirect_uri: REDIRECT,
    client_id,
    code_verifier: again.verifier,
  });
  assert.equal(third.status, 200, JSON.stringify(third.body));
  const rv = await fetch(`${t.base}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: third.body.access_token, client_id }).toString(),
  });
  assert.equal(rv.status, 200);
  assert.equal((await me(third.body.access_token)).status, 401);

  // Revoking one token revokes the tokens issued under the same grant (the refresh token too) …
  assert.equal(
    (await token({ grant_type: 'refresh_token', refresh_token: third.body.refresh_token, client_id })).status,
    400,
  );
  // … but not the grant: the app can ask again and gets a code without a new consent.
  const p4 = pkce();
  const q = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    scope: 'account:read orders:write',
    code_challenge: p4.challenge,
    code_challenge_method: 'S256',
  });
  const direct = await b.go(`/oauth/authorize?${q}`);
  const code = new URL(direct.url).searchParams.get('code');
  assert.ok(code, `straight back with a code: ${direct.url}`);
  const fourth = await token({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id,
    code_verifier: p4.verifier,
  });
  assert.equal(fourth.status, 200, JSON.stringify(fourth.body));
  assert.equal((await me(fourth.body.access_token)).status, 200);

  // The account page lists the app; disconnecting it stops its access and refresh tokens at once.
  const account = await b.go('/account');
  const apps = $(account.text)('#connected-apps');
  assert.match(apps.text(), /Rotating App/);
  assert.match(apps.text(), /Price products/);
  const form = apps.find(`form:has(input[name=client_id][value="${client_id}"])`);
  assert.equal(form.length, 1);
  const done = await b.go('/account/apps/revoke', {
    form: { _csrf: form.find('input[name=_csrf]').attr('value')!, client_id },
  });
  assert.equal(done.res.status, 200);
  assert.doesNotMatch($(done.text)('#connected-apps').text(), /Rotating App/);
  assert.equal((await me(fourth.body.access_token)).status, 401);
  const after = await token({ grant_type: 'refresh_token', refresh_token: fourth.body.refresh_token, client_id });
  assert.equal(after.status, 400);
});

test('signed in on the website: "Continue as" skips the password; signing out ends the OAuth sign-in too', async () => {
  const { client_id } = await register({ client_name: 'Web Session App' });
  const b = new Browser(t.base);
  const signInPage = await b.go('/sign-in');
  await b.go('/sign-in', {
    form: { _csrf: csrfOf(signInPage.text, '/sign-in'), email: user.email, password: PASSWORD },
  });
  const { challenge } = pkce();
  const q = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    scope: 'account:read',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  let page = await b.go(`/oauth/authorize?${q}`);
  const cont = $(page.text)('form:has(input[name=continue])');
  assert.match(cont.text(), new RegExp(`Continue as ${user.email.replace(/[.+]/g, '\\$&')}`));
  page = await b.go(cont.attr('action')!, {
    form: { _csrf: cont.find('input[name=_csrf]').attr('value')!, continue: '1' },
  });
  assert.match($(page.text)('h1').text(), /Allow “Web Session App”/);

  // Sign out on the website, then start again: the app must sign the person in again.
  const account = await b.go('/account');
  await b.go('/sign-out', { form: { _csrf: csrfOf(account.text, '/sign-out') } });
  page = await b.go(`/oauth/authorize?${q}`);
  assert.match($(page.text)('h1').text(), /Sign in to connect/);
  assert.equal($(page.text)('form:has(input[name=continue])').length, 0);
});
