import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  addCategory,
  addListing,
  addUsers,
  addVotes,
  earlierThisWeek,
  earlierToday,
  inWeek,
  week,
} from '../support/seed-fixtures.ts';
import { addDays, dayStart, isoWeekLabel } from '../../src/domain/weeks.ts';
import { trendingScore } from '../../src/domain/ranking.ts';

let t: TestApp;
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url: '/api/v1' + url });
  return { status: r.statusCode, body: r.json() };
};

before(async () => {
  t = await testApp({}, async ({ db }) => {
    await addCategory(db, 'cat');
    const u = await addUsers(db, 30);
    // last week: x and z tie on votes cast that week (x launched earlier); y has more votes in total, but cast this week
    const x = await addListing(db, {
      slug: 'past-x',
      category: 'cat',
      launch_week: week(-1),
      launched_at: inWeek(-1, 2),
      views_count: 500,
    });
    await addVotes(db, x, u, [inWeek(-1, 10), inWeek(-1, 20), inWeek(-1, 30)]);
    const z = await addListing(db, {
      slug: 'past-z',
      category: 'cat',
      launch_week: week(-1),
      launched_at: inWeek(-1, 5),
      followers_count: 40,
    });
    await addVotes(db, z, u, [inWeek(-1, 11), inWeek(-1, 21), inWeek(-1, 150)]);
    const y = await addListing(db, {
      slug: 'past-y',
      category: 'cat',
      launch_week: week(-1),
      launched_at: inWeek(-1, 1),
      views_count: 900,
      followers_count: 3,
    });
    await addVotes(db, y, u, [inWeek(-1, 40), ...[0.2, 0.3, 0.5, 0.6, 0.8, 0.95].map((f) => earlierThisWeek(f))]);
    // this week
    const a = await addListing(db, { slug: 'now-a', category: 'cat', launched_at: earlierThisWeek(0.1) });
    await addVotes(db, a, u, [earlierThisWeek(0.3), earlierThisWeek(0.6)]);
    const b = await addListing(db, {
      slug: 'now-b',
      category: 'cat',
      launched_at: earlierThisWeek(0.05),
      followers_count: 12,
    });
    await addVotes(
      db,
      b,
      u,
      [0.2, 0.4, 0.7, 0.9].map((f) => earlierThisWeek(f)),
    );
    const c = await addListing(db, { slug: 'now-c', category: 'cat', launched_at: earlierToday(0.5) });
    await addVotes(db, c, u, [earlierToday(0.9)]);
    await addListing(db, { slug: 'now-sched', category: 'cat', status: 'scheduled', launch_week: week(0) });
    // three weeks ago: the most votes in total, all older than the 14-day trending window
    const old = await addListing(db, {
      slug: 'old-t',
      category: 'cat',
      launch_week: week(-3),
      launched_at: inWeek(-3, 0),
    });
    await addVotes(
      db,
      old,
      u,
      Array.from({ length: 8 }, (_, i) => inWeek(-3, 1 + i)),
    );
    // upcoming
    await addListing(db, { slug: 'next-s', category: 'cat', status: 'scheduled', launch_week: week(1) });
    await addListing(db, { slug: 'next-a', category: 'cat', status: 'awaiting_badge', launch_week: week(1) });
    await addListing(db, { slug: 'next-d', category: 'cat', status: 'draft', launch_week: week(1) });
    await addListing(db, { slug: 'later-s', category: 'cat', status: 'scheduled', launch_week: week(2) });
  });
});
after(async () => {
  await t.cleanup();
});

test('get_launch_week this: live launches of this week ranked by votes cast this week', async () => {
  const { status, body } = await get('/launches/weeks/this');
  assert.equal(status, 200);
  assert.deepEqual(body.week, {
    start: week(0),
    end: addDays(week(0), 6),
    iso_week: isoWeekLabel(week(0)),
    is_current: true,
    is_future: false,
    is_past: false,
  });
  assert.deepEqual(
    body.launches.map((l: any) => [l.rank, l.listing.slug, l.votes]),
    [
      [1, 'now-b', 4],
      [2, 'now-a', 2],
      [3, 'now-c', 1],
    ],
  );
  assert.equal(body.total, 3);
  assert.equal(body.launches[0].listing.url, 'https://now-b.example');
  assert.equal(body.launches[0].listing.votes, 4);
});

test('get_launch_week last: only votes cast during that week count; ties go to the earlier launch', async () => {
  const { status, body } = await get('/launches/weeks/last');
  assert.equal(status, 200);
  assert.equal(body.week.start, week(-1));
  assert.equal(body.week.is_past, true);
  assert.deepEqual(
    body.launches.map((l: any) => [l.rank, l.listing.slug, l.votes]),
    [
      [1, 'past-x', 3],
      [2, 'past-z', 3],
      [3, 'past-y', 1],
    ],
  );
  assert.equal(body.launches[2].listing.votes, 7, 'past-y has 7 votes in all, 6 of them cast this week');
  const wednesday = await get('/launches/weeks/' + addDays(week(-1), 2));
  assert.deepEqual(wednesday.body, body, 'a date snaps to its Monday');
  const sunday = await get('/launches/weeks/' + addDays(week(-1), 6));
  assert.equal(sunday.body.week.start, week(-1));
});

test('get_launch_week next: the launches scheduled for a future week, without ranks', async () => {
  const { status, body } = await get('/launches/weeks/next');
  assert.equal(status, 200);
  assert.equal(body.week.is_future, true);
  assert.deepEqual(
    body.launches.map((l: any) => [l.rank, l.listing.slug, l.listing.status, l.votes]),
    [
      [null, 'next-a', 'awaiting_badge', null],
      [null, 'next-s', 'scheduled', null],
    ],
  );
});

