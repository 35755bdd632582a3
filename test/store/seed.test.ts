// The demo content: what it holds, that it is consistent, deterministic and fast to write.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ENGINE, freshStore, testApp, type TestApp, type TestDb } from '../support/app.ts';
import { seedDemo, seedIfEmpty, type SeedReport } from '../../src/store/seed/index.ts';
import { fromJson } from '../../src/store/json.ts';
import { addWeeks, mondayOf, weekBounds } from '../../src/domain/weeks.ts';
import type { ListingStatus } from '../../src/domain/vocabulary.ts';

// Built around the last day of ISO week 2026-W53, so the demo straddles a year boundary.
const NOW = new Date('2026-12-31T15:30:00.000Z');
let s: TestDb;
let report: SeedReport;

before(async () => {
  s = await freshStore();
  report = await seedDemo(s.store, { now: NOW });
});
after(async () => {
  await s.cleanup();
});

test('seeding is quick and reports what it wrote', () => {
  if (ENGINE === 'sqlite') assert.ok(report.ms < 3000, `took ${report.ms} ms`);
  assert.ok(report.listings >= 150);
  assert.ok(
    report.live >= 140 && report.scheduled > 0 && report.awaiting_badge > 0 && report.drafts > 0,
    JSON.stringify(report),
  );
  assert.ok(report.categories >= 30);
  assert.equal(report.awards, 36, 'three awards for each of the 12 finished weeks');
});

test('categories: a two-level tree; each with description, 2–3 FAQs and comparable attributes', async () => {
  const cats = await s.store.db.selectFrom('categories').selectAll().execute();
  assert.ok(cats.length >= 30);
  const byId = new Map(cats.map((c) => [c.id, c]));
  const parents = cats.filter((c) => c.parent_id === null);
  assert.ok(parents.length >= 8);
  for (const c of cats) {
    if (c.parent_id !== null)
      assert.equal(byId.get(c.parent_id)?.parent_id, null, `${c.slug}: its parent is top-level`);
    assert.ok(c.description.length > 20, c.slug);
    const faqs = fromJson<unknown[]>(c.faqs, []);
    assert.ok(faqs.length >= 2 && faqs.length <= 3, `${c.slug} has ${faqs.length} FAQs`);
    assert.ok(fromJson<string[]>(c.attributes, []).length >= 3, c.slug);
  }
  for (const p of parents)
    assert.ok(cats.filter((c) => c.parent_id === p.id).length >= 3, `${p.slug} has 3+ subcategories`);
  const listings = await s.store.db.selectFrom('listings').select(['slug', 'facts', 'primary_category_id']).execute();
  for (const l of listings) {
    const cat = byId.get(l.primary_category_id as number);
    assert.ok(cat, l.slug);
    const attrs = fromJson<string[]>(cat.attributes, []);
    for (const k of Object.keys(fromJson<Record<string, unknown>>(l.facts, {})))
      assert.ok(attrs.includes(k), `${l.slug}: fact ${k} is one of its category's attributes`);
  }
});

test('launch weeks relative to now: 12 past weeks and this one live, 3 future weeks queued, drafts unscheduled', async () => {
  const db = s.store.db;
  const monday = mondayOf(NOW);
  assert.equal(monday, '2026-12-28');
  const weeksOf = async (status: ListingStatus) =>
    (
      await db
        .selectFrom('listings')
        .select('launch_week')
        .distinct()
        .where('status', '=', status)
        .orderBy('launch_week')
        .execute()
    ).map((r) => r.launch_week);
  assert.deepEqual(
    await weeksOf('live'),
    Array.from({ length: 13 }, (_, i) => addWeeks(monday, i - 12)),
  );
  assert.deepEqual(await weeksOf('scheduled'), [addWeeks(monday, 1), addWeeks(monday, 2), addWeeks(monday, 3)]);
  for (const w of await weeksOf('awaiting_badge')) assert.ok(w! > monday && w! <= addWeeks(monday, 3));
  assert.deepEqual(await weeksOf('draft'), [null]);
  const live = await db
    .selectFrom('listings')
    .select(['slug', 'launch_week', 'launched_at', 'plan', 'badge_seen_at'])
    .where('status', '=', 'live')
    .execute();
  for (const l of live) {
    const b = weekBounds(l.launch_week as string);
    assert.ok(
      l.launched_at! >= b.from && l.launched_at! < b.to && l.launched_at! <= NOW.toISOString(),
      `${l.slug} launched inside its week and not in the future`,
    );
    if (l.plan === 'free') assert.ok(l.badge_seen_at, `${l.slug}: a free listing went live with its badge seen`);
  }
  const today = await db
    .selectFrom('listings')
    .select('slug')
    .where('status', '=', 'live')
    .where('launched_at', '>=', '2026-12-31T00:00:00.000Z')
    .execute();
  assert.ok(today.length >= 1, 'something launched today');
});

