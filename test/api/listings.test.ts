// search_listings, get_listing, get_alternatives and compare_listings through HTTP, on the engine of
// this run, with small explicit fixtures.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { testApp, type TestApp } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import type { DB } from '../../src/store/types.ts';
import { addDays, addWeeks, mondayOf, toDateString } from '../../src/domain/weeks.ts';
import type { ViewCounter } from '../../src/store/view-counter.ts';
import { recountAllVotes } from '../../src/store/repos/votes.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.now();
const ago = (ms: number) => new Date(now - ms).toISOString();
const today = toDateString(new Date(now));

let t: TestApp;
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url: '/api/v1' + url });
  return { status: r.statusCode, body: r.json() };
};
const slugsOf = (body: { items: Array<{ slug: string }> }) => body.items.map((i) => i.slug);

async function fixtures(db: Kysely<DB>) {
  await category(db, 'software', { name: 'Software', attributes: ['open_source', 'api', 'platforms'] });
  await category(db, 'dev-tools', {
    name: 'Developer Tools',
    parent: 'software',
    attributes: ['open_source', 'self_hostable', { key: 'cli', label: 'Command line' }],
  });
  await category(db, 'design', { name: 'Design', attributes: ['figma_plugin'] });
  const alpha = await listing(db, {
    slug: 'alpha-app',
    name: 'Alpha App',
    tagline: 'Deploy previews for every pull request',
    description: 'Alpha builds a preview environment for each branch.',
    category: 'dev-tools',
    extraCategories: ['design'],
    domain: 'alpha.example',
    votes: 50,
    views: 10,
    followers: 3,
    launched_at: ago(10 * DAY),
    country: 'US',
    pricing_model: 'Freemium',
    pricing_summary: 'Free for hobby projects; teams from $20/month',
    stage: 'growing',
    founded_year: 2020,
    city: null,
    facts: { open_source: true, cli: false },
    unlocked: ['story', 'milestones', 'media'],
    media: [{ type: 'image', url: 'https://alpha.example/shot.png', alt: 'Dashboard' }],
    not_found: ['city'],
    domain_rating: 40,
    socials: { x: 'https://x.com/alpha', github: 'https://github.com/alpha/alpha' },
    faqs: [{ question: 'Is there a free plan?', answer: 'Yes, for hobby projects.' }],
    features: ['Branch previews', 'Comments on previews'],
    demo_video_url: 'https://www.youtube.com/watch?v=alpha',
  });
  const beta = await listing(db, {
    slug: 'beta-tool',
    name: 'Beta Tool',
    tagline: 'Monitoring for APIs',
    description: 'Uptime checks from ten regions.',
    category: 'software',
    domain: 'beta.example',
    votes: 20,
    views: 500,
    followers: 1,
    launched_at: ago(2 * DAY),
    country: 'DE',
    pricing_model: 'Subscription',
    stage: 'mvp',
    facts: { api: true },
    founded_year: null,
  });
  const gamma = await listing(db, {
    slug: 'gamma-design',
    name: 'Gamma Design',
    tagline: 'Mood boards for teams',
    description: 'Collect references together.',
    category: 'design',
    domain: 'gamma.example',
    votes: 5,
    views: 50,
    followers: 40,
    launched_at: ago(1 * DAY),
    country: 'gb',
    pricing_model: 'Free',
    stage: 'launched',
  });
  const delta = await listing(db, {
    slug: 'delta-dev',
    name: 'Delta Dev',
    tagline: 'Monitoring dashboards for developers',
    description: 'Logs and traces in one place.',
    category: 'dev-tools',
    domain: 'delta.example',
    votes: 30,
    views: 5,
    followers: 10,
    launched_at: ago(30 * DAY),
    country: 'US',
    pricing_model: 'Open source',
    stage: 'growing',
  });
  const thisMonday = mondayOf(new Date(now));
  await listing(db, {
    slug: 'upcoming-one',
    name: 'Upcoming One',
    tagline: 'Monitoring soon',
    category: 'dev-tools',
    status: 'scheduled',
    launch_week: addWeeks(thisMonday, 1),
    launched_at: null,
  });
  await listing(db, {
    slug: 'awaiting-one',
    name: 'Awaiting One',
    tagline: 'Waiting for the badge',
    category: 'design',
    status: 'awaiting_badge',
    launch_week: addWeeks(thisMonday, 2),
    launched_at: null,
  });
  await listing(db, {
    slug: 'past-scheduled',
    name: 'Past Scheduled',
    category: 'design',
    status: 'scheduled',
    launch_week: addWeeks(thisMonday, -1),
    launched_at: null,
  });
  const draft = await listing(db, {
    slug: 'draft-one',
    name: 'Draft One',
    tagline: 'Monitoring draft',
    category: 'dev-tools',
    status: 'draft',
    launched_at: null,
  });

  // votes for trending (time-decayed): gamma 3 fresh, beta 2 about two days old, delta 1 fresh-ish, alpha only old ones
  const users = await db
    .insertInto('users')
    .values(
      Array.from({ length: 5 }, (_, i) => ({
        email: `u${i}@test.example`,
        name: `User ${i}`,
        password_hash: null,
        role: 'user',
        email_verified_at: null,
        created_at: ago(100 * DAY),
      })),
    )
    .returning('id')
    .execute();
  const vote = (listing_id: number, u: number, at: string) => ({ listing_id, user_id: users[u].id, created_at: at });
  await db
    .insertInto('votes')
    .values([
      vote(gamma, 0, ago(HOUR)),
      vote(gamma, 1, ago(HOUR)),
      vote(gamma, 2, ago(HOUR)),
      vote(beta, 0, ago(50 * HOUR)),
      vote(beta, 1, ago(50 * HOUR)),
      vote(delta, 0, ago(5 * HOUR)),
      vote(alpha, 0, ago(20 * DAY)),
      vote(alpha, 1, ago(20 * DAY)),
      vote(alpha, 2, ago(20 * DAY)),
      vote(alpha, 3, ago(20 * DAY)),
      vote(alpha, 4, ago(20 * DAY)),
    ])
    .execute();
  await recountAllVotes(db); // the maintained sums trending reads (migration 190)

  // reviews: two genuine (5, 4) and one that is not (1)
  await db
    .insertInto('reviews')
    .values([
      {
        listing_id: alpha,
        user_id: users[0].id,
        author_name: 'Ann',
        rating: 5,
        body: 'Great',
        genuine: true,
        created_at: ago(DAY),
      },
      {
        listing_id: alpha,
        user_id: users[1].id,
        author_name: 'Bob',
        rating: 4,
        body: 'Good',
        genuine: true,
        created_at: ago(DAY),
      },
      {
        listing_id: alpha,
        user_id: null,
        author_name: 'Spam',
        rating: 1,
        body: 'Buy pills',
        genuine: false,
        created_at: ago(DAY),
      },
    ])
    .execute();
  // seven updates: the five newest are shown
  await db
    .insertInto('updates')
    .values(
      Array.from({ length: 7 }, (_, i) => ({
        listing_id: alpha,
        title: `Update ${i + 1}`,
        body: `Body ${i + 1}`,
        created_at: ago((7 - i) * DAY),
      })),
    )
    .execute();
  // Domain Rating history: 30 (100 days ago), 35 (40 days ago), 38 (10 days ago), 40 (today)
  await db
    .insertInto('domain_ratings')
    .values([
      { listing_id: alpha, date: addDays(today, -100), rating: 30 },
      { listing_id: alpha, date: addDays(today, -40), rating: 35 },
      { listing_id: alpha, date: addDays(today, -10), rating: 38 },
      { listing_id: alpha, date: today, rating: 40 },
    ])
    .execute();
  const founder = await db
    .insertInto('founders')
    .values({
      slug: 'ada-lovelace',
      name: 'Ada Lovelace',
      title: 'CEO',
      bio: 'Engineer.',
      country: 'GB',
      socials: '{}',
      avatar_url: null,
      user_id: null,
      created_at: ago(DAY),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('listing_founders').values({ listing_id: alpha, founder_id: founder.id, position: 0 }).execute();
  const stamp = ago(DAY);
  await db
    .insertInto('stories')
    .values({
      listing_id: alpha,
      title: 'Why Alpha',
      story: 'We were tired of broken staging.',
      why_started: null,
      problem: null,
      journey: null,
      challenges: null,
      achievements: null,
      lessons: null,
      whats_next: null,
      updated_at: stamp,
    })
    .execute();
  await db
    .insertInto('stories')
    .values({
      listing_id: beta,
      title: 'Beta story (locked)',
      story: 'Hidden.',
      why_started: null,
      problem: null,
      journey: null,
      challenges: null,
      achievements: null,
      lessons: null,
      whats_next: null,
      updated_at: stamp,
    })
    .execute();
  await db
    .insertInto('milestones')
    .values([
      {
        listing_id: alpha,
        date: '2021-03-01',
        title: 'First customer',
        description: null,
        url: null,
        created_at: stamp,
      },
      {
        listing_id: alpha,
        date: '2023-06-01',
        title: 'Series A',
        description: 'Raised.',
        url: 'https://alpha.example/blog',
        created_at: stamp,
      },
      {
        listing_id: beta,
        date: '2024-01-01',
        title: 'Locked milestone',
        description: null,
        url: null,
        created_at: stamp,
      },
    ])
    .execute();
  // alternatives of alpha: gamma (approved), the draft (approved but not live), delta (not approved: comes through the category)
  await db
    .insertInto('alternatives')
    .values([
      { listing_id: alpha, alternative_id: gamma, approved: true, position: 0 },
      { listing_id: alpha, alternative_id: draft, approved: true, position: 1 },
      { listing_id: alpha, alternative_id: delta, approved: false, position: 2 },
    ])
    .execute();
}

before(async () => {
  t = await testApp({}, async ({ db }) => fixtures(db));
});
after(async () => {
  await t.cleanup();
});

describe('search_listings', () => {
  test('browse: live listings only, most voted first, summaries with name, url and votes', async () => {
    const { status, body } = await get('/listings');
    assert.equal(status, 200);
    assert.deepEqual(slugsOf(body), ['alpha-app', 'delta-dev', 'beta-tool', 'gamma-design']);
    assert.equal(body.total, 4);
    assert.equal(body.page, 1);
    assert.equal(body.per_page, 20);
    assert.equal(body.has_more, false);
    const alpha = body.items[0];
    assert.equal(alpha.name, 'Alpha App');
    assert.equal(alpha.url, 'https://alpha.example/');
    assert.equal(alpha.votes, 50);
    assert.equal(alpha.views, 10);
    assert.equal(alpha.followers, 3);
    assert.deepEqual(alpha.primary_category, { slug: 'dev-tools', name: 'Developer Tools' });
    assert.equal('id' in alpha, false, 'internal ids stay internal');
  });

  test('full-text with a typo, relevance first', async () => {
    const { body } = await get('/listings?q=' + encodeURIComponent('monitorng'));
    assert.deepEqual(slugsOf(body).sort(), ['beta-tool', 'delta-dev'], 'upcoming and draft listings are not found');
    const named = await get('/listings?q=' + encodeURIComponent('alpah app'));
    assert.deepEqual(slugsOf(named.body), ['alpha-app']);
  });

  test('pagination: page and per_page slice the same order; has_more', async () => {
    const p1 = await get('/listings?per_page=3&page=1');
    const p2 = await get('/listings?per_page=3&page=2');
    assert.deepEqual(slugsOf(p1.body), ['alpha-app', 'delta-dev', 'beta-tool']);
    assert.equal(p1.body.has_more, true);
    assert.deepEqual(slugsOf(p2.body), ['gamma-design']);
    assert.equal(p2.body.has_more, false);
    assert.equal(p2.body.total, 4);
    const far = await get('/listings?page=1000&per_page=100');
    assert.equal(far.status, 200);
    assert.deepEqual(far.body.items, []);
  });

  test('every sort order, checked against the data', async () => {
    const order = async (sort: string, q = '') =>
      slugsOf((await get(`/listings?sort=${sort}${q ? '&q=' + q : ''}`)).body);
    assert.deepEqual(await order('votes'), ['alpha-app', 'delta-dev', 'beta-tool', 'gamma-design']);
    assert.deepEqual(await order('newest'), ['gamma-design', 'beta-tool', 'alpha-app', 'delta-dev']);
    assert.deepEqual(await order('most_viewed'), ['beta-tool', 'gamma-design', 'alpha-app', 'delta-dev']);
    // Equal views: more votes first (delta 30 votes joins alpha's 10 views; alpha has 50 votes), read in the views index's order.
    const deltaViews = await t.store.db
      .selectFrom('listing_view_totals')
      .select('views')
      .where(
        'listing_id',
        '=',
        (await t.store.db.selectFrom('listings').select('id').where('slug', '=', 'delta-dev').executeTakeFirstOrThrow())
          .id,
      )
      .executeTakeFirstOrThrow();
    const setDelta = (views: number) =>
      t.store.db
        .updateTable('listing_view_totals')
        .set({ views })
        .where('listing_id', 'in', t.store.db.selectFrom('listings').select('id').where('slug', '=', 'delta-dev'))
        .execute();
    await setDelta(10);
    assert.deepEqual(await order('most_viewed'), ['beta-tool', 'gamma-design', 'alpha-app', 'delta-dev']);
    await setDelta(50);
    assert.deepEqual(
      await order('most_viewed'),
      ['beta-tool', 'delta-dev', 'gamma-design', 'alpha-app'],
      'gamma (5 votes) and delta (30 votes) tie on 50 views: delta first',
    );
    await setDelta(Number(deltaViews.views));
    assert.deepEqual(await order('most_followed'), ['gamma-design', 'delta-dev', 'alpha-app', 'beta-tool']);
    // gamma: 3 votes an hour old ≈ 2.96; beta: 2 votes 50 h old ≈ 0.97; delta: 1 vote 5 h old ≈ 0.93; alpha: only votes older than 14 days = 0
    assert.deepEqual(await order('trending'), ['gamma-design', 'beta-tool', 'delta-dev', 'alpha-app']);
    assert.deepEqual(
      await order('relevance'),
      ['alpha-app', 'delta-dev', 'beta-tool', 'gamma-design'],
      'relevance without q = votes',
    );
    assert.deepEqual(await order('votes', 'monitoring'), ['delta-dev', 'beta-tool'], 'a sort applies to the matches');
    assert.deepEqual(await order('newest', 'monitoring'), ['beta-tool', 'delta-dev']);
  });

  test('category includes its subcategories and extra categories', async () => {
    assert.deepEqual(slugsOf((await get('/listings?category=software')).body), ['alpha-app', 'delta-dev', 'beta-tool']);
    assert.deepEqual(slugsOf((await get('/listings?category=dev-tools')).body), ['alpha-app', 'delta-dev']);
    assert.deepEqual(
      slugsOf((await get('/listings?category=design')).body),
      ['alpha-app', 'gamma-design'],
      'alpha is also in design',
    );
    const unknown = await get('/listings?category=no-such-category');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, 'validation_failed');
    assert.equal(unknown.body.error.details[0].path, 'query.category');
  });

  test('stage, country (any case), pricing_model (any case) filters', async () => {
    assert.deepEqual(slugsOf((await get('/listings?stage=growing')).body), ['alpha-app', 'delta-dev']);
    assert.deepEqual(slugsOf((await get('/listings?country=de')).body), ['beta-tool']);
    assert.deepEqual(
      slugsOf((await get('/listings?country=GB')).body),
      ['gamma-design'],
      'stored lower-case, asked upper-case',
    );
    assert.deepEqual(slugsOf((await get('/listings?pricing_model=free')).body), ['gamma-design']);
    assert.deepEqual(slugsOf((await get('/listings?pricing_model=OPEN%20SOURCE')).body), ['delta-dev']);
    assert.deepEqual(
      slugsOf((await get('/listings?country=us&stage=growing&q=monitoring')).body),
      ['delta-dev'],
      'filters combine with AND',
    );
  });

  test('domain finds the listing of a website whatever the form of the address', async () => {
    for (const d of [
      'alpha.example',
      'https://www.alpha.example/',
      'http://alpha.example',
      'alpha.example/pricing?x=1',
      'ALPHA.EXAMPLE.',
      'https://app.alpha.example/login',
    ]) {
      const { status, body } = await get('/listings?domain=' + encodeURIComponent(d));
      assert.equal(status, 200, d);
      assert.deepEqual(slugsOf(body), ['alpha-app'], d);
    }
    assert.deepEqual(slugsOf((await get('/listings?domain=nobody.example')).body), []);
    const bad = await get('/listings?domain=' + encodeURIComponent('not a domain'));
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, 'query.domain');
  });

  test('status=upcoming: scheduled or awaiting the badge, for a future launch week', async () => {
    const { body } = await get('/listings?status=upcoming');
    assert.deepEqual(slugsOf(body).sort(), ['awaiting-one', 'upcoming-one']);
    assert.ok(body.items.every((i: { launch_week: string }) => i.launch_week > mondayOf(new Date())));
    assert.deepEqual(slugsOf((await get('/listings?status=upcoming&q=monitoring')).body), ['upcoming-one']);
    assert.deepEqual(slugsOf((await get('/listings?status=live&q=monitoring')).body).sort(), [
      'beta-tool',
      'delta-dev',
    ]);
  });

  test('bad input is a 400 naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['q=' + 'a'.repeat(201), 'query.q'],
      ['country=USA', 'query.country'],
      ['country=1a', 'query.country'],
      ['sort=best', 'query.sort'],
      ['status=soon', 'query.status'],
      ['page=0', 'query.page'],
      ['page=1001', 'query.page'],
      ['page=abc', 'query.page'],
      ['per_page=0', 'query.per_page'],
      ['per_page=101', 'query.per_page'],
      ['pricing_model=' + 'x'.repeat(41), 'query.pricing_model'],
      ['domain=' + 'x'.repeat(254), 'query.domain'],
      ['category=Not_A_Slug', 'query.category'],
    ];
    for (const [qs, path] of cases) {
      const { status, body } = await get('/listings?' + qs);
      assert.equal(status, 400, qs);
      assert.equal(body.error.code, 'validation_failed', qs);
      assert.equal(body.error.details[0].path, path, qs);
    }
    assert.equal((await get('/listings?q=' + 'a'.repeat(200))).status, 200, 'exactly 200 characters is allowed');
    const twice = await get('/listings?page=1&page=2');
    assert.equal(twice.status, 400);
    assert.deepEqual(twice.body.error.details[0], {
      path: 'query.page',
      message: 'must be given once (it was given 2 times)',
    });
  });
});

