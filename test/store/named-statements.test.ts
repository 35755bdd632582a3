// PostgreSQL: a statement the app runs again is sent as a named prepared statement (store/connect.ts),
// so the server parses and plans it once per connection; a statement run once is not, and answers are
// those of the statement itself, whatever each call's values.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { freshStore, ENGINE, type TestDb } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';

let t: TestDb;
before(async () => {
  t = await freshStore();
  await category(t.store.db, 'tools', { name: 'Tools' });
  for (const slug of ['anvil', 'bellows', 'chisel']) await listing(t.store.db, { slug, name: slug, category: 'tools' });
});
after(async () => {
  await t.cleanup();
});

test('a statement run again is prepared once on its connection, one run once is not', {
  skip: ENGINE !== 'postgres',
}, async () => {
  // one transaction: every statement goes through the same connection
  await t.store.db.transaction().execute(async (trx) => {
    const bySlug = (slug: string) =>
      trx.selectFrom('listings').select(['slug', 'name']).where('slug', '=', slug).where('status', '=', 'live');
    const answers: string[] = [];
    for (const slug of ['anvil', 'bellows', 'chisel', 'nobody'])
      answers.push((await bySlug(slug).executeTakeFirst())?.name ?? '-');
    assert.deepEqual(answers, ['anvil', 'bellows', 'chisel', '-'], 'each call answers with its own value');
    await trx.selectFrom('listings').select('slug').where('name', '=', 'anvil').where('id', '>', 0).execute(); // once
    const prepared = (
      await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(trx)
    ).rows;
    const text = bySlug('x').compile().sql;
    const mine = prepared.filter((p) => p.statement === text);
    assert.equal(mine.length, 1, 'the repeated statement is prepared, once');
    assert.match(mine[0].name, /^ll_s_/);
    const once = trx.selectFrom('listings').select('slug').where('name', '=', 'x').where('id', '>', 0).compile().sql;
    assert.equal(prepared.filter((p) => p.statement === once).length, 0, 'a statement run once is not');
  });
});
