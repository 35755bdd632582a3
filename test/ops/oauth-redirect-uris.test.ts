// OAuth redirect URIs (issue #20, item 5): https only, plain http only on loopback (127.0.0.1, [::1],
// localhost); no user name or password, no fragment. Checked on dynamic registration over HTTP, and the
// sign-in and consent pages let their forms lead on to the client's redirect origin (CSP form-action).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Browser, csrfOf, $ } from '../auth/browser.ts';
import { liveApp, makeUser, pkce, PASSWORD, type LiveApp } from '../auth/helpers.ts';
import { redirectUriProblem } from '../../src/auth/oauth/redirect-uris.ts';
import type { User } from '../../src/auth/users.ts';

test('redirectUriProblem: the rules', () => {
  for (const ok of [
    'https://app.example/cb',
    'https://app.example:8443/oauth/callback?x=1',
    'http://127.0.0.1/cb',
    'http://127.0.0.1:53682/callback',
    'http://[::1]:8080/cb',
    'http://localhost:3000/cb',
  ])
    assert.equal(redirectUriProblem(ok), null, ok);
  const refused: Array<[string, RegExp]> = [
    ['http://evil.example/cb', /https/],
    ['http://127.0.0.2/cb', /loopback/],
    ['http://localhost.evil.example/cb', /loopback/],
    ['https://user:pass@app.example/cb', /user name or password/],
    ['https://user@app.example/cb', /user name or password/],
    ['http://me:pw@127.0.0.1/cb', /user name or password/],
    ['https://app.example/cb#frag', /fragment/],
    ['https://app.example/cb#', /fragment/],
    ['com.example.app:/cb', /https/],
    ['javascript:alert(1)', /https/],
    ['not a uri', /valid/],
  ];
  for (const [uri, why] of refused) assert.match(redirectUriProblem(uri) ?? 'allowed', why, uri);
});

let t: LiveApp;
let user: User;
before(async () => {
  t = await liveApp();
  user = await makeUser(t.store);
});
after(async () => {
  await t.cleanup();
});

async function register(redirect_uris: string[]) {
  const r = await fetch(`${t.base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Redirect test',
      redirect_uris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    }),
  });
  return { status: r.status, body: (await r.json()) as Record<string, string> };
}

test('dynamic registration refuses non-loopback http, userinfo and fragments, and accepts https and loopback http', async () => {
  for (const uri of [
    'http://evil.example/cb',
    'https://user:pass@app.example/cb',
    'https://app.example/cb#x',
    'com.example.app:/cb',
  ]) {
    const r = await register([uri]);
    assert.equal(r.status, 400, `${uri}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error, 'invalid_redirect_uri', uri);
    assert.ok(r.body.error_description.includes(JSON.stringify(uri)), r.body.error_description);
  }
  // One bad URI among good ones refuses the registration.
  assert.equal((await register(['https://app.example/cb', 'http://evil.example/cb'])).status, 400);
  for (const uri of [
    'https://app.example/cb',
    'http://127.0.0.1:8080/cb',
    'http://[::1]:8080/cb',
    'http://localhost:3000/cb',
  ]) {
    const r = await register([uri]);
    assert.equal(r.status, 201, `${uri}: ${JSON.stringify(r.body)}`);
  }
});

test("the sign-in and consent pages' CSP lets their forms lead on to the client's redirect origin only", async () => {
  const redirect = 'http://127.0.0.1:9/callback';
  const { body } = await register([redirect]);
  const b = new Browser(t.base);
  const { challenge } = pkce();
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: body.client_id,
    redirect_uri: redirect,
    scope: 'account:read',
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  let page = await b.go(`/oauth/authorize?${q}`);
  assert.equal(page.res.status, 200);
  const csp = (p: typeof page) => p.res.headers.get('content-security-policy') ?? '';
  assert.match(csp(page), /form-action 'self' http:\/\/127\.0\.0\.1:9(;|$)/);
  assert.match(csp(page), /frame-ancestors 'none'/);
  const action = $(page.text)('form:has(input[name=password])').attr('action')!;
  page = await b.go(action, { form: { _csrf: csrfOf(page.text, action), email: user.email, password: PASSWORD } });
  assert.match($(page.text)('h1').text(), /Allow/);
  assert.match(csp(page), /form-action 'self' http:\/\/127\.0\.0\.1:9(;|$)/);
  // Any other page keeps form-action to the site itself.
  const home = await fetch(`${t.base}/`);
  assert.match(home.headers.get('content-security-policy') ?? '', /form-action 'self'(;|$)/);
});
