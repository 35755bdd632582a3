// The parts of the MCP server that need the MCP SDK at run time, loaded by server.ts on the first
// request to /mcp (the SDK is not loaded at start: a server nobody reaches over MCP does not carry it).
import { McpServer, ProtocolError, ProtocolErrorCode, createMcpHandler, isInitializeRequest, localhostAllowedHostnames, type McpHttpHandler, type McpRequestContext } from '@modelcontextprotocol/server';
import type { AppDeps } from '../app.ts';
import type { Operation } from '../operations/define.ts';
import type { ToolDefinition } from './tools.ts';
import { MCP_PROTOCOL_VERSIONS, callTool, contextOf, serverInstructions, type Challenge } from './server.ts';
import { inboundRoute } from './headers.ts';

export { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
export { refusedBeforeDispatch } from './headers.ts';

type Tools = () => { ops: ReadonlyMap<string, Operation>; list: ToolDefinition[] };
type LogError = (err: unknown, requestId: string, tool: string) => void;

/** One MCP server instance for one HTTP request (the SDK's factory), closed over the caller. */
function buildServer(deps: AppDeps, ctx: McpRequestContext, tools: Tools, challenge: Challenge, logError: LogError): McpServer {
  const { principal, requestId } = contextOf(ctx.authInfo);
  const mcp = new McpServer(
    { name: 'launchlist', title: 'Launchlist', version: '1.0.0', websiteUrl: deps.config.publicUrl },
    { capabilities: { tools: { listChanged: false }, logging: {} }, instructions: serverInstructions(deps.config.publicUrl), supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS] },
  );
  mcp.server.setRequestHandler('tools/list', async () => ({ tools: tools().list }));
  mcp.server.setRequestHandler('tools/call', async (request) => {
    const op = tools().ops.get(request.params.name);
    // Spec: an unknown tool is a protocol error (-32602), not a tool result.
    if (!op) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(request.params.name)}: call tools/list for the tools this server offers.`);
    return callTool(deps, op, principal, requestId, request.params.arguments, challenge, logError);
  });
  return mcp;
}

/** The stateless Streamable HTTP handler: a fresh server per request, nothing kept between them. */
export function createHandler(deps: AppDeps, tools: Tools, challenge: Challenge, logError: LogError, onerror: (error: Error) => void): McpHttpHandler {
  return createMcpHandler((ctx) => buildServer(deps, ctx, tools, challenge, logError), { legacy: 'stateless', onerror });
}

/**
 * An initialize request of the initialize-based versions whose params the protocol's schema refuses
 * (protocolVersion not a string, capabilities or clientInfo missing…): the SDK would answer it -32603
 * Internal error, JSON-RPC says -32602 Invalid params. Returns the request's id and the params at
 * fault, or undefined for anything else — a request the SDK routes as 2026-07-28 included, where
 * initialize is a removed method (404, -32601).
 */
export function invalidInitialize(httpMethod: string, headers: Record<string, string | string[] | undefined>, body: unknown): { id: string | number; fields: string[] } | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { method, id, params } = body as { method?: unknown; id?: unknown; params?: unknown };
  if (method !== 'initialize' || (typeof id !== 'string' && typeof id !== 'number') || isInitializeRequest(body)) return undefined;
  if (inboundRoute(httpMethod, headers, body).kind !== 'legacy') return undefined;
  const p = (params && typeof params === 'object' ? params : {}) as { protocolVersion?: unknown; capabilities?: unknown; clientInfo?: { name?: unknown; version?: unknown } };
  const isObject = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);
  const fields = [
    typeof p.protocolVersion === 'string' ? '' : 'params.protocolVersion (a string)',
    isObject(p.capabilities) ? '' : 'params.capabilities (an object)',
    isObject(p.clientInfo) && typeof p.clientInfo!.name === 'string' && typeof p.clientInfo!.version === 'string' ? '' : 'params.clientInfo (an object with name and version strings)',
  ].filter(Boolean);
  return { id, fields: fields.length ? fields : ['params (see the MCP initialize request schema)'] };
}

/** Host and Origin guard against DNS rebinding: our public host and the loopback forms only. */
export function allowedHostnames(publicUrl: string): string[] {
  return [...new Set([new URL(publicUrl).hostname, ...localhostAllowedHostnames()])];
}