describe('get_listing', () => {
  test('the full public profile, with paid sections when unlocked', async () => {
    const { status, body } = await get('/listings/alpha-app');
    assert.equal(status, 200);
    assert.equal(body.name, 'Alpha App');
    assert.equal(body.description, 'Alpha builds a preview environment for each branch.');
    assert.deepEqual(body.features, ['Branch previews', 'Comments on previews']);
    assert.deepEqual(body.pricing, { model: 'Freemium', summary: 'Free for hobby projects; teams from $20/month' });
    assert.deepEqual(body.categories, [
      { slug: 'dev-tools', name: 'Developer Tools', primary: true, parent: { slug: 'software', name: 'Software' } },
      { slug: 'design', name: 'Design', primary: false, parent: null },
    ]);
    assert.deepEqual(
      body.founders.map((f: { slug: string; title: string }) => [f.slug, f.title]),
      [['ada-lovelace', 'CEO']],
    );
    assert.deepEqual(body.faqs, [{ question: 'Is there a free plan?', answer: 'Yes, for hobby projects.' }]);
    assert.deepEqual(body.socials, { x: 'https://x.com/alpha', github: 'https://github.com/alpha/alpha' });
    assert.deepEqual(
      body.latest_updates.map((u: { title: string }) => u.title),
      ['Update 7', 'Update 6', 'Update 5', 'Update 4', 'Update 3'],
      'five newest, newest first',
    );
    assert.deepEqual(body.community_rating, { average: 4.5, count: 2 }, 'genuine reviews only');
    assert.equal(body.domain_rating.value, 40);
    assert.equal(body.domain_rating.as_of, today);
    assert.deepEqual(body.domain_rating.trend, { direction: 'up', change_30d: 5, change_90d: 10 });
    assert.deepEqual(
      body.domain_rating.history.map((h: { rating: number }) => h.rating),
      [30, 35, 38, 40],
    );
    assert.equal(body.links.website, 'https://alpha.example/');
    assert.equal(body.links.demo_video, 'https://www.youtube.com/watch?v=alpha');
    assert.deepEqual(body.not_found_on_website, ['city']);
    assert.equal(body.votes, 50);
    assert.equal(body.followers, 3);
    assert.deepEqual(body.facts, { open_source: true, cli: false });
    assert.equal(body.story.title, 'Why Alpha');
    assert.equal(body.story.story, 'We were tired of broken staging.');
    assert.deepEqual(
      body.milestones.map((m: { title: string }) => m.title),
      ['Series A', 'First customer'],
    );
    assert.deepEqual(body.media, [{ type: 'image', url: 'https://alpha.example/shot.png', alt: 'Dashboard' }]);
  });

  test('paid-only sections are absent (not null) when not unlocked', async () => {
    const { status, body } = await get('/listings/beta-tool');
    assert.equal(status, 200);
    for (const key of ['story', 'milestones', 'media']) assert.equal(key in body, false, `${key} is absent`);
    assert.deepEqual(body.community_rating, { average: null, count: 0 });
    assert.deepEqual(body.domain_rating, {
      value: null,
      as_of: null,
      trend: { direction: 'new', change_30d: null, change_90d: null },
      history: [],
    });
    assert.deepEqual(body.latest_updates, []);
    assert.deepEqual(
      body.categories.map((c: { slug: string }) => c.slug),
      ['software'],
    );
  });

  test('only live listings: others are 404; a malformed slug is 400', async () => {
    for (const slug of ['draft-one', 'upcoming-one', 'awaiting-one', 'no-such-listing']) {
      const { status, body } = await get('/listings/' + slug);
      assert.equal(status, 404, slug);
      assert.equal(body.error.code, 'not_found');
      assert.match(body.error.message, new RegExp(slug));
    }
    const bad = await get('/listings/Bad_Slug');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, 'path.slug');
  });

  test('views are counted in memory and written on flush', async () => {
    const views = t.server.deps.services.views as ViewCounter;
    await views.flush();
    const totalOf = () =>
      t.store.db
        .selectFrom('listings')
        .innerJoin('listing_view_totals as t', 't.listing_id', 'listings.id')
        .select(['listings.id', 't.views as views_count'])
        .where('slug', '=', 'delta-dev')
        .executeTakeFirstOrThrow();
    const before = await totalOf();
    const first = await get('/listings/delta-dev');
    const second = await get('/listings/delta-dev');
    assert.equal(second.body.views, first.body.views + 1, 'the profile shows the views not yet written');
    const unchanged = await totalOf();
    assert.equal(unchanged.views_count, before.views_count, 'reads do not write');
    await views.flush();
    const after = await totalOf();
    assert.equal(after.views_count, before.views_count + 2);
    const day = await t.store.db
      .selectFrom('listing_views')
      .select('count')
      .where('listing_id', '=', after.id)
      .where('day', '=', today)
      .executeTakeFirstOrThrow();
    assert.equal(day.count, 2);
    await get('/listings/delta-dev');
    await views.flush();
    const day2 = await t.store.db
      .selectFrom('listing_views')
      .select('count')
      .where('listing_id', '=', after.id)
      .where('day', '=', today)
      .executeTakeFirstOrThrow();
    assert.equal(day2.count, 3, 'the day row adds up across flushes');
    assert.equal((await get('/listings/draft-one')).status, 404);
    await views.flush();
  });
});

