// The in-memory search index (store/search/memory-index.ts, feed.ts, builder.ts) on the engine of this
// run: it must rank as the database does, follow every write at once, survive compaction, and load the
// same from its builder process (SQLite file or PostgreSQL) as in-process.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { freshStore, ENGINE, type TestDb } from '../support/app.ts';
import { listing } from '../support/listing-fixtures.ts';
import {
  searchListings,
  searchDatabase,
  searchIndex,
  forgetSearchIndex,
  planQuery,
  tokenize,
  type SearchInput,
} from '../../src/store/search/index.ts';
import { MemorySearchIndex, SegmentBuilder, type IndexRow } from '../../src/store/search/memory-index.ts';
import { openSqliteReader } from '../../src/store/sqlite.ts';
import { connect } from '../../src/store/connect.ts';
import { seedSynthetic } from '../../src/store/seed/synthetic.ts';
import { DatabaseSync } from 'node:sqlite';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSegmentFile, writeSegmentFile } from '../../src/store/search/segment-file.ts';

/** Typo queries built from the listings' own words: a swapped pair in one word, sometimes a second word. */
function typoQueries(rows: Array<{ name: string; tagline: string | null }>): string[] {
  return rows.map((row, i) => {
    const words = `${row.name} ${row.tagline ?? ''}`
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length >= 5);
    const w = words[i % words.length];
    const k = 1 + (i % (w.length - 2));
    const other = words[(i + 1) % words.length];
    return `${w.slice(0, k)}${w[k + 1]}${w[k]}${w.slice(k + 2)}${i % 2 === 0 && other !== w ? ' ' + other : ''}`;
  });
}

