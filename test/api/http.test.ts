// The REST adapter's shared behaviour: error body, request ids, 404/413/400, CORS, ETag/304, compression, rate limits.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Redis } from 'ioredis';
import { testApp, type TestApp } from '../support/app.ts';
import { defineOperation } from '../../src/operations/define.ts';
import { createServer } from '../../src/server.ts';

// A small operation set drives the mechanism independently of any handler's business logic.
let calls = 0;
const echo = defineOperation({
  name: 'echo',
  method: 'POST',
  path: '/echo/{id}',
  access: 'public',
  tags: ['t'],
  summary: 's',
  description: 'd',
  params: z.object({ id: z.coerce.number().int().min(1) }),
  body: z.strictObject({ text: z.string().max(5), nested: z.strictObject({ n: z.number().int() }).optional() }),
  response: z.object({ id: z.number(), text: z.string() }),
  examples: { response: { id: 1, text: 'hi' } },
  status: 201,
  idempotencyKey: false,
  paginated: false,
  handler: async (_ctx, input) => {
    calls++;
    return { id: input.id, text: input.text };
  },
});
const big = defineOperation({
  name: 'big',
  method: 'GET',
  path: '/big',
  access: 'public',
  tags: ['t'],
  summary: 's',
  description: 'd',
  query: z.object({ n: z.coerce.number().int().min(1).max(5000).default(2000) }),
  response: z.object({ words: z.array(z.string()) }),
  examples: { response: { words: ['word'] } },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (_ctx, input) => ({ words: Array.from({ length: input.n }, (_, i) => `word-${i}`) }),
});

let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => {
  await t.cleanup();
});

async function appWith(overrides: Record<string, unknown> = {}) {
  const server = await createServer({ ...t.config, ...overrides } as never, t.store, { operations: [echo, big] });
  await server.app.ready();
  return server;
}

test('validation errors are 400 with the error body naming the field and the rule', async () => {
  const s = await appWith();
  const r = await s.app.inject({ method: 'POST', url: '/api/v1/echo/1', payload: { text: 'too long text' } });
  assert.equal(r.statusCode, 400);
  const body = r.json();
  assert.equal(body.error.code, 'validation_failed');
  assert.equal(body.error.details[0].path, 'body.text');
  assert.match(body.error.details[0].message, /5/);
  assert.equal(body.error.request_id, r.headers['x-request-id']);

  const unknown = await s.app.inject({
    method: 'POST',
    url: '/api/v1/echo/1',
    payload: { text: 'ok', nested: { n: 1, extra: true } },
  });
  assert.equal(unknown.statusCode, 400);
  assert.equal(unknown.json().error.details[0].path, 'body.nested');
  assert.match(unknown.json().error.details[0].message, /"extra"/);

  const path = await s.app.inject({ method: 'POST', url: '/api/v1/echo/0', payload: { text: 'ok' } });
  assert.equal(path.statusCode, 400);
  assert.equal(path.json().error.details[0].path, 'path.id');

  const missing = await s.app.inject({ method: 'POST', url: '/api/v1/echo/1' });
  assert.equal(missing.statusCode, 400);
  assert.equal(missing.json().error.details[0].path, 'body');
  assert.equal(calls, 0, 'no handler ran for invalid input');
  await s.close();
});

test('malformed JSON is a 400, an oversized body a 413, both with the error body', async () => {
  const s = await appWith();
  const bad = await s.app.inject({
    method: 'POST',
    url: '/api/v1/echo/1',
    headers: { 'content-type': 'application/json' },
    payload: '{"text":',
  });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().error.code, 'validation_failed');
  const huge = await s.app.inject({
    method: 'POST',
    url: '/api/v1/echo/1',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) }),
  });
  assert.equal(huge.statusCode, 413);
  assert.equal(huge.json().error.code, 'payload_too_large');
  await s.close();
});

test('a created resource answers the declared status; unknown routes are JSON 404s', async () => {
  const s = await appWith();
  const ok = await s.app.inject({ method: 'POST', url: '/api/v1/echo/7', payload: { text: 'hi' } });
  assert.equal(ok.statusCode, 201);
  assert.deepEqual(ok.json(), { id: 7, text: 'hi' });
  const nf = await s.app.inject({ method: 'GET', url: '/api/v1/does-not-exist' });
  assert.equal(nf.statusCode, 404);
  assert.equal(nf.json().error.code, 'not_found');
  await s.close();
});

