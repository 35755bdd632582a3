import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  addCategory,
  addListing,
  addUsers,
  addVotes,
  earlierThisWeek,
  inWeek,
  week,
} from '../support/seed-fixtures.ts';
import { addDays } from '../../src/domain/weeks.ts';

let t: TestApp;
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url: '/api/v1' + url });
  return { status: r.statusCode, body: r.json() };
};
const ranks = (body: any) => body.items.map((i: any) => [i.rank, i.listing.slug, i.metric.value]);

before(async () => {
  t = await testApp({}, async ({ db }) => {
    await addCategory(db, 'cat');
    const u = await addUsers(db, 20);
    const a = await addListing(db, {
      slug: 'alpha',
      category: 'cat',
      launch_week: week(-2),
      launched_at: inWeek(-2, 1),
      domain_rating: 40,
      revenue_cents: 250_000,
    });
    await addVotes(db, a, u, [inWeek(-1, 3), inWeek(-1, 4), earlierThisWeek(0.5)]);
    const b = await addListing(db, {
      slug: 'bravo',
      category: 'cat',
      launch_week: week(-1),
      launched_at: inWeek(-1, 1),
      domain_rating: 55,
      revenue_cents: 1_200_000,
    });
    await addVotes(db, b, u, [inWeek(-1, 5), ...[0.1, 0.2, 0.3, 0.4].map((f) => earlierThisWeek(f))]);
    const c = await addListing(db, {
      slug: 'charlie',
      category: 'cat',
      launch_week: week(-1),
      launched_at: inWeek(-1, 2),
      domain_rating: 12,
    });
    await addVotes(db, c, u, [inWeek(-1, 6), inWeek(-1, 7), inWeek(-1, 8), inWeek(-1, 9)]);
    await addListing(db, { slug: 'delta', category: 'cat', launched_at: earlierThisWeek(0) }); // no votes, no metrics
    const hidden = await addListing(db, {
      slug: 'hidden',
      category: 'cat',
      status: 'scheduled',
      launch_week: week(1),
      domain_rating: 99,
      revenue_cents: 9_000_000,
    });
    await addVotes(db, hidden, u, [earlierThisWeek(0.5)]);
    // billboard: delta pays the most but has no votes; a scheduled listing's money is not shown
    const id = (slug: string) =>
      db
        .selectFrom('listings')
        .select('id')
        .where('slug', '=', slug)
        .executeTakeFirstOrThrow()
        .then((r) => r.id);
    const now = new Date().toISOString();
    await db
      .insertInto('billboard_contributions')
      .values([
        { listing_id: await id('delta'), amount_cents: 50_000, order_id: null, created_at: now },
        { listing_id: await id('delta'), amount_cents: 25_000, order_id: null, created_at: now },
        { listing_id: a, amount_cents: 10_000, order_id: null, created_at: now },
        { listing_id: hidden, amount_cents: 900_000, order_id: null, created_at: now },
      ])
      .execute();
    await db
      .insertInto('domain_ratings')
      .values([
        { listing_id: a, date: '2026-08-01', rating: 35 },
        { listing_id: a, date: '2026-09-01', rating: 40 },
        { listing_id: b, date: '2026-08-01', rating: 60 },
        { listing_id: b, date: '2026-09-01', rating: 55 },
      ])
      .execute();
    await db
      .insertInto('revenue_figures')
      .values([
        { listing_id: b, month: '2026-09', revenue_cents: 1_100_000, verified: true },
        { listing_id: b, month: '2026-10', revenue_cents: 1_200_000, verified: true },
        { listing_id: a, month: '2026-10', revenue_cents: 250_000, verified: false },
      ])
      .execute();
  });
});
after(async () => {
  await t.cleanup();
});