test('get_launch_week: a valid week without launches is 200 and empty; bad weeks are 400', async () => {
  const empty = await get('/launches/weeks/2001-01-03');
  assert.equal(empty.status, 200);
  assert.deepEqual(
    [empty.body.week.start, empty.body.week.iso_week, empty.body.launches, empty.body.total],
    ['2001-01-01', '2001-W01', [], 0],
  );
  for (const bad of ['yesterday', '2026-02-30', '2026-13-01', '2026-11-160', 'THIS', '9999-12-31']) {
    const r = await get('/launches/weeks/' + bad);
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.error.details[0].path, 'path.week', bad);
  }
  // Early years are themselves (not 1900–1999), including a date whose Monday is in the year before.
  const early = await get('/launches/weeks/0100-01-01');
  assert.equal(early.status, 200, JSON.stringify(early.body));
  assert.deepEqual(
    [early.body.week.start, early.body.week.end, early.body.week.iso_week, early.body.total],
    ['0099-12-28', '0100-01-03', '0099-W53', 0],
  );
  const board = await get('/leaderboards/community-weekly?week=0100-01-01');
  assert.equal(board.status, 200, JSON.stringify(board.body));
});

test('list_launches this-week (default) and today', async () => {
  const week0 = await get('/launches');
  assert.equal(week0.status, 200);
  assert.equal(week0.body.section, 'this-week');
  assert.deepEqual(
    week0.body.items.map((l: any) => [l.rank, l.slug, l.week_votes]),
    [
      [1, 'now-b', 4],
      [2, 'now-a', 2],
      [3, 'now-c', 1],
    ],
  );
  const today = await get('/launches?section=today');
  const todayStart = dayStart(new Date()).toISOString();
  const expected = ['now-a', 'now-b', 'now-c'].filter(
    (s) => s === 'now-c' || week0.body.items.find((l: any) => l.slug === s).launched_at >= todayStart,
  );
  assert.deepEqual(today.body.items.map((l: any) => l.slug).sort(), expected.sort());
  for (const l of today.body.items) assert.ok(l.launched_at >= todayStart);
});

test('list_launches trending: time-decayed votes (0.5^(age_hours/48)); older than 14 days left out', async () => {
  const { body } = await get('/launches?section=trending&per_page=100');
  const now = new Date();
  const votes = await t.store.db
    .selectFrom('votes')
    .innerJoin('listings', 'listings.id', 'votes.listing_id')
    .select(['listings.slug', 'votes.created_at'])
    .execute();
  const bySlug = new Map<string, string[]>();
  for (const v of votes) bySlug.set(v.slug, [...(bySlug.get(v.slug) ?? []), v.created_at]);
  const expected = [...bySlug]
    .map(([slug, times]) => [slug, trendingScore(times, now)] as const)
    .filter(([, s]) => s > 0)
    .sort((p, q) => q[1] - p[1]);
  assert.deepEqual(
    body.items.map((l: any) => l.slug),
    expected.map(([s]) => s),
  );
  for (const [i, [slug, score]] of expected.entries()) {
    assert.equal(body.items[i].slug, slug);
    assert.ok(
      Math.abs(body.items[i].trending_score - score) < 0.01,
      `${slug}: ${body.items[i].trending_score} ≈ ${score}`,
    );
    assert.equal(body.items[i].rank, i + 1);
  }
  assert.ok(!body.items.some((l: any) => l.slug === 'old-t'), 'old-t has the most votes, all older than 14 days');
  assert.match(
    (await t.app.inject({ url: '/api/v1/openapi.json' })).body,
    /0\.5\^\(age_hours \/ 48\)/,
    'the formula is documented',
  );
});

test('list_launches most-voted, recent, most-viewed, most-followed, upcoming', async () => {
  const slugs = async (section: string) =>
    (await get(`/launches?section=${section}&per_page=100`)).body.items.map((l: any) => l.slug);
  assert.deepEqual((await slugs('most-voted')).slice(0, 3), ['old-t', 'past-y', 'now-b']);
  assert.deepEqual(await slugs('recent'), ['now-c', 'now-a', 'now-b', 'past-z', 'past-x', 'past-y', 'old-t']);
  assert.deepEqual((await slugs('most-viewed')).slice(0, 2), ['past-y', 'past-x']);
  assert.deepEqual((await slugs('most-followed')).slice(0, 3), ['past-z', 'now-b', 'past-y']);
  assert.deepEqual(await slugs('upcoming'), ['next-a', 'next-s', 'later-s']);
  const viewed = (await get('/launches?section=most-viewed&per_page=1')).body.items[0];
  assert.deepEqual([viewed.views, viewed.followers, viewed.rank], [900, 3, 1]);
  const upcoming = (await get('/launches?section=upcoming')).body.items[0];
  assert.equal(upcoming.rank, undefined, 'upcoming is not a ranking');
});

test('list_launches: pagination and bad input', async () => {
  const p = await get('/launches?section=recent&per_page=3&page=2');
  assert.deepEqual(
    [p.body.items.map((l: any) => l.slug), p.body.total, p.body.has_more],
    [['past-z', 'past-x', 'past-y'], 7, true],
  );
  const last = await get('/launches?section=recent&per_page=3&page=3');
  assert.deepEqual([last.body.items.length, last.body.has_more], [1, false]);
  const ranked = await get('/launches?section=most-voted&per_page=2&page=2');
  assert.deepEqual(
    ranked.body.items.map((l: any) => l.rank),
    [3, 4],
    'ranks continue across pages',
  );
  for (const q of ['section=popular', 'section=', 'page=0', 'page=1001', 'per_page=0', 'per_page=101']) {
    const r = await get('/launches?' + q);
    assert.equal(r.status, 400, q);
    assert.equal(r.body.error.code, 'validation_failed');
  }
});