test('integers in the path and the query must be written in digits: 1e3, " 1" and 0x10 are 400s, not coerced', async () => {
  const s = await appWith();
  const callsBefore = calls;
  for (const id of ['1e3', '%201', '0x10', '1.0', '+1']) {
    const r = await s.app.inject({ method: 'POST', url: `/api/v1/echo/${id}`, payload: { text: 'ok' } });
    assert.equal(r.statusCode, 400, `id ${id}`);
    assert.equal(r.json().error.details[0].path, 'path.id');
    assert.match(r.json().error.details[0].message, /digits/);
  }
  for (const n of ['2e1', '', ' 5']) {
    const r = await s.app.inject({ method: 'GET', url: `/api/v1/big?n=${encodeURIComponent(n)}` });
    assert.equal(r.statusCode, 400, `n=${JSON.stringify(n)}`);
    assert.equal(r.json().error.details[0].path, 'query.n');
  }
  assert.equal((await s.app.inject({ method: 'GET', url: '/api/v1/big?n=3' })).json().words.length, 3);
  assert.equal(calls, callsBefore, 'no handler ran for them');
  await s.close();
});

test("long or malformed path segments are 400s with the error body (not the router's own 414 or 400)", async () => {
  // 220 characters is the longest slug the spec allows: a valid shape, so an unknown one is a 404.
  const slug = 'a'.repeat(220);
  const unknown = await t.app.inject({ method: 'GET', url: `/api/v1/listings/${slug}` });
  assert.equal(unknown.statusCode, 404);
  assert.equal(unknown.json().error.code, 'not_found');
  const tooLong = await t.app.inject({ method: 'GET', url: `/api/v1/listings/${'a'.repeat(221)}` });
  assert.equal(tooLong.statusCode, 400);
  assert.equal(tooLong.json().error.details[0].path, 'path.slug');
  const week = await t.app.inject({ method: 'GET', url: `/api/v1/launches/weeks/${'2'.repeat(150)}` });
  assert.equal(week.statusCode, 400);
  assert.equal(week.json().error.details[0].path, 'path.week');
  for (const url of [`/api/v1/listings/${'a'.repeat(3000)}`, '/api/v1/listings/%E0%A4%A']) {
    const r = await t.app.inject({ method: 'GET', url });
    assert.equal(r.statusCode, 400, url.slice(0, 60));
    assert.equal(r.json().error.code, 'validation_failed');
    assert.equal(r.json().error.request_id, r.headers['x-request-id']);
  }
});

