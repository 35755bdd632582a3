// Trending read in the order of its index (migration 260): the key log2(trend) + hours of the last vote
// / 48 orders listings as their decayed score does now, whenever "now" is: many old votes and one
// recent vote are weighed against each other as the formula says, listings that are not live are
// neither listed nor counted, and pages follow on from one another.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { addCategory, addListing, addUsers, addVotes } from '../support/seed-fixtures.ts';

let t: TestApp;
const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();

before(async () => {
  t = await testApp({}, async ({ db }) => {
    await addCategory(db, 'cat');
    const u = await addUsers(db, 12);
    const add = async (slug: string, times: string[], status: 'live' | 'scheduled' = 'live') => {
      const id = await addListing(db, { slug, category: 'cat', launched_at: ago(500) });
      await addVotes(db, id, u, times);
      if (status !== 'live') await db.updateTable('listings').set({ status }).where('id', '=', id).execute();
    };
    await add('one-now', [ago(1)]); // ≈ 0.986
    await add('four-old', [ago(97), ago(97), ago(97), ago(97)]); // 4 × 0.5^(97/48) ≈ 0.986 (cast a moment later: a hair more)
    await add('two-mid', [ago(30), ago(40)]); // ≈ 1.21
    await add(
      'eight-week',
      Array.from({ length: 8 }, () => ago(160)),
    ); // ≈ 0.8
    await add('hidden', [ago(1), ago(2), ago(3)], 'scheduled'); // voted on, then taken off the site
    await add('stale', [ago(24 * 15)]); // out of the window
  });
});
after(async () => {
  await t.cleanup();
});

const page = async (n: number, per = 2) =>
  (await t.app.inject({ url: `/api/v1/launches?section=trending&per_page=${per}&page=${n}` })).json();

test('trending: by score now; not live and out of the window neither listed nor counted; pages follow on', async () => {
  const all = await page(1, 50);
  assert.deepEqual(
    all.items.map((l: { slug: string }) => l.slug),
    ['two-mid', 'four-old', 'one-now', 'eight-week'],
  );
  assert.equal(all.total, 4);
  const scores = all.items.map((l: { trending_score: number }) => l.trending_score);
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
    'scores fall down the list',
  );
  assert.ok(Math.abs(scores[1] - scores[2]) < 0.001, 'four votes four days ago score as one vote now');
  const pages = [...(await page(1)).items, ...(await page(2)).items, ...(await page(3)).items];
  assert.deepEqual(
    pages.map((l: { slug: string; rank: number }) => [l.slug, l.rank]),
    all.items.map((l: { slug: string; rank: number }) => [l.slug, l.rank]),
  );
});

test('community-weekly board: in order of the week’s counted votes; a listing that is not live is neither listed nor counted', async () => {
  const { mondayOf } = await import('../../src/domain/weeks.ts');
  const week = mondayOf(new Date(Date.now() - 3 * HOUR)); // the week of 'hidden''s votes
  const r = (await t.app.inject({ url: `/api/v1/leaderboards/community-weekly?week=${week}&per_page=50` })).json();
  const slugs = r.items.map((i: { listing: { slug: string } }) => i.listing.slug);
  assert.ok(slugs.includes('one-now'), `one-now was voted on in the week of ${week}`);
  assert.ok(!slugs.includes('hidden'), 'not live: not on the board');
  assert.equal(r.total, r.items.length, 'and not counted');
  const votes = r.items.map((i: { metric: { votes: number } }) => i.metric.votes);
  assert.deepEqual(
    votes,
    [...votes].sort((a, b) => b - a),
  );
});
