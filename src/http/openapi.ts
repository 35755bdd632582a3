// The OpenAPI 3.1 document, generated from the registry at start-up, and the /docs reference page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Operation } from '../operations/define.ts';
import { ErrorBody } from '../operations/schemas.ts';
import { jsonSchema, type Json } from '../operations/json-schema.ts';
import { ERROR_STATUS } from '../operations/errors.ts';
import { API_PREFIX } from './rest.ts';
import type { AppDeps } from '../deps.ts';
import { OAUTH_ROUTES } from '../auth/oauth/paths.ts';
import { SCOPE_WORDS } from '../domain/scopes.ts';
import { AWARD_KEYS_PATH, STATEMENT_TYPE } from '../domain/award-statement.ts';
import { documentHeaders } from '../web/security-headers.ts';

/** Swagger UI's page: its own script and styles (inline styles too), data: images; fetches only this site. */
const DOCS_CSP: Record<string, string[]> = {
  'default-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
};

const schemaOf = jsonSchema;

/** What each tag groups, for the reference's section headings. */
const TAG_TEXT: Record<string, string> = {
  Site: 'What the service is and offers: counts, links, the interview questions.',
  Listings: 'Live listings: full-text search, profiles, alternatives and comparisons.',
  Categories: 'The category tree, with attributes, FAQs and the listings in each category.',
  Launches: 'Launch weeks and the launches in them, ranked by community votes.',
  Leaderboards: 'Rankings: community weekly and all-time, the PAID billboard, Domain Rating, revenue.',
  Founders: 'Founder profiles and interviews.',
  Blog: 'Posts of the Launchlist blog.',
  Awards: 'Launch of the Week awards, which follow community votes only.',
  Badges: 'Embeddable badges for makers to show on their sites.',
  Account: 'The signed-in person: account, scopes and the credential in use.',
  Drafts: 'Drafting a listing from its website: every value quoted from the site, nothing invented.',
  'My listings': "The caller's own listings: edits, updates, milestones, story and publishing for free.",
  Claims: 'Claiming a listing that belongs to you.',
  Orders: 'Products priced by the site admin (USD cents, VAT extra), quotes, checkout links and orders.',
  trophies: `Trophy cabinets, trophy leaderboards, the Hall of Fame, programmes to enter, and the verification of signed awards (Ed25519; public keys as a JWKS at ${AWARD_KEYS_PATH}).`,
};

/** Response headers, declared once (components.headers) and referenced by every response that carries them. */
const HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description: 'Identifies this request in our logs; send your own (8–128 of A-Z a-z 0-9 . _ : -) to correlate.',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': { description: 'Requests allowed per window for this client.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  ETag: {
    description: 'A validator of this response; send it back in If-None-Match to get 304 Not Modified.',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: '`public, max-age=30` for anonymous reads of public data, `private, no-cache` otherwise.',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};
const ref = (name: string): Json => ({ $ref: `#/components/headers/${name}` });
const COMMON_HEADERS = ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
const headersOf = (names: readonly string[]): Json => Object.fromEntries(names.map((n) => [n, ref(n)]));

