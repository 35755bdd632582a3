// /healthz, /readyz and /metrics (issue #20, item 2), and the hardening headers (item 3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { testApp } from '../support/app.ts';
import { freePort } from '../support/net.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { enqueue } from '../../src/jobs/queue.ts';
import { closedPort } from '../jobs/support/site.ts';

test('/healthz answers 200 at once; /readyz checks the database, its migrations and the job queue', async () => {
  const t = await testApp();
  try {
    const h = await t.app.inject('/healthz');
    assert.equal(h.statusCode, 200);
    assert.deepEqual(h.json(), { status: 'ok' });

    let r = await t.app.inject('/readyz');
    assert.equal(r.statusCode, 200, r.body);
    const body = r.json();
    assert.equal(body.status, 'ready');
    assert.equal(body.checks.database.ok, true);
    assert.equal(body.checks.migrations.ok, true);
    assert.equal(body.checks.redis.skipped, 'REDIS_URL is not set');
    assert.equal(body.checks.jobs.ok, true);

    // A migration this version needs is missing: not ready, and the answer names it.
    await sql`DELETE FROM kysely_migration WHERE name = '140_search_feed_summary'`.execute(t.store.db);
    await new Promise((res) => setTimeout(res, 1100)); // answers are shared for a second
    r = await t.app.inject('/readyz');
    assert.equal(r.statusCode, 503);
    assert.equal(r.json().status, 'not_ready');
    assert.deepEqual(r.json().checks.migrations.pending, ['140_search_feed_summary']);
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('140_search_feed_summary', ${new Date().toISOString()})`.execute(
      t.store.db,
    );

    // A job due for longer than READY_MAX_JOB_LAG_S (600 s) with no worker taking it: the queue is stuck.
    await enqueue(t.store.db, 'test.stuck', {}, { runAt: new Date(Date.now() - 3600_000) });
    await new Promise((res) => setTimeout(res, 1100));
    r = await t.app.inject('/readyz');
    assert.equal(r.statusCode, 503, r.body);
    assert.equal(r.json().checks.jobs.ok, false);
    assert.ok(r.json().checks.jobs.lag_s >= 3600);
    assert.match(r.json().checks.jobs.error, /WORKERS/);
    assert.equal(r.json().checks.migrations.ok, true);
  } finally {
    await t.cleanup();
  }
});

test('/readyz is 503 when REDIS_URL is set and Redis does not answer', async () => {
  const t = await testApp({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
  try {
    const r = await t.app.inject('/readyz');
    assert.equal(r.statusCode, 503, r.body);
    assert.equal(r.json().checks.redis.ok, false);
    assert.equal(r.json().checks.database.ok, true);
  } finally {
    await t.cleanup();
  }
});

test('/metrics: requests by route pattern and status with latency buckets, the job queue, the pool, caches', async () => {
  const t = await testApp();
  try {
    const slug = 'metrics-probe';
    await category(t.store.db, 'tools');
    await listing(t.store.db, {
      slug,
      name: 'Metrics Probe',
      category: 'tools',
      launched_at: new Date().toISOString(),
    });
    for (let i = 0; i < 3; i++) assert.equal((await t.app.inject(`/api/v1/listings/${slug}`)).statusCode, 200);
    assert.equal((await t.app.inject('/api/v1/listings/no-such-listing')).statusCode, 404);
    assert.equal((await t.app.inject('/api/v1/nothing-here')).statusCode, 404);
    await enqueue(t.store.db, 'test.kind', {}, { runAt: new Date(Date.now() - 5000) });

    const m = await t.app.inject('/metrics');
    assert.equal(m.statusCode, 200);
    assert.match(m.headers['content-type'] as string, /^text\/plain; version=0\.0\.4/);
    const text = m.body;
    const line = (re: RegExp) => text.split('\n').find((l) => re.test(l));
    // The route's pattern, never the slug: one series per route, method and status.
    assert.match(
      line(
        /^http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/listings\/:slug",status_code="200"\}/,
      ) ?? '',
      / 3$/,
    );
    assert.match(
      line(
        /^http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/listings\/:slug",status_code="404"\}/,
      ) ?? '',
      / 1$/,
    );
    assert.match(
      line(/^http_request_duration_seconds_count\{method="GET",route="\(unmatched\)",status_code="404"\}/) ?? '',
      / 1$/,
    );
    assert.ok(!text.includes(slug), 'no slug in any label');
    assert.ok(line(/^http_request_duration_seconds_bucket\{.*route="\/api\/v1\/listings\/:slug".*le="\+Inf"\} 3$/));
    assert.ok(line(/^http_request_duration_seconds_sum\{.*route="\/api\/v1\/listings\/:slug",status_code="200"\}/));
    assert.match(line(/^launchlist_job_queue_depth\{kind="test\.kind",state="ready"\}/) ?? '', / 1$/);
    const lag = Number(line(/^launchlist_job_queue_lag_seconds /)?.split(' ')[1]);
    assert.ok(lag >= 4 && lag < 60, `lag ${lag}`);
    assert.ok(line(/^launchlist_db_pool_connections\{engine="(sqlite|postgres)",state="total"\}/));
    assert.ok(line(/^launchlist_cache_requests_total\{cache="profile_stored",result="hit"\}/));
    assert.ok(line(/^launchlist_drafts_finished_total\{status="ready"\} 0/));
    assert.ok(line(/^process_cpu_seconds_total /), "Node's default process metrics");
    assert.ok(line(/^nodejs_eventloop_lag_seconds /));
  } finally {
    await t.cleanup();
  }
});

test('METRICS=false serves no /metrics; METRICS_PORT serves it on a listener of its own only', async () => {
  const off = await testApp({ METRICS: 'false' });
  try {
    assert.equal((await off.app.inject('/metrics')).statusCode, 404);
    assert.equal((await off.app.inject('/healthz')).statusCode, 200);
  } finally {
    await off.cleanup();
  }
  const port = await freePort();
  const own = await testApp({ METRICS_PORT: String(port), METRICS_HOST: '127.0.0.1' });
  try {
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const main = (own.app.server.address() as { port: number }).port;
    assert.equal((await fetch(`http://127.0.0.1:${main}/metrics`)).status, 404, 'not on the main port');
    await fetch(`http://127.0.0.1:${main}/healthz`);
    const r = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(r.status, 200);
    assert.match(
      await r.text(),
      /http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} 1/,
    );
    assert.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
  } finally {
    await own.cleanup();
  }
  // Closed with the app.
  await assert.rejects(fetch(`http://127.0.0.1:${port}/metrics`));
});