test('community-weekly: votes cast in the week, any live listing (default: this week)', async () => {
  const thisWeek = await get('/leaderboards/community-weekly');
  assert.equal(thisWeek.status, 200);
  assert.equal(thisWeek.body.board.key, 'community-weekly');
  assert.equal(thisWeek.body.board.paid, false);
  assert.equal(thisWeek.body.week.start, week(0));
  assert.deepEqual(
    ranks(thisWeek.body),
    [
      [1, 'bravo', 4],
      [2, 'alpha', 1],
    ],
    'hidden (scheduled) is not ranked; alpha launched two weeks ago still counts',
  );
  const last = await get('/leaderboards/community-weekly?week=last');
  assert.deepEqual(ranks(last.body), [
    [1, 'charlie', 4],
    [2, 'alpha', 2],
    [3, 'bravo', 1],
  ]);
  assert.equal(last.body.items[0].metric.name, 'votes');
  const byDate = await get('/leaderboards/community-weekly?week=' + addDays(week(-1), 4));
  assert.deepEqual(ranks(byDate.body), ranks(last.body), 'a date snaps to its Monday');
  // The board takes this, last or a date (next week has no votes yet), and its errors name only those.
  for (const [value, message] of [
    ['next', 'must be this, last or a date YYYY-MM-DD'],
    ['soon', 'must be this, last or a date YYYY-MM-DD'],
    ['2026-02-31', 'must be this, last or a real calendar date YYYY-MM-DD'],
  ]) {
    const bad = await get('/leaderboards/community-weekly?week=' + value);
    assert.equal(bad.status, 400, value);
    assert.equal(bad.body.error.details[0].path, 'query.week');
    assert.equal(bad.body.error.details[0].message, message, value);
  }
});

test('community-all-time: all votes; listings without votes are not ranked', async () => {
  const { body } = await get('/leaderboards/community-all-time');
  assert.deepEqual(ranks(body), [
    [1, 'bravo', 5],
    [2, 'charlie', 4],
    [3, 'alpha', 3],
  ]);
  assert.equal(body.total, 3);
});

test('billboard: a PAID ranking by money contributed — the board and every item say so', async () => {
  const { status, body } = await get('/leaderboards/billboard');
  assert.equal(status, 200);
  assert.equal(body.board.paid, true);
  assert.match(body.board.notice, /paid/i);
  assert.match(body.board.description, /PAID/);
  assert.deepEqual(
    body.items.map((i: any) => [i.rank, i.listing.slug, i.metric.amount_cents, i.metric.amount, i.paid]),
    [
      [1, 'delta', 75_000, '$750.00', true],
      [2, 'alpha', 10_000, '$100.00', true],
    ],
  );
  for (const i of body.items) assert.equal(i.metric.paid, true);
  assert.equal(body.items[0].listing.votes, 0, 'top of the billboard with no votes at all');
});

test('domain-rating: latest rating with its trend; revenue: latest monthly revenue', async () => {
  const dr = await get('/leaderboards/domain-rating');
  assert.equal(dr.body.board.paid, false);
  assert.match(dr.body.board.description, /third-party/);
  assert.deepEqual(ranks(dr.body), [
    [1, 'bravo', 55],
    [2, 'alpha', 40],
    [3, 'charlie', 12],
  ]);
  const [b, a, c] = dr.body.items.map((i: any) => i.metric);
  assert.deepEqual([b.trend, b.previous, b.change, b.as_of], ['down', 60, -5, '2026-09-01']);
  assert.deepEqual([a.trend, a.previous, a.change], ['up', 35, 5]);
  assert.deepEqual([c.trend, c.previous], ['new', null]);
  const rev = await get('/leaderboards/revenue');
  assert.deepEqual(ranks(rev.body), [
    [1, 'bravo', 1_200_000],
    [2, 'alpha', 250_000],
  ]);
  assert.deepEqual(
    [rev.body.items[0].metric.month, rev.body.items[0].metric.verified, rev.body.items[0].metric.amount],
    ['2026-10', true, '$12,000.00'],
  );
});

test('leaderboards: pagination; week only for community-weekly; bad board', async () => {
  const p = await get('/leaderboards/community-all-time?per_page=2');
  assert.deepEqual([p.body.items.length, p.body.total, p.body.has_more], [2, 3, true]);
  const p2 = await get('/leaderboards/community-all-time?per_page=2&page=2');
  assert.deepEqual([ranks(p2.body), p2.body.has_more], [[[3, 'alpha', 3]], false]);
  for (const board of ['billboard', 'community-all-time', 'domain-rating', 'revenue']) {
    const r = await get(`/leaderboards/${board}?week=last`);
    assert.equal(r.status, 400, board);
    assert.equal(r.body.error.details[0].path, 'query.week');
    assert.match(r.body.error.message, /community-weekly/);
  }
  const bad = await get('/leaderboards/best');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.details[0].path, 'path.board');
  for (const q of ['page=0', 'page=1001', 'per_page=0', 'per_page=101'])
    assert.equal((await get('/leaderboards/revenue?' + q)).status, 400, q);
});
