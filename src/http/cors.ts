// CORS for every route: any origin may call the API (no cookies are honoured cross-site: the API
// authenticates with bearer credentials only). A request with an Origin gets it back in
// Access-Control-Allow-Origin plus the headers a client may read; a preflight (OPTIONS with
// Access-Control-Request-Method) gets 204 with the methods and request headers allowed.
// Every response says `Vary: Origin`, so a shared cache never serves one origin's answer to another.
//
// This replaced @fastify/cors, whose per-request origin callback and header bookkeeping were a
// measurable share of a cheap read (README "get_listing's hot path"); the behaviour is the same.
import type { FastifyInstance } from 'fastify';

const METHODS = 'GET, POST, PATCH, PUT, DELETE, OPTIONS';
const ALLOWED = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-None-Match',
  'X-Request-Id',
  'MCP-Protocol-Version',
  'Mcp-Session-Id',
  'Mcp-Method',
  'Mcp-Name',
  'Last-Event-ID',
].join(', ');
const EXPOSED = [
  'X-Request-Id',
  'ETag',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Idempotent-Replayed',
  'WWW-Authenticate',
  'Mcp-Session-Id',
  'MCP-Protocol-Version',
].join(', ');

export function registerCors(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('vary', 'Origin');
    const origin = req.headers.origin;
    if (origin !== undefined) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-expose-headers', EXPOSED);
    }
    done();
  });
  // Preflights for any path (a route's own OPTIONS handler, if one is ever added, takes precedence).
  app.options('*', { config: { rateLimit: false } }, (req, reply) => {
    if (req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
      reply.header('access-control-allow-methods', METHODS);
      reply.header('access-control-allow-headers', ALLOWED);
      reply.header('access-control-max-age', '86400');
    }
    reply.code(204).send();
  });
}
