// The recurring awards job: decides Launch of the Week for every finished week, then schedules itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { addCategory, addListing, addUsers, addVotes, inWeek, week } from '../support/seed-fixtures.ts';
import { drainJobs, jobHandlers } from '../../src/jobs/index.ts';
import { AWARDS_COMPUTE, ensureAwardsScheduled, nextAwardsRun } from '../../src/jobs/awards.ts';

let t: TestApp;
before(async () => {
  t = await testApp({}, async (store) => {
    const db = store.db;
    await addCategory(db, 'tools');
    const voters = await addUsers(db, 6);
    const a = await addListing(db, {
      slug: 'alpha',
      category: 'tools',
      launch_week: week(-1),
      launched_at: inWeek(-1, 1),
    });
    const b = await addListing(db, {
      slug: 'bravo',
      category: 'tools',
      launch_week: week(-1),
      launched_at: inWeek(-1, 2),
    });
    const c = await addListing(db, { slug: 'charlie', category: 'tools', launch_week: week(0) });
    await addVotes(db, a, voters, [inWeek(-1, 5), inWeek(-1, 6)]);
    await addVotes(db, b, voters, [inWeek(-1, 5), inWeek(-1, 6), inWeek(-1, 7), inWeek(-1, 8)]);
    await addVotes(db, c, voters, [inWeek(0, 1)]);
  });
});
after(async () => {
  await t.cleanup();
});

test('the awards job decides finished weeks only, from votes, and schedules itself for after next Monday', async () => {
  assert.equal(await ensureAwardsScheduled(t.store.db), true);
  assert.equal(await ensureAwardsScheduled(t.store.db), false, 'one awards job at a time');
  await drainJobs(t.server.deps, jobHandlers);

  const awards = await t.store.db
    .selectFrom('awards')
    .innerJoin('listings', 'listings.id', 'awards.listing_id')
    .select(['awards.week', 'awards.rank', 'listings.slug'])
    .orderBy('awards.rank')
    .execute();
  assert.deepEqual(
    awards.map((a) => [a.week, a.rank, a.slug]),
    [
      [week(-1), 1, 'bravo'],
      [week(-1), 2, 'alpha'],
    ],
    'this week is not decided yet',
  );

  const next = await t.store.db
    .selectFrom('jobs')
    .select(['run_at', 'status'])
    .where('kind', '=', AWARDS_COMPUTE)
    .where('status', '=', 'queued')
    .execute();
  assert.equal(next.length, 1);
  assert.equal(new Date(next[0].run_at).toISOString(), nextAwardsRun(new Date()).toISOString());
  assert.ok(new Date(next[0].run_at) > new Date(week(1) + 'T00:00:00Z'));

  const api = await t.app.inject({ method: 'GET', url: '/api/v1/awards' });
  assert.equal(api.json().items[0].listing.slug, 'bravo');
});
