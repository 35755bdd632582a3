// SEP-2243 standard request headers (protocol 2026-07-28). A client mirrors the JSON-RPC body into
// MCP-Protocol-Version, Mcp-Method and (for tools/call) Mcp-Name, so that intermediaries can route a
// request without reading its body; the server MUST refuse a request whose headers are missing or
// disagree with the body: HTTP 400 with the JSON-RPC error -32020 (HeaderMismatch). The SDK's HTTP
// entry does that refusing, before any tool runs.
//
// Our sign-in gate (server.ts) answers 401/403 before the SDK sees the request, though. This module
// tells the gate which requests the SDK will refuse anyway, so that such a request gets the header
// error (signing in would not cure it) instead of a sign-in challenge. It mirrors the SDK's ladder:
// the SDK's own classifier (exported) for the era, envelope and Mcp-Method cross-check, then the
// presence and Mcp-Name checks of the SDK's standard-header rung (not exported, so restated here).
// Should the two ever disagree, nothing is let through: a call that reaches a tool still goes through
// runOperation(), which checks access again (a tool result with the unauthorized error body).
import { classifyInboundRequest } from '@modelcontextprotocol/server';

/** JSON-RPC error code of a header/body disagreement (SEP-2243 HeaderMismatch). */
export const HEADER_MISMATCH = -32020;

/** The methods whose params field the Mcp-Name header mirrors (SEP-2243 "Required For", and SEP-2663's tasks/*). */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const BASE64_SENTINEL = /^=\?base64\?(.*)\?=$/s;
const BASE64_CANONICAL = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

type HeaderValue = string | string[] | undefined;

/** One header as the Fetch API's Headers.get() gives it to the SDK (repeated fields joined by ", "). */
function headerOf(headers: Record<string, HeaderValue>, name: string): string | undefined {
  const v = headers[name];
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.join(', ') : v;
}

/** RFC 9110 optional whitespace (SP / HTAB) is not part of a field value. */
function stripOws(v: string): string {
  return v.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** An Mcp-Name value: literal, or UTF-8 in the =?base64?…?= sentinel; undefined when that sentinel is malformed. */
export function decodeHeaderValue(value: string): string | undefined {
  const m = BASE64_SENTINEL.exec(value);
  if (!m) return value;
  if (!BASE64_CANONICAL.test(m[1])) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(m[1], 'base64'));
  } catch {
    return undefined;
  }
}

/** The SDK's own classification of a request (era, envelope, Mcp-Method cross-check), the one its HTTP entry routes by. */
export function inboundRoute(
  httpMethod: string,
  headers: Record<string, HeaderValue>,
  body: unknown,
): ReturnType<typeof classifyInboundRequest> {
  const protocolVersionHeader = headerOf(headers, 'mcp-protocol-version');
  const mcpMethodHeader = headerOf(headers, 'mcp-method');
  const mcpNameHeader = headerOf(headers, 'mcp-name');
  return classifyInboundRequest({
    httpMethod,
    body,
    ...(protocolVersionHeader !== undefined ? { protocolVersionHeader } : {}),
    ...(mcpMethodHeader !== undefined ? { mcpMethodHeader } : {}),
    ...(mcpNameHeader !== undefined ? { mcpNameHeader } : {}),
  });
}

/**
 * Why the MCP SDK will refuse this HTTP request before dispatching it — its era classification or
 * per-request envelope is invalid, its protocol revision is not served, or its SEP-2243 standard
 * headers are missing or disagree with the body — or undefined when it will be served.
 * Requests of the initialize-based versions (2025-*) carry no such headers and are never refused here.
 */
export function refusedBeforeDispatch(
  httpMethod: string,
  headers: Record<string, HeaderValue>,
  body: unknown,
  modernVersions: readonly string[],
): string | undefined {
  const protocolVersionHeader = headerOf(headers, 'mcp-protocol-version');
  const mcpMethodHeader = headerOf(headers, 'mcp-method');
  const mcpNameHeader = headerOf(headers, 'mcp-name');
  const route = inboundRoute(httpMethod, headers, body);
  if (route.kind === 'reject') return route.message;
  if (route.kind === 'legacy' || route.messageKind !== 'request') return undefined;
  const revision = route.classification.revision;
  if (revision === undefined || !modernVersions.includes(revision))
    return `protocol revision ${revision ?? '(none)'} is not served`;
  const { method, params } = route.message;
  if (protocolVersionHeader === undefined) return 'the MCP-Protocol-Version header is missing';
  if (mcpMethodHeader === undefined) return 'the Mcp-Method header is missing';
  const field = Object.hasOwn(NAME_SOURCE, method) ? NAME_SOURCE[method] : undefined;
  if (field === undefined) return undefined;
  const raw = params && typeof params === 'object' ? (params as Record<string, unknown>)[field] : undefined;
  const bodyValue = typeof raw === 'string' ? raw : undefined;
  if (mcpNameHeader === undefined) return bodyValue === undefined ? undefined : 'the Mcp-Name header is missing';
  const decoded = decodeHeaderValue(stripOws(mcpNameHeader));
  if (decoded === undefined) return 'the Mcp-Name header carries an invalid Base64 value';
  if (bodyValue !== undefined && decoded !== bodyValue)
    return `the Mcp-Name header names ${JSON.stringify(decoded)} but the body ${JSON.stringify(bodyValue)}`;
  return undefined;
}
