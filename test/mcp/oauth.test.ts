// Sign-in to the MCP server the way an MCP client does it (MCP authorization spec): the official
// client hits a 401, follows resource_metadata to our authorization server, registers itself (DCR),
// sends the person to sign in and consent (driven here without a browser) with PKCE, redeems the code
// and repeats the tool call with an access token for the MCP resource. A token for /api/v1 is refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { Browser, csrfOf, $ } from '../auth/browser.ts';
import { createUser, type User } from '../../src/auth/users.ts';
import { ERAS, liveApp, parseChallenge, rpc, toolBody, type Live } from './support.ts';

const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:9/mcp-client-callback';

let t: Live;
let user: User;
before(async () => {
  t = await liveApp();
  user = await createUser(t.store.db, {
    email: `mcp-oauth-${randomBytes(3).toString('hex')}@example.com`,
    password: PASSWORD,
    name: 'Grace',
    emailVerified: true,
  });
});
after(async () => {
  await t.cleanup();
});

type Saved = Parameters<OAuthClientProvider['saveTokens']>[0];
type SavedClient = Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0];

/** An MCP client's OAuth state, kept in memory; "redirecting" records where the person is sent. */
class AgentAuth implements OAuthClientProvider {
  info?: SavedClient;
  saved?: Saved;
  verifier = '';
  authorizationUrls: URL[] = [];
  registrations = 0;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: 'MCP Test Agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: SavedClient) {
    this.registrations++;
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: Saved) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** What the person does in the browser: sign in (first time), then Allow; returns the redirect back to the agent. */
async function personAllows(
  b: Browser,
  authorizationUrl: URL,
  resourceWords = 'the Launchlist MCP server',
): Promise<URL> {
  let page = await b.go(authorizationUrl.href);
  assert.equal(page.res.status, 200, page.text);
  const login = $(page.text)('form:has(input[name=password])').attr('action');
  if (login)
    page = await b.go(login, { form: { _csrf: csrfOf(page.text, login), email: user.email, password: PASSWORD } });
  assert.match($(page.text)('h1').text(), /Allow “MCP Test Agent”/);
  assert.ok(
    page.text.includes(`use ${resourceWords} as you`),
    `the consent page names ${resourceWords} as the resource`,
  );
  const confirm = $(page.text)('form[action$="/confirm"]').attr('action')!;
  const back = await b.go(confirm, { form: { _csrf: csrfOf(page.text, confirm) } });
  const url = new URL(back.url);
  assert.equal(url.origin + url.pathname, REDIRECT);
  return url;
}

