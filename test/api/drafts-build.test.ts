// POST /drafts and the draft.build job on a loopback site, through the real crawler and guarded
// fetcher (127.0.0.1 allowed by FETCH_ALLOW_HOSTS): crawling → drafting → ready, the failure reasons,
// the total time cap, a worker killed mid-job, exactly-once under two workers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { testApp, type TestApp } from '../support/app.ts';
import { serveSite, productSite, closedPort, html, type Site } from '../jobs/support/site.ts';
import { testDrafter, type TestDrafter } from '../jobs/support/drafter.ts';
import { makeUser } from '../jobs/support/users.ts';
import { openStore } from '../../src/store/index.ts';
import { claimNext, drainJobs, getJob, jobHandlers } from '../../src/jobs/index.ts';
import { RobotsCache } from '../../src/drafting/crawler/robots.ts';
import type { DraftingOptions } from '../../src/services/options.ts';
import { normalizeForMatch } from '../../src/drafting/extract/evidence.ts';
import { visibleTextOfHtml } from '../../src/drafting/extract/html.ts';
import { MockLanguageModelV4 } from 'ai/test';

let t: TestApp;
let user: Awaited<ReturnType<typeof makeUser>>;
let td: TestDrafter;
const sites: Site[] = [];

before(async () => {
  t = await testApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' }, async (store) => {
    await store.db
      .insertInto('categories')
      .values({
        slug: 'note-taking',
        name: 'Note taking',
        parent_id: null,
        description: '',
        faqs: '[]',
        attributes: '[]',
        position: 1,
      })
      .execute();
  });
  user = await makeUser(t.store.db);
});
after(async () => {
  for (const s of sites) await s.close();
  await t.cleanup();
});

function setOptions(extra: DraftingOptions = {}) {
  td = testDrafter();
  // A fresh robots.txt cache per test keeps the tests independent.
  t.server.deps.services.drafting = {
    drafter: td.drafter,
    ...extra,
    crawl: { robots: new RobotsCache(), ...(extra.crawl ?? {}) },
  } satisfies DraftingOptions;
}

async function site(routes: Parameters<typeof serveSite>[0]) {
  const s = await serveSite(routes);
  sites.push(s);
  return s;
}

async function post(url: string, auth = user.auth) {
  return t.app.inject({ method: 'POST', url: '/api/v1/drafts', headers: auth, payload: { url } });
}
async function get(id: string, auth = user.auth) {
  return t.app.inject({ method: 'GET', url: `/api/v1/drafts/${id}`, headers: auth });
}
const drain = () => drainJobs(t.server.deps, jobHandlers);

