// The MCP server at /mcp: every operation of the registry as a tool, over Streamable HTTP, for the
// 2026-07-28 protocol (stateless, server/discover, per-request _meta) and the initialize-based
// 2025-03-26, 2025-06-18 and 2025-11-25 (served statelessly too). Nothing is kept in memory between
// requests, so any instance behind a load balancer can answer any request.
//
// Sign-in follows the MCP authorization specification: the protected resource metadata document
// (RFC 9728) names our authorization server; a tools/call that needs sign-in without a credential is
// answered HTTP 401 with a WWW-Authenticate challenge pointing to that document, one whose credential
// lacks the scope HTTP 403 insufficient_scope. Tool calls then go through the kernel (calls.ts), as REST's
// do: validation, access, handlers, idempotency and the error body are identical.
//
// The MCP SDK (and what it pulls in: ~10 MB resident) is loaded on the first request to /mcp, not at
// start: its runtime parts live in ./sdk.ts, imported only from loadSdk().
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthInfo, McpHttpHandler } from '@modelcontextprotocol/server';
import type { AppDeps } from '../deps.ts';
import type { Operation } from '../operations/define.ts';
import { SCOPES } from '../domain/scopes.ts';
import { operations as registry } from '../operations/index.ts';
import { ApiError } from '../operations/errors.ts';
import { resolvePrincipal } from '../auth/principal.ts';
import { enforceAccess } from '../operations/access.ts';
import { toolDefinitions, type ToolDefinition } from './tools.ts';
import { MCP_PROTOCOL_VERSIONS } from './calls.ts';
import type { Challenge } from '../operations/access.ts';
import { MAX_JSON_DEPTH, jsonTooDeep } from '../domain/json-depth.ts';

type Sdk = typeof import('./sdk.ts');
let sdk: Promise<Sdk> | undefined;
/** The SDK-backed parts (./sdk.ts), loaded once, on first use. */
function loadSdk(): Promise<Sdk> {
  return (sdk ??= import('./sdk.ts').catch((err: unknown) => {
    sdk = undefined; // the next request tries again
    throw err;
  }));
}

export const MCP_PATH = '/mcp';
export const MCP_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';
/** The stateless revisions (per-request _meta, SEP-2243 standard headers). */
const MODERN_PROTOCOL_VERSIONS: readonly string[] = MCP_PROTOCOL_VERSIONS.filter((v) => v >= '2026');
export function mcpUrls(publicUrl: string): { resource: string; resourceMetadata: string } {
  return { resource: publicUrl + MCP_PATH, resourceMetadata: publicUrl + MCP_RESOURCE_METADATA_PATH };
}

/** RFC 9728 protected resource metadata for the MCP server. */
export function protectedResourceMetadata(publicUrl: string): Record<string, unknown> {
  return {
    resource: mcpUrls(publicUrl).resource,
    authorization_servers: [publicUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Launchlist MCP server',
    resource_documentation: `${publicUrl}/docs`,
  };
}

function challengeFor(publicUrl: string): Challenge {
  const { resourceMetadata } = mcpUrls(publicUrl);
  return (error, scope) =>
    `Bearer ${[error ? `error="${error}"` : '', scope ? `scope="${scope}"` : '', `resource_metadata="${resourceMetadata}"`].filter(Boolean).join(', ')}`;
}

interface JsonRpcCall {
  method?: unknown;
  params?: { name?: unknown };
}

/** The operations a request body would call (tools/call, single or batched), for the sign-in gate. */
function calledOperations(body: unknown, ops: ReadonlyMap<string, Operation>): Operation[] {
  const messages = Array.isArray(body) ? body : [body];
  const out: Operation[] = [];
  for (const m of messages as JsonRpcCall[]) {
    if (!m || typeof m !== 'object' || m.method !== 'tools/call' || typeof m.params?.name !== 'string') continue;
    const op = ops.get(m.params.name);
    if (op) out.push(op);
  }
  return out;
}

declare module 'fastify' {
  interface FastifyRequest {
    mcpAuthError?: unknown;
  }
}

function sendError(reply: FastifyReply, req: FastifyRequest, err: ApiError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers ?? {})) reply.header(k, v);
  return reply.code(err.status).type('application/json; charset=utf-8').send(err.body(req.id));
}

