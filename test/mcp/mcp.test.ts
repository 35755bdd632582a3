// The MCP server at /mcp, driven by the official client (@modelcontextprotocol/client) over a real
// port, in every protocol era: the registry as 50 tools, results and errors identical to REST,
// sign-in challenges (401 with resource_metadata, 403 insufficient_scope), versions, DNS rebinding
// protection, the protected resource metadata document, rate limits and idempotency.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { InsufficientScopeError, type Client, type Tool } from '@modelcontextprotocol/client';
import { operations } from '../../src/operations/index.ts';
import { createServer } from '../../src/server.ts';
import { CALLER_RULES } from '../../src/mcp/tools.ts';
import {
  ERAS,
  connect,
  liveApp,
  parseChallenge,
  rpc,
  rpcMessage,
  toolBody,
  userWithKey,
  withoutRequestId,
  type Live,
} from './support.ts';

let t: Live;
let full: { key: string; userId: number };
let readOnly: { key: string; userId: number };
before(async () => {
  t = await liveApp();
  full = await userWithKey(t.store, ['account:read', 'listings:write', 'orders:write'], 'Full Access');
  readOnly = await userWithKey(t.store, ['account:read'], 'Read Only');
});
after(async () => {
  await t.cleanup();
});

const byName = new Map(operations.map((o) => [o.name, o]));

async function rest(path: string, key?: string): Promise<{ status: number; body: any }> {
  const r = await fetch(t.url + '/api/v1' + path, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: r.status, body: await r.json() };
}

/** The MCP result of a call, next to what REST answers for the same request: they must agree. */
async function assertSameAsRest(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  restPath: string,
  key?: string,
) {
  const result = await client.callTool({ name: tool, arguments: args });
  const r = await rest(restPath, key);
  assert.equal(
    result.isError === true,
    r.status >= 400,
    `${tool}: isError ${result.isError} but REST answered ${r.status}`,
  );
  assert.deepEqual(
    withoutRequestId(toolBody(result)),
    withoutRequestId(r.body),
    `${tool}: the structured result (an error's text) equals the REST body`,
  );
  const text = (result.content as Array<{ type: string; text: string }>).find((c) => c.type === 'text');
  assert.deepEqual(JSON.parse(text!.text), toolBody(result), `${tool}: the text content carries the same JSON`);
  return { result, rest: r };
}

for (const era of ERAS) {
  describe(`protocol ${era.name}`, () => {
    test('lists the 50 operations as tools, generated from the registry', async () => {
      const client = await connect(t.url, era);
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), era.name);
        const { tools } = await client.listTools();
        assert.deepEqual(
          tools.map((x) => x.name),
          operations.map((o) => o.name),
        );
        assert.equal(tools.length, 50);
        const info = client.getServerVersion();
        assert.equal(info?.name, 'launchlist');
        assert.match(client.getInstructions() ?? '', /never ask for card/i);
      } finally {
        await client.close();
      }
    });

    test('calls a public tool without credentials, with the same result as REST', async () => {
      const client = await connect(t.url, era);
      try {
        await assertSameAsRest(client, 'list_categories', { include_empty: true }, '/categories?include_empty=true');
        // Input is validated exactly as REST validates it, with the same error body.
        const { result, rest: r } = await assertSameAsRest(
          client,
          'get_listing',
          { slug: 'Not A Slug!' },
          '/listings/Not%20A%20Slug!',
        );
        assert.equal(result.isError, true);
        assert.equal(r.status, 400);
        assert.equal(toolBody(result).error.code, 'validation_failed');
        assert.equal(toolBody(result).error.details[0].path, 'path.slug');
      } finally {
        await client.close();
      }
    });

    test('calls a signed-in tool with an API key, as REST does for that key', async () => {
      const client = await connect(t.url, era, full.key);
      try {
        const { result } = await assertSameAsRest(client, 'get_account', {}, '/me', full.key);
        const code = toolBody(result)?.error?.code;
        assert.ok(code !== 'unauthorized' && code !== 'insufficient_scope', 'the key passed the sign-in gate');
        await assertSameAsRest(client, 'list_my_drafts', { per_page: 5 }, '/drafts?per_page=5', full.key);
      } finally {
        await client.close();
      }
    });

    test('a tool that needs sign-in, called without credentials, is an HTTP 401 naming the resource metadata', async () => {
      const client = await connect(t.url, era);
      try {
        await assert.rejects(
          client.callTool({ name: 'get_account', arguments: {} }),
          (e: Error) => /401|unauthorized/i.test(e.message) || e.constructor.name === 'UnauthorizedError',
        );
      } finally {
        await client.close();
      }
    });

    test('a key without the scope gets 403 insufficient_scope', async () => {
      const client = await connect(t.url, era, readOnly.key, { onInsufficientScope: 'throw' });
      try {
        await assert.rejects(
          client.callTool({ name: 'answer_interview', arguments: { answers: [] } }),
          (e: unknown) => {
            assert.ok(
              e instanceof InsufficientScopeError,
              `got ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`,
            );
            assert.equal(e.requiredScope, 'account:read listings:write');
            assert.equal(e.resourceMetadataUrl?.href, `${t.url}/.well-known/oauth-protected-resource/mcp`);
            return true;
          },
        );
      } finally {
        await client.close();
      }
    });
  });
}

