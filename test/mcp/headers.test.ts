// SEP-2243 standard request headers on /mcp (protocol 2026-07-28): MCP-Protocol-Version, Mcp-Method and
// Mcp-Name mirror the JSON-RPC body so that intermediaries can route without reading it. A request whose
// headers are missing or disagree with its body is refused with HTTP 400 and -32020 (HeaderMismatch), for
// public and signed-in tools alike, before any tool runs — and before any sign-in challenge, which would
// not make it valid. Header names are case-insensitive, values are compared exactly after optional
// whitespace, and an Mcp-Name may come Base64-encoded in the =?base64?…?= sentinel. The initialize-based
// versions do not define these headers and ignore them.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { liveApp, parseChallenge, rpc, rpcMessage, userWithKey, type Live } from './support.ts';
import { HEADER_MISMATCH } from '../../src/mcp/headers.ts';

let t: Live;
let writer: { key: string; userId: number };
before(async () => {
  t = await liveApp();
  writer = await userWithKey(t.store, ['account:read', 'listings:write'], 'Header Tester');
});
after(async () => {
  await t.cleanup();
});

const MODERN = '2026-07-28';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'header-tests', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
let nextId = 1;

/** A 2026-07-28 tools/call with exactly the headers given (beyond content negotiation). */
function call(
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string>,
): { id: number; send: () => Promise<Response> } {
  const id = nextId++;
  return {
    id,
    send: () =>
      rpc(
        t.url,
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: envelope } },
        { 'mcp-protocol-version': MODERN, ...headers },
      ),
  };
}

async function assertHeaderMismatch(r: Response, id: number, what: string): Promise<any> {
  assert.equal(r.status, 400, `${what}: HTTP 400`);
  const m = await rpcMessage(r);
  assert.equal(m.error?.code, HEADER_MISMATCH, `${what}: -32020 HeaderMismatch, got ${JSON.stringify(m.error)}`);
  assert.equal(m.id, id, `${what}: the request id is echoed`);
  assert.equal(r.headers.get('www-authenticate'), null, `${what}: no sign-in challenge`);
  return m;
}

async function draftCount(): Promise<number> {
  const r = await fetch(`${t.url}/api/v1/drafts`, { headers: { authorization: `Bearer ${writer.key}` } });
  assert.equal(r.status, 200);
  return ((await r.json()) as { total: number }).total;
}

const SUBMIT = { url: 'https://example.com' };

describe('2026-07-28: headers that disagree with the body are refused with 400 / -32020', () => {
  const cases: Array<[string, (tool: string) => Record<string, string>]> = [
    [
      'Mcp-Name names another tool',
      (tool) => ({
        'mcp-method': 'tools/call',
        'mcp-name': tool === 'get_site_info' ? 'get_account' : 'get_site_info',
      }),
    ],
    ['Mcp-Name missing', () => ({ 'mcp-method': 'tools/call' })],
    ['Mcp-Name in another case', (tool) => ({ 'mcp-method': 'tools/call', 'mcp-name': tool.toUpperCase() })],
    [
      'Mcp-Name with a malformed Base64 sentinel',
      () => ({ 'mcp-method': 'tools/call', 'mcp-name': '=?base64?Z2V0X2!!!?=' }),
    ],
    ['Mcp-Method names another method', (tool) => ({ 'mcp-method': 'tools/list', 'mcp-name': tool })],
    ['Mcp-Method in another case', (tool) => ({ 'mcp-method': 'TOOLS/CALL', 'mcp-name': tool })],
    ['Mcp-Method missing', (tool) => ({ 'mcp-name': tool })],
  ];

  for (const [what, headers] of cases) {
    test(`${what}: refused for a public tool, and for a signed-in tool with or without credentials`, async () => {
      const pub = call('get_site_info', {}, headers('get_site_info'));
      await assertHeaderMismatch(await pub.send(), pub.id, `${what} (public tool)`);
      // Without credentials: the header error, not a 401 that would send the client to sign in first.
      const anon = call('get_account', {}, headers('get_account'));
      await assertHeaderMismatch(await anon.send(), anon.id, `${what} (signed-in tool, no credentials)`);
      // With a key that may act: still refused, and the tool did not run (no draft was created).
      const before = await draftCount();
      const signed = call('submit_listing', SUBMIT, {
        ...headers('submit_listing'),
        authorization: `Bearer ${writer.key}`,
      });
      await assertHeaderMismatch(await signed.send(), signed.id, `${what} (signed-in tool, with credentials)`);
      assert.equal(await draftCount(), before, `${what}: nothing was done`);
    });
  }

  test('the refusal names the header and the body value that disagree', async () => {
    const c = call('get_account', {}, { 'mcp-method': 'tools/call', 'mcp-name': 'get_site_info' });
    const m = await assertHeaderMismatch(await c.send(), c.id, 'mismatch');
    assert.match(m.error.message, /Mcp-Name/);
    assert.match(m.error.message, /get_account/);
    assert.match(m.error.message, /get_site_info/);
  });
});

