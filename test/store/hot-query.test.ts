// Hot reads (store/prepared.ts): a query written with Kysely, compiled once with stand-ins for its
// arguments, then run as a cached statement (SQLite) or a named prepared one (PostgreSQL), answers as
// the query itself does, with each call's own arguments in their places and the query's constants kept.
// In a transaction it has no fast path, and its caller builds the query as before.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { freshStore, type TestDb } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { hotQuery } from '../../src/store/prepared.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/store/types.ts';

let t: TestDb;
before(async () => {
  t = await freshStore();
  await category(t.store.db, 'tools', { name: 'Tools' });
  for (const slug of ['anvil', 'bellows', 'chisel']) await listing(t.store.db, { slug, name: slug, category: 'tools' });
  await listing(t.store.db, { slug: 'drafted', name: 'drafted', category: 'tools', status: 'draft' });
});
after(async () => {
  await t.cleanup();
});

// a constant before the arguments, the arguments (a range: their places matter), a constant after
const query = (db: Kysely<DB>, [from, to]: readonly string[]) =>
  db
    .selectFrom('listings')
    .select(['slug', 'name'])
    .where('status', '=', 'live')
    .where('slug', '>=', from)
    .where('slug', '<=', to)
    .where('name', '<>', 'nobody')
    .orderBy('slug');

test('a hot query answers as the query does, each call with its own arguments', async () => {
  const db = t.store.db;
  const seen: string[][] = [];
  for (const args of [
    ['anvil', 'bellows'],
    ['bellows', 'drafted'], // drafted is not live
    ['chisel', 'anvil'], // nothing
  ]) {
    const hot = await hotQuery<{ slug: string; name: string }>(db, 'test_hot_query', (a) => query(db, a), args);
    assert.ok(hot, 'the database itself has a fast path');
    assert.deepEqual(
      hot.map((r) => ({ ...r })),
      (await query(db, args).execute()).map((r) => ({ ...r })),
      args.join(' '),
    );
    seen.push(hot.map((r) => r.slug));
  }
  assert.deepEqual(seen, [['anvil', 'bellows'], ['bellows', 'chisel'], []]);
  await db.transaction().execute(async (trx) => {
    assert.equal(await hotQuery(trx, 'test_hot_query', (a) => query(trx, a), ['anvil', 'chisel']), undefined);
  });
});