describe('tool definitions', () => {
  let tools: Tool[];
  before(async () => {
    const client = await connect(t.url, ERAS[0]);
    tools = (await client.listTools()).tools;
    await client.close();
  });

  test('input schemas are params + query + body merged and strict; idempotency_key exactly where REST takes the header', () => {
    for (const tool of tools) {
      const op = byName.get(tool.name)!;
      const schema = tool.inputSchema as {
        type: string;
        properties?: Record<string, unknown>;
        additionalProperties?: unknown;
        required?: string[];
      };
      assert.equal(schema.type, 'object');
      assert.equal(schema.additionalProperties, false, `${tool.name} refuses unknown arguments`);
      const expected = [
        ...Object.keys(op.params?.shape ?? {}),
        ...Object.keys(op.query?.shape ?? {}),
        ...Object.keys(op.body?.shape ?? {}),
      ];
      if (op.idempotencyKey) expected.push('idempotency_key');
      assert.deepEqual(Object.keys(schema.properties ?? {}).sort(), [...new Set(expected)].sort(), tool.name);
    }
    const add = tools.find((x) => x.name === 'add_milestone')!.inputSchema as any;
    assert.deepEqual(add.required?.sort(), ['date', 'listing_id', 'title']);
    assert.equal(add.properties.title.maxLength, 200);
  });

  test('output schemas are the response schemas, and annotations follow the method', () => {
    for (const tool of tools) {
      const op = byName.get(tool.name)!;
      assert.equal((tool.outputSchema as any)?.type, 'object', `${tool.name} declares its output`);
      // quote_order is a POST that saves nothing: read-only and idempotent like a GET.
      const readOnly = op.method === 'GET' || op.name === 'quote_order';
      assert.equal(tool.annotations?.readOnlyHint, readOnly, tool.name);
      assert.equal(tool.annotations?.destructiveHint, op.method === 'DELETE', tool.name);
      assert.equal(tool.annotations?.idempotentHint, readOnly || ['PUT', 'DELETE'].includes(op.method), tool.name);
      assert.equal(tool.annotations?.openWorldHint, op.openWorld === true, tool.name);
      assert.ok(tool.description!.startsWith(op.description), `${tool.name} starts with the operation's description`);
      assert.match(
        tool.description!,
        op.access === 'public' ? /Public: works without signing in/ : new RegExp(`scope ${op.access}`),
      );
    }
    assert.equal(tools.find((x) => x.name === 'submit_listing')!.annotations?.openWorldHint, true);
    const search = tools.find((x) => x.name === 'search_listings')!;
    assert.deepEqual((search.outputSchema as any).required?.sort(), ['has_more', 'items', 'page', 'per_page', 'total']);
  });

  test('descriptions carry the rules for callers where they apply', () => {
    const d = (name: string) => tools.find((x) => x.name === name)!.description!;
    assert.match(d('create_checkout'), /never ask for card/i);
    assert.match(d('create_checkout'), /hard-code/i);
    assert.match(d('quote_order'), /hard-code/i);
    assert.match(d('list_products'), /hard-code/i);
    assert.ok(d('get_leaderboard').includes('PAID'), 'billboard is paid');
    assert.ok(d('get_leaderboard').includes(CALLER_RULES.votes));
    assert.ok(d('get_launch_week').includes(CALLER_RULES.votes));
    assert.ok(!d('get_blog_post').includes(CALLER_RULES.checkout), 'rules appear where relevant only');
  });
});