describe('2026-07-28: headers that match are accepted, and sign-in is asked for as before', () => {
  test('header names in any case, values with surrounding whitespace, Mcp-Name in Base64', async () => {
    const variants: Array<[string, Record<string, string>]> = [
      ['canonical', { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'submit_listing' }],
      ['lower-case names', { 'mcp-method': 'tools/call', 'mcp-name': 'submit_listing' }],
      ['upper-case names', { 'MCP-METHOD': 'tools/call', 'MCP-NAME': 'submit_listing' }],
      ['whitespace around values', { 'mcp-method': 'tools/call', 'mcp-name': ' \tsubmit_listing  ' }],
      [
        'Base64 sentinel',
        { 'mcp-method': 'tools/call', 'mcp-name': `=?base64?${Buffer.from('submit_listing').toString('base64')}?=` },
      ],
    ];
    for (const [what, headers] of variants) {
      // No credentials: the sign-in challenge (the request itself is valid).
      const anon = call('submit_listing', SUBMIT, headers);
      const r = await anon.send();
      assert.equal(r.status, 401, `${what}: 401 without credentials`);
      const challenge = parseChallenge(r.headers.get('www-authenticate'));
      assert.equal(challenge.scheme, 'Bearer');
      assert.equal(challenge.resource_metadata, `${t.url}/.well-known/oauth-protected-resource/mcp`);
      assert.equal(challenge.scope, 'listings:write');
      // With a key: the tool runs and creates the draft.
      const before = await draftCount();
      const signed = call('submit_listing', SUBMIT, { ...headers, authorization: `Bearer ${writer.key}` });
      const ok = await signed.send();
      assert.equal(ok.status, 200, `${what}: served with credentials`);
      const m = await rpcMessage(ok);
      assert.equal(m.id, signed.id);
      assert.equal(m.result?.isError, undefined, `${what}: ${JSON.stringify(m.result?.structuredContent ?? m.error)}`);
      assert.equal(m.result.structuredContent.status, 'crawling');
      assert.equal(await draftCount(), before + 1, `${what}: the draft was created`);
    }
  });

  test('a request of another kind needs no Mcp-Name (tools/list with Mcp-Method only)', async () => {
    const r = await rpc(
      t.url,
      { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: envelope } },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
    );
    assert.equal(r.status, 200);
    assert.equal((await rpcMessage(r)).result.tools.length, 50);
  });
});

describe('initialize-based versions', () => {
  test('2025-11-25 does not define Mcp-Method / Mcp-Name: they are ignored, the body decides', async () => {
    const stray = { 'mcp-method': 'prompts/list', 'mcp-name': 'something_else' };
    const pub = await rpc(
      t.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_site_info', arguments: {} } },
      stray,
    );
    assert.equal(pub.status, 200);
    assert.equal((await rpcMessage(pub)).result.structuredContent.name, 'Launchlist');
    // The sign-in gate reads the body, whatever the headers say.
    const prot = await rpc(
      t.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_account', arguments: {} } },
      { 'mcp-method': 'tools/call', 'mcp-name': 'get_site_info' },
    );
    assert.equal(prot.status, 401);
    assert.equal(parseChallenge(prot.headers.get('www-authenticate')).scope, 'account:read');
  });
});
