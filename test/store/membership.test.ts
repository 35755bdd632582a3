// Per-category counts kept until the live directory's membership changes (store/membership.ts,
// migration 200): exact at every moment, on both engines, without counting the listings per request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { freshStore, type TestDb } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { categoriesNow, liveListingsInCategory } from '../../src/store/repos/categories.ts';
import { membershipStamp } from '../../src/store/membership.ts';

let t: TestDb;
let tools: number;
let sub: number;
before(async () => {
  t = await freshStore();
  tools = await category(t.store.db, 'tools', { name: 'Tools' });
  sub = await category(t.store.db, 'editors', { name: 'Editors', parent: 'tools' });
  await category(t.store.db, 'games', { name: 'Games' });
  for (let i = 1; i <= 5; i++)
    await listing(t.store.db, {
      slug: `tool-${i}`,
      name: `Tool ${i}`,
      category: i <= 3 ? 'tools' : 'editors',
      launched_at: `2026-0${i}-01T00:00:00.000Z`,
    });
  await listing(t.store.db, { slug: 'game-1', name: 'Game 1', category: 'games', extraCategories: ['editors'] });
});
after(async () => {
  await t.cleanup();
});

const db = () => t.store.db;
const liveCounts = async (d: typeof t.store.db) => (await categoriesNow(d)).counts;
const rolledTools = async () => (await liveCounts(db())).rolled.get(tools);

test('the counts follow every change of membership at once, and nothing else moves the counter', async () => {
  assert.equal(await rolledTools(), 6, 'five in tools or editors, one game with editors as an extra category');
  assert.equal((await liveCounts(db())).direct.get(sub), 3);

  const before = await membershipStamp(db());
  await db().updateTable('listings').set({ votes_count: 40 }).where('slug', '=', 'tool-1').execute();
  assert.equal(await membershipStamp(db()), before, 'a vote changes order, not membership');

  await db().updateTable('listings').set({ status: 'draft' }).where('slug', '=', 'tool-2').execute();
  assert.notEqual(await membershipStamp(db()), before);
  assert.equal(await rolledTools(), 5, 'a listing taken off live leaves the count at once');

  const games = await db().selectFrom('categories').select('id').where('slug', '=', 'games').executeTakeFirstOrThrow();
  await db().updateTable('listings').set({ primary_category_id: games.id }).where('slug', '=', 'tool-3').execute();
  assert.equal(await rolledTools(), 4, 'a listing moved to another category');

  const game = await db().selectFrom('listings').select('id').where('slug', '=', 'game-1').executeTakeFirstOrThrow();
  await db()
    .deleteFrom('listing_categories')
    .where('listing_id', '=', game.id)
    .where('is_primary', '=', false as never)
    .execute();
  assert.equal(await rolledTools(), 3, 'an extra category taken away');

  await db().updateTable('listings').set({ status: 'live' }).where('slug', '=', 'tool-2').execute();
  assert.equal(await rolledTools(), 4, 'back on live');
});

test('a change inside a transaction shows to others only once it commits', async () => {
  const seen = await rolledTools();
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx.updateTable('listings').set({ status: 'draft' }).where('slug', '=', 'tool-4').execute();
      if (t.store.engine === 'postgres') assert.equal(await rolledTools(), seen, 'not yet committed');
    });
  assert.equal(await rolledTools(), (seen ?? 0) - 1);
  await db().updateTable('listings').set({ status: 'live' }).where('slug', '=', 'tool-4').execute();
});

