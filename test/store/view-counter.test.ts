// The view counter (store/view-counter.ts): views wait in memory and are written by flushes of
// FLUSH_CHUNK listings per transaction, with requests served between the transactions.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { freshStore, ENGINE, type TestDb } from '../support/app.ts';
import { seedSynthetic } from '../../src/store/seed/synthetic.ts';
import { FLUSH_CHUNK, ViewCounter } from '../../src/store/view-counter.ts';

const CHUNK = FLUSH_CHUNK[ENGINE];
const N = CHUNK * 2 + 100; // three transactions
let t: TestDb;
let ids: number[];
before(async () => {
  t = await freshStore();
  await seedSynthetic(t.store, N, { seed: 3 });
  ids = (await t.store.db.selectFrom('listings').select('id').orderBy('id').execute()).map((r) => r.id);
  assert.equal(ids.length, N);
});
after(async () => {
  await t.cleanup();
});

const totals = async (): Promise<Map<number, number>> =>
  new Map(
    (await t.store.db.selectFrom('listing_view_totals').select(['listing_id', 'views']).execute()).map((r) => [
      r.listing_id,
      Number(r.views),
    ]),
  );
const daily = async (day: string): Promise<number> =>
  Number(
    (
      await t.store.db
        .selectFrom('listing_views')
        .select((eb) => eb.fn.sum<number>('count').as('n'))
        .where('day', '=', day)
        .executeTakeFirst()
    )?.n ?? 0,
  );

test('a flush of more listings than one transaction takes writes every view, in the totals and the daily rows', async () => {
  const day = new Date('2031-03-04T10:00:00Z');
  const views = new ViewCounter(t.store.db, ENGINE, { now: () => day });
  const before = await totals();
  for (const [i, id] of ids.entries()) views.record(id, 1 + (i % 3));
  const epoch = views.epoch;
  await views.flush();
  assert.equal(
    views.epoch,
    epoch + Math.ceil(N / CHUNK),
    'the epoch moves with every transaction committed (readers holding a total know it may be short)',
  );
  const after = await totals();
  for (const [i, id] of ids.entries()) assert.equal(after.get(id), before.get(id)! + 1 + (i % 3), `listing ${id}`);
  assert.equal(
    await daily('2031-03-04'),
    ids.reduce((sum, _id, i) => sum + 1 + (i % 3), 0),
  );
  for (const id of ids) assert.equal(views.pending(id), 0);
});

test('requests are served between the transactions of a flush, and views not yet written still show as pending', async () => {
  const views = new ViewCounter(t.store.db, ENGINE, { now: () => new Date('2031-03-05T10:00:00Z') });
  const before = await totals();
  for (const id of ids) views.record(id);
  let done = false;
  const turns: boolean[] = [];
  const shownDuring: Array<Promise<boolean>> = [];
  // A "request" on each turn of the event loop while the flush runs: the total it would show
  // (database + pending). On SQLite it is exact: a commit and the end of "pending" happen in the same
  // turn. On PostgreSQL a read whose statement runs on another connection while a COMMIT is under way
  // may see the rows from before it with the pending views from after it, or the reverse: it may be
  // off by that listing's views in the transaction (here 1) at that moment, never more.
  const probe = () => {
    if (done) return;
    turns.push(true);
    const sample = [ids[0], ids[CHUNK + 1], ids[N - 1]];
    shownDuring.push(
      (async () => {
        const now = await totals();
        return sample.every((id) => {
          const shown = now.get(id)! + views.pending(id);
          const expected = before.get(id)! + 1;
          return ENGINE === 'sqlite' ? shown === expected : Math.abs(shown - expected) <= 1;
        });
      })(),
    );
    setImmediate(probe);
  };
  setImmediate(probe);
  await views.flush();
  done = true;
  assert.ok(turns.length >= 2, `the event loop turned ${turns.length} time(s) during a three-transaction flush`);
  assert.deepEqual(
    await Promise.all(shownDuring),
    shownDuring.map(() => true),
    'what a read shows stays the views counted',
  );
  const after = await totals();
  for (const id of ids) assert.equal(after.get(id), before.get(id)! + 1);
});

test('a transaction that fails keeps its views and the later ones for the next flush; the ones written are not written twice', async () => {
  const failing = ids[CHUNK + 10]; // in the second transaction
  if (ENGINE === 'sqlite') {
    await sql
      .raw(
        `CREATE TRIGGER views_fail BEFORE UPDATE OF views ON listing_view_totals WHEN NEW.listing_id = ${failing} BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`,
      )
      .execute(t.store.db);
  } else {
    await sql
      .raw(
        `CREATE FUNCTION views_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.listing_id = ${failing} THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`,
      )
      .execute(t.store.db);
    await sql
      .raw(
        'CREATE TRIGGER views_fail BEFORE UPDATE OF views ON listing_view_totals FOR EACH ROW EXECUTE FUNCTION views_fail()',
      )
      .execute(t.store.db);
  }
  const views = new ViewCounter(t.store.db, ENGINE, { now: () => new Date('2031-03-06T10:00:00Z') });
  const before = await totals();
  for (const id of ids) views.record(id);
  await assert.rejects(views.flush(), /refused for the test/);
  const afterFailure = await totals();
  for (const [i, id] of ids.entries()) {
    const written = i < CHUNK ? 1 : 0;
    assert.equal(afterFailure.get(id), before.get(id)! + written, `listing ${id} after the failed flush`);
    assert.equal(views.pending(id), 1 - written, `listing ${id} pending after the failed flush`);
  }
  await sql
    .raw('DROP TRIGGER views_fail' + (ENGINE === 'postgres' ? ' ON listing_view_totals' : ''))
    .execute(t.store.db);
  await views.flush();
  const final = await totals();
  for (const id of ids) assert.equal(final.get(id), before.get(id)! + 1, `listing ${id} after the retry`);
  assert.equal(await daily('2031-03-06'), N);
});

test('a listing deleted after it was viewed is skipped; the views of the others in its transaction are written', async () => {
  const { addListing } = await import('../support/seed-fixtures.ts');
  const category = (await t.store.db.selectFrom('categories').select('slug').orderBy('id').executeTakeFirstOrThrow())
    .slug;
  const gone = await addListing(t.store.db, { slug: 'viewed-then-deleted', category });
  const views = new ViewCounter(t.store.db, ENGINE, { now: () => new Date('2031-03-07T10:00:00Z') });
  const before = await totals();
  views.record(ids[0], 2);
  views.record(gone, 5);
  views.record(ids[1], 3);
  await t.store.db.deleteFrom('listings').where('id', '=', gone).execute();
  await views.flush();
  const after = await totals();
  assert.equal(after.get(ids[0]), before.get(ids[0])! + 2);
  assert.equal(after.get(ids[1]), before.get(ids[1])! + 3);
  assert.equal(after.has(gone), false);
  assert.equal(await daily('2031-03-07'), 5, "only the live listings' daily rows");
});