test('POST /drafts answers 201 at once with a crawling draft; the job moves it through crawling and drafting to ready', async () => {
  setOptions();
  const s = await site(productSite('Acme Notes'));
  s.routes['/pricing'] = { ...(s.routes['/pricing'] as object), delayMs: 300 } as never;
  let release!: () => void;
  td.gate = new Promise<void>((ok) => {
    release = ok;
  });

  const res = await post(s.origin + '/');
  assert.equal(res.statusCode, 201);
  const d = res.json();
  assert.match(d.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(d.status, 'crawling');
  assert.deepEqual(d.progress, { stage: 'queued', pages_read: 0, pages_planned: 0 });
  assert.equal(d.url, s.origin + '/');
  assert.equal(d.fields.name.state, 'not_found');
  assert.equal(d.listing_id, null);
  assert.equal(s.requests.length, 0, 'nothing is fetched in the request itself');
  const job = await t.store.db
    .selectFrom('jobs')
    .selectAll()
    .where('kind', '=', 'draft.build')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  assert.equal(JSON.parse(job.payload).draftId, d.id);
  assert.equal(job.status, 'queued');

  const running = drain();
  // While the slow pricing page is read, the draft shows crawling with pages read so far.
  let seenCrawling: { stage: string; pages_read: number; pages_planned: number } | undefined;
  for (let i = 0; i < 200 && !seenCrawling; i++) {
    const g = (await get(d.id)).json();
    if (g.status === 'crawling' && g.progress.pages_read >= 1) seenCrawling = g.progress;
    else await delay(10);
  }
  assert.ok(seenCrawling, 'progress visible while crawling');
  assert.ok(seenCrawling!.pages_planned >= seenCrawling!.pages_read);
  // Then drafting (the drafter is held at its gate).
  let seenDrafting = false;
  for (let i = 0; i < 300 && !seenDrafting; i++) {
    const g = (await get(d.id)).json();
    if (g.status === 'drafting') seenDrafting = true;
    else await delay(10);
  }
  assert.ok(seenDrafting, 'the draft shows status drafting');
  release();
  await running;

  const ready = (await get(d.id)).json();
  assert.equal(ready.status, 'ready');
  assert.equal(ready.error, null);
  assert.equal(ready.progress.stage, 'done');
  assert.equal(ready.progress.pages_read, 3);
  assert.equal(ready.fields.name.value, 'Acme Notes');
  assert.equal(ready.fields.name.state, 'ai');
  assert.deepEqual(ready.fields.name.evidence, [{ quote: 'Acme Notes', url: s.origin + '/' }]);
  assert.deepEqual(ready.fields.features.value, ['Shared notebooks', 'Offline sync', 'End-to-end encryption']);
  assert.equal(ready.fields.country.state, 'not_found');
  assert.equal(ready.fields.country.value, null);
  assert.ok(ready.missing.includes('country'));
  assert.ok(ready.not_found_on_website.includes('country'));
  assert.ok(ready.completeness > 0 && ready.completeness < 100);
  assert.equal(Object.keys(ready.fields).length, 18);
  assert.equal(ready.pages, undefined, 'the stored pages are internal');
  // The pages read are kept (bounded) with the draft for regenerate.
  const row = await t.store.db.selectFrom('drafts').select('pages').where('id', '=', d.id).executeTakeFirstOrThrow();
  assert.deepEqual(
    JSON.parse(row.pages)
      .map((p: { url: string }) => p.url)
      .sort(),
    [s.origin + '/', s.origin + '/about', s.origin + '/pricing'].sort(),
  );
  // Nothing published, nothing charged.
  assert.equal((await t.store.db.selectFrom('listings').select('id').execute()).length, 0);
  assert.equal((await t.store.db.selectFrom('orders').select('id').execute()).length, 0);
  assert.equal((await getJob(t.store.db, job.id))?.status, 'done');
});

test('with the real rules drafter: every value carries quotes found on the site; what the site does not state stays empty', async () => {
  t.server.deps.services.drafting = { crawl: { robots: new RobotsCache() } } satisfies DraftingOptions; // no injected drafter
  const s = await site({
    ...productSite('Acme Notes'),
    '/': html(`<!doctype html><html><head><title>Acme Notes — team notes in one place</title>
      <meta name="description" content="Acme Notes keeps your team's notes in one place.">
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"SoftwareApplication","name":"Acme Notes","description":"Acme Notes keeps your team's notes in one place."}</script></head>
      <body><h1>Acme Notes</h1><p>Acme Notes keeps your team's notes in one place.</p>
      <h2>Features</h2><ul><li>Shared notebooks for every team</li><li>Offline sync on all devices</li><li>End-to-end encryption by default</li></ul>
      <a href="/pricing">Pricing</a> <a href="/about">About us</a> <a href="mailto:hello@acme-notes.example">Contact</a></body></html>`),
  });
  const d = (await post(s.origin + '/')).json();
  await drain();
  const g = (await get(d.id)).json();
  assert.equal(g.status, 'ready', JSON.stringify(g.error));
  assert.equal(g.fields.name.value, 'Acme Notes');
  assert.equal(g.fields.name.state, 'ai');
  const pages = Object.entries(s.routes)
    .filter(([p]) => p !== '/robots.txt')
    .map(([p, r]) => ({ url: s.origin + p, html: String((r as { body: string }).body) }));
  const hay = new Map(pages.map((p) => [p.url, normalizeForMatch(visibleTextOfHtml(p.html) + ' ' + p.html)]));
  let values = 0;
  for (const [f, v] of Object.entries(g.fields) as Array<
    [string, { value: unknown; state: string; evidence: Array<{ quote: string; url: string }> }]
  >) {
    if (v.state === 'ai') {
      values++;
      assert.ok(v.evidence.length > 0, `${f} has evidence`);
      for (const e of v.evidence) {
        assert.ok(hay.has(e.url), `${f}: evidence URL ${e.url} is a page of the site`);
        assert.ok(
          hay.get(e.url)!.includes(normalizeForMatch(e.quote)),
          `${f}: quote ${JSON.stringify(e.quote)} is on ${e.url}`,
        );
      }
    } else {
      assert.equal(v.state, 'not_found', f);
      assert.equal(v.value, null, `${f} is empty when not found`);
      assert.deepEqual(v.evidence, []);
    }
  }
  assert.ok(values >= 3, `at least name, tagline and features are drafted (${values})`);
  for (const f of ['founded_year', 'demo_video_url', 'country'])
    assert.equal(g.fields[f].value, null, `${f} is not stated on the site`);
  assert.ok(g.missing.includes('founded_year'));
});

function mockLlm(proposal: unknown): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: 'text', text: JSON.stringify(proposal) }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 20, text: 20, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

