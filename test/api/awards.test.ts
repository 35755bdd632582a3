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
import { computeAwards, computeMissingAwards } from '../../src/store/repos/awards.ts';
import { addDays, isoWeekLabel } from '../../src/domain/weeks.ts';

let t: TestApp;
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url: '/api/v1' + url });
  return { status: r.statusCode, body: r.json() };
};

before(async () => {
  t = await testApp({}, async ({ db }) => {
    await addCategory(db, 'cat');
    const u = await addUsers(db, 30);
    const money = await addListing(db, {
      slug: 'moneybags',
      category: 'cat',
      launch_week: week(-1),
      launched_at: inWeek(-1, 1),
    });
    await addVotes(db, money, u, [
      inWeek(-1, 3),
      inWeek(-1, 4),
      ...Array.from({ length: 10 }, (_, i) => earlierThisWeek((i + 1) / 11)),
    ]);
    await db
      .insertInto('billboard_contributions')
      .values({ listing_id: money, amount_cents: 100_000, order_id: null, created_at: inWeek(-1, 2) })
      .execute();
    await addVotes(
      db,
      await addListing(db, { slug: 'winner', category: 'cat', launch_week: week(-1), launched_at: inWeek(-1, 8) }),
      u,
      [10, 11, 12, 13, 14].map((h) => inWeek(-1, h)),
    );
    await addVotes(
      db,
      await addListing(db, { slug: 'early-tie', category: 'cat', launch_week: week(-1), launched_at: inWeek(-1, 2) }),
      u,
      [20, 30, 40].map((h) => inWeek(-1, h)),
    );
    await addVotes(
      db,
      await addListing(db, { slug: 'late-tie', category: 'cat', launch_week: week(-1), launched_at: inWeek(-1, 6) }),
      u,
      [21, 31, 41].map((h) => inWeek(-1, h)),
    );
    await addListing(db, { slug: 'no-votes', category: 'cat', launch_week: week(-1), launched_at: inWeek(-1, 0) });
    await addVotes(
      db,
      await addListing(db, { slug: 'only-one', category: 'cat', launch_week: week(-2), launched_at: inWeek(-2, 3) }),
      u,
      [inWeek(-2, 5)],
    );
    await addListing(db, { slug: 'zero-two', category: 'cat', launch_week: week(-2), launched_at: inWeek(-2, 1) });
    await addVotes(
      db,
      await addListing(db, { slug: 'current', category: 'cat', launched_at: earlierThisWeek(0.1) }),
      u,
      [earlierThisWeek(0.5)],
    );
  });
});
after(async () => {
  await t.cleanup();
});

const awardRows = () =>
  t.store.db
    .selectFrom('awards')
    .innerJoin('listings', 'listings.id', 'awards.listing_id')
    .select(['awards.week', 'awards.rank', 'listings.slug', 'awards.votes'])
    .orderBy('awards.week', 'desc')
    .orderBy('awards.rank')
    .execute();

test('computeAwards: Launch of the Week #1–#3 from votes cast in the week only; money plays no part; idempotent', async () => {
  const winners = await computeAwards(t.store.db, week(-1));
  assert.deepEqual(
    winners.map((w) => [w.rank, w.votes]),
    [
      [1, 5],
      [2, 3],
      [3, 3],
    ],
  );
  assert.deepEqual(
    (await awardRows()).map((r) => [r.rank, r.slug, r.votes]),
    [
      [1, 'winner', 5],
      [2, 'early-tie', 3],
      [3, 'late-tie', 3],
    ],
    'moneybags has the most votes in total and the billboard money, but only 2 votes in its launch week',
  );
  await computeAwards(t.store.db, week(-1));
  await computeAwards(t.store.db, addDays(week(-1), 3)); // any date of the week snaps to its Monday
  assert.equal((await awardRows()).length, 3, 'recomputing replaces, never duplicates');
  assert.deepEqual(await computeAwards(t.store.db, week(0)), [], 'the current week is not decided before it ends');
  assert.equal((await awardRows()).length, 3);
});

test('computeMissingAwards decides every ended week that has none yet', async () => {
  const decided = await computeMissingAwards(t.store.db);
  assert.deepEqual(decided, [week(-2)], 'week -1 already has awards');
  assert.deepEqual(
    (await awardRows()).map((r) => [r.week, r.rank, r.slug]),
    [
      [week(-1), 1, 'winner'],
      [week(-1), 2, 'early-tie'],
      [week(-1), 3, 'late-tie'],
      [week(-2), 1, 'only-one'],
    ],
  );
  assert.deepEqual(await computeMissingAwards(t.store.db), []);
});

test('list_awards: newest week first, each with its listing; filter by listing', async () => {
  const { status, body } = await get('/awards');
  assert.equal(status, 200);
  assert.deepEqual(
    body.items.map((a: any) => [a.week, a.rank, a.title, a.listing.slug, a.votes]),
    [
      [week(-1), 1, 'Launch of the Week #1', 'winner', 5],
      [week(-1), 2, 'Launch of the Week #2', 'early-tie', 3],
      [week(-1), 3, 'Launch of the Week #3', 'late-tie', 3],
      [week(-2), 1, 'Launch of the Week #1', 'only-one', 1],
    ],
  );
  assert.equal(body.items[0].iso_week, isoWeekLabel(week(-1)));
  assert.equal(body.items[0].kind, 'launch_of_the_week');
  assert.equal(body.items[0].listing.url, 'https://winner.example');
  const one = await get('/awards?listing=early-tie');
  assert.deepEqual(
    one.body.items.map((a: any) => [a.rank, a.listing.slug]),
    [[2, 'early-tie']],
  );
  assert.equal(one.body.total, 1);
  const none = await get('/awards?listing=moneybags');
  assert.deepEqual([none.status, none.body.items, none.body.total], [200, [], 0]);
});

test('list_awards: unknown listing an empty page, bad slug 400, pagination', async () => {
  const nf = await get('/awards?listing=no-such-listing');
  assert.equal(nf.status, 200);
  assert.deepEqual([nf.body.items, nf.body.total], [[], 0]);
  const bad = await get('/awards?listing=Bad%20Slug');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.details[0].path, 'query.listing');
  const p = await get('/awards?per_page=3');
  assert.deepEqual([p.body.items.length, p.body.total, p.body.has_more], [3, 4, true]);
  const p2 = await get('/awards?per_page=3&page=2');
  assert.deepEqual([p2.body.items.map((a: any) => a.listing.slug), p2.body.has_more], [['only-one'], false]);
  for (const q of ['page=0', 'page=1001', 'per_page=0', 'per_page=101'])
    assert.equal((await get('/awards?' + q)).status, 400, q);
});
