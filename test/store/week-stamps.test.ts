// An archived launch week's version (migration 240, store/week-stamps.ts) moves when what its list
// shows may change (a vote on one of its launches, an edit of one), and only then: a view, or a vote on
// a launch of another week, leaves it. A result kept by it is computed again only when it moved.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { freshStore, type TestDb } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { makeUser } from '../auth/helpers.ts';
import { react } from '../../src/store/repos/votes.ts';
import { archivedWeekStamp, byArchivedWeek, STAMP_REUSE_MS, weekStamps } from '../../src/store/week-stamps.ts';
import { addDays, addWeeks, mondayOf } from '../../src/domain/weeks.ts';
import { countingNamed } from '../support/named-statements.ts';

let t: TestDb;
const thisWeek = mondayOf(new Date());
const old = addWeeks(thisWeek, -3);
const older = addWeeks(thisWeek, -4);
before(async () => {
  t = await freshStore();
  await category(t.store.db, 'tools', { name: 'Tools' });
  for (const [slug, week] of [
    ['anvil', old],
    ['bellows', older],
    ['chisel', thisWeek],
  ] as const)
    await listing(t.store.db, {
      slug,
      name: slug,
      category: 'tools',
      launch_week: week,
      launched_at: `${addDays(week, 1)}T09:00:00.000Z`,
    });
});
after(async () => {
  await t.cleanup();
});

test("an archived week's version moves with a vote or an edit of its launches, and with nothing else", async () => {
  const db = t.store.db;
  const stamp = () => archivedWeekStamp(db, old);
  const s0 = await stamp();
  assert.ok(s0);
  await sql`UPDATE listing_view_totals SET views = views + 5 WHERE listing_id = (SELECT id FROM listings WHERE slug = 'anvil')`.execute(
    db,
  );
  await sql`UPDATE listings SET followers_count = followers_count + 1 WHERE slug = 'anvil'`.execute(db);
  assert.equal(await stamp(), s0, 'a view or a follower changes nothing the week shows');
  const voter = await makeUser(t.store);
  await react(db, t.store.engine, 'vote', 'bellows', voter.id, 'add');
  await react(db, t.store.engine, 'vote', 'chisel', voter.id, 'add');
  assert.equal(await stamp(), s0, 'votes on launches of other weeks');
  await react(db, t.store.engine, 'vote', 'anvil', voter.id, 'add');
  const s1 = await stamp();
  assert.notEqual(s1, s0, 'a vote on one of its launches');
  await db.updateTable('listings').set({ tagline: 'Heavy' }).where('slug', '=', 'anvil').execute();
  const s2 = await stamp();
  assert.notEqual(s2, s1, 'an edit of one of its launches');
  await db.updateTable('listings').set({ launch_week: older }).where('slug', '=', 'anvil').execute();
  assert.notEqual(await stamp(), s2, 'a launch leaving the week');
  // the current week is not counted (its counter would be a row every vote of the day waits on)
  const rows = await db.selectFrom('week_stamps').select('week').where('week', '=', thisWeek).execute();
  assert.deepEqual(rows, []);
});

test('a result kept by an archived week is computed again only when the week changed', async () => {
  const db = t.store.db;
  let computed = 0;
  const read = () => byArchivedWeek(db, older, 'test', async () => ++computed);
  assert.equal(await read(), 1);
  assert.equal(await read(), 1, 'kept');
  await db.updateTable('listings').set({ name: 'Bellows II' }).where('slug', '=', 'bellows').execute();
  assert.equal(await read(), 2, 'computed again after an edit');
  // the current week is computed every time
  let current = 0;
  await byArchivedWeek(db, thisWeek, 'test', async () => ++current);
  await byArchivedWeek(db, thisWeek, 'test', async () => ++current);
  assert.equal(current, 2);
});

test('weeks asked for at the same moment each get their own version (PostgreSQL: in one statement)', async () => {
  const db = t.store.db;
  const weeks = [old, older, thisWeek, old, addWeeks(thisWeek, -9)];
  const one = async () => {
    const out: Array<string | undefined> = [];
    for (const w of weeks) out.push(await archivedWeekStamp(db, w));
    return out;
  };
  const before = await one();
  const { value: together, named } = await countingNamed(t, () =>
    Promise.all(weeks.map((w) => archivedWeekStamp(db, w))),
  );
  assert.deepEqual(together, before);
  assert.equal(together[2], undefined, 'the current week has no version');
  assert.equal(together[0], together[3]);
  if (t.store.pgPool) assert.equal(named.get('ll_week_stamp_batch'), 1, 'the four archived weeks were one statement');
  // an edit of a launch of one week moves that week's version only
  await db.updateTable('listings').set({ tagline: 'Bellows, again' }).where('slug', '=', 'bellows').execute();
  const after = await Promise.all(weeks.map((w) => archivedWeekStamp(db, w)));
  assert.deepEqual(
    after.map((s, i) => s === together[i]),
    [true, false, true, true, true],
  );
});

test("a week page's version: read again at once after this process's own write; another instance's shows within STAMP_REUSE_MS", async () => {
  const db = t.store.db;
  const engine = t.store.engine;
  const voter = await makeUser(t.store);
  // this process: its own writes move its count, so the version is read again at once
  const mine = weekStamps(t.store);
  const a0 = await mine(older);
  assert.ok(a0);
  assert.equal(await mine(older), a0);
  await react(db, engine, 'vote', 'bellows', voter.id, 'add');
  const a1 = await mine(older);
  assert.notEqual(a1, a0, "this process's own vote shows on its next page");
  assert.equal(await mine(thisWeek), undefined, 'the current week has no version');

  // another instance: its writes do not move this process's count (a store whose count stands still)
  const still = { ...t.store, sqliteWrites: () => 0, pgWrites: () => 0 };
  const theirs = weekStamps(still);
  const at = Date.now();
  const b0 = await theirs(older);
  assert.equal(b0, a1);
  await react(db, engine, 'vote', 'bellows', voter.id, 'remove');
  const b1 = await theirs(older);
  // (on a machine slow enough to take the whole interval for one vote, it is read again already)
  if (Date.now() - at < STAMP_REUSE_MS) assert.equal(b1, b0, 'reused within the interval');
  await new Promise((r) => setTimeout(r, STAMP_REUSE_MS + 20));
  const b2 = await theirs(older);
  assert.notEqual(b2, b0, 'read again once the interval has passed');
  assert.equal(b2, await archivedWeekStamp(db, older), 'the current version');
});