test('with an LLM configured: verified proposals are used, an unsupported one is dropped; regenerate asks the LLM again', async () => {
  const s = await site(productSite('Acme Notes'));
  const home = s.origin + '/';
  const model = mockLlm({
    tagline: {
      value: 'The #1 notes app, loved by millions',
      quotes: [{ quote: 'loved by millions of teams', url: home }],
    },
    description: {
      value: "Acme Notes keeps your team's notes in one place, with shared notebooks and offline sync.",
      quotes: [
        { quote: "Acme Notes keeps your team's notes in one place.", url: home },
        { quote: 'Shared notebooks', url: home },
        { quote: 'Offline sync', url: home },
      ],
    },
    categories: [
      { name: 'Note taking', quotes: [{ quote: "keeps your team's notes in one place", url: home }] },
      { name: 'Astrology', quotes: [{ quote: 'Offline sync', url: home }] },
    ],
    features: null,
  });
  t.server.deps.services.drafting = { crawl: { robots: new RobotsCache() }, llmModel: model } satisfies DraftingOptions;
  const d = (await post(home)).json();
  await drain();
  const g = (await get(d.id)).json();
  assert.equal(g.status, 'ready');
  assert.equal(model.doGenerateCalls.length, 1);
  assert.equal(
    g.fields.description.value,
    "Acme Notes keeps your team's notes in one place, with shared notebooks and offline sync.",
  );
  assert.equal(g.fields.description.state, 'ai');
  assert.equal(g.fields.description.evidence.length, 3);
  assert.notEqual(
    g.fields.tagline.value,
    'The #1 notes app, loved by millions',
    'a value whose quote is not on the site is dropped',
  );
  assert.deepEqual(g.fields.categories.value, ['Note taking'], 'only categories of our tree');
  // regenerate: the LLM is asked again, for the requested field only, from the stored pages.
  const before = s.requests.length;
  const r = await t.app.inject({
    method: 'PATCH',
    url: `/api/v1/drafts/${d.id}`,
    headers: user.auth,
    payload: { fields: { description: 'mine' } },
  });
  assert.equal(r.json().fields.description.state, 'edited');
  const re = (
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/drafts/${d.id}`,
      headers: user.auth,
      payload: { regenerate: ['description'] },
    })
  ).json();
  assert.equal(model.doGenerateCalls.length, 2);
  assert.match(JSON.stringify(model.doGenerateCalls[1].prompt), /Fields wanted: description/);
  assert.equal(re.fields.description.state, 'ai');
  assert.equal(re.fields.description.value, g.fields.description.value);
  assert.equal(s.requests.length, before, 'regenerate reads no page again');
});

async function failedDraft(url: string) {
  const res = await post(url);
  assert.equal(res.statusCode, 201);
  await drain();
  const g = (await get(res.json().id)).json();
  assert.equal(g.status, 'failed', JSON.stringify(g.error));
  assert.equal(g.progress.stage, 'failed');
  assert.equal(typeof g.error.message, 'string');
  assert.ok(g.error.message.length > 10);
  assert.equal(td.calls.length, 0, 'nothing is drafted from a site that could not be read');
  return g;
}

test('an unreachable site ends in failed with reason unreachable', async () => {
  setOptions();
  const port = await closedPort();
  const g = await failedDraft(`http://127.0.0.1:${port}/`);
  assert.equal(g.error.reason, 'unreachable');
});

test('a site whose robots.txt disallows us ends in failed with reason robots_disallowed', async () => {
  setOptions();
  const s = await site({
    ...productSite(),
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /\n' },
  });
  const g = await failedDraft(s.origin + '/');
  assert.equal(g.error.reason, 'robots_disallowed');
  assert.deepEqual(s.requests, ['/robots.txt'], 'only robots.txt was read');
});

test('a URL that is not an HTML page ends in failed with reason not_html', async () => {
  setOptions();
  const s = await site({ '/': { type: 'application/pdf', body: '%PDF-1.4 not a web page' } });
  const g = await failedDraft(s.origin + '/');
  assert.equal(g.error.reason, 'not_html');
});

test('a page over the size cap ends in failed with reason too_large', async () => {
  setOptions({ crawl: { maxBytesPerPage: 20_000 } });
  const s = await site({ '/': html('<!doctype html><title>Big</title><p>' + 'x'.repeat(60_000) + '</p>') });
  const g = await failedDraft(s.origin + '/');
  assert.equal(g.error.reason, 'too_large');
});

test('a site that never answers ends in failed with reason timeout within the total time cap (no hang)', async () => {
  setOptions({ totalTimeMs: 1500 });
  const s = await site({
    '/robots.txt': { type: 'text/plain', body: '' },
    '/': () => {
      /* never answers */
    },
  });
  const started = Date.now();
  const g = await failedDraft(s.origin + '/');
  assert.equal(g.error.reason, 'timeout');
  assert.ok(Date.now() - started < 6000, `took ${Date.now() - started} ms`);
});

test('POST /drafts refuses a URL that is not http(s), has no host, or is plainly not public — 400 naming url', async () => {
  // Words that are no website address ("not-a-url", read as https://not-a-url/) and hosts that are no domain name are refused too.
  for (const url of [
    'ftp://example.com/',
    'javascript:alert(1)',
    'http://',
    'http://user:pw@example.com/',
    'http://localhost/',
    'http://10.1.2.3/',
    'http://[::1]/',
    'not-a-url',
    'hello',
    'https://intranet/',
    'https://.com/',
    'https://a..example/',
    'https://exa_mple.com/',
  ]) {
    const res = await post(url);
    assert.equal(res.statusCode, 400, url);
    const body = res.json();
    assert.equal(body.error.code, 'validation_failed');
    assert.equal(body.error.details[0].path, 'body.url', url);
  }
  const long = await post('https://example.com/' + 'a'.repeat(2100));
  assert.equal(long.statusCode, 400);
  const extra = await t.app.inject({
    method: 'POST',
    url: '/api/v1/drafts',
    headers: user.auth,
    payload: { url: 'https://example.com', x: 1 },
  });
  assert.equal(extra.statusCode, 400);
  // A bare domain is read as https.
  const bare = await post('example.com');
  assert.equal(bare.statusCode, 201);
  assert.equal(bare.json().url, 'https://example.com/');
  for (const url of [
    'https://www.example.org/pricing',
    'http://93.184.216.34/',
    'https://bücher.example/',
    'https://example.com./',
  ])
    assert.equal((await post(url)).statusCode, 201, url);
  await t.store.db.deleteFrom('jobs').where('status', '=', 'queued').execute();
});

test('a worker killed mid-job: after its lease expires another worker resumes the draft and completes it', async () => {
  setOptions();
  const s = await site(productSite('Resume Co'));
  const d = (await post(s.origin + '/')).json();
  // Worker A claims the build and starts crawling, then dies: its progress stays, its lease runs out.
  const deps = t.server.deps;
  const a = await claimNext(deps, 'worker-A', { leaseMs: 60_000 });
  assert.ok(a);
  await t.store.db
    .updateTable('drafts')
    .set({ stage: 'pages', pages_read: 1, pages_planned: 3 })
    .where('id', '=', d.id)
    .execute();
  assert.equal((await drain()).length, 0, 'the job is leased to worker A');
  assert.equal((await get(d.id)).json().status, 'crawling');
  await t.store.db
    .updateTable('jobs')
    .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', a!.id)
    .execute();
  const ran = await drainJobs(deps, jobHandlers, { workerId: 'worker-B' });
  assert.equal(ran.length, 1);
  assert.equal(ran[0].outcome, 'done');
  const g = (await get(d.id)).json();
  assert.equal(g.status, 'ready');
  assert.equal(g.fields.name.value, 'Resume Co');
  const job = await getJob(t.store.db, a!.id);
  assert.equal(job?.status, 'done');
  assert.equal(job?.attempts, 2);
});

test('exactly-once: two instances working the queue at once build each draft once', async () => {
  setOptions();
  const s = await site(productSite('Twice Inc'));
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) ids.push((await post(`${s.origin}/?v=${i}`)).json().id);
  const other = await openStore(t.config);
  try {
    const otherDeps = { ...t.server.deps, store: other };
    const [x, y] = await Promise.all([
      drainJobs(t.server.deps, jobHandlers, { workerId: 'X' }),
      drainJobs(otherDeps, jobHandlers, { workerId: 'Y' }),
    ]);
    assert.equal(x.length + y.length, 4);
  } finally {
    await other.close();
  }
  assert.equal(td.calls.length, 4, 'each draft was drafted once');
  for (const id of ids) assert.equal((await get(id)).json().status, 'ready');
});