describe(`in-memory search index on ${ENGINE}`, () => {
  let t: TestDb;
  const search = (q: string, extra: Partial<SearchInput> = {}) =>
    searchListings(t.store.db, t.store.engine, { q, limit: 20, offset: 0, ...extra });
  const slugs = async (q: string) => (await search(q)).rows.map((r) => r.slug);

  before(async () => {
    t = await freshStore();
    await seedSynthetic(t.store, 2000, { seed: 11, now: new Date('2026-06-01T00:00:00Z') });
  });
  after(() => t.cleanup());

  test('ranks as the database does: 120 typo queries, first and second pages, same listings, order and totals', async () => {
    const sample = await t.store.db
      .selectFrom('listings')
      .select(['name', 'tagline'])
      .where('status', '=', 'live')
      .orderBy('id')
      .limit(120)
      .offset(5)
      .execute();
    let broad = 0;
    for (const q of typoQueries(sample)) {
      for (const offset of [0, 20]) {
        const mem = await search(q, { offset });
        const db = await searchDatabase(t.store.db, t.store.engine, { q, limit: 20, offset }, mem.plan);
        assert.equal(mem.total, db.total, `total for ${q}`);
        // The page's summaries come from the index (plus views and category read with the page): the same rows as the database's.
        if (ENGINE === 'sqlite') assert.deepEqual(mem.rows, db.rows, `page at ${offset} for ${q}`);
        else if (db.total <= 20)
          assert.deepEqual(mem.rows.map((r) => r.slug).sort(), db.rows.map((r) => r.slug).sort(), `matches for ${q}`); // PostgreSQL's SQL path ranks by ts_rank
        if (mem.total > 100) broad++;
      }
    }
    assert.ok(broad > 10, `some queries match many listings (${broad})`);
  });

  test('follows writes at once: new words, changed words, votes, status and deletion', async () => {
    const db = t.store.db;
    const a = await listing(db, {
      slug: 'zorbax-a',
      name: 'Zorblaxify',
      tagline: 'Quietly counts wombats',
      category: 'productivity',
    });
    const b = await listing(db, {
      slug: 'zorbax-b',
      name: 'Zorblaxify',
      tagline: 'Quietly counts wombats',
      category: 'productivity',
    });
    assert.deepEqual(await slugs('zorblaxify'), ['zorbax-a', 'zorbax-b'], 'a tie goes to the lower id');
    await db.updateTable('listings').set({ votes_count: 5 }).where('id', '=', b).execute();
    assert.deepEqual(await slugs('zorblaxify'), ['zorbax-b', 'zorbax-a'], 'then to more votes, as soon as they change');
    await db.updateTable('listings').set({ name: 'Plinthwhistle' }).where('id', '=', a).execute();
    assert.deepEqual(await slugs('zorblaxify'), ['zorbax-b'], 'old words go with the edit');
    assert.deepEqual(await slugs('plinthwhistle'), ['zorbax-a'], 'new words come');
    assert.deepEqual(await slugs('plintwhistle'), ['zorbax-a'], 'and are corrected against');
    await db.updateTable('listings').set({ status: 'draft' }).where('id', '=', b).execute();
    assert.deepEqual(await slugs('zorblaxify'), [], 'a listing that is no longer live is not found');
    await db.updateTable('listings').set({ status: 'live' }).where('id', '=', b).execute();
    assert.deepEqual(await slugs('wombats'), ['zorbax-b', 'zorbax-a']);
    await db.deleteFrom('listings').where('id', '=', a).execute();
    const after = await search('wombats');
    assert.deepEqual(
      [after.total, after.rows.map((r) => r.slug)],
      [1, ['zorbax-b']],
      'a deleted listing is gone, and from the total',
    );
    await db.deleteFrom('listings').where('id', '=', b).execute();
  });

  test("a result's summary follows every write at once: slug, url, logo, launch week and date, category, followers, views", async () => {
    const db = t.store.db;
    const id = await listing(db, {
      slug: 'quillotine',
      name: 'Quillotine',
      tagline: 'Trims run-on sentences',
      category: 'productivity',
      followers: 2,
      views: 7,
    });
    const row = async () => {
      const r = await search('quillotine');
      assert.equal(r.rows.length, 1);
      const {
        slug,
        url,
        logo_url,
        launch_week,
        launched_at,
        primary_category_slug,
        followers_count,
        views_count,
        votes_count,
      } = r.rows[0];
      return {
        slug,
        url,
        logo_url,
        launch_week,
        launched_at,
        primary_category_slug,
        followers_count,
        views_count,
        votes_count,
      };
    };
    assert.deepEqual(
      { ...(await row()), launched_at: null },
      {
        slug: 'quillotine',
        url: 'https://quillotine.example/',
        logo_url: null,
        launch_week: null,
        launched_at: null,
        primary_category_slug: 'productivity',
        followers_count: 2,
        views_count: 7,
        votes_count: 0,
      },
    );
    const design = (
      await db.selectFrom('categories').select('id').where('slug', '=', 'design').executeTakeFirstOrThrow()
    ).id;
    await db
      .updateTable('listings')
      .set({
        slug: 'quillotine-2',
        url: 'https://quill.example/',
        logo_url: 'https://quill.example/logo.png',
        launch_week: '2026-05-25',
        launched_at: '2026-05-27T10:00:00.000Z',
        primary_category_id: design,
        followers_count: 9,
      })
      .where('id', '=', id)
      .execute(); // none of the words, status or votes: the summary's columns alone
    await db.updateTable('listing_view_totals').set({ views: 70 }).where('listing_id', '=', id).execute();
    const changed = {
      slug: 'quillotine-2',
      url: 'https://quill.example/',
      logo_url: 'https://quill.example/logo.png',
      launch_week: '2026-05-25',
      launched_at: '2026-05-27T10:00:00.000Z',
      primary_category_slug: 'design',
      followers_count: 9,
      views_count: 70,
      votes_count: 0,
    };
    assert.deepEqual(await row(), changed);
    await db.updateTable('listings').set({ votes_count: 4 }).where('id', '=', id).execute();
    assert.deepEqual(await row(), { ...changed, votes_count: 4 });
    const fromDb = await searchDatabase(
      db,
      t.store.engine,
      { q: 'quillotine', limit: 20, offset: 0 },
      (await search('quillotine')).plan,
    );
    assert.deepEqual((await search('quillotine')).rows, fromDb.rows, 'as the database reads them');
    await db.deleteFrom('listings').where('id', '=', id).execute();
  });

  test('searches at the same time (on PostgreSQL their views and categories are read by one statement) each get their own page', async () => {
    const sample = await t.store.db
      .selectFrom('listings')
      .select(['name', 'tagline'])
      .where('status', '=', 'live')
      .orderBy('id')
      .limit(30)
      .offset(600)
      .execute();
    const queries = typoQueries(sample);
    const alone: unknown[] = [];
    for (const q of queries) alone.push((await search(q)).rows);
    const together = await Promise.all(queries.map((q) => search(q)));
    assert.deepEqual(
      together.map((r) => r.rows),
      alone,
    );
    assert.ok(together.filter((r) => r.rows.length > 1).length > 10, 'most of them find several listings');
  });

  test('an index loaded again from the database answers as the one kept current by the feed', async () => {
    const sample = await t.store.db
      .selectFrom('listings')
      .select(['name', 'tagline'])
      .where('status', '=', 'live')
      .orderBy('id')
      .limit(40)
      .offset(300)
      .execute();
    const queries = typoQueries(sample);
    const kept = await Promise.all(queries.map((q) => search(q)));
    forgetSearchIndex(t.store.db);
    for (const [i, q] of queries.entries())
      assert.deepEqual(
        (await search(q)).rows.map((r) => r.slug),
        kept[i].rows.map((r) => r.slug),
        q,
      );
  });

  test('the builder process loads the same index as a load in this process', async () => {
    // a second handle on the same database: an index is kept per handle
    const other =
      ENGINE === 'sqlite'
        ? { db: openSqliteReader(t.store.sqliteFile!), close: () => Promise.resolve() }
        : connect({ databaseUrl: t.store.pgUrl, sqliteFile: '' });
    try {
      const [inProcess, built] = [
        await searchIndex(t.store.db, ENGINE),
        await searchIndex(other.db, ENGINE, { file: t.store.sqliteFile, pgUrl: t.store.pgUrl }),
      ];
      assert.equal(built.size, inProcess.size);
      const sample = await t.store.db
        .selectFrom('listings')
        .select(['name', 'tagline'])
        .where('status', '=', 'live')
        .orderBy('id')
        .limit(40)
        .offset(900)
        .execute();
      for (const q of typoQueries(sample)) {
        const plan = planQuery(tokenize(q, ENGINE), inProcess.dictionary());
        assert.deepEqual(planQuery(tokenize(q, ENGINE), built.dictionary()), plan, q);
        assert.deepEqual(built.rank(plan, 0, 20), inProcess.rank(plan, 0, 20), q);
      }
    } finally {
      if (ENGINE === 'sqlite') await other.db.destroy();
      else await other.close();
    }
  });

  test('SQLite: a builder whose server is gone stops and removes the folder it was to write in', {
    skip: ENGINE !== 'sqlite' && 'SQLite only',
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'launchlist-index-'));
    const builder = fileURLToPath(new URL('../../src/store/search/builder.ts', import.meta.url));
    // A "server" that starts a build and is gone at once, as one killed outright would be.
    const parent = spawn(
      process.execPath,
      [
        '-e',
        "require('node:child_process').fork(process.argv[1], [process.argv[2], process.argv[3], String(process.pid)], { stdio: 'ignore' }); process.exit(0);",
        builder,
        t.store.sqliteFile!,
        join(dir, 'segment'),
      ],
      { stdio: 'ignore' },
    );
    await new Promise((resolve) => parent.once('exit', resolve));
    const until = Date.now() + 15_000;
    while (existsSync(dir) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const left = existsSync(dir);
    rmSync(dir, { recursive: true, force: true });
    assert.equal(left, false, 'the folder is removed (2,000 listings: the builder looks for its parent every 1,000)');
  });
});