describe('not_found_on_website', () => {
  test('lists only what is still blank: a fact the maker gave the listing later leaves the list', async () => {
    await category(t.store.db, 'filled-later-cat'); // its own category: the alternatives tests count dev-tools
    await listing(t.store.db, {
      slug: 'filled-later',
      name: 'Filled Later',
      category: 'filled-later-cat',
      tagline: 'Given after the crawl',
      features: ['Given too'],
      city: null,
      founded_year: null,
      pricing_model: 'Free',
      not_found: ['tagline', 'features', 'city', 'pricing_model', 'founded_year'],
    });
    const { status, body } = await get('/listings/filled-later');
    assert.equal(status, 200);
    assert.deepEqual(body.not_found_on_website, ['city', 'founded_year']);
  });
});

describe('get_alternatives', () => {
  test('owner-approved first, then the same primary category by votes; never itself or a non-live listing', async () => {
    const { status, body } = await get('/listings/alpha-app/alternatives');
    assert.equal(status, 200);
    assert.equal(body.listing.slug, 'alpha-app');
    assert.deepEqual(
      body.items.map((i: { slug: string; approved: boolean }) => [i.slug, i.approved]),
      [
        ['gamma-design', true],
        ['delta-dev', false],
      ],
    );
    assert.equal(body.items[1].votes, 30);
  });

  test('without approved ones: the category, most voted first', async () => {
    const { body } = await get('/listings/delta-dev/alternatives');
    assert.deepEqual(
      body.items.map((i: { slug: string; approved: boolean }) => [i.slug, i.approved]),
      [['alpha-app', false]],
    );
  });

  test('404 for a listing that is not live', async () => {
    assert.equal((await get('/listings/draft-one/alternatives')).status, 404);
    assert.equal((await get('/listings/nope/alternatives')).status, 404);
  });
});

