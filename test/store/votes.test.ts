// A vote or follow that changes nothing (a second press, a vote already cast from another tab) writes
// nothing: the listing's row is not rewritten, so the indexes, the search feed and the vote sums are
// left alone, on both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { freshStore, type TestDb } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { makeUser } from '../auth/helpers.ts';
import { react, reactedSlugs, reactionsAmong } from '../../src/store/repos/votes.ts';

let t: TestDb;
before(async () => {
  t = await freshStore();
  await category(t.store.db, 'tools', { name: 'Tools' });
  await listing(t.store.db, { slug: 'hammer', name: 'Hammer', category: 'tools' });
});
after(async () => {
  await t.cleanup();
});

/** The listing row's version: PostgreSQL's xmin, SQLite's search feed position (a trigger moves it on every rewrite). */
async function rowVersion(): Promise<string> {
  const q =
    t.store.engine === 'postgres'
      ? sql<{ v: string }>`SELECT xmin::text AS v FROM listings WHERE slug = 'hammer'`
      : sql<{ v: string }>`SELECT CAST(search_rev AS TEXT) AS v FROM listings WHERE slug = 'hammer'`;
  return (await q.execute(t.store.db)).rows[0].v;
}

test('a vote or follow that changes nothing writes nothing, and answers with the count as it is', async () => {
  const db = t.store.db;
  const user = await makeUser(t.store);
  const first = await react(db, t.store.engine, 'vote', 'hammer', user.id, 'add');
  assert.deepEqual(first.status === 'ok' && [first.changed, first.active, first.count], [true, true, 1]);
  const v = await rowVersion();
  const again = await react(db, t.store.engine, 'vote', 'hammer', user.id, 'add');
  assert.deepEqual(again.status === 'ok' && [again.changed, again.active, again.count], [false, true, 1]);
  assert.equal(await rowVersion(), v, 'the listing row was not rewritten');

  const unfollow = await react(db, t.store.engine, 'follow', 'hammer', user.id, 'remove');
  assert.deepEqual(unfollow.status === 'ok' && [unfollow.changed, unfollow.active, unfollow.count], [false, false, 0]);
  assert.equal(await rowVersion(), v);

  const taken = await react(db, t.store.engine, 'vote', 'hammer', user.id, 'remove');
  assert.deepEqual(taken.status === 'ok' && [taken.changed, taken.active, taken.count], [true, false, 0]);
  assert.notEqual(await rowVersion(), v, 'a real change rewrites the row');
});

test("a person's votes and follows among a page's listings, read together, are each their own", async () => {
  const db = t.store.db;
  await listing(db, { slug: 'saw', name: 'Saw', category: 'tools' });
  await listing(db, { slug: 'drill', name: 'Drill', category: 'tools' });
  const user = await makeUser(t.store);
  const other = await makeUser(t.store);
  await react(db, t.store.engine, 'vote', 'saw', user.id, 'add');
  await react(db, t.store.engine, 'follow', 'drill', user.id, 'add');
  await react(db, t.store.engine, 'vote', 'drill', other.id, 'add');
  const mine = await reactionsAmong(db, user.id, ['saw', 'drill', 'hammer'], ['drill']);
  assert.deepEqual([[...mine.voted], [...mine.following]], [['saw'], ['drill']]);
  const votesOnly = await reactionsAmong(db, user.id, ['saw', 'drill'], []);
  assert.deepEqual([[...votesOnly.voted], [...votesOnly.following]], [['saw'], []]);
  const followOnly = await reactionsAmong(db, user.id, [], ['saw', 'drill']);
  assert.deepEqual([[...followOnly.voted], [...followOnly.following]], [[], ['drill']]);
  assert.deepEqual(await reactedSlugs(db, 'follow', other.id, ['drill']), new Set());
});
