// Registry → REST routes under /api/v1: each route hands its request to the kernel (invoke) and renders
// the outcome: status, JSON body, ETag and Cache-Control on GETs, Idempotent-Replayed on replays.
import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Operation } from '../operations/define.ts';
import type { Principal } from '../operations/principal.ts';
import { ApiError } from '../operations/errors.ts';
import { validationError } from '../operations/errors.ts';
import { invoke } from '../operations/kernel.ts';
import type { AppDeps } from '../deps.ts';
import { RawJson } from '../operations/raw-json.ts';
import { acceptedEncoding, addVary, compressKept, DYNAMIC } from '../web/compression.ts';

export const API_PREFIX = '/api/v1';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

export function toFastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** The WWW-Authenticate challenge of the REST API (RFC 6750, with RFC 9728 resource metadata). */
export function restChallenge(publicUrl: string): (error?: string, scope?: string) => string {
  return (error, scope) => {
    const parts = [
      `realm="${publicUrl}${API_PREFIX}"`,
      `resource_metadata="${publicUrl}/.well-known/oauth-protected-resource${API_PREFIX}"`,
    ];
    if (error) parts.push(`error="${error}"`);
    if (scope) parts.push(`scope="${scope}"`);
    return `Bearer ${parts.join(', ')}`;
  };
}

export function registerRest(app: FastifyInstance, deps: AppDeps, ops: readonly Operation[]): void {
  const challenge = restChallenge(deps.config.publicUrl);
  for (const op of ops) {
    app.route({
      method: op.method,
      url: API_PREFIX + toFastifyPath(op.path),
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const sentAs = nonJsonBody(req);
        if (sentAs)
          throw validationError([
            {
              path: 'body',
              message: `must be JSON, sent with the header Content-Type: application/json (this request's body was sent as ${sentAs})`,
            },
          ]);
        const key = req.headers['idempotency-key'];
        const out = await invoke(
          deps,
          op,
          req.principal,
          { params: req.params, query: req.query, body: req.body },
          { requestId: req.id, idempotencyKey: typeof key === 'string' ? key : undefined, challenge },
        );
        const { status, body: result } = out;
        if (out.replayed) reply.header('Idempotent-Replayed', 'true');
        if (op.method === 'GET') {
          reply.header(
            'Cache-Control',
            op.access === 'public' && req.principal.kind === 'anonymous' ? 'public, max-age=30' : 'private, no-cache',
          );
          const json = result instanceof RawJson ? result.text : JSON.stringify(result);
          const etag = (result instanceof RawJson && result.etag) || `W/"${hash('sha1', json, 'base64url')}"`;
          reply.header('ETag', etag);
          if (req.headers['if-none-match'] === etag) return reply.code(304).send();
          reply.code(status).type('application/json; charset=utf-8');
          addVary(reply, 'accept-encoding'); // written plain or compressed, as asked: a cache keeps them apart
          // a result shared by anonymous callers within its bound: encoded, and compressed, once for all of
          // them (anything else is compressed per request by @fastify/compress: web/compression.ts)
          if (result instanceof RawJson && result.readAt !== undefined) {
            const encoding = json.length >= DYNAMIC.threshold ? acceptedEncoding(req) : undefined;
            if (encoding) {
              const body = result.encoded(encoding, compressKept); // before the header: see page-cache.ts
              return reply.header('Content-Encoding', encoding).send(body);
            }
            return reply.send(result.bytes);
          }
          return reply.send(json);
        }
        return reply.code(status).send(result);
      },
    });
  }
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The media type of a request body that is not JSON (a form, text …), or undefined. Every API body is
 * JSON (spec), but other types have parsers for the website's forms: without this, `curl -d '{…}'`
 * (sent as a form by default) read as a form field named by the whole JSON text.
 */
function nonJsonBody(req: FastifyRequest): string | undefined {
  const type = req.headers['content-type'];
  const body = req.body;
  if (!type || JSON_TYPE.test(type) || body === undefined || body === null || body === '') return undefined;
  if (typeof body === 'object' && Object.keys(body as object).length === 0) return undefined;
  return type.split(';')[0].trim();
}

export function errorBody(
  err: unknown,
  requestId: string,
): { status: number; body: unknown; headers?: Record<string, string> } {
  if (err instanceof ApiError) return { status: err.status, body: err.body(requestId), headers: err.headers };
  const e = err as { statusCode?: number; code?: string; message?: string; validation?: unknown };
  if (e?.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return errorBody(
      new ApiError('payload_too_large', 'The request body is larger than the limit (1 MiB).'),
      requestId,
    );
  if (e?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return errorBody(new ApiError('unsupported_media_type', 'Send the request body as application/json.'), requestId);
  if (e?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return errorBody(
      new ApiError(
        'validation_failed',
        'body: the Content-Type is application/json but the body is empty; send a JSON object or no Content-Type.',
        [{ path: 'body', message: 'empty JSON body' }],
      ),
      requestId,
    );
  if (e?.statusCode === 400 && /JSON/i.test(e.message ?? ''))
    return errorBody(
      new ApiError('validation_failed', `body: not valid JSON (${e.message}).`, [
        { path: 'body', message: 'must be valid JSON' },
      ]),
      requestId,
    );
  if (e?.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    const code =
      e.statusCode === 404
        ? 'not_found'
        : e.statusCode === 429
          ? 'rate_limited'
          : e.statusCode === 405
            ? 'method_not_allowed'
            : e.statusCode === 413
              ? 'payload_too_large'
              : e.statusCode === 415
                ? 'unsupported_media_type'
                : 'validation_failed';
    return errorBody(new ApiError(code, e.message ?? 'Bad request.'), requestId);
  }
  return errorBody(
    new ApiError('internal', 'Something went wrong on our side. The request id identifies it in our logs.'),
    requestId,
  );
}