describe('compare_listings', () => {
  test('core facts, then the attributes of both primary categories; empty cells are null', async () => {
    const { status, body } = await get('/compare?a=alpha-app&b=beta-tool');
    assert.equal(status, 200);
    assert.equal(body.a.slug, 'alpha-app');
    assert.equal(body.b.name, 'Beta Tool');
    const rows = Object.fromEntries(body.attributes.map((r: { key: string }) => [r.key, r]));
    assert.deepEqual(
      body.attributes.map((r: { key: string }) => r.key),
      [
        'pricing_model',
        'pricing_summary',
        'stage',
        'founded_year',
        'country',
        'city',
        'domain_rating',
        'open_source',
        'self_hostable',
        'cli',
        'api',
        'platforms',
      ],
    );
    assert.deepEqual(rows.pricing_model, {
      key: 'pricing_model',
      label: 'Pricing model',
      a: 'Freemium',
      b: 'Subscription',
    });
    assert.deepEqual([rows.founded_year.a, rows.founded_year.b], [2020, null]);
    assert.deepEqual(rows.open_source, { key: 'open_source', label: 'Open source', a: true, b: null });
    assert.deepEqual(
      rows.cli,
      { key: 'cli', label: 'Command line', a: false, b: null },
      'false is a fact, not an empty cell',
    );
    assert.deepEqual(rows.api, { key: 'api', label: 'API', a: null, b: true });
    assert.deepEqual(
      rows.self_hostable,
      { key: 'self_hostable', label: 'Self hostable', a: null, b: null },
      'on neither listing: both cells empty, row kept',
    );
    assert.deepEqual([rows.city.a, rows.city.b], [null, null]);
  });

  test('a side that is not a live listing is a 400 naming it (no 404: a and b are not in the path); both are required', async () => {
    const b = await get('/compare?a=alpha-app&b=draft-one');
    assert.equal(b.status, 400);
    assert.equal(b.body.error.code, 'validation_failed');
    assert.equal(b.body.error.details[0].path, 'query.b');
    assert.match(b.body.error.message, /draft-one/);
    const a = await get('/compare?a=nope&b=alpha-app');
    assert.equal(a.status, 400);
    assert.equal(a.body.error.details[0].path, 'query.a');
    const missing = await get('/compare?a=alpha-app');
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.details[0].path, 'query.b');
    assert.equal((await get('/compare?a=Bad!&b=alpha-app')).status, 400);
  });
});
