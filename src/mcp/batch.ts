// JSON-RPC batches (protocol 2025-03-26, the only revision with them; the SDK also serves them on the
// later initialize-based revisions, whose spec puts the one-message rule on the client). JSON-RPC 2.0
// answers each member of a batch on its own: an invalid member gets an Invalid Request error (with its
// id when one can be read, else null) and the others are served. The SDK's HTTP entry refuses the
// whole batch when one member is not a JSON-RPC message (400, id null), so the invalid members are
// taken out here, the rest is handed to the SDK, and their errors are added to its answer.
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCErrorResponse,
} from '@modelcontextprotocol/server';
import { inboundRoute } from './headers.ts';

type HeaderValue = string | string[] | undefined;

export interface BatchSplit {
  /** The members that are JSON-RPC messages, in their order: what the SDK is given. */
  valid: unknown[];
  /** One Invalid Request error per member that is not a JSON-RPC message. */
  errors: JSONRPCErrorResponse[];
}

function isMessage(m: unknown): boolean {
  return isJSONRPCRequest(m) || isJSONRPCNotification(m) || isJSONRPCResultResponse(m) || isJSONRPCErrorResponse(m);
}

function invalidMember(m: unknown, index: number): JSONRPCErrorResponse {
  const id = m && typeof m === 'object' && !Array.isArray(m) ? (m as { id?: unknown }).id : undefined;
  return {
    jsonrpc: '2.0',
    id: typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null,
    error: {
      code: -32600,
      message: `Invalid Request: batch member ${index} is not a JSON-RPC request, notification or response (needs "jsonrpc": "2.0", a string "method", an object "params" when given, and a string or number "id" for a request).`,
    },
  } as JSONRPCErrorResponse;
}

/**
 * A batch holding members that are not JSON-RPC messages, split into the messages and an error for
 * each of the others; undefined for anything else (one message, a batch of valid messages, or a batch
 * the SDK would refuse whole for another reason: a 2026-07-28 member, which bans batches).
 */
export function splitBatch(
  httpMethod: string,
  headers: Record<string, HeaderValue>,
  body: unknown,
): BatchSplit | undefined {
  if (httpMethod !== 'POST' || !Array.isArray(body) || body.length === 0) return undefined;
  const valid: unknown[] = [];
  const errors: JSONRPCErrorResponse[] = [];
  body.forEach((m, i) => {
    if (isMessage(m)) valid.push(m);
    else errors.push(invalidMember(m, i));
  });
  if (errors.length === 0) return undefined;
  if (valid.length > 0 && inboundRoute(httpMethod, headers, valid).kind === 'reject') return undefined;
  return { valid, errors };
}

const sseEvent = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

/**
 * The SDK's answer to the valid members with the invalid members' errors added: first on an SSE
 * stream, into the array of a JSON answer, and as the whole answer (200, a JSON array) when the valid
 * members needed none (notifications and responses: 202). Any other answer (the request refused as
 * a whole, e.g. an unsupported protocol version) is returned as it is.
 */
export async function withBatchErrors(response: Response, errors: JSONRPCErrorResponse[]): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (response.status === 202) return Response.json(errors, { status: 200 });
  if (response.status !== 200) return response;
  if (type.includes('text/event-stream') && response.body) {
    const head = new TextEncoder().encode(errors.map(sseEvent).join(''));
    const stream = new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
    });
    response.body.pipeTo(stream.writable).catch(() => {
      /* the client went away: the SDK's stream is cancelled with it */
    });
    return new Response(stream.readable, { status: 200, headers: response.headers });
  }
  if (type.includes('application/json')) {
    const answered = (await response.json()) as unknown;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return Response.json([...errors, ...(Array.isArray(answered) ? answered : [answered])], { status: 200, headers });
  }
  return response;
}
