// Client ID metadata documents: the client_id is a URL whose JSON document describes the client.
// Served here on loopback, which only a test-only setting (http:// client ids) together with
// FETCH_ALLOW_HOSTS permits; by default the client_id must be https:// and a public address.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Browser, csrfOf, $ } from './browser.ts';
import { liveApp, makeUser, pkce, PASSWORD, type LiveApp } from './helpers.ts';
import { ALLOW_HTTP_CLIENT_IDS_SETTING } from '../../src/auth/oauth/audiences.ts';
import { checkClientIdUrl, validateMetadata } from '../../src/auth/oauth/cimd.ts';
import { nowIso } from '../../src/store/json.ts';

const REDIRECT = 'http://127.0.0.1:9/cimd-callback';
let docs: Server;
let docHost: string;
let fetches = 0;
const documents = new Map<string, (url: string) => unknown>();

before(async () => {
  docs = createServer((req, res) => {
    fetches++;
    const url = `http://${docHost}${req.url}`;
    const make = documents.get(req.url ?? '');
    if (!make) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' })
      .end(JSON.stringify(make(url)));
  });
  await new Promise<void>((r) => docs.listen(0, '127.0.0.1', r));
  docHost = `127.0.0.1:${(docs.address() as AddressInfo).port}`;
  documents.set('/agent.json', (url) => ({
    client_id: url,
    client_name: 'Loopback Agent',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }));
  documents.set('/mismatch.json', () => ({
    client_id: 'https://other.example/client.json',
    client_name: 'Mismatch',
    redirect_uris: [REDIRECT],
  }));
  documents.set('/secret.json', (url) => ({
    client_id: url,
    client_name: 'Secretive',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'client_secret_basic',
    client_secret: 'x',
  }));
});
after(async () => {
  await new Promise((r) => docs.close(r));
});

const allowHttp = async (store: LiveApp['store']) => {
  await store.db
    .insertInto('settings')
    .values({ key: ALLOW_HTTP_CLIENT_IDS_SETTING, value: 'true', updated_at: nowIso() })
    .execute();
};

function authorizeUrl(base: string, clientId: string, challenge: string) {
  return `${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'account:read', state: 'c', code_challenge: challenge, code_challenge_method: 'S256', resource: `${base}/api/v1` })}`;
}

test('refused by default: an http:// client_id is not fetched, even from an allowed host', async () => {
  const t = await liveApp({ FETCH_ALLOW_HOSTS: docHost });
  try {
    const before = fetches;
    const r = await fetch(authorizeUrl(t.base, `http://${docHost}/agent.json`, pkce().challenge), {
      redirect: 'manual',
    });
    assert.equal(r.status, 400); // an unknown client is never redirected back
    const text = await r.text();
    assert.match(text, /invalid_client/);
    assert.match(text, /https:\/\//);
    assert.equal(fetches, before, 'nothing was fetched');
  } finally {
    await t.cleanup();
  }
});

test('refused when the host is not allowed: the guarded fetcher refuses loopback addresses', async () => {
  const t = await liveApp({}, allowHttp);
  try {
    const before = fetches;
    const r = await fetch(authorizeUrl(t.base, `http://${docHost}/agent.json`, pkce().challenge), {
      redirect: 'manual',
    });
    assert.equal(r.status, 400);
    assert.match(await r.text(), /not a public address|could not be fetched/);
    assert.equal(fetches, before);
  } finally {
    await t.cleanup();
  }
});

test('with the test-only setting: full flow with a metadata document served on loopback', async () => {
  const t = await liveApp({ FETCH_ALLOW_HOSTS: docHost }, allowHttp);
  try {
    const user = await makeUser(t.store);
    const clientId = `http://${docHost}/agent.json`;
    const b = new Browser(t.base);
    const { verifier, challenge } = pkce();
    let page = await b.go(authorizeUrl(t.base, clientId, challenge));
    assert.equal(page.res.status, 200, page.text);
    assert.match($(page.text)('h1').text(), /Loopback Agent/);
    const action = $(page.text)('form:has(input[name=password])').attr('action')!;
    page = await b.go(action, { form: { _csrf: csrfOf(page.text, action), email: user.email, password: PASSWORD } });
    assert.equal(page.res.status, 200);
    assert.match($(page.text)('main').text(), /described by http:\/\/127\.0\.0\.1:\d+\/agent\.json/);
    const confirm = $(page.text)('form[action$="/confirm"]').attr('action')!;
    const back = await b.go(confirm, { form: { _csrf: csrfOf(page.text, confirm) } });
    const u = new URL(back.url);
    assert.equal(u.origin + u.pathname, REDIRECT);
    const tok = await fetch(`${t.base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: u.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
      }).toString(),
    });
    assert.equal(tok.status, 200, await tok.clone().text());
    const { access_token } = await tok.json();
    const me = await fetch(`${t.base}/api/v1/me`, { headers: { authorization: `Bearer ${access_token}` } });
    assert.equal(me.status, 200);
    assert.deepEqual((await me.json()).credential, { type: 'oauth', name: 'Loopback Agent', client_id: clientId });

    // Documents that lie about their client_id or carry a shared secret are refused.
    for (const [path, why] of [
      ['/mismatch.json', /does not match/],
      ['/secret.json', /client_secret/],
      ['/missing.json', /HTTP 404/],
    ] as const) {
      const r = await fetch(authorizeUrl(t.base, `http://${docHost}${path}`, pkce().challenge), { redirect: 'manual' });
      assert.equal(r.status, 400, path);
      assert.match(await r.text(), why, path);
    }
  } finally {
    await t.cleanup();
  }
});

/** Matches the OAuth error description (the message of these errors is the error code). */
const says = (re: RegExp) => (e: unknown) => re.test(String((e as { error_description?: string }).error_description));

test('client_id URL rules', () => {
  assert.throws(() => checkClientIdUrl('http://app.example/client.json', false), says(/https/));
  assert.doesNotThrow(() => checkClientIdUrl('https://app.example/client.json', false));
  assert.throws(() => checkClientIdUrl('https://app.example/', false), says(/path/));
  assert.throws(() => checkClientIdUrl('https://app.example/a/../client.json', false));
  assert.throws(() => checkClientIdUrl('https://user:pw@app.example/client.json', false), says(/user name/));
  assert.throws(() => checkClientIdUrl('https://app.example/client.json#x', false), says(/fragment/));
  const id = 'https://app.example/client.json';
  assert.throws(() => validateMetadata(id, [], false), says(/JSON object/));
  assert.throws(() => validateMetadata(id, { client_id: id, redirect_uris: [] }, false), says(/redirect_uris/));
  assert.throws(
    () =>
      validateMetadata(
        id,
        { client_id: id, redirect_uris: ['https://app.example/cb'], logo_uri: 'http://app.example/logo.png' },
        false,
      ),
    says(/logo_uri/),
  );
  const ok = validateMetadata(
    id,
    { client_id: id, redirect_uris: ['https://app.example/cb'], grant_types: ['authorization_code', 'implicit'] },
    false,
  );
  assert.equal(ok.token_endpoint_auth_method, 'none');
  assert.deepEqual(ok.grant_types, ['authorization_code']);
});
