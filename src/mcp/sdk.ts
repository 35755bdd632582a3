// The parts of the MCP server that need the MCP SDK at run time, loaded by server.ts on the first
// request to /mcp (the SDK is not loaded at start: a server nobody reaches over MCP does not carry it).
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  createMcpHandler,
  localhostAllowedHostnames,
  type JSONRPCRequest,
  type McpHttpHandler,
  type McpRequestContext,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { AppDeps } from '../deps.ts';
import type { Operation } from '../operations/define.ts';
import type { ToolDefinition } from './tools.ts';
import type { Challenge } from '../operations/access.ts';
import { MCP_PROTOCOL_VERSIONS, callTool, contextOf, serverInstructions } from './calls.ts';

export { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
export { refusedBeforeDispatch } from './headers.ts';
export { splitBatch, withBatchErrors } from './batch.ts';

type Tools = () => { ops: ReadonlyMap<string, Operation>; list: ToolDefinition[] };
type LogError = (err: unknown, requestId: string, tool: string) => void;

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The SDK's Server, with one change: a request whose params its protocol schema refuses is answered
 * -32602 Invalid params naming the params at fault, for every method (logging/setLevel, tools/list,
 * initialize, tools/call …). The SDK validates a request against the protocol schema before its
 * handler runs, but throws a plain Error when it fails, which goes out as -32603 Internal error
 * (its own codec documents the failure as -32602; only tools/call was mapped so).
 */
class LaunchlistServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    return (request, ctx) => {
      const outcome = this._wireCodec().validateRequest(method, request);
      // 'not-in-era' (a method this protocol revision does not have) stays the SDK's to answer.
      if (!outcome.ok && outcome.reason === 'invalid')
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Invalid params for ${method}: ${issuesOf(outcome.message)}`,
        );
      return wrapped(request, ctx);
    };
  }
}

/** A zod error's text (a JSON array of issues) as "params.level: Invalid option: …; …", or the text itself. */
function issuesOf(message: string): string {
  try {
    const issues = JSON.parse(message) as Array<{ path?: Array<string | number>; message?: string }>;
    if (Array.isArray(issues) && issues.length)
      return issues.map((i) => `${(i.path ?? []).join('.') || 'params'}: ${i.message}`).join('; ');
  } catch {
    /* not JSON: said as it is */
  }
  return message;
}

/** One MCP server instance for one HTTP request (the SDK's factory), closed over the caller. */
function buildServer(
  deps: AppDeps,
  ctx: McpRequestContext,
  tools: Tools,
  challenge: Challenge,
  logError: LogError,
): Server {
  const { principal, requestId } = contextOf(ctx.authInfo);
  const server = new LaunchlistServer(
    { name: 'launchlist', title: 'Launchlist', version: '1.0.0', websiteUrl: deps.config.publicUrl },
    {
      capabilities: { tools: { listChanged: false }, logging: {} },
      instructions: serverInstructions(deps.config.publicUrl),
      supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
    },
  );
  server.setRequestHandler('tools/list', async () => ({ tools: tools().list }));
  server.setRequestHandler('tools/call', async (request) => {
    const op = tools().ops.get(request.params.name);
    // Spec: an unknown tool is a protocol error (-32602), not a tool result.
    if (!op)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool ${JSON.stringify(request.params.name)}: call tools/list for the tools this server offers.`,
      );
    return callTool(deps, op, principal, requestId, request.params.arguments, challenge, logError);
  });
  return server;
}

/** The stateless Streamable HTTP handler: a fresh server per request, nothing kept between them. */
export function createHandler(
  deps: AppDeps,
  tools: Tools,
  challenge: Challenge,
  logError: LogError,
  onerror: (error: Error) => void,
): McpHttpHandler {
  return createMcpHandler((ctx) => buildServer(deps, ctx, tools, challenge, logError), {
    legacy: 'stateless',
    onerror,
  });
}

/** Host and Origin guard against DNS rebinding: our public host and the loopback forms only. */
export function allowedHostnames(publicUrl: string): string[] {
  return [...new Set([new URL(publicUrl).hostname, ...localhostAllowedHostnames()])];
}