test('hardening headers: nosniff on every answer, HSTS only when PUBLIC_URL is https, CSP with frame-ancestors and form-action on documents', async () => {
  const http = await testApp();
  try {
    for (const url of [
      '/api/v1/site',
      '/api/v1/nothing',
      '/healthz',
      '/',
      '/docs',
      '/api/v1/openapi.json',
      '/sign-in',
      // answered by oidc-provider on the raw response (auth/oauth/routes.ts handOver)
      '/.well-known/openid-configuration',
    ]) {
      const r = await http.app.inject(url);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', url);
      assert.equal(r.headers['strict-transport-security'], undefined, `${url}: no HSTS over http`);
    }
    const page = await http.app.inject('/');
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /form-action 'self'(;|$)/);
    assert.match(csp, /default-src 'self'/);
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.equal(page.headers['referrer-policy'], 'same-origin');
    // Swagger UI keeps its own policy (data: images, inline styles) plus the two directives.
    const docs = await http.app.inject('/docs');
    assert.equal(docs.statusCode, 200);
    const dcsp = String(docs.headers['content-security-policy']);
    assert.match(dcsp, /img-src 'self' data:/);
    assert.match(dcsp, /frame-ancestors 'none'/);
    assert.match(dcsp, /form-action 'self'/);
    assert.equal((await http.app.inject('/docs/assets/swagger-ui-bundle.js')).statusCode, 200);
    // JSON answers carry no document headers.
    assert.equal((await http.app.inject('/api/v1/site')).headers['content-security-policy'], undefined);
  } finally {
    await http.cleanup();
  }
  const https = await testApp({ PUBLIC_URL: 'https://launchlist.example' });
  try {
    for (const url of ['/api/v1/site', '/', '/healthz', '/api/v1/nothing']) {
      const r = await https.app.inject(url);
      assert.equal(r.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains', url);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', url);
    }
  } finally {
    await https.cleanup();
  }
});
