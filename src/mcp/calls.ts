// One MCP tool call = one operation run by the kernel, for the caller the /mcp route resolved. Shared
// by the route (server.ts) and the SDK-backed server (sdk.ts).
import type { AuthInfo, CallToolResult } from '@modelcontextprotocol/server';
import type { AppDeps } from '../deps.ts';
import type { Challenge } from '../operations/access.ts';
import type { Operation } from '../operations/define.ts';
import { ApiError, errorOf } from '../operations/errors.ts';
import { invoke, resultValue } from '../operations/kernel.ts';
import { ANONYMOUS, type Principal } from '../operations/principal.ts';
import { CALLER_RULES, splitArguments } from './tools.ts';
import { MCP_VERSIONS } from '../operations/site.ts';

/** Protocol versions served: 2026-07-28 through server/discover, the 2025 ones through initialize. */
export const MCP_PROTOCOL_VERSIONS = MCP_VERSIONS;
/** Replayed idempotent calls say so in the result's _meta (REST: the Idempotent-Replayed header). */
export const IDEMPOTENT_REPLAYED_META = 'launchlist/idempotent-replayed';

export function serverInstructions(publicUrl: string): string {
  return [
    'Launchlist is a launch directory and launch calendar. Every tool is one operation of the REST API at ' +
      publicUrl +
      '/api/v1, with the same name, rules and results.',
    'Reading (listings, categories, launches, leaderboards, founders, blog, awards, badges, products) needs no sign-in. Drafting, editing and publishing listings, claims and orders need sign-in: your MCP client opens our sign-in page in the browser, where the person chooses to allow access.',
    'Rules for callers:',
    `- ${CALLER_RULES.checkout}`,
    `- ${CALLER_RULES.prices}`,
    `- ${CALLER_RULES.votes}`,
    `- ${CALLER_RULES.billboard}`,
    '- Drafting a listing from a website (submit_listing) takes about a minute: poll get_draft every few seconds while its status is crawling or drafting. Nothing found on the website is ever invented; fields left blank stay blank until the person fills them.',
    'Errors come back as a tool result with isError true and the body {"error": {"code", "message", "details"?, "request_id"}}, the same codes as the REST API (validation_failed names each field and rule). Tools that change things accept an idempotency_key argument that makes retries safe.',
  ].join('\n');
}

interface CallContext {
  principal: Principal;
  requestId: string;
}

export function contextOf(authInfo: AuthInfo | undefined): CallContext {
  const extra = authInfo?.extra as Partial<CallContext> | undefined;
  return { principal: extra?.principal ?? ANONYMOUS, requestId: extra?.requestId ?? 'unknown' };
}

/**
 * Runs one tool call through the kernel, as REST does. An error becomes an isError result whose text is
 * the REST error body; it carries no structuredContent, which a tool's outputSchema describes only for
 * results (MCP clients validate structuredContent against it, errors included).
 */
export async function callTool(
  deps: AppDeps,
  op: Operation,
  principal: Principal,
  requestId: string,
  args: Record<string, unknown> | undefined,
  challenge: Challenge,
  logError?: (err: unknown, requestId: string, tool: string) => void,
): Promise<CallToolResult> {
  try {
    const { raw, idempotencyKey } = splitArguments(op, args);
    const out = await invoke(deps, op, principal, raw, { requestId, idempotencyKey, challenge });
    const structured = (resultValue(out.body) ?? {}) as Record<string, unknown>;
    return {
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
      ...(out.replayed ? { _meta: { [IDEMPOTENT_REPLAYED_META]: true } } : {}),
    };
  } catch (err) {
    const error = errorOf(err);
    if (!(err instanceof ApiError)) logError?.(err, requestId, op.name);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(error.body(requestId)) }] };
  }
}