test('every public tool that needs no argument answers as REST does, its result valid against its output schema', async () => {
  const client = await connect(t.url, ERAS[0]);
  try {
    await client.listTools(); // the client validates structuredContent against the listed output schemas
    const argumentFree = operations.filter((o) => o.access === 'public' && o.method === 'GET' && !o.path.includes('{'));
    assert.ok(argumentFree.length >= 8);
    for (const op of argumentFree) await assertSameAsRest(client, op.name, {}, op.path);
  } finally {
    await client.close();
  }
});

describe('errors are the REST error body', () => {
  test('an unknown argument is refused, naming it', async () => {
    const client = await connect(t.url, ERAS[0]);
    try {
      const r = await client.callTool({ name: 'list_categories', arguments: { include_empty: true, colour: 'red' } });
      assert.equal(r.isError, true);
      const err = toolBody(r).error;
      assert.equal(err.code, 'validation_failed');
      assert.equal(err.details[0].path, 'colour');
      assert.match(err.message, /include_empty/);
      assert.match(err.request_id, /\S{8,}/);
      const body = await client
        .callTool({ name: 'answer_interview', arguments: { answers: [], extra: 1 } })
        .catch((e) => e);
      assert.ok(body instanceof Error, 'no credentials: refused before validation');
    } finally {
      await client.close();
    }
  });

  test('an unknown tool is a protocol error (-32602)', async () => {
    const r = await rpcMessage(
      await rpc(t.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'cast_vote', arguments: {} } }),
    );
    assert.equal(r.error.code, -32602);
    assert.match(r.error.message, /cast_vote/);
  });

  test('a body validation error names the field, as REST does', async () => {
    const client = await connect(t.url, ERAS[3], full.key);
    try {
      const r = await client.callTool({
        name: 'add_milestone',
        arguments: { listing_id: 1, date: '2026-02-30', title: 'x' },
      });
      assert.equal(r.isError, true);
      const err = toolBody(r).error;
      assert.equal(err.code, 'validation_failed');
      assert.equal(err.details[0].path, 'body.date');
      const viaRest = await fetch(`${t.url}/api/v1/me/listings/1/milestones`, {
        method: 'POST',
        headers: { authorization: `Bearer ${full.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ date: '2026-02-30', title: 'x' }),
      });
      assert.equal(viaRest.status, 400);
      assert.deepEqual(withoutRequestId(toolBody(r)), withoutRequestId(await viaRest.json()));
    } finally {
      await client.close();
    }
  });
});

describe('sign-in over HTTP', () => {
  test('401 for a protected tools/call carries resource_metadata and the scope, in both eras', async () => {
    const legacy = await rpc(t.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_checkout', arguments: { items: [] } },
    });
    const modern = await rpc(
      t.url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: 'list_my_orders',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'list_my_orders' },
    );
    for (const [r, scope] of [
      [legacy, 'orders:write'],
      [modern, 'account:read'],
    ] as const) {
      assert.equal(r.status, 401);
      const c = parseChallenge(r.headers.get('www-authenticate'));
      assert.equal(c.scheme, 'Bearer');
      assert.equal(c.resource_metadata, `${t.url}/.well-known/oauth-protected-resource/mcp`);
      assert.equal(c.scope, scope);
      assert.equal((await r.json()).error.code, 'unauthorized');
    }
  });

  test('public tools and tools/list need no credentials; a batch with a protected call is refused whole', async () => {
    const list = await rpc(t.url, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    assert.equal(list.status, 200);
    const batch = await rpc(
      t.url,
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_categories', arguments: {} } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_account', arguments: {} } },
      ],
      { 'mcp-protocol-version': '2025-03-26' },
    );
    assert.equal(batch.status, 401);
  });

  test('an invalid or revoked credential is a 401 on any request', async () => {
    for (const token of ['llk_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', 'not-a-token-we-issued']) {
      const r = await rpc(
        t.url,
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
        { authorization: `Bearer ${token}` },
      );
      assert.equal(r.status, 401);
      const c = parseChallenge(r.headers.get('www-authenticate'));
      assert.equal(c.error, 'invalid_token');
      assert.equal(c.resource_metadata, `${t.url}/.well-known/oauth-protected-resource/mcp`);
    }
  });

  test('403 insufficient_scope names the scopes needed (those held plus the missing one)', async () => {
    const r = await rpc(
      t.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'quote_order', arguments: { items: [{ product: 'launch' }] } },
      },
      { authorization: `Bearer ${readOnly.key}` },
    );
    assert.equal(r.status, 403);
    const c = parseChallenge(r.headers.get('www-authenticate'));
    assert.equal(c.error, 'insufficient_scope');
    assert.equal(c.scope, 'account:read orders:write');
    assert.equal(c.resource_metadata, `${t.url}/.well-known/oauth-protected-resource/mcp`);
    const body = await r.json();
    assert.equal(body.error.code, 'insufficient_scope');
    assert.match(body.error.message, /orders:write/);
  });

  test('the protected resource metadata document (RFC 9728) names our authorization server and scopes', async () => {
    const r = await fetch(`${t.url}/.well-known/oauth-protected-resource/mcp`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /application\/json/);
    const doc = await r.json();
    assert.equal(doc.resource, `${t.url}/mcp`);
    assert.deepEqual(doc.authorization_servers, [t.url]);
    assert.deepEqual(doc.scopes_supported, ['account:read', 'listings:write', 'orders:write']);
    assert.deepEqual(doc.bearer_methods_supported, ['header']);
  });
});

describe('versions and transport', () => {
  test('an unsupported protocol version is refused the way each era specifies', async () => {
    // 2026-07-28 era: a per-request envelope naming an unknown revision → -32022 naming what is supported.
    const modern = await rpc(
      t.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2099-01-01',
            'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
    );
    assert.equal(modern.status, 400);
    const m = await rpcMessage(modern);
    assert.equal(m.error.code, -32022);
    assert.deepEqual(m.error.data.supported, ['2026-07-28']);
    // Initialize-based era: an unsupported MCP-Protocol-Version header → 400.
    const header = await rpc(
      t.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      { 'mcp-protocol-version': '2024-11-05' },
    );
    assert.equal(header.status, 400);
    // initialize offering an old version gets our own version back (the client then decides).
    const init = await rpcMessage(
      await rpc(
        t.url,
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'initialize',
          params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        },
        { 'mcp-protocol-version': '' },
      ),
    );
    assert.equal(init.result.protocolVersion, '2025-11-25');
    // The official client refuses to go on with a server that does not speak its only version.
    await assert.rejects(connect(t.url, { name: 'old', options: { supportedProtocolVersions: ['2024-11-05'] } }));
    await assert.rejects(
      connect(t.url, { name: 'future', options: { versionNegotiation: { mode: { pin: '2099-01-01' } } } }),
    );
  });

  test('a foreign Origin or Host is refused (DNS rebinding); our own and loopback ones are served', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const evil = await rpc(t.url, list, { origin: 'http://evil.example' });
    assert.equal(evil.status, 403);
    assert.match((await evil.json()).error.message, /Origin/i);
    const nullOrigin = await rpc(t.url, list, { origin: 'null' });
    assert.equal(nullOrigin.status, 403);
    for (const origin of [t.url, 'http://localhost:5173'])
      assert.equal((await rpc(t.url, list, { origin })).status, 200, origin);
    // fetch() will not send a custom Host header, so this one goes through inject().
    const host = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        host: 'evil.example',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      payload: list,
    });
    assert.equal(host.statusCode, 403);
  });

  test('a JSON-RPC message nested thousands of levels deep is a 400 Invalid Request (not an internal error)', async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_site_info","arguments":{"x":${'['.repeat(50_000)}${']'.repeat(50_000)}}}}`;
    const r = await fetch(t.url + '/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: deep,
    });
    assert.equal(r.status, 400);
    assert.equal((await r.json()).error.code, -32600);
  });

  test('an initialize with malformed params is -32602 Invalid params naming them (not -32603), and a good one still succeeds', async () => {
    const good = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } };
    const cases: Array<[unknown, RegExp]> = [
      [{ ...good, protocolVersion: 5 }, /^Invalid params for initialize: params\.protocolVersion: .*expected string/],
      [
        { protocolVersion: '2025-11-25' },
        /params\.capabilities: .*expected object.*; params\.clientInfo: .*expected object/,
      ],
      [{ ...good, clientInfo: { name: 'x' } }, /params\.clientInfo\.version: .*expected string/],
      [undefined, /^Invalid params for initialize: params: .*expected object/],
    ];
    for (const [params, message] of cases) {
      // As a client's first request: no MCP-Protocol-Version header (an empty one is an invalid version, a 400).
      const r = await fetch(t.url + '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'init-1', method: 'initialize', ...(params ? { params } : {}) }),
      });
      assert.equal(r.status, 200, JSON.stringify(params)); // as the SDK answers a tools/call with invalid params
      const m = await rpcMessage(r);
      assert.equal(m.id, 'init-1');
      assert.equal(m.error.code, -32602, JSON.stringify(params));
      assert.match(m.error.message, message);
    }
    const ok = await rpcMessage(
      await rpc(t.url, { jsonrpc: '2.0', id: 2, method: 'initialize', params: good }, { 'mcp-protocol-version': '' }),
    );
    assert.equal(ok.result.protocolVersion, '2025-11-25');
    // On 2026-07-28, initialize is a removed method whatever its params: 404, -32601.
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const removed = await rpc(
      t.url,
      { jsonrpc: '2.0', id: 3, method: 'initialize', params: { _meta: meta } },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'initialize' },
    );
    assert.equal(removed.status, 404);
    assert.equal((await rpcMessage(removed)).error.code, -32601);
  });

  test('a request of any method whose params the protocol refuses is -32602 Invalid params naming them (not -32603), in both eras', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['logging/setLevel', { level: 42 }, /^Invalid params for logging\/setLevel: params\.level: .*"debug"/],
      ['logging/setLevel', {}, /params\.level/],
      ['tools/list', { cursor: 5 }, /^Invalid params for tools\/list: params\.cursor: .*expected string/],
      ['tools/call', { name: 'get_site_info', arguments: 5 }, /params\.arguments: .*expected record/],
      ['tools/call', { arguments: {} }, /params\.name: .*expected string/],
    ];
    for (const [method, params, message] of cases) {
      for (const version of ['2025-03-26', '2025-11-25']) {
        const r = await rpc(t.url, { jsonrpc: '2.0', id: 'p-1', method, params }, { 'mcp-protocol-version': version });
        assert.equal(r.status, 200, `${method} ${JSON.stringify(params)}`);
        const m = await rpcMessage(r);
        assert.equal(m.id, 'p-1');
        assert.equal(m.error?.code, -32602, `${method} ${JSON.stringify(params)} (${version}): ${JSON.stringify(m)}`);
        assert.match(m.error.message, message);
      }
    }
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const modern = await rpcMessage(
      await rpc(
        t.url,
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 5, _meta: meta } },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      ),
    );
    assert.equal(modern.error?.code, -32602, JSON.stringify(modern));
    assert.match(modern.error.message, /params\.cursor/);
    // Good params are still served.
    const ok = await rpcMessage(
      await rpc(t.url, { jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'info' } }),
    );
    assert.deepEqual(ok.result, {});
  });

  test('2025-03-26 batches: each member is answered on its own, an invalid one with an Invalid Request error carrying its id (or null)', async () => {
    /** Every JSON-RPC message of a response, by id, whether sent as SSE events or one JSON value. */
    const messages = async (r: Response) => {
      const text = await r.text();
      const values = (r.headers.get('content-type') ?? '').includes('text/event-stream')
        ? text
            .split('\n')
            .filter((l) => l.startsWith('data: ') && l.length > 6)
            .map((l) => JSON.parse(l.slice(6)))
        : [JSON.parse(text)].flat();
      return values;
    };
    const batch = await rpc(
      t.url,
      [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'ping', params: 5 }, // params must be an object: invalid, id readable
        7, // not a message at all: id null
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_site_info', arguments: {} } },
        { jsonrpc: '2.0', id: 4, method: 'logging/setLevel', params: { level: 42 } }, // a message with invalid params
      ],
      { 'mcp-protocol-version': '2025-03-26' },
    );
    assert.equal(batch.status, 200);
    const got = await messages(batch);
    assert.equal(got.length, 5, JSON.stringify(got));
    const byId = (id: unknown) => got.filter((m) => m.id === id);
    assert.deepEqual(byId(1)[0].result, {});
    assert.equal(byId(2)[0].error.code, -32600);
    assert.match(byId(2)[0].error.message, /batch member 1/);
    assert.equal(byId(null).length, 1);
    assert.equal(byId(null)[0].error.code, -32600);
    assert.match(byId(null)[0].error.message, /batch member 2/);
    assert.equal(byId(3)[0].result.structuredContent.name, 'Launchlist');
    assert.equal(byId(4)[0].error.code, -32602);
    // Notifications beside an invalid member: the invalid one is still answered (there is nothing else to answer).
    const notes = await rpc(
      t.url,
      [
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { id: 9, method: 'ping' },
      ],
      { 'mcp-protocol-version': '2025-03-26' },
    );
    assert.equal(notes.status, 200);
    const noted = await messages(notes);
    assert.deepEqual(
      noted.map((m) => [m.id, m.error?.code]),
      [[9, -32600]],
    );
    // Nothing valid at all: a 400 with an error per member.
    const none = await rpc(t.url, [1, { id: 2 }], { 'mcp-protocol-version': '2025-03-26' });
    assert.equal(none.status, 400);
    assert.deepEqual(
      (await none.json()).map((m: any) => [m.id, m.error.code]),
      [
        [null, -32600],
        [2, -32600],
      ],
    );
    // The sign-in gate still covers the valid members; an empty batch and a 2026-07-28 member are still refused whole.
    const gated = await rpc(
      t.url,
      [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_account', arguments: {} } }, 5],
      { 'mcp-protocol-version': '2025-03-26' },
    );
    assert.equal(gated.status, 401);
    assert.equal((await rpc(t.url, [], { 'mcp-protocol-version': '2025-03-26' })).status, 400);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const modern = await rpc(t.url, [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }, 5], {
      'mcp-protocol-version': '2025-03-26',
    });
    assert.equal(modern.status, 400);
    assert.equal((await modern.json()).error.code, -32600);
  });

  test('HEAD /mcp is a 405 naming the methods served (not a 500)', async () => {
    const r = await fetch(t.url + '/mcp', { method: 'HEAD' });
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'GET, POST, DELETE');
  });

  test('nothing is kept between requests: two instances on one database serve one client alternately', async () => {
    const other = await createServer(t.config, t.store);
    const otherUrl = await other.app.listen({ port: 0, host: '127.0.0.1' });
    let n = 0;
    const seen = new Set<string>();
    const alternate = async (input: string | URL | Request, init?: RequestInit) => {
      const target = new URL(String(input instanceof Request ? input.url : input));
      const base = new URL(n++ % 2 ? otherUrl : t.url);
      target.host = base.host;
      seen.add(target.host);
      return fetch(target, init);
    };
    try {
      for (const era of [ERAS[0], ERAS[3]]) {
        const client = await connect(t.url, era, full.key, { fetch: alternate });
        const { tools } = await client.listTools();
        assert.equal(tools.length, 50);
        const r = await client.callTool({ name: 'list_categories', arguments: {} });
        assert.equal(r.isError === true, (await rest('/categories')).status >= 400);
        await client.close();
      }
      assert.equal(seen.size, 2, 'both instances answered');
    } finally {
      await other.close();
    }
  });

  test('rate limits apply to /mcp, per account when signed in', async () => {
    const small = await liveApp({ RATE_LIMIT_MAX: '3' });
    try {
      const a = await userWithKey(small.store, ['account:read']);
      const b = await userWithKey(small.store, ['account:read']);
      const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
      for (let i = 0; i < 3; i++)
        assert.equal((await rpc(small.url, list, { authorization: `Bearer ${a.key}` })).status, 200);
      const limited = await rpc(small.url, list, { authorization: `Bearer ${a.key}` });
      assert.equal(limited.status, 429);
      assert.ok(limited.headers.get('retry-after'));
      assert.equal((await limited.json()).error.code, 'rate_limited');
      assert.equal(
        (await rpc(small.url, list, { authorization: `Bearer ${b.key}` })).status,
        200,
        'another account from the same address has its own budget',
      );
      assert.equal((await rpc(small.url, list)).status, 200, 'anonymous callers are limited by address, separately');
    } finally {
      await small.cleanup();
    }
  });
});