test('a build that keeps failing is retried, then the draft ends failed (internal) instead of staying crawling', async () => {
  setOptions();
  t.server.deps.services.drafting = {
    ...(t.server.deps.services.drafting as object),
    drafter: async () => {
      throw new Error('drafter crashed');
    },
  };
  const s = await site(productSite('Crash Ltd'));
  const d = (await post(s.origin + '/')).json();
  let clock = Date.now();
  const deps = { ...t.server.deps, now: () => new Date(clock) };
  for (let i = 0; i < 3; i++) {
    await drainJobs(deps, jobHandlers, { backoffMs: 10 });
    clock += 60_000;
  }
  const g = (await get(d.id)).json();
  assert.equal(g.status, 'failed');
  assert.equal(g.error.reason, 'internal');
  const job = await t.store.db
    .selectFrom('jobs')
    .selectAll()
    .where('payload', 'like', `%${d.id}%`)
    .executeTakeFirstOrThrow();
  assert.equal(job.status, 'failed');
  assert.equal(job.attempts, 3);
});

test('drafts are private: another user gets 404, a malformed id 400, an unknown id 404; no credentials 401', async () => {
  const mine = (await post('https://example.org/')).json();
  const other = await makeUser(t.store.db);
  assert.equal((await get(mine.id, other.auth)).statusCode, 404);
  const malformed = await get('not-a-uuid');
  assert.equal(malformed.statusCode, 400);
  assert.equal(malformed.json().error.details[0].path, 'path.id');
  assert.match(
    malformed.json().error.details[0].message,
    /must be a UUID: 8-4-4-4-12 hexadecimal digits/,
    'says what is accepted (was: "Invalid GUID")',
  );
  // A UUID is case-insensitive (RFC 9562): the caller's own draft by its id in capitals is that draft, not a 404.
  const upper = await get(mine.id.toUpperCase());
  assert.equal(upper.statusCode, 200, upper.body);
  assert.equal(upper.json().id, mine.id);
  assert.equal((await get('3f0c8a9e-1b2c-4d5e-8f90-123456789abc')).statusCode, 404);
  for (const id of ['11111111-1111-1111-1111-111111111111', '00000000-0000-0000-0000-000000000001']) {
    assert.equal(
      (await get(id)).statusCode,
      404,
      `${id} has the shape of a uuid (its version and variant bits are not checked)`,
    );
  }
  assert.equal((await t.app.inject({ method: 'GET', url: `/api/v1/drafts/${mine.id}` })).statusCode, 401);
  const readOnly = await makeUser(t.store.db, ['account:read']);
  assert.equal((await post('https://example.org/', readOnly.auth)).statusCode, 403);
  await t.store.db.deleteFrom('jobs').where('status', '=', 'queued').execute();
});