/** Registers /mcp and its protected resource metadata document (a route group of server.ts). */
export async function registerMcp(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { publicUrl } = deps.config;
  const challenge = challengeFor(publicUrl);

  // Tool definitions are derived once per operation list (the registry, or the list a test supplies), on the
  // first MCP request rather than at start (their JSON Schemas are ~40 ms of a start).
  let cachedFor: readonly Operation[] | undefined;
  let cached: { ops: ReadonlyMap<string, Operation>; list: ToolDefinition[] } | undefined;
  const tools = () => {
    // deps.operations: the list a test supplies instead of the registry (read per request, like REST).
    const ops = (deps as AppDeps & { operations?: readonly Operation[] }).operations ?? registry;
    if (ops !== cachedFor || !cached) {
      cachedFor = ops;
      cached = { ops: new Map(ops.map((o) => [o.name, o])), list: toolDefinitions(ops) };
    }
    return cached;
  };

  const logError = (err: unknown, requestId: string, tool: string) =>
    app.log.error({ err, reqId: requestId, tool }, 'mcp tool call failed');
  // Made with the SDK on the first request; one per app.
  let runtime: { handler: McpHttpHandler; hosts: string[] } | undefined;
  const runtimeOf = async () => {
    const m = await loadSdk();
    return (runtime ??= {
      handler: m.createHandler(deps, tools, challenge, logError, (error) =>
        app.log.debug({ err: error }, 'mcp: request refused or failed'),
      ),
      hosts: m.allowedHostnames(publicUrl),
    });
  };
  app.addHook('onClose', async () => {
    await runtime?.handler.close();
  });

  const metadata = JSON.stringify(protectedResourceMetadata(publicUrl));
  app.get(MCP_RESOURCE_METADATA_PATH, { config: { rateLimit: false } }, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').header('Cache-Control', 'public, max-age=300').send(metadata),
  );

  await app.register(async (scope) => {
    // The SDK reads the JSON-RPC body itself (and answers parse errors and wrong media types the
    // protocol's way), so this scope keeps the body as text, within the app's body limit.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

    scope.head(MCP_PATH, (req, reply) => {
      reply.header('Allow', 'GET, POST, DELETE');
      return sendError(
        reply,
        req,
        new ApiError(
          'method_not_allowed',
          `HEAD is not an MCP method: send JSON-RPC messages with POST to ${publicUrl}${MCP_PATH}.`,
        ),
      );
    });
    scope.route({
      method: ['GET', 'POST', 'DELETE'],
      url: MCP_PATH,
      compress: false,
      exposeHeadRoute: false, // HEAD is not an MCP method (the HEAD route above answers 405); Fastify's HEAD-from-GET could not send the SDK's Response
      // Runs before the rate limiter's hook (route hooks run in order, the limiter's is appended),
      // so a signed-in caller is limited by their account, an anonymous one by address.
      onRequest: async (req, reply) => {
        const m = await loadSdk();
        const { hosts } = await runtimeOf();
        const host = m.validateHostHeader(req.host, hosts);
        if (!host.ok)
          return sendError(
            reply,
            req,
            new ApiError(
              'forbidden',
              `${host.message}: this MCP server answers at ${publicUrl}${MCP_PATH} (DNS rebinding protection).`,
            ),
          );
        const origin = m.validateOriginHeader(req.headers.origin, hosts);
        if (!origin.ok)
          return sendError(
            reply,
            req,
            new ApiError(
              'forbidden',
              `${origin.message}: requests from web pages are accepted only from ${publicUrl} (DNS rebinding protection).`,
            ),
          );
        try {
          req.principal = await resolvePrincipal(
            { db: deps.store.db, verifyAccessToken: deps.verifyAccessToken },
            req.headers.authorization,
            mcpUrls(publicUrl).resource,
            (error) => challenge(error),
          );
        } catch (err) {
          req.mcpAuthError = err; // answered after the rate limiter, so guessing credentials is limited too
        }
      },
      handler: async (req, reply) => {
        if (req.mcpAuthError) throw req.mcpAuthError;
        let text = typeof req.body === 'string' ? req.body : undefined;
        if (text !== undefined && jsonTooDeep(text)) {
          // Refused before the SDK (or the idempotency hash) walks it; JSON-RPC's "Invalid Request".
          return reply
            .code(400)
            .type('application/json; charset=utf-8')
            .send({
              jsonrpc: '2.0',
              id: null,
              error: {
                code: -32600,
                message: `Invalid Request: the JSON nests more than ${MAX_JSON_DEPTH} levels deep.`,
              },
            });
        }
        let parsed: unknown;
        if (text !== undefined && /^application\/json\b|\+json\b/i.test(req.headers['content-type'] ?? '')) {
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
        }
        const m = await loadSdk();
        // A batch member that is not a JSON-RPC message gets its own Invalid Request error; the other
        // members are served (the SDK would refuse the whole batch). Only such members: a 400.
        const split =
          parsed !== undefined && req.method === 'POST' ? m.splitBatch(req.method, req.headers, parsed) : undefined;
        if (split && split.valid.length === 0)
          return reply.code(400).type('application/json; charset=utf-8').send(split.errors);
        if (split) {
          parsed = split.valid;
          text = JSON.stringify(split.valid);
        }
        // Sign-in gate: the MCP authorization spec wants HTTP 401/403 with a challenge, so that the
        // client starts (or steps up) the OAuth flow; a tool result would not do that. A request the SDK
        // refuses before dispatch anyway (2026-07-28: Mcp-Method / Mcp-Name headers missing or not
        // matching the body, a bad envelope) skips it and gets that refusal (400, -32020 HeaderMismatch):
        // signing in would not make it valid. No tool runs for it.
        const refused =
          parsed !== undefined && req.method === 'POST'
            ? m.refusedBeforeDispatch(req.method, req.headers, parsed, MODERN_PROTOCOL_VERSIONS)
            : undefined;
        if (refused) req.log.debug({ reason: refused }, 'mcp: left to the SDK to refuse before dispatch');
        for (const op of refused ? [] : calledOperations(parsed, tools().ops)) {
          if (op.access === 'public') continue;
          const granted = req.principal.kind === 'user' ? req.principal.scopes : [];
          const scope = req.principal.kind === 'user' ? [...new Set([...granted, op.access])].join(' ') : op.access;
          try {
            enforceAccess(op.access, req.principal, (error) => challenge(error, scope));
          } catch (err) {
            return sendError(reply, req, err as ApiError);
          }
        }
        const abort = new AbortController();
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) abort.abort();
        });
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) {
          if (v === undefined) continue;
          for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
        }
        if (split) headers.delete('content-length'); // the body is now the valid members only
        const request = new Request(new URL(req.url, publicUrl), {
          method: req.method,
          headers,
          ...(text !== undefined && req.method !== 'GET' ? { body: text } : {}),
          signal: abort.signal,
        });
        const principal = req.principal;
        const authInfo: AuthInfo =
          principal.kind === 'user'
            ? {
                token: '',
                clientId: principal.credential.client_id ?? principal.credential.id,
                scopes: principal.scopes,
                extra: { principal, requestId: req.id },
              }
            : { token: '', clientId: '', scopes: [], extra: { principal, requestId: req.id } };
        const response = await (await runtimeOf()).handler.fetch(request, {
          authInfo,
          ...(parsed !== undefined ? { parsedBody: parsed } : {}),
        });
        return reply.send(split ? await m.withBatchErrors(response, split.errors) : response);
      },
    });
  });
}