test('counters match their rows; votes are one per person, after launch and never in the future', async () => {
  const db = s.store.db;
  const mismatch = await sql<{ slug: string }>`select l.slug from listings l where
      l.votes_count <> (select count(*) from votes v where v.listing_id = l.id)
   or l.followers_count <> (select count(*) from follows f where f.listing_id = l.id)
   or (select t.views from listing_view_totals t where t.listing_id = l.id) <> coalesce((select sum(w.count) from listing_views w where w.listing_id = l.id), 0)`.execute(
    db,
  );
  assert.deepEqual(mismatch.rows, []);
  const bad = await sql<{
    n: number;
  }>`select count(*) as n from votes v join listings l on l.id = v.listing_id where v.created_at > ${NOW.toISOString()} or v.created_at < l.launched_at or l.status <> 'live'`.execute(
    db,
  );
  assert.equal(Number(bad.rows[0].n), 0);
  const votes = await db
    .selectFrom('votes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(Number(votes.n), report.votes);
  assert.ok(report.votes > 5000);
});

test('vote integrity worth looking at: a burst of new accounts on one network, weighed down and filed for review', async () => {
  const db = s.store.db;
  const reviews = await db.selectFrom('vote_reviews').select(['kind', 'status', 'listing_ids']).execute();
  assert.deepEqual(
    reviews.map((r) => [r.kind, r.status]),
    [['burst', 'open']],
  );
  const [listingId] = JSON.parse(reviews[0].listing_ids) as number[];
  const totals = await db
    .selectFrom('listing_vote_totals as t')
    .innerJoin('listings as l', 'l.id', 't.listing_id')
    .select(['l.launch_week', 't.votes', 't.weighted', 't.discounted', 't.by_reason'])
    .where('t.listing_id', '=', listingId)
    .executeTakeFirstOrThrow();
  assert.equal(totals.launch_week, mondayOf(NOW));
  assert.equal(Number(totals.discounted), 6);
  assert.deepEqual(JSON.parse(totals.by_reason), { new_account: 6 });
  assert.ok(Math.abs(Number(totals.weighted) - (Number(totals.votes) - 6 + 6 * 0.0625)) < 1e-6);
});

test("awards of every finished week follow that week's votes among its live launches", async () => {
  const db = s.store.db;
  const monday = mondayOf(NOW);
  for (let k = 1; k <= 12; k++) {
    const w = addWeeks(monday, -k);
    const b = weekBounds(w);
    const ranked = await sql<{
      id: number;
      n: number;
    }>`select l.id, (select count(*) from votes v where v.listing_id = l.id and v.created_at >= ${b.from} and v.created_at < ${b.to}) as n
      from listings l where l.status = 'live' and l.launch_week = ${w} order by n desc, l.launched_at asc, l.id asc limit 3`.execute(
      db,
    );
    const awards = await db
      .selectFrom('awards')
      .select(['rank', 'listing_id', 'votes'])
      .where('week', '=', w)
      .orderBy('rank')
      .execute();
    assert.deepEqual(
      awards.map((a) => [a.rank, a.listing_id, Number(a.votes)]),
      ranked.rows.map((r, i) => [i + 1, r.id, Number(r.n)]),
      w,
    );
  }
  assert.equal(
    (await db.selectFrom('awards').select('id').where('week', '>=', monday).execute()).length,
    0,
    'the current week is not decided',
  );
});

test('founders, reviews, stories, milestones, ratings, revenue and billboard money are consistent', async () => {
  const db = s.store.db;
  const orphans = await sql<{
    slug: string;
  }>`select l.slug from listings l where not exists (select 1 from listing_founders lf where lf.listing_id = l.id)`.execute(
    db,
  );
  assert.deepEqual(orphans.rows, [], 'every listing has a founder');
  const reviews = await db.selectFrom('reviews').select(['genuine']).execute();
  assert.ok(
    reviews.some((r) => !r.genuine) && reviews.some((r) => Boolean(r.genuine)),
    'some reviews are marked not genuine',
  );
  const withStory = await db
    .selectFrom('stories')
    .innerJoin('listings', 'listings.id', 'stories.listing_id')
    .select(['listings.slug', 'listings.unlocked', 'stories.story'])
    .execute();
  assert.ok(withStory.length > 5);
  for (const r of withStory) assert.ok(fromJson<string[]>(r.unlocked, []).includes('story') && r.story, r.slug);
  const ms = await db
    .selectFrom('milestones')
    .innerJoin('listings', 'listings.id', 'milestones.listing_id')
    .select(['listings.slug', 'listings.unlocked', 'milestones.date'])
    .execute();
  for (const m of ms) {
    assert.ok(fromJson<string[]>(m.unlocked, []).includes('milestones'), m.slug);
    assert.ok(m.date <= '2026-12-31', `${m.slug}: milestone ${m.date} is not in the future`);
  }
  const dr = await sql<{
    slug: string;
  }>`select l.slug from listings l where l.domain_rating is not null and l.domain_rating <> (select d.rating from domain_ratings d where d.listing_id = l.id order by d.date desc limit 1)`.execute(
    db,
  );
  assert.deepEqual(dr.rows, [], 'domain_rating is the latest reading');
  const rev = await sql<{
    slug: string;
  }>`select l.slug from listings l where l.revenue_cents is not null and l.revenue_cents <> (select r.revenue_cents from revenue_figures r where r.listing_id = l.id order by r.month desc limit 1)`.execute(
    db,
  );
  assert.deepEqual(rev.rows, [], 'revenue_cents is the latest month');
  const bb = await db.selectFrom('billboard_contributions').select('listing_id').distinct().execute();
  assert.ok(bb.length >= 8);
  const texts = await sql<{
    t: string;
  }>`select description as t from listings union all select body_md from blog_posts union all select bio from founders`.execute(
    db,
  );
  for (const r of texts.rows) assert.doesNotMatch(String(r.t), /lorem|ipsum/i);
});

test('site data: products with options, settings, sites, blog posts and interview questions', async () => {
  const db = s.store.db;
  const products = await db.selectFrom('products').selectAll().execute();
  const codes = products.map((p) => p.code);
  for (const c of [
    'launch',
    'skip_queue',
    'featured',
    'done_for_you',
    'launch_bundle',
    'extra_categories',
    'relaunch',
    'ai_review',
    'billboard_min',
  ])
    assert.ok(codes.includes(c), c);
  const bm = products.find((p) => p.code === 'billboard_min')!;
  assert.equal(
    fromJson<{ min_amount_cents: number }>(bm.options, { min_amount_cents: 0 }).min_amount_cents,
    Number(bm.price_cents),
  );
  assert.equal(
    fromJson<{ max: number }>(products.find((p) => p.code === 'extra_categories')!.options, { max: 0 }).max,
    3,
  );
  for (const p of products) assert.ok(Number.isInteger(Number(p.price_cents)) && Number(p.price_cents) > 0);
  const settings = Object.fromEntries(
    (await db.selectFrom('settings').selectAll().execute()).map((r) => [r.key, fromJson<unknown>(r.value, null)]),
  );
  assert.equal(settings.free_queue_weeks, 4);
  assert.equal(settings.billboard_min_cents, Number(bm.price_cents));
  assert.equal((settings.vat_rates_bp as Record<string, number>).DE, 1900);
  const sites = await db.selectFrom('sites').selectAll().orderBy('key').execute();
  assert.ok(sites.some((x) => x.key === 'launchlist') && sites.length >= 3);
  const posts = await db.selectFrom('blog_posts').selectAll().execute();
  assert.ok(posts.length >= 8);
  assert.ok(
    posts.filter((p) => p.published_at === null || p.published_at > NOW.toISOString()).length >= 1,
    'some posts are unpublished',
  );
  for (const p of posts) assert.match(p.body_md, /^# .+\n/m);
  assert.ok((await db.selectFrom('interview_questions').select('id').execute()).length >= 8);
});

test('deterministic for the same "now"; seedIfEmpty only seeds an empty directory', async () => {
  const other = await freshStore();
  try {
    assert.equal(await seedIfEmpty(other.store, { now: NOW }), true);
    assert.equal(await seedIfEmpty(other.store, { now: NOW }), false);
    const snap = (db: TestDb['store']['db']) =>
      db
        .selectFrom('listings')
        .innerJoin('listing_view_totals', 'listing_view_totals.listing_id', 'listings.id')
        .select([
          'slug',
          'status',
          'launch_week',
          'launched_at',
          'votes_count',
          'listing_view_totals.views',
          'followers_count',
          'domain_rating',
          'revenue_cents',
          'description',
        ])
        .orderBy('slug')
        .execute();
    assert.deepEqual(await snap(other.store.db), await snap(s.store.db));
    const awards = (db: TestDb['store']['db']) =>
      db
        .selectFrom('awards')
        .innerJoin('listings', 'listings.id', 'awards.listing_id')
        .select(['awards.week', 'awards.rank', 'listings.slug'])
        .orderBy('awards.week')
        .orderBy('awards.rank')
        .execute();
    assert.deepEqual(await awards(other.store.db), await awards(s.store.db));
  } finally {
    await other.cleanup();
  }
});

// Through the API, seeded around the real current time.
let app: TestApp;
before(async () => {
  app = await testApp({}, async (store) => {
    await seedDemo(store);
  });
});
after(async () => {
  await app.cleanup();
});
const get = async (url: string) => (await app.app.inject({ url: '/api/v1' + url })).json();

test("demo through the API: last week's top three are its awards; empty categories hide; products are all there", async () => {
  const week = await get('/launches/weeks/last');
  const awards = await get('/awards?per_page=3');
  assert.equal(awards.items[0].week, week.week.start);
  assert.deepEqual(
    awards.items.map((a: any) => [a.rank, a.listing.slug, a.votes]),
    week.launches.slice(0, 3).map((l: any) => [l.rank, l.listing.slug, l.votes]),
  );
  const thisWeek = await get('/launches/weeks/this');
  assert.ok(thisWeek.launches.length >= 5);
  const upcoming = await get('/launches?section=upcoming&per_page=100');
  assert.ok(upcoming.total >= 10);
  const all = await get('/categories');
  const some = await get('/categories?include_empty=false');
  const flat = (b: any) => b.categories.flatMap((c: any) => [c.slug, ...c.subcategories.map((x: any) => x.slug)]);
  assert.ok(flat(all).includes('3d-printing') && !flat(some).includes('3d-printing'));
  assert.ok(
    flat(all).includes('smart-home') && !flat(some).includes('smart-home'),
    'smart-home has only upcoming listings',
  );
  const site = await get('/site');
  assert.equal(site.counts.categories, all.total_categories);
  assert.ok(site.counts.live_listings >= 140);
  const billboard = await get('/leaderboards/billboard');
  assert.equal(billboard.board.paid, true);
  assert.ok(billboard.items.length >= 8 && billboard.items.every((i: any) => i.paid === true));
  const products = await get('/products');
  assert.equal(products.products.length, 9);
  const blog = await get('/blog');
  assert.ok(blog.total >= 8);
  const founders = await get('/founders');
  assert.ok(founders.total >= 100);
});