test('X-Request-Id is generated, or echoed when the caller sends a sane one', async () => {
  const s = await appWith();
  const a = await s.app.inject({ method: 'GET', url: '/api/v1/big' });
  assert.match(String(a.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  const b = await s.app.inject({ method: 'GET', url: '/api/v1/big', headers: { 'x-request-id': 'client-req-12345' } });
  assert.equal(b.headers['x-request-id'], 'client-req-12345');
  const c = await s.app.inject({
    method: 'GET',
    url: '/api/v1/big',
    headers: { 'x-request-id': 'bad id with spaces<script>' },
  });
  assert.notEqual(c.headers['x-request-id'], 'bad id with spaces<script>');
  await s.close();
});

test('public GETs carry ETag and Cache-Control, and answer 304 to a matching If-None-Match', async () => {
  const s = await appWith();
  const a = await s.app.inject({ method: 'GET', url: '/api/v1/big?n=3' });
  assert.equal(a.statusCode, 200);
  assert.match(String(a.headers['cache-control']), /public/);
  const etag = String(a.headers.etag);
  assert.ok(etag.startsWith('W/"'));
  const b = await s.app.inject({ method: 'GET', url: '/api/v1/big?n=3', headers: { 'if-none-match': etag } });
  assert.equal(b.statusCode, 304);
  assert.equal(b.body, '');
  const c = await s.app.inject({ method: 'GET', url: '/api/v1/big?n=4', headers: { 'if-none-match': etag } });
  assert.equal(c.statusCode, 200, 'a different representation is not a 304');
  await s.close();
});

test('large responses are compressed when the client accepts it', async () => {
  const s = await appWith();
  const r = await s.app.inject({ method: 'GET', url: '/api/v1/big', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(r.headers['content-encoding'], 'gzip');
  await s.close();
});

test('CORS: preflight allows the API headers from any origin', async () => {
  const s = await appWith();
  const r = await s.app.inject({
    method: 'OPTIONS',
    url: '/api/v1/echo/1',
    headers: {
      origin: 'https://agent.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,idempotency-key,content-type',
    },
  });
  assert.equal(r.statusCode, 204);
  assert.equal(r.headers['access-control-allow-origin'], 'https://agent.example');
  assert.match(String(r.headers['access-control-allow-headers']).toLowerCase(), /idempotency-key/);
  const g = await s.app.inject({ method: 'GET', url: '/api/v1/big?n=1', headers: { origin: 'https://agent.example' } });
  assert.equal(g.headers['access-control-allow-origin'], 'https://agent.example');
  assert.match(String(g.headers['access-control-expose-headers']), /X-Request-Id/);
  assert.match(String(g.headers.vary), /Origin/);
  const plain = await s.app.inject({ method: 'GET', url: '/api/v1/big?n=1' });
  assert.equal(plain.headers['access-control-allow-origin'], undefined, 'no Origin, no CORS grant');
  assert.match(String(plain.headers.vary), /Origin/, 'but caches are told the answer depends on Origin');
  await s.close();
});

test('rate limits: 429 with the error body, Retry-After and RateLimit-* headers', async () => {
  const s = await appWith({ RATE_LIMIT_MAX: 3, RATE_LIMIT_WINDOW_MS: 60_000 });
  const codes: number[] = [];
  let last: Awaited<ReturnType<typeof s.app.inject>> | undefined;
  for (let i = 0; i < 4; i++) {
    last = await s.app.inject({ method: 'GET', url: '/api/v1/big?n=1', remoteAddress: '10.9.8.7' });
    codes.push(last.statusCode);
  }
  assert.deepEqual(codes, [200, 200, 200, 429]);
  assert.equal(last!.json().error.code, 'rate_limited');
  assert.ok(Number(last!.headers['retry-after']) > 0);
  assert.equal(last!.headers['ratelimit-limit'], '3');
  assert.equal(last!.headers['ratelimit-remaining'], '0');
  const other = await s.app.inject({ method: 'GET', url: '/api/v1/big?n=1', remoteAddress: '10.9.8.8' });
  assert.equal(other.statusCode, 200, 'another client has its own budget');
  const exempt = await s.app.inject({ method: 'GET', url: '/api/v1/openapi.json', remoteAddress: '10.9.8.7' });
  assert.equal(exempt.statusCode, 200, 'routes registered with rateLimit: false are not limited');
  assert.equal(exempt.headers['ratelimit-limit'], undefined);
  await s.close();
});

test('pages, badge images and the API have separate budgets: browsing or an embedded badge never uses up the API limit', async () => {
  const s = await appWith({
    RATE_LIMIT_MAX: 2,
    RATE_LIMIT_PAGES_MAX: 3,
    RATE_LIMIT_BADGES_MAX: 4,
    RATE_LIMIT_WINDOW_MS: 60_000,
  });
  const ip = '10.9.8.20';
  const codes = async (url: string, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await s.app.inject({ method: 'GET', url, remoteAddress: ip })).statusCode);
    return out;
  };
  // The badge image of a listing that does not exist is a 404, still counted against the badge budget.
  const badges = await codes('/badges/no-such-listing/launched.svg', 5);
  assert.equal(badges.slice(0, 4).includes(429), false, 'four badge images within the badge budget');
  assert.equal(badges[4], 429, 'the fifth badge image is over the badge budget');
  const pages = await codes('/categories', 4);
  assert.deepEqual(pages.slice(0, 3).includes(429), false, 'pages have their own budget, untouched by the badges');
  assert.equal(pages[3], 429);
  const page429 = await s.app.inject({ method: 'GET', url: '/categories', remoteAddress: ip });
  assert.match(String(page429.headers['ratelimit-limit']), /^3$/);
  assert.deepEqual(
    await codes('/api/v1/big?n=1', 3),
    [200, 200, 429],
    'the API budget is whole after pages and badges',
  );
  await s.close();
});

test('X-Forwarded-For is believed only from trusted proxies (TRUST_PROXY): by default a client cannot name its own address', async () => {
  const limited = async (overrides: Record<string, unknown>) => {
    const s = await appWith({ RATE_LIMIT_MAX: 2, RATE_LIMIT_WINDOW_MS: 60_000, ...overrides });
    const codes: number[] = [];
    for (let i = 1; i <= 3; i++)
      codes.push(
        (
          await s.app.inject({
            method: 'GET',
            url: '/api/v1/big?n=1',
            remoteAddress: '10.7.7.7',
            headers: { 'x-forwarded-for': `198.51.100.${i}` },
          })
        ).statusCode,
      );
    await s.close();
    return codes;
  };
  assert.deepEqual(
    await limited({}),
    [200, 200, 429],
    'default: the connecting address counts, whatever the header says',
  );
  assert.deepEqual(
    await limited({ TRUST_PROXY: '10.0.0.0/8' }),
    [200, 200, 200],
    'behind a trusted proxy, each forwarded client has its own count',
  );
  assert.deepEqual(
    await limited({ TRUST_PROXY: '192.0.2.1' }),
    [200, 200, 429],
    'a proxy not on the list is not believed',
  );
});

test('rate limits are shared between instances through Redis when REDIS_URL is set', async (ctx) => {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 500 });
  try {
    await probe.connect();
    await probe.ping();
  } catch {
    probe.disconnect();
    ctx.skip('no Redis on ' + url);
    return;
  }
  probe.disconnect();
  const ip = `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const a = await appWith({ RATE_LIMIT_MAX: 2, RATE_LIMIT_WINDOW_MS: 60_000, REDIS_URL: url });
  const b = await appWith({ RATE_LIMIT_MAX: 2, RATE_LIMIT_WINDOW_MS: 60_000, REDIS_URL: url });
  const r1 = await a.app.inject({ method: 'GET', url: '/api/v1/big?n=1', remoteAddress: ip });
  const r2 = await b.app.inject({ method: 'GET', url: '/api/v1/big?n=1', remoteAddress: ip });
  const r3 = await a.app.inject({ method: 'GET', url: '/api/v1/big?n=1', remoteAddress: ip });
  assert.deepEqual([r1.statusCode, r2.statusCode, r3.statusCode], [200, 200, 429]);
  await a.close();
  await b.close();
});

test('401 challenges name the protected resource metadata; an invalid token says invalid_token', async () => {
  const none = await t.app.inject({ method: 'GET', url: '/api/v1/me' });
  assert.equal(none.statusCode, 401);
  const www = String(none.headers['www-authenticate']);
  assert.match(www, /^Bearer /);
  assert.match(www, /resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/api\/v1"/);
  assert.match(www, /scope="account:read"/);
  const meta = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource/api/v1' });
  assert.equal(meta.statusCode, 200);
  const docs = new URL(meta.json().resource_documentation);
  assert.equal(
    (await t.app.inject({ method: 'GET', url: docs.pathname })).statusCode,
    200,
    `resource_documentation ${docs.pathname} is a page`,
  );
  const bad = await t.app.inject({
    method: 'GET',
    url: '/api/v1/me',
    headers: { authorization: 'Bearer llk_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' },
  });
  assert.equal(bad.statusCode, 401);
  assert.match(String(bad.headers['www-authenticate']), /error="invalid_token"/);
});

test('a credential that is not valid is ignored by public operations (served as anonymous) and a 401 for the others', async () => {
  for (const authorization of [
    'Bearer llk_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB',
    'Bearer not-a-token',
    'Basic Zm9vOmJhcg==',
  ]) {
    const pub = await t.app.inject({ method: 'GET', url: '/api/v1/site', headers: { authorization } });
    assert.equal(pub.statusCode, 200, `${authorization}: ${pub.body}`);
    assert.equal(pub.headers['cache-control'], 'public, max-age=30', 'served as to anyone');
    const own = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization } });
    assert.equal(own.statusCode, 401, authorization);
    assert.equal(own.json().error.code, 'unauthorized');
    assert.match(String(own.headers['www-authenticate']), /error="invalid_token"/);
  }
});

test('a body sent as a form or as text (curl -d without a Content-Type) is a 400 saying to send JSON, not a puzzle about unknown fields', async () => {
  const s = await appWith();
  const json = JSON.stringify({ text: 'ok' });
  for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'text/plain; charset=utf-8']) {
    const r = await s.app.inject({
      method: 'POST',
      url: '/api/v1/echo/1',
      headers: { 'content-type': type },
      payload: json,
    });
    assert.equal(r.statusCode, 400, type);
    assert.equal(r.json().error.details[0].path, 'body');
    assert.match(
      r.json().error.details[0].message,
      new RegExp(
        `must be JSON, sent with the header Content-Type: application/json \\(this request's body was sent as ${type.split(';')[0].replace('+', '\\+')}\\)`,
      ),
    );
  }
  for (const type of ['application/json', 'application/json; charset=utf-8']) {
    const r = await s.app.inject({
      method: 'POST',
      url: '/api/v1/echo/1',
      headers: { 'content-type': type },
      payload: json,
    });
    assert.equal(r.statusCode, 201, `${type}: ${r.body}`);
  }
  await s.close();
});