test("GET /drafts lists the caller's drafts newest first with status and completeness, paginated", async () => {
  const u = await makeUser(t.store.db);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    ids.push((await post(`https://example${i}.org/`, u.auth)).json().id);
    await delay(5);
  }
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/drafts?per_page=2', headers: u.auth });
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.total, 3);
  assert.equal(body.has_more, true);
  assert.deepEqual(
    body.items.map((i: { id: string }) => i.id),
    [ids[2], ids[1]],
  );
  assert.equal(body.items[0].status, 'crawling');
  assert.equal(typeof body.items[0].completeness, 'number');
  const p2 = (await t.app.inject({ method: 'GET', url: '/api/v1/drafts?per_page=2&page=2', headers: u.auth })).json();
  assert.deepEqual(
    p2.items.map((i: { id: string }) => i.id),
    [ids[0]],
  );
  const none = (await t.app.inject({ method: 'GET', url: '/api/v1/drafts', headers: user.auth })).json();
  assert.ok(
    none.items.every((i: { id: string }) => !ids.includes(i.id)),
    "another user's drafts are not listed",
  );
  await t.store.db.deleteFrom('jobs').where('status', '=', 'queued').execute();
});

test('POST /drafts with an Idempotency-Key: a retry returns the same draft and starts no second build', async () => {
  const u = await makeUser(t.store.db);
  const h = { ...u.auth, 'idempotency-key': 'draft-retry-1' };
  const a = await t.app.inject({
    method: 'POST',
    url: '/api/v1/drafts',
    headers: h,
    payload: { url: 'https://idempotent.example/' },
  });
  const b = await t.app.inject({
    method: 'POST',
    url: '/api/v1/drafts',
    headers: h,
    payload: { url: 'https://idempotent.example/' },
  });
  assert.equal(a.statusCode, 201);
  assert.equal(b.statusCode, 201);
  assert.equal(b.headers['idempotent-replayed'], 'true');
  assert.equal(b.json().id, a.json().id);
  const drafts = await t.store.db.selectFrom('drafts').select('id').where('user_id', '=', u.id).execute();
  assert.equal(drafts.length, 1);
  const jobs = await t.store.db.selectFrom('jobs').select('id').where('payload', 'like', `%${a.json().id}%`).execute();
  assert.equal(jobs.length, 1);
  await t.store.db.deleteFrom('jobs').where('status', '=', 'queued').execute();
});