/** Dynamic client registration as an MCP client sends it, without a `scope` member. */
async function register(): Promise<SavedClient> {
  const r = await fetch(`${t.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(new AgentAuth().clientMetadata),
  });
  assert.equal(r.status, 201);
  return { ...((await r.json()) as SavedClient), issuer: t.url } as SavedClient;
}

for (const era of [ERAS[0], ERAS[3]]) {
  test(`protocol ${era.name}: DCR + PKCE sign-in ending in a tool call, then step-up for a wider scope`, async () => {
    const auth = new AgentAuth();
    auth.info = await register();
    const client = new Client({ name: 'launchlist-tests', version: '1.0.0' }, era.options);
    const transport = new StreamableHTTPClientTransport(new URL(t.url + '/mcp'), { authProvider: auth });
    await client.connect(transport); // public: no sign-in needed to connect or list tools
    assert.equal((await client.listTools()).tools.length, 50);

    // The first signed-in call: 401 → discovery → registration → the person is sent to sign in.
    await assert.rejects(
      client.callTool({ name: 'get_account', arguments: {} }),
      (e) => e instanceof UnauthorizedError,
    );
    const authorizeUrl = auth.authorizationUrls[0];
    assert.equal(authorizeUrl.origin + authorizeUrl.pathname, `${t.url}/oauth/authorize`);
    assert.equal(authorizeUrl.searchParams.get('resource'), `${t.url}/mcp`);
    // The scope of our 401 challenge (the client adds offline_access, which the server offers, for a refresh token).
    assert.deepEqual(
      authorizeUrl.searchParams
        .get('scope')!
        .split(' ')
        .filter((s) => s !== 'offline_access'),
      ['account:read'],
    );
    assert.equal(authorizeUrl.searchParams.get('code_challenge_method'), 'S256');

    const b = new Browser(t.url);
    const back = await personAllows(b, authorizeUrl);
    await transport.finishAuth(back.searchParams);
    assert.ok(auth.saved?.access_token);

    const me = await client.callTool({ name: 'get_account', arguments: {} });
    assert.equal(me.isError, undefined, JSON.stringify(me.structuredContent));
    const account = me.structuredContent as any;
    assert.equal(account.user.id, user.id);
    assert.equal(account.credential.type, 'oauth');
    assert.deepEqual(account.scopes, ['account:read']);

    // A tool needing listings:write: 403 insufficient_scope → the client asks again for the union.
    await assert.rejects(
      client.callTool({ name: 'answer_interview', arguments: { answers: [] } }),
      (e) => e instanceof UnauthorizedError,
    );
    const stepUp = auth.authorizationUrls[1];
    assert.deepEqual(
      stepUp.searchParams
        .get('scope')!
        .split(' ')
        .filter((s) => s !== 'offline_access')
        .sort(),
      ['account:read', 'listings:write'],
    );
    await transport.finishAuth((await personAllows(b, stepUp)).searchParams);
    const answered = await client.callTool({ name: 'answer_interview', arguments: { answers: [] } });
    const code = toolBody(answered)?.error?.code;
    assert.ok(
      code !== 'unauthorized' && code !== 'insufficient_scope',
      `the wider token is accepted (${JSON.stringify(toolBody(answered))})`,
    );
    await client.close();
  });
}

test('a token issued for the REST API (/api/v1) is refused at /mcp, and an MCP token at /api/v1', async () => {
  const reg = await fetch(`${t.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'MCP Test Agent',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  assert.equal(reg.status, 201);
  const { client_id } = (await reg.json()) as { client_id: string };
  const b = new Browser(t.url);
  const tokenFor = async (resource: string) => {
    const verifier = randomBytes(32).toString('base64url');
    const q = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: REDIRECT,
      scope: 'account:read',
      state: 's',
      resource,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const back = await personAllows(
      b,
      new URL(`${t.url}/oauth/authorize?${q}`),
      resource.endsWith('/mcp') ? 'the Launchlist MCP server' : 'the Launchlist API',
    );
    const r = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        client_id,
        code_verifier: verifier,
      }).toString(),
    });
    const body = (await r.json()) as { access_token: string };
    assert.equal(r.status, 200, JSON.stringify(body));
    return body.access_token;
  };
  const restToken = await tokenFor(`${t.url}/api/v1`);
  assert.equal(
    (await fetch(`${t.url}/api/v1/me`, { headers: { authorization: `Bearer ${restToken}` } })).status,
    200,
    'the REST token works where it belongs',
  );
  const refused = await rpc(
    t.url,
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_account', arguments: {} } },
    { authorization: `Bearer ${restToken}` },
  );
  assert.equal(refused.status, 401);
  const c = parseChallenge(refused.headers.get('www-authenticate'));
  assert.equal(c.error, 'invalid_token');
  assert.equal(c.resource_metadata, `${t.url}/.well-known/oauth-protected-resource/mcp`);

  const mcpToken = await tokenFor(`${t.url}/mcp`);
  const ok = await rpc(
    t.url,
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_account', arguments: {} } },
    { authorization: `Bearer ${mcpToken}` },
  );
  assert.equal(ok.status, 200);
  assert.equal(
    (await fetch(`${t.url}/api/v1/me`, { headers: { authorization: `Bearer ${mcpToken}` } })).status,
    401,
    'an MCP token is not a REST token',
  );
});

// The official client registers itself when it has no client id, and sends in its registration the
// scope it is about to ask for: registration must accept our resource scopes there.
test('the official client registers itself (DCR carrying its scope) and signs in', async () => {
  const auth = new AgentAuth();
  const client = new Client({ name: 'launchlist-tests', version: '1.0.0' }, ERAS[0].options);
  const transport = new StreamableHTTPClientTransport(new URL(t.url + '/mcp'), { authProvider: auth });
  await client.connect(transport);
  try {
    await assert.rejects(
      client.callTool({ name: 'get_account', arguments: {} }),
      (e) => e instanceof UnauthorizedError,
    );
    assert.equal(auth.registrations, 1, 'the client registered itself (DCR)');
    await transport.finishAuth((await personAllows(new Browser(t.url), auth.authorizationUrls[0])).searchParams);
    const me = await client.callTool({ name: 'get_account', arguments: {} });
    assert.equal((me.structuredContent as any).user.id, user.id);
  } finally {
    await client.close();
  }
});