test('a POST that takes no body accepts an empty body sent as application/json; a JSON body still must be valid', async () => {
  const s = await appWith();
  const noBody = defineOperation({
    name: 'nobody',
    method: 'POST',
    path: '/nobody',
    access: 'public',
    tags: ['t'],
    summary: 's',
    description: 'd',
    response: z.object({ ok: z.boolean() }),
    examples: { response: { ok: true } },
    status: 200,
    idempotencyKey: false,
    paginated: false,
    handler: async () => ({ ok: true }),
  });
  const server = await createServer(t.config, t.store, { operations: [noBody] });
  const empty = await server.app.inject({
    method: 'POST',
    url: '/api/v1/nobody',
    headers: { 'content-type': 'application/json' },
    payload: '',
  });
  assert.equal(empty.statusCode, 200, empty.body);
  const extra = await server.app.inject({ method: 'POST', url: '/api/v1/nobody', payload: { surprise: 1 } });
  assert.equal(extra.statusCode, 400);
  const poisoned = await s.app.inject({
    method: 'POST',
    url: '/api/v1/echo/1',
    headers: { 'content-type': 'application/json' },
    payload: '{"text":"ok","__proto__":{"x":1}}',
  });
  assert.equal(poisoned.statusCode, 400);
  assert.equal(poisoned.json().error.code, 'validation_failed');
  await server.close();
  await s.close();
});

