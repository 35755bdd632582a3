// The OpenAPI 3.1 document: valid, generated from the registry, and served with the docs page.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { testApp, type TestApp } from '../support/app.ts';
import { operations } from '../../src/operations/index.ts';

let t: TestApp;
let doc: any;
before(async () => {
  t = await testApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
});
after(async () => {
  await t.cleanup();
});

test('the document validates as OpenAPI 3.1', async () => {
  assert.equal(doc.openapi, '3.1.0');
  const result = await new Validator().validate(doc);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
});

test('every operation appears once with its operationId, status, security and shared errors', () => {
  const seen: Array<{ path: string; method: string; op: any }> = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) seen.push({ path, method: method.toUpperCase(), op });
  }
  assert.equal(seen.length, 50);
  for (const def of operations) {
    const s = seen.find((x) => x.op.operationId === def.name);
    assert.ok(s, def.name);
    assert.equal(s.path, def.path);
    assert.equal(s.method, def.method);
    assert.ok(s.op.responses[String(def.status)], `${def.name} declares ${def.status}`);
    assert.ok(s.op.responses['400'] && s.op.responses['429'], `${def.name} declares 400 and 429`);
    if (def.access === 'public') {
      assert.ok(!s.op.responses['401'], `${def.name} is public`);
    } else {
      assert.deepEqual(s.op.security, [{ bearerAuth: [def.access] }, { oauth2: [def.access] }]);
      assert.ok(s.op.responses['401'] && s.op.responses['403']);
    }
    if (def.path.includes('{')) assert.ok(s.op.responses['404'], `${def.name} declares 404`);
    assert.equal(
      s.op.parameters.some((p: any) => p.name === 'Idempotency-Key'),
      def.idempotencyKey,
      `${def.name} Idempotency-Key`,
    );
  }
});

test('parameters carry the spec limits (a sample)', () => {
  const search = doc.paths['/listings'].get;
  const q = search.parameters.find((p: any) => p.name === 'q');
  assert.equal(q.schema.maxLength, 200);
  const perPage = search.parameters.find((p: any) => p.name === 'per_page');
  assert.equal(perPage.schema.maximum, 100);
  const body = doc.paths['/orders/checkout'].post.requestBody.content['application/json'].schema;
  assert.equal(body.properties.items.maxItems, 20);
  assert.equal(body.additionalProperties, false);
  assert.equal(body.properties.items.items.properties.amount_cents.maximum, 100000000);
});

test('/docs serves the interactive reference with its assets locally (no CDN)', async () => {
  const page = await t.app.inject({ method: 'GET', url: '/docs' });
  assert.equal(page.statusCode, 200);
  assert.doesNotMatch(page.body, /https?:\/\/(?!127)/);
  for (const src of page.body.matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)) {
    const asset = await t.app.inject({ method: 'GET', url: src[1] });
    assert.equal(asset.statusCode, 200, src[1]);
  }
});

test("every link to the API reference leads to it: the site's API link, both OAuth metadata documents, /api/v1/docs", async () => {
  const moved = await t.app.inject({ method: 'GET', url: '/api/v1/docs' });
  assert.equal(moved.statusCode, 301);
  assert.equal(moved.headers.location, '/docs');
  const home = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
  const links = [...home.body.matchAll(/<a href="([^"]+)"[^>]*>API<\/a>/g)].map((m) => m[1]);
  assert.ok(links.length >= 1, 'the site links to the API reference');
  const as = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
  const pr = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource/mcp' })).json();
  for (const href of [...links, as.service_documentation, pr.resource_documentation]) {
    const res = await t.app.inject({ method: 'GET', url: new URL(href, t.config.publicUrl).pathname });
    assert.equal(res.statusCode, 200, href);
    assert.match(res.body, /Launchlist API reference/, href);
  }
});

test("an order item's options declare their limit of 20 properties (spec 4.7) in the document, as they enforce it", async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  for (const path of ['/orders/quote', '/orders/checkout']) {
    const body = doc.paths[path].post.requestBody.content['application/json'].schema;
    const schema = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
    assert.equal(schema.properties.items.items.properties.options.maxProperties, 20, path);
  }
});

test('every URL in the security schemes leads somewhere (no 404): the OAuth flow names our real endpoints', async () => {
  const flow = doc.components.securitySchemes.oauth2.flows.authorizationCode;
  // The browser is sent to the authorization URL (GET); a client POSTs to the token and refresh URLs.
  const visits: Array<[string, 'GET' | 'POST']> = [
    [flow.authorizationUrl, 'GET'],
    [flow.tokenUrl, 'POST'],
    [flow.refreshUrl, 'POST'],
  ];
  for (const [url, method] of visits) {
    const u = new URL(url);
    assert.equal(u.origin, t.config.publicUrl, `${url} is on this server`);
    const r = await t.app.inject({
      method,
      url: u.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: method === 'POST' ? 'grant_type=refresh_token' : undefined,
    });
    assert.notEqual(r.statusCode, 404, `${method} ${url} answers (got ${r.statusCode})`);
    assert.ok(r.statusCode < 500, `${method} ${url}: ${r.statusCode}`);
  }
  // The authorization endpoint is the one the OAuth metadata names.
  const meta = (await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
  assert.equal(flow.authorizationUrl, meta.authorization_endpoint);
  assert.equal(flow.tokenUrl, meta.token_endpoint);
});

test('responses declare the headers the server sends, and the server sends them', async () => {
  const get = doc.paths['/listings'].get.responses['200'];
  for (const h of [
    'X-Request-Id',
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
    'ETag',
    'Cache-Control',
  ])
    assert.ok(get.headers?.[h], `search_listings 200 declares ${h}`);
  assert.ok(doc.paths['/listings'].get.responses['304'], 'a GET declares 304 Not Modified');
  const post = doc.paths['/drafts'].post.responses['201'];
  assert.ok(post.headers['Idempotent-Replayed'], 'an idempotent operation declares Idempotent-Replayed');
  assert.ok(doc.components.responses.RateLimited.headers['Retry-After'], '429 declares Retry-After');
  for (const name of Object.keys(doc.components.headers)) assert.ok(doc.components.headers[name].description, name);

  const r = await t.app.inject({ method: 'GET', url: '/api/v1/listings' });
  for (const h of [
    'x-request-id',
    'ratelimit-limit',
    'ratelimit-remaining',
    'ratelimit-reset',
    'etag',
    'cache-control',
  ])
    assert.ok(r.headers[h], `the server sends ${h}`);
});

test('tags are described, and the document names a contact', () => {
  assert.ok(doc.info.contact?.url);
  const used = new Set(operations.flatMap((o) => o.tags));
  for (const tag of doc.tags) {
    assert.ok(used.has(tag.name));
    assert.ok(tag.description?.length > 10, `tag ${tag.name} is described`);
  }
});

test('every error response example is an error body; a 409 for a listed website names the listing and how to claim it', async () => {
  const { ErrorBody } = await import('../../src/operations/schemas.ts');
  for (const [name, r] of Object.entries(doc.components.responses) as Array<[string, any]>)
    assert.ok(ErrorBody.safeParse(r.content['application/json'].example).success, name);
  const conflict = doc.components.responses.Conflict.content['application/json'].example.error;
  assert.equal(conflict.existing_listing.claim.operation, 'claim_listing');
  const props = doc.components.schemas.Error.properties.error.properties;
  assert.deepEqual(Object.keys(props.existing_listing.properties), ['slug', 'name', 'url', 'page_url', 'claim']);
  assert.equal(props.existing_listing.additionalProperties, false);
});