describe('MemorySearchIndex (engine-free)', () => {
  const row = (id: number, name: string, description: string, votes = 0, status = 'live'): IndexRow => ({
    id,
    status,
    votes_count: votes,
    name,
    tagline: null,
    description,
    keywords: null,
  });
  const word = (w: string) => ({ word: w, terms: [w], prefix: false, corrected: false });

  test('after most listings were rewritten, compaction leaves the answers of a fresh build', () => {
    const builder = new SegmentBuilder('sqlite');
    for (let id = 1; id <= 1500; id++)
      builder.add(row(id, `Item ${id}`, `alpha ${id % 3 === 0 ? 'beta' : 'gamma'} common`, id % 7));
    const index = new MemorySearchIndex('sqlite', builder.finish());
    const final: IndexRow[] = [];
    for (let id = 1; id <= 1500; id++) {
      // 1,200 rewritten (each leaves a dead slot: compaction runs past 1,000 and a third), the rest unchanged
      const r =
        id <= 1200
          ? row(id, `Item ${id}`, `alpha ${id % 5 === 0 ? 'beta' : 'delta'} common`, id % 11)
          : row(id, `Item ${id}`, `alpha ${id % 3 === 0 ? 'beta' : 'gamma'} common`, id % 7);
      if (id <= 1200) index.upsert(r);
      final.push(r);
    }
    const fresh = new SegmentBuilder('sqlite');
    for (const r of final) fresh.add(r);
    const expected = new MemorySearchIndex('sqlite', fresh.finish());
    assert.equal(index.size, 1500);
    assert.deepEqual(
      index.dictionary().terms,
      expected.dictionary().terms,
      'the same words (none left over from dead listings)',
    );
    for (const plan of [
      [word('beta')],
      [word('gamma')],
      [word('delta'), word('common')],
      [word('alpha'), word('beta')],
    ]) {
      assert.deepEqual(index.rank(plan, 0, 30), expected.rank(plan, 0, 30), plan.map((p) => p.word).join(' '));
      assert.deepEqual(index.rank(plan, 30, 30), expected.rank(plan, 30, 30));
    }
    assert.equal(
      index.rank([word('gamma')], 0, 5).total,
      [...final].filter((r) => r.description!.includes('gamma')).length,
    );
  });

  test('a segment handed over in a file (segment-file.ts) is read back as views into one buffer and ranks as the original', () => {
    const builder = new SegmentBuilder('sqlite');
    for (let id = 1; id <= 300; id++)
      builder.add({
        ...row(id, `Ünïcode Item ${id}`, `alpha ${id % 3 === 0 ? 'beta' : 'gamma'} common`, id % 7),
        slug: `item-${id}`,
        url: `https://item${id}.example/`,
        primary_category_id: id % 4,
        followers_count: id,
      });
    const segment = builder.finish();
    const dir = mkdtempSync(join(tmpdir(), 'segment-test-'));
    try {
      for (const [label, seg] of [
        ['300 listings', segment],
        ['empty', new SegmentBuilder('sqlite').finish()],
      ] as const) {
        writeSegmentFile(join(dir, 'segment'), seg, '42');
        const back = readSegmentFile(join(dir, 'segment'));
        assert.equal(back.position, '42');
        assert.deepEqual(back.segment, seg, label);
        const arrays = Object.values(back.segment).filter((v) => ArrayBuffer.isView(v)) as ArrayBufferView[];
        assert.equal(
          new Set(arrays.map((a) => a.buffer)).size,
          1,
          `${label}: every array is a view into the file's one buffer`,
        );
      }
      writeSegmentFile(join(dir, 'segment'), segment, '7');
      const index = new MemorySearchIndex('sqlite', readSegmentFile(join(dir, 'segment')).segment);
      const original = new MemorySearchIndex('sqlite', segment);
      for (const plan of [[word('beta')], [word('gamma'), word('common')], [word('ünïcode')]])
        assert.deepEqual(index.rank(plan, 0, 20), original.rank(plan, 0, 20));
      assert.deepEqual(index.summaries([3, 4]), original.summaries([3, 4]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('bm25 as FTS5 computes it: a name match outweighs a description match, a shorter listing wins a tie', () => {
    const builder = new SegmentBuilder('sqlite');
    builder.add(row(1, 'Orbit', 'tools for teams'));
    builder.add(row(2, 'Other', 'orbit tools for teams'));
    builder.add(row(3, 'Third', 'orbit tools for teams and many more words here'));
    for (let id = 4; id <= 40; id++) builder.add(row(id, `Filler ${id}`, 'tools for teams'));
    const index = new MemorySearchIndex('sqlite', builder.finish());
    const ids = (plan: ReturnType<typeof word>[]) => index.rank(plan, 0, 50).ids;
    assert.deepEqual(ids([word('orbit')]), [1, 2, 3]);
    assert.deepEqual(ids([word('orbit'), word('tools')]), [1, 2, 3]);
    assert.equal(index.rank([word('tools')], 0, 50).total, 40);
  });
});

test('a write in a transaction is searchable once it commits (and not before, where another connection searches)', async () => {
  const t = await freshStore();
  try {
    await seedSynthetic(t.store, 10, { seed: 3, now: new Date('2026-06-01T00:00:00Z') });
    await listing(t.store.db, { slug: 'feedy', name: 'Feedycorn', category: 'productivity' });
    const count = async () =>
      (await searchListings(t.store.db, t.store.engine, { q: 'feedycorn', limit: 5, offset: 0 })).total;
    assert.equal(await count(), 1);
    // A write inside a transaction that has not committed is not seen; once committed, it is.
    await t.store.db.transaction().execute(async (trx) => {
      await trx.updateTable('listings').set({ status: 'draft' }).where('slug', '=', 'feedy').execute();
      if (ENGINE === 'postgres') assert.equal(await count(), 1, 'not before the commit');
    });
    assert.equal(await count(), 0, 'after the commit');
    const rows = await sql<{ n: number }>`SELECT count(*) AS n FROM listings WHERE slug = 'feedy'`.execute(t.store.db);
    assert.equal(Number(rows.rows[0].n), 1);
  } finally {
    await t.cleanup();
  }
});

test("SQLite: within one turn of the event loop a search sees this process's writes; the next turn, any process's", {
  skip: ENGINE !== 'sqlite' && 'SQLite only',
}, async () => {
  const t = await freshStore();
  const other = new DatabaseSync(t.store.sqliteFile!); // another process's connection, as the CLI would hold
  try {
    await seedSynthetic(t.store, 10, { seed: 5, now: new Date('2026-06-01T00:00:00Z') });
    await listing(t.store.db, { slug: 'turny', name: 'Turnwheeler', category: 'productivity' });
    const count = async (q: string) =>
      (await searchListings(t.store.db, t.store.engine, { q, limit: 5, offset: 0 })).total;
    await new Promise((r) => setImmediate(r));
    let turnEnded = false;
    setImmediate(() => {
      turnEnded = true;
    });
    assert.equal(await count('turnwheeler'), 1);
    await t.store.db.updateTable('listings').set({ name: 'Spokeslinger' }).where('slug', '=', 'turny').execute();
    assert.equal(await count('spokeslinger'), 1, "this process's write, in the same turn");
    assert.equal(await count('turnwheeler'), 0);
    assert.equal(turnEnded, false, 'all of the above ran in one turn');

    other.prepare("UPDATE listings SET name = 'Cogwhistle' WHERE slug = 'turny'").run();
    await new Promise((r) => setImmediate(r));
    assert.equal(await count('cogwhistle'), 1, "another connection's commit, from the next turn");
    assert.equal(await count('spokeslinger'), 0);
  } finally {
    other.close();
    await t.cleanup();
  }
});