test('a body nested deeper than 32 levels is a 400 before anything reads it', async () => {
  const s = await appWith();
  for (const depth of [33, 100_000]) {
    const body = `{"text":"ok","nested":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const r = await s.app.inject({
      method: 'POST',
      url: '/api/v1/echo/1',
      headers: { 'content-type': 'application/json', 'idempotency-key': `deep-${depth}` },
      payload: body,
    });
    assert.equal(r.statusCode, 400, `depth ${depth}`);
    assert.equal(r.json().error.code, 'validation_failed');
    assert.equal(r.json().error.details[0].path, 'body');
  }
  // Brackets inside strings do not count; 32 levels are accepted (and refused by the schema for what they are).
  const strings = await s.app.inject({
    method: 'POST',
    url: '/api/v1/echo/1',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ text: '[[[[[' + '{'.repeat(50) }),
  });
  assert.equal(strings.json().error.details[0].path, 'body.text', 'too long, not too deep');
  const d32 = await s.app.inject({
    method: 'POST',
    url: '/api/v1/echo/1',
    headers: { 'content-type': 'application/json' },
    payload: `{"text":"ok","nested":${'['.repeat(31)}${']'.repeat(31)}}`,
  });
  assert.equal(d32.statusCode, 400);
  assert.equal(d32.json().error.details[0].path, 'body.nested', 'reached the schema');
  await s.close();
});

test('a NUL character anywhere in a request is a 400 naming where, on the API and on the website', async () => {
  const s = await appWith();
  const body = await s.app.inject({ method: 'POST', url: '/api/v1/echo/1', payload: { text: 'a\u0000b' } });
  assert.equal(body.statusCode, 400);
  assert.equal(body.json().error.details[0].path, 'body.text');
  assert.match(body.json().error.details[0].message, /NUL/);
  const query = await s.app.inject({ method: 'GET', url: '/api/v1/big?n=%00' });
  assert.equal(query.json().error.details[0].path, 'query.n');
  await s.close();
  for (const url of ['/blog?q=%00', '/founders?q=a%00b', '/listings/a%00b']) {
    const page = await t.app.inject({ method: 'GET', url });
    assert.equal(page.statusCode, 400, url);
  }
  const form = await t.app.inject({
    method: 'POST',
    url: '/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'email=a%00b%40x.example&password=x',
  });
  assert.equal(form.statusCode, 400);
});

test("requests Node's HTTP parser refuses (oversized headers, a malformed request line) still get the error body", async () => {
  const { connect } = await import('node:net');
  const s = await appWith();
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (s.app.server.address() as { port: number }).port;
  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(text));
      let out = '';
      socket.on('data', (d) => (out += d));
      socket.on('close', () => resolve(out));
      socket.on('error', reject);
    });
  const big = await raw(`GET /api/v1/big HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  assert.match(big, /^HTTP\/1\.1 431 /);
  const bigBody = JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4));
  assert.equal(bigBody.error.code, 'headers_too_large');
  assert.match(big, new RegExp(`X-Request-Id: ${bigBody.error.request_id}`));
  const bad = await raw('GET /api/v1/big HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\x01b\r\n\r\n');
  assert.match(bad, /^HTTP\/1\.1 400 /);
  assert.equal(JSON.parse(bad.slice(bad.indexOf('\r\n\r\n') + 4)).error.code, 'validation_failed');
  await s.close();
});