export function buildOpenApi(ops: readonly Operation[], publicUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of ops) {
    const parameters: Json[] = [];
    for (const [where, schema] of [
      ['path', op.params],
      ['query', op.query],
    ] as const) {
      if (!schema) continue;
      const j = schemaOf(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
      for (const [name, prop] of Object.entries(j.properties ?? {})) {
        const { description, ...rest } = prop;
        parameters.push({
          name,
          in: where,
          required: where === 'path' || ((j.required ?? []).includes(name) && !('default' in prop)),
          ...(description ? { description } : {}),
          schema: rest,
        });
      }
    }
    if (op.idempotencyKey)
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Makes retries safe: a retry with the same key within 24 h returns the first response (with Idempotent-Replayed: true); the same key with a different request is refused with 422.',
        schema: { type: 'string', maxLength: 255 },
      });
    const isGet = op.method === 'GET';
    const successHeaders = [
      ...COMMON_HEADERS,
      ...(isGet ? ['ETag', 'Cache-Control'] : []),
      ...(op.idempotencyKey ? ['Idempotent-Replayed'] : []),
    ];
    const responses: Json = {
      [String(op.status)]: {
        description: op.status === 201 ? 'Created' : 'OK',
        headers: headersOf(successHeaders),
        content: {
          'application/json': {
            schema: schemaOf(op.response, 'output'),
            ...(op.examples?.response ? { example: op.examples.response } : {}),
          },
        },
      },
      ...(isGet
        ? {
            '304': {
              description: 'Not Modified: the If-None-Match ETag is still current.',
              headers: headersOf(['X-Request-Id', 'ETag']),
            },
          }
        : {}),
      '400': { $ref: '#/components/responses/BadRequest' },
      '429': { $ref: '#/components/responses/RateLimited' },
      '500': { $ref: '#/components/responses/Internal' },
    };
    if (op.access !== 'public')
      Object.assign(responses, {
        '401': { $ref: '#/components/responses/Unauthorized' },
        '403': { $ref: '#/components/responses/Forbidden' },
      });
    if (/\{/.test(op.path)) responses['404'] = { $ref: '#/components/responses/NotFound' };
    if (op.idempotencyKey)
      Object.assign(responses, {
        '409': { $ref: '#/components/responses/Conflict' },
        '422': { $ref: '#/components/responses/IdempotencyKeyReused' },
      });
    const operation: Json = {
      operationId: op.name,
      summary: op.summary,
      description: op.description,
      tags: op.tags,
      parameters,
      responses,
      security:
        op.access === 'public' ? [{}, { bearerAuth: [] }] : [{ bearerAuth: [op.access] }, { oauth2: [op.access] }],
      'x-access': op.access,
      'x-paginated': op.paginated,
    };
    if (op.body)
      operation.requestBody = {
        required: !op.bodyOptional,
        content: {
          'application/json': {
            schema: schemaOf(op.body, 'input'),
            ...(op.examples?.request ? { example: op.examples.request } : {}),
          },
        },
      };
    const path = op.path;
    paths[path] = { ...(paths[path] ?? {}), [op.method.toLowerCase()]: operation };
  }
  const errorResponse = (
    description: string,
    code: string,
    headers = COMMON_HEADERS,
    example: Json = { error: { code, message: description, request_id: '9b2c…' } },
  ) => ({
    description,
    headers: headersOf(headers),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example } },
  });
  const listed = `${publicUrl.replace(/\/$/, '')}/listings/funnelry`;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Launchlist API',
      version: '1.0.0',
      summary:
        'A launch directory and launch calendar: listings, categories, launches, leaderboards, founders, blog, awards, badges, drafts, claims and orders.',
      description:
        'All bodies are JSON. Errors share one body: `{"error": {"code", "message", "details"?, "existing_listing"?, "request_id"}}` (`existing_listing`: on a 409 for a website that is already listed, the listing and how to claim it). Paginated lists take `page` (1–1000) and `per_page` (1–100) and answer `{items, page, per_page, total, has_more}`. Every response carries `X-Request-Id`; rate limits are announced with `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and `Retry-After` on 429. There is no voting through the API: votes come only from people on the site. Prices are in USD cents, exclude VAT, and are set by the admin: never hard-code them. Checkout links must be handed to the person, who pays on our page; never ask for card details. ' +
        `Launch of the Week awards are signed with Ed25519 when their week ends; the public keys are published as a JWKS (OKP/Ed25519) at ${publicUrl}${AWARD_KEYS_PATH} (also in \`x-award-keys\`), and verify_award answers an award's signed statement.`,
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'Launchlist', url: `${publicUrl}/docs` },
    },
    servers: [{ url: publicUrl + API_PREFIX }],
    tags: [...new Set(ops.flatMap((o) => o.tags))].map((name) => ({
      name,
      ...(TAG_TEXT[name] ? { description: TAG_TEXT[name] } : {}),
    })),
    paths,
    components: {
      schemas: { Error: schemaOf(ErrorBody, 'output') },
      headers: HEADERS,
      responses: {
        BadRequest: errorResponse(
          'Invalid request: bad parameters or body (details name each field and rule), or a refused promo code (code promo_code_refused, with the reason).',
          'validation_failed',
        ),
        Unauthorized: errorResponse(
          'No valid credentials. Send Authorization: Bearer <API key or OAuth access token>.',
          'unauthorized',
        ),
        Forbidden: errorResponse('The credential lacks the scope this operation needs.', 'insufficient_scope'),
        NotFound: errorResponse('The named record does not exist or is not visible to you.', 'not_found'),
        Conflict: errorResponse(
          'The request conflicts with the current state: a request with the same Idempotency-Key is still being processed, the record is not in a state that allows it (the operation says which), the record refuses the request as it stands (the message says why: programme entry rules, for instance), or the website is already listed (submit_listing, submit_draft: `existing_listing` names the listing and how to claim it).',
          'conflict',
          COMMON_HEADERS,
          {
            error: {
              code: 'conflict',
              message: `https://www.funnelry.example/ is already listed as "Funnelry" (https://funnelry.example/): ${listed}. A website has one listing. If the product is yours, claim that listing instead of submitting it again: claim_listing with slug "funnelry" (or ${listed}/claim); once verified it moves to your account and you edit it there.`,
              details: [
                { path: 'body.url', message: 'this website is already listed as "Funnelry" (/listings/funnelry)' },
              ],
              existing_listing: {
                slug: 'funnelry',
                name: 'Funnelry',
                url: 'https://funnelry.example/',
                page_url: listed,
                claim: { operation: 'claim_listing', slug: 'funnelry', page_url: `${listed}/claim` },
              },
              request_id: '9b2c…',
            },
          },
        ),
        IdempotencyKeyReused: errorResponse(
          'The Idempotency-Key was already used with a different request.',
          'idempotency_key_reused',
        ),
        RateLimited: errorResponse('Rate limited: retry after the number of seconds in Retry-After.', 'rate_limited', [
          ...COMMON_HEADERS,
          'Retry-After',
        ]),
        Internal: errorResponse('Something went wrong on our side.', 'internal'),
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key (made on the website under Account → API keys, format llk_…) or an OAuth 2.1 access token. Public operations need none, but a credential that is sent must be valid: an unknown, revoked or expired one is refused with 401 and `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750) on every operation, so a client learns its key stopped working.',
        },
        oauth2: {
          type: 'oauth2',
          description:
            'OAuth 2.1 authorization code with PKCE (S256). Dynamic client registration and client ID metadata documents are supported; see /.well-known/oauth-authorization-server.',
          flows: {
            authorizationCode: {
              authorizationUrl: publicUrl + OAUTH_ROUTES.authorization,
              tokenUrl: publicUrl + OAUTH_ROUTES.token,
              refreshUrl: publicUrl + OAUTH_ROUTES.token,
              scopes: SCOPE_WORDS,
            },
          },
        },
      },
    },
    'x-error-codes': ERROR_STATUS,
    'x-award-keys': {
      jwks_uri: publicUrl + AWARD_KEYS_PATH,
      algorithm: 'EdDSA (Ed25519)',
      statement_format: STATEMENT_TYPE,
      verify_operation: 'verify_award',
    },
  };
}

export function registerOpenApi(app: FastifyInstance, deps: AppDeps, ops: readonly Operation[]): void {
  // Made on the first request for it, not at start: deriving 41 operations' JSON Schemas is ~50 ms of a start.
  let doc: string | undefined;
  app.get(API_PREFIX + '/openapi.json', { config: { rateLimit: false } }, async (_req, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .send((doc ??= JSON.stringify(buildOpenApi(ops, deps.config.publicUrl)))),
  );
  app.get('/openapi.json', async (_req, reply) => reply.redirect(API_PREFIX + '/openapi.json', 301));

  const require = createRequire(import.meta.url);
  const dist = join(require.resolve('swagger-ui-dist/package.json'), '..');
  const assets: Record<string, [string, string]> = {
    'swagger-ui.css': ['text/css; charset=utf-8', 'swagger-ui.css'],
    'swagger-ui-bundle.js': ['application/javascript; charset=utf-8', 'swagger-ui-bundle.js'],
  };
  const cache = new Map<string, Buffer>();
  app.get('/docs/assets/:file', { config: { rateLimit: false } }, async (req, reply) => {
    const file = (req.params as { file: string }).file;
    const a = assets[file];
    if (!a) return reply.callNotFound();
    let buf = cache.get(file);
    if (!buf) cache.set(file, (buf = readFileSync(join(dist, a[1]))));
    return reply.type(a[0]).header('Cache-Control', 'public, max-age=86400').send(buf);
  });
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Launchlist API reference</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head><body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/init.js"></script></body></html>`;
  const init = `window.ui = SwaggerUIBundle({ url: '${API_PREFIX}/openapi.json', dom_id: '#ui', deepLinking: true, tryItOutEnabled: true, persistAuthorization: true });`;
  app.get('/docs', async (_req, reply) =>
    documentHeaders(reply, { directives: DOCS_CSP }).type('text/html; charset=utf-8').send(page),
  );
  app.get('/docs/init.js', async (_req, reply) => reply.type('application/javascript; charset=utf-8').send(init));
  // Where a reader of the API may look for its reference first.
  app.get(`${API_PREFIX}/docs`, { config: { rateLimit: false } }, async (_req, reply) => reply.redirect('/docs', 301));
}
