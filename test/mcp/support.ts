// MCP test helpers: a Launchlist instance on a real port (PUBLIC_URL = that port), users with API
// keys, and official-SDK clients for each protocol era.
import { freePort } from '../support/net.ts';
export { freePort };
import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { testApp, type TestApp } from '../support/app.ts';
import type { Store } from '../../src/store/connect.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import type { Scope } from '../../src/domain/scopes.ts';

export interface Live extends TestApp {
  url: string;
}

/** A test app listening on 127.0.0.1 whose public URL is its real address (as OAuth needs). */
export async function liveApp(
  overrides: Record<string, unknown> = {},
  prepare?: (store: Store) => Promise<void>,
): Promise<Live> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await testApp({ PORT: String(port), PUBLIC_URL: url, ...overrides }, prepare);
  await t.app.listen({ port, host: '127.0.0.1' });
  return { ...t, url };
}

let seq = 0;
export async function userWithKey(
  store: Store,
  scopes: Scope[],
  name = 'Ada',
): Promise<{ userId: number; key: string }> {
  seq++;
  const row = await store.db
    .insertInto('users')
    .values({
      email: `mcp-${Date.now().toString(36)}-${seq}@example.com`,
      name,
      role: 'user',
      created_at: new Date().toISOString(),
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const { key } = await createApiKey(store.db, row.id, `mcp test key ${seq}`, scopes);
  return { userId: row.id, key };
}

export interface Era {
  name: string;
  options: ClientOptions;
}
/** The protocol eras: 2026-07-28 pinned (server/discover, no fallback) and the initialize-based ones. */
export const ERAS: Era[] = [
  { name: '2026-07-28', options: { versionNegotiation: { mode: { pin: '2026-07-28' } } } },
  { name: '2025-03-26', options: { supportedProtocolVersions: ['2025-03-26'] } },
  { name: '2025-06-18', options: { supportedProtocolVersions: ['2025-06-18'] } },
  { name: '2025-11-25', options: { supportedProtocolVersions: ['2025-11-25'] } },
];

export async function connect(
  url: string,
  era: Era,
  token?: string,
  extra: ConstructorParameters<typeof StreamableHTTPClientTransport>[1] = {},
): Promise<Client> {
  const client = new Client({ name: 'launchlist-tests', version: '1.0.0' }, era.options);
  const transport = new StreamableHTTPClientTransport(new URL(url + '/mcp'), {
    ...(token ? { authProvider: { token: async () => token } } : {}),
    ...extra,
  });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC POST to /mcp (for what the client SDK would not send). */
export async function rpc(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url + '/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** The JSON-RPC message of a response, whether sent as JSON or as one SSE event. */
export async function rpcMessage(r: Response): Promise<any> {
  const text = await r.text();
  if ((r.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6))
      .filter(Boolean);
    return JSON.parse(data[data.length - 1]);
  }
  return JSON.parse(text);
}

export function withoutRequestId(body: any): any {
  if (body?.error?.request_id) return { ...body, error: { ...body.error, request_id: '<id>' } };
  return body;
}

export function parseChallenge(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  out.scheme = header.split(' ')[0];
  for (const m of header.matchAll(/(\w+)="([^"]*)"/g)) out[m[1]] = m[2];
  return out;
}

/**
 * The JSON a tool result carries: its structuredContent, or for an error result the error body in its
 * text (an error result has no structuredContent: the tool's outputSchema describes results only).
 */
export function toolBody(result: { isError?: unknown; structuredContent?: unknown; content?: unknown }): any {
  if (result.isError !== true) return result.structuredContent;
  if (result.structuredContent !== undefined) throw new Error('an error result carries structuredContent');
  const text = (result.content as Array<{ type: string; text: string }>).find((c) => c.type === 'text');
  return JSON.parse(text!.text);
}
