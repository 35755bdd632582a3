// Assembles Fastify from the parts; no business logic lives here.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import cookie from '@fastify/cookie';
import { API_PREFIX, errorBody, registerRest, restChallenge } from './http/rest.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerCors } from './http/cors.ts';
import { DYNAMIC } from './web/compression.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { ApiError, type ErrorCode } from './operations/errors.ts';
import { resolvePrincipal } from './auth/principal.ts';
import type { AppDeps } from './deps.ts';
import { ANONYMOUS } from './operations/principal.ts';
import { sendNotFoundPage, siteErrorHandler, wantsHtml } from './web/pages/index.ts';
import { markFreshAfterForms } from './web/page-cache.ts';
import { lazyChildLogger } from './http/lazy-logger.ts';
import { MAX_JSON_DEPTH, jsonTooDeep } from './domain/json-depth.ts';
import { refuseNul } from './operations/validation.ts';
import { registerOps } from './ops/index.ts';
import { loggerOptions } from './ops/log-redaction.ts';
// Not `import … from 'node:http'`: an ESM import of node:http builds its module facade, whose getters load
// Node's bundled undici (~80 ms of a cold start) for nothing this file uses.
const { STATUS_CODES } = process.getBuiltinModule('node:http');

/**
 * Fastify's schema compilers (Ajv and fast-json-stringify), loaded only if a route ever declares a schema:
 * none does (operations validate with their own zod schemas), and requiring them is ~60 ms of every start.
 */
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
const lazyCompilers = {
  buildValidator: (...args: unknown[]) =>
    (fastifyRequire('@fastify/ajv-compiler') as () => (...a: unknown[]) => unknown)()(...args),
  buildSerializer: (...args: unknown[]) =>
    (fastifyRequire('@fastify/fast-json-stringify-compiler') as () => (...a: unknown[]) => unknown)()(...args),
};

