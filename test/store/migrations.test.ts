// Upgrades of a database with data in it: a migration must carry what is there, not only build an empty schema.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { sql } from 'kysely';
import { emptyDatabase, ENGINE } from '../support/app.ts';
import { connect, type Store } from '../../src/store/connect.ts';
import { migrate } from '../../src/store/migrate.ts';
import { addCategory, addListing } from '../support/seed-fixtures.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function storeAt(migration: string): Promise<Store> {
  const empty = await emptyDatabase();
  const store = connect({ databaseUrl: empty.databaseUrl, sqliteFile: join(empty.dir, 'launchlist.db') });
  cleanups.push(async () => {
    await store.close();
    await empty.drop();
  });
  await migrate(store.db, store.engine, { to: migration });
  return store;
}

const columnsOf = async (store: Store, table: string): Promise<string[]> =>
  (ENGINE === 'sqlite'
    ? (await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(store.db)).rows
    : (
        await sql<{
          name: string;
        }>`SELECT column_name AS name FROM information_schema.columns WHERE table_name = ${table} AND table_schema = current_schema()`.execute(
          store.db,
        )
      ).rows
  ).map((r) => r.name);

test('100_view_totals: every listing keeps its views in listing_view_totals; new listings get a row, deleted ones lose it', async () => {
  const store = await storeAt('090_search_feed');
  const db = store.db;
  await addCategory(db, 'tools');
  const a = await addListing(db, { slug: 'seen-a-lot', category: 'tools' });
  const b = await addListing(db, { slug: 'never-seen', category: 'tools' });
  await sql`UPDATE listings SET views_count = 1234 WHERE id = ${a}`.execute(db);

  await migrate(db, store.engine);
  assert.ok(!(await columnsOf(store, 'listings')).includes('views_count'), 'the column left the listings row');
  const totals = async () =>
    Object.fromEntries(
      (await db.selectFrom('listing_view_totals').select(['listing_id', 'views']).execute()).map((r) => [
        r.listing_id,
        Number(r.views),
      ]),
    );
  assert.deepEqual(await totals(), { [a]: 1234, [b]: 0 });

  const c = await addListing(db, { slug: 'new-after-upgrade', category: 'tools' });
  assert.equal((await totals())[c], 0, 'the insert trigger made its row');
  await db.deleteFrom('listing_categories').where('listing_id', '=', c).execute();
  await db.deleteFrom('listings').where('id', '=', c).execute();
  assert.equal((await totals())[c], undefined, 'deleted with its listing');
});
