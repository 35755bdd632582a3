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

test('190_vote_weights: votes cast before weights count 1; the sums by listing and by week are backfilled', async () => {
  const store = await storeAt('160_recurring_jobs_once');
  const db = store.db;
  await addCategory(db, 'tools');
  const a = await addListing(db, { slug: 'voted-a', category: 'tools' });
  const b = await addListing(db, { slug: 'voted-b', category: 'tools' });
  const users = await db
    .insertInto('users')
    .values(
      [1, 2, 3].map((i) => ({
        email: `v${i}@example.com`,
        name: `V${i}`,
        password_hash: null,
        role: 'user',
        email_verified_at: null,
        created_at: '2026-01-01T00:00:00.000Z',
      })),
    )
    .returning('id')
    .execute();
  // A Sunday evening and the Monday after it (UTC): two launch weeks.
  const times = ['2026-11-22T23:30:00.000Z', '2026-11-23T00:30:00.000Z', '2026-11-23T12:00:00.000Z'];
  await db
    .insertInto('votes')
    .values([
      ...times.map((t, i) => ({ listing_id: a, user_id: users[i].id, created_at: t })),
      { listing_id: b, user_id: users[0].id, created_at: times[2] },
    ])
    .execute();

  await migrate(db, store.engine);
  const totals = await db
    .selectFrom('listing_vote_totals')
    .select(['listing_id', 'weighted', 'votes', 'discounted', 'by_reason', 'trend', 'last_vote_at'])
    .orderBy('listing_id')
    .execute();
  assert.deepEqual(
    totals.map((r) => [r.listing_id, Number(r.weighted), Number(r.votes), Number(r.discounted), r.by_reason]),
    [
      [a, 3, 3, 0, '{}'],
      [b, 1, 1, 0, '{}'],
    ],
  );
  // Trending as of a's last vote: 1 + 0.5^(11.5/48) + 0.5^(12.5/48).
  const expected = 1 + 0.5 ** (11.5 / 48) + 0.5 ** (12.5 / 48);
  assert.ok(Math.abs(Number(totals[0].trend) - expected) < 1e-9);
  assert.equal(new Date(String(totals[0].last_vote_at)).toISOString(), times[2]);
  const weeks = await db
    .selectFrom('listing_week_votes')
    .select(['listing_id', 'week', 'weighted', 'votes'])
    .orderBy('listing_id')
    .orderBy('week')
    .execute();
  assert.deepEqual(
    weeks.map((r) => [r.listing_id, r.week, Number(r.weighted), Number(r.votes)]),
    [
      [a, '2026-11-16', 1, 1],
      [a, '2026-11-23', 2, 2],
      [b, '2026-11-23', 1, 1],
    ],
  );
  const v = await db.selectFrom('votes').select(['weight', 'reason', 'review']).execute();
  assert.ok(v.every((x) => Number(x.weight) === 1 && x.reason === null && x.review === null));
});