test("a category's page: most voted first across its subcategories and extra members, its total exact", async () => {
  await db().updateTable('listings').set({ votes_count: 0 }).execute();
  await db().updateTable('listings').set({ votes_count: 9 }).where('slug', '=', 'tool-5').execute();
  await db().updateTable('listings').set({ votes_count: 5 }).where('slug', '=', 'tool-2').execute();
  const all = await liveListingsInCategory(db(), await categoriesNow(db()), tools, 10, 0);
  assert.deepEqual(
    all.items.map((i) => i.slug),
    ['tool-5', 'tool-2', 'tool-1', 'tool-4'],
    'by votes, then the earlier launch',
  );
  assert.equal(all.total, 4);
  const page2 = await liveListingsInCategory(db(), await categoriesNow(db()), tools, 2, 2);
  assert.deepEqual(
    page2.items.map((i) => i.slug),
    ['tool-1', 'tool-4'],
  );
  assert.equal(page2.total, 4);
  // a subcategory's total is its own count; with an extra member it still counts each listing once
  await db().updateTable('listings').set({ status: 'draft' }).where('slug', '=', 'tool-2').execute();
  const game = await db().selectFrom('listings').select('id').where('slug', '=', 'game-1').executeTakeFirstOrThrow();
  await db()
    .insertInto('listing_categories')
    .values({ listing_id: game.id, category_id: sub, is_primary: false } as never)
    .execute();
  const editors = await liveListingsInCategory(db(), await categoriesNow(db()), sub, 10, 0);
  assert.deepEqual(editors.items.map((i) => i.slug).sort(), ['game-1', 'tool-4', 'tool-5']);
  assert.equal(editors.total, 3);
  const top = await liveListingsInCategory(db(), await categoriesNow(db()), tools, 10, 0);
  assert.deepEqual(
    top.items.map((i) => i.slug),
    ['tool-5', 'tool-1', 'tool-4', 'game-1'],
  );
  assert.equal(top.total, 4, 'a listing taken off live and one added as an extra member, at once');
  await db().updateTable('listings').set({ status: 'live' }).where('slug', '=', 'tool-2').execute();
  await db()
    .deleteFrom('listing_categories')
    .where('listing_id', '=', game.id)
    .where('is_primary', '=', false as never)
    .execute();
});

test("the leaderboards' totals follow a listing's first counted vote, Domain Rating and revenue at once; later votes do not recount", async () => {
  const { leaderboard } = await import('../../src/store/repos/launches.ts');
  const total = async (board: 'community-all-time' | 'domain-rating' | 'revenue') =>
    (await leaderboard(db(), t.store.engine, board, null, 20, 0)).total;
  const id = async (slug: string) =>
    (await db().selectFrom('listings').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
  const boards = async () =>
    String(
      (await db().selectFrom('directory_stamps').select('n').where('name', '=', 'boards').executeTakeFirstOrThrow()).n,
    );
  const votes = (weighted: number) => ({
    weighted,
    votes: 1,
    discounted: 0,
    by_reason: '{}',
    trend: 0,
    last_vote_at: '2026-01-01T00:00:00.000Z',
  });

  await db().deleteFrom('listing_vote_totals').execute();
  assert.equal(await total('community-all-time'), 0);
  await db()
    .insertInto('listing_vote_totals')
    .values({ listing_id: await id('tool-1'), ...votes(1) } as never)
    .execute();
  assert.equal(await total('community-all-time'), 1, "a listing's first counted vote");
  const stamp = await boards();
  await db()
    .updateTable('listing_vote_totals')
    .set({ weighted: 3 })
    .where('listing_id', '=', await id('tool-1'))
    .execute();
  assert.equal(await boards(), stamp, 'a further vote moves no counter: the total is not counted again');
  await db()
    .insertInto('listing_vote_totals')
    .values({ listing_id: await id('tool-2'), ...votes(0) } as never)
    .execute();
  assert.equal(await total('community-all-time'), 1, 'a vote that counts for nothing (weight 0)');
  await db()
    .updateTable('listing_vote_totals')
    .set({ weighted: 0.5 })
    .where('listing_id', '=', await id('tool-2'))
    .execute();
  assert.equal(await total('community-all-time'), 2);
  await db().updateTable('listings').set({ status: 'draft' }).where('slug', '=', 'tool-1').execute();
  assert.equal(await total('community-all-time'), 1, 'a voted listing taken off live');
  await db().updateTable('listings').set({ status: 'live' }).where('slug', '=', 'tool-1').execute();

  await db().updateTable('listings').set({ domain_rating: null, revenue_cents: null }).execute();
  assert.equal(await total('domain-rating'), 0);
  await db().updateTable('listings').set({ domain_rating: 40 }).where('slug', 'in', ['tool-1', 'tool-3']).execute();
  assert.equal(await total('domain-rating'), 2, 'a Domain Rating read for the first time');
  await db().updateTable('listings').set({ domain_rating: 41 }).where('slug', '=', 'tool-1').execute();
  assert.equal(await total('domain-rating'), 2, 'a new reading of a rated listing');
  await db().updateTable('listings').set({ domain_rating: null }).where('slug', '=', 'tool-3').execute();
  assert.equal(await total('domain-rating'), 1, 'a rating taken away');
  await db().updateTable('listings').set({ revenue_cents: 5000 }).where('slug', '=', 'tool-5').execute();
  assert.equal(await total('revenue'), 1, 'a revenue figure');
  await db().updateTable('listings').set({ revenue_cents: 0 }).where('slug', '=', 'tool-5').execute();
  assert.equal(await total('revenue'), 0, 'revenue back to 0');
});