/** A group of routes (the website, OAuth, MCP, badges …), registered after the API. */
export type RouteGroup = (app: FastifyInstance, deps: AppDeps) => Promise<void> | void;

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export async function buildApp(deps: AppDeps, routes: readonly RouteGroup[] = []): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    // Secrets never logged: tokens in URLs, credentials in headers and log objects (ops/log-redaction.ts).
    logger: loggerOptions(config),
    // Each request's logger (with its reqId) is made only when something is logged at an enabled level.
    childLoggerFactory: lazyChildLogger,
    bodyLimit: 1024 * 1024,
    schemaController: { compilersFactory: lazyCompilers as never },
    // false unless configured: X-Forwarded-For is anyone's to write. A number trusts that many proxy hops.
    trustProxy:
      typeof config.TRUST_PROXY === 'number'
        ? (
            (n) => (_addr: string, hop: number) =>
              hop < n
          )(config.TRUST_PROXY)
        : config.TRUST_PROXY,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // A path segment may be as long as the longest identifier the spec allows and then some: a longer
    // one is a 400 from the operation's schema, not Fastify's default 414 (which also has its own body).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    // Requests Node's HTTP parser refuses before Fastify sees them (headers over 16 KiB, a malformed
    // request line or header, a timeout) get the error body too, with a request id of their own.
    clientErrorHandler: (err, socket) => {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ECONNRESET' || socket.destroyed) return;
      const [status, error, message]: [number, ErrorCode, string] =
        code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'headers_too_large', 'The request line and headers are larger than 16 KiB.']
          : code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'request_timeout', 'The request was not received in time.']
            : [
                400,
                'validation_failed',
                'The HTTP request is malformed: its request line or a header is not valid HTTP.',
              ];
      const id = randomUUID();
      const body = JSON.stringify({ error: { code: error, message, request_id: id } });
      if (socket.writable)
        socket.write(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
        );
      socket.destroy(err);
    },
    // Malformed URLs (bad percent-encoding, a segment over maxParamLength) get our error body too.
    frameworkErrors: (err, req, reply) => {
      const { status, body } = errorBody(
        new ApiError(
          'validation_failed',
          `path: ${err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path segment is longer than 2048 characters' : 'the URL path is not valid (check its percent-encoding)'}.`,
          [{ path: 'path', message: err.message }],
        ),
        req.id,
      );
      (reply as FastifyReply)
        .header('X-Request-Id', req.id)
        .code(status)
        .type('application/json; charset=utf-8')
        .send(body);
    },
  });
  app.decorateRequest('principal', null as never);
  registerOps(app, deps); // security headers, /healthz, /readyz, /metrics (before any route)
  // Many HTTP clients send `Content-Type: application/json` with an empty body on a POST that takes
  // none (submit_draft, choose_free_listing, verify_claim). An empty JSON body is read as "no body";
  // anything else goes through Fastify's own JSON parser (prototype-poisoning protection included).
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    if (jsonTooDeep(body as string))
      return done(
        new ApiError(
          'validation_failed',
          `body: objects and arrays nest more than ${MAX_JSON_DEPTH} levels deep; no operation takes more than a few.`,
          [{ path: 'body', message: `nests more than ${MAX_JSON_DEPTH} levels deep` }],
        ),
        undefined,
      );
    jsonParser(req, body as string, done);
  });

  const challenge = restChallenge(config.publicUrl);
  // Synchronous unless there is a credential to check (most public reads carry none).
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    req.principal = ANONYMOUS;
    if (req.headers.authorization === undefined || !req.url.startsWith(API_PREFIX + '/')) return done();
    // A credential that is not valid is a 401 for the operations that need sign-in (enforceAccess), and
    // ignored by the public ones, which "work without credentials" (spec 5): only the former declare a 401.
    resolvePrincipal(
      { db: deps.store.db, verifyAccessToken: deps.verifyAccessToken },
      req.headers.authorization,
      config.publicUrl + API_PREFIX,
      challenge,
    ).then(
      (p) => {
        req.principal = p;
        done();
      },
      (err: Error) => {
        if (!(err instanceof ApiError) || err.status !== 401) return done(err);
        req.principal = { kind: 'anonymous', refused: err };
        done();
      },
    );
  });

  // NUL characters in what the website and the OAuth pages read (query strings, forms, path segments)
  // are refused here; the API's operations (REST and MCP tools) refuse them in the kernel (invoke).
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.url.startsWith(API_PREFIX + '/')) return done();
    try {
      refuseNul({ path: req.params, query: req.query, body: req.body });
      done();
    } catch (err) {
      done(err as Error);
    }
  });
  registerCors(app);
  // per request, at a fast level in one call; kept pages carry their own compressed bytes (web/compression.ts)
  await app.register(compress, DYNAMIC);
  await app.register(formbody);
  await app.register(cookie);
  markFreshAfterForms(app, deps); // the person who changed something sees it on their next page (web/page-cache.ts)
  registerRateLimit(app, {
    max: { api: config.RATE_LIMIT_MAX, page: config.RATE_LIMIT_PAGES_MAX, badge: config.RATE_LIMIT_BADGES_MAX },
    windowMs: config.RATE_LIMIT_WINDOW_MS,
    redis: deps.redis,
    keyOf: (req) => (req.principal?.kind === 'user' ? `u:${req.principal.userId}` : `ip:${req.ip}`),
  });

  app.setErrorHandler((err, req, reply) => {
    // A browser on a page outside the site's own scopes (account, admin, checkout…) gets the site's HTML error page.
    if (wantsHtml(req)) return siteErrorHandler(deps, err as FastifyError, req, reply);
    const { status, body, headers } = errorBody(err, req.id);
    if (status >= 500) req.log.error({ err }, 'request failed');
    if (headers) for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    reply.code(status).type('application/json; charset=utf-8').send(body);
  });
  app.setNotFoundHandler((req, reply) => {
    if (wantsHtml(req)) return sendNotFoundPage(deps, req, reply); // a browser on a site path gets the HTML page
    const { status, body } = errorBody(
      new ApiError(
        'not_found',
        `No route ${req.method} ${req.url.split('?')[0]}. The API lives under ${API_PREFIX}; see ${API_PREFIX}/openapi.json.`,
      ),
      req.id,
    );
    reply.code(status).type('application/json; charset=utf-8').send(body);
  });

  registerRest(app, deps, deps.operations);
  registerOpenApi(app, deps, deps.operations);
  for (const group of routes) await group(app, deps);
  return app;
}
