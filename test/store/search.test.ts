// The search module on the engine of this run (SQLite, or PostgreSQL with DATABASE_URL), plus one
// test that runs the same queries on BOTH engines and compares the answers.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freshStore, ENGINE, type TestDb } from '../support/app.ts';
import { searchCorpus, listing } from '../support/listing-fixtures.ts';
import { searchListings, tokenize, planQuery, type SearchInput } from '../../src/store/search/index.ts';
import { TermDictionary, editDistance } from '../../src/store/search/dictionary.ts';
import { openStore } from '../../src/store/index.ts';
import { seedSynthetic } from '../../src/store/seed/synthetic.ts';
import type { Store } from '../../src/store/connect.ts';

describe('tokenize (cuts words like the index)', () => {
  test('lower-cases, folds accents, splits on punctuation', () => {
    assert.deepEqual(tokenize('Café Crème — e-mail, example.com v2.0!', 'sqlite'), [
      'cafe',
      'creme',
      'e',
      'mail',
      'example',
      'com',
      'v2',
      '0',
    ]);
    assert.deepEqual(tokenize('Straße Ærø', 'postgres'), ['strasse', 'aero'], 'unaccent folds ß and æ/ø on PostgreSQL');
    assert.deepEqual(tokenize('Straße', 'sqlite'), ['straße'], 'FTS5 keeps ß');
    assert.deepEqual(tokenize('   ', 'sqlite'), []);
  });
});

describe('TermDictionary.near (edit distance against the dictionary)', () => {
  test('finds exactly the terms within the distance, transpositions counting one edit', () => {
    const words = ['design', 'designer', 'resign', 'desk', 'sign', 'deign', 'dsegin', 'analytics', 'analytic', 'ant'];
    const dict = new TermDictionary(words);
    for (const q of ['desgin', 'design', 'desin', 'analitics', 'anlaytics', 'xyz', 'de']) {
      for (const d of [0, 1, 2]) {
        const got = dict
          .near(q, d)
          .map((n) => n.term)
          .sort();
        const want = words.filter((w) => editDistance(w, q) <= d).sort();
        assert.deepEqual(got, want, `${q} within ${d}`);
      }
    }
    assert.equal(editDistance('desgin', 'design'), 1, 'a swap of neighbours is one edit');
  });

  test('the plan: exact words stay, unknown words are corrected by length, the last word is a prefix', () => {
    const dict = new TermDictionary(['invoices', 'invoicing', 'invoicely', 'simple', 'photo', 'photos', 'ai', 'ship']);
    const [w1, w2] = planQuery(['simpel', 'invoic'], dict);
    assert.deepEqual(w1, { word: 'simpel', terms: ['simple'], prefix: false, corrected: true });
    assert.deepEqual(
      w2.terms,
      ['invoicely', 'invoices', 'invoicing'],
      'the unfinished last word expands to the words it starts',
    );
    assert.deepEqual(
      planQuery(['phoot'], dict, { lastIsPrefix: false })[0].terms,
      ['photo'],
      'the nearest correction only (photo at 1, not photos at 2)',
    );
    assert.deepEqual(
      planQuery(['shpi'], dict)[0].terms,
      ['shpi'],
      'a 4-letter word is not corrected to another word of 4 letters or fewer',
    );
    assert.deepEqual(
      planQuery(['phto'], dict, { lastIsPrefix: false })[0].terms,
      ['photo'],
      '…but to a 5-letter word one edit away: a letter of it was dropped',
    );
    assert.deepEqual(planQuery(['simle'], dict, { lastIsPrefix: false })[0].terms, ['simple']);
    assert.deepEqual(
      planQuery(['invocng'], dict, { lastIsPrefix: false })[0].terms,
      ['invoicing'],
      '7 letters, nothing one edit away: words of 8+ letters two edits away',
    );
    assert.deepEqual(
      planQuery(['photsz'], dict, { lastIsPrefix: false })[0].terms,
      ['photsz'],
      '6 letters: two edits away is too far for a word of 6 or 7 letters',
    );
    assert.equal(
      planQuery(['invoicng'], dict, { lastIsPrefix: false })[0].terms[0],
      'invoicing',
      '8 letters: corrected',
    );
  });
});

describe(`searchListings on ${ENGINE}`, () => {
  let t: TestDb;
  const search = (q: string, extra: Partial<SearchInput> = {}) =>
    searchListings(t.store.db, t.store.engine, { q, limit: 50, offset: 0, ...extra });
  const slugs = async (q: string, extra: Partial<SearchInput> = {}) => (await search(q, extra)).rows.map((r) => r.slug);

  before(async () => {
    t = await freshStore();
    await searchCorpus(t.store.db);
  });
  after(() => t.cleanup());

  test('exact words find their listing; every word must match', async () => {
    assert.deepEqual(await slugs('invoicely'), ['invoicely']);
    assert.deepEqual(await slugs('remote teams'), ['taskpilot']);
    assert.deepEqual(await slugs('remote newsletters'), [], 'AND: no listing holds both');
  });

  test('one typo in a word of 5 to 7 letters still finds the listing', async () => {
    assert.equal(editDistance('remtoe', 'remote'), 1);
    assert.deepEqual(await slugs('remtoe teams'), ['taskpilot']);
    assert.deepEqual(await slugs('cofee'), ['cafe-creme']);
    assert.deepEqual(await slugs('photo edtiing'), ['photon-studio']);
  });

  test('a 5-letter word with a letter dropped (4 letters typed) still finds the listing', async () => {
    assert.deepEqual(await slugs('crds'), ['cafe-creme'], 'cards');
    assert.deepEqual(await slugs('remote tems'), ['taskpilot'], 'teams');
    assert.deepEqual(await slugs('tems remote'), ['taskpilot'], 'not only as the last word');
  });

  test('two words with one typo each', async () => {
    const r = await search('simpel invoicng');
    assert.deepEqual(
      r.rows.map((x) => x.slug),
      ['invoicely'],
    );
    assert.deepEqual(
      r.plan.map((p) => p.corrected),
      [true, true],
    );
    assert.deepEqual(await slugs('bookeeping smal'), ['ledgerline']);
  });

  test('a word of 8+ letters with two typos still matches; a 5–7 letter word with two does not', async () => {
    const typo2 = 'frelancres';
    assert.equal(editDistance(typo2, 'freelancers'), 2);
    assert.deepEqual(await slugs(typo2), ['invoicely']);
    assert.equal(editDistance('rmeoet', 'remote'), 2);
    assert.deepEqual(await slugs('rmeoet teams '), [], 'two typos in a 6-letter word are too many');
  });

  test('words under 5 letters match only as typed', async () => {
    assert.deepEqual(await slugs('ai photo'), ['photon-studio']);
    assert.deepEqual(await slugs('shp '), [], 'no correction for a short word (ship exists)');
    assert.deepEqual(await slugs('ship '), ['taskpilot']);
  });

  test('accents do not matter either way', async () => {
    assert.deepEqual(await slugs('cafe creme'), ['cafe-creme']);
    assert.deepEqual(await slugs('CAFÉ'), ['cafe-creme']);
    assert.deepEqual(await slugs('zurich'), ['tram-planner']);
    assert.deepEqual(await slugs('Straße'), ['tram-planner']);
  });

  test('the last word matches as a prefix while typing; a trailing space ends it', async () => {
    assert.deepEqual(await slugs('taskpi'), ['taskpilot']);
    assert.deepEqual((await slugs('invoic')).sort(), ['invoicely', 'ledgerline'], 'invoices, invoicing, invoicely');
    assert.deepEqual(await slugs('taskpi '), [], 'a finished word is not a prefix');
  });

  test('punctuation is cut like the index: e-mail and e mail and email', async () => {
    assert.deepEqual(await slugs('e-mail providers'), ['mailbird-pro']);
    assert.deepEqual(await slugs('email'), ['mailbird-pro']);
  });

  test('only live listings are found', async () => {
    assert.deepEqual(await slugs('zanzibarian'), []);
    assert.deepEqual(await slugs('secretword'), []);
  });

  test('relevance puts a name match first; empty q browses by votes', async () => {
    const r = await search('finance');
    assert.deepEqual(r.rows.map((x) => x.slug).sort(), ['invoicely', 'ledgerline']);
    assert.equal(r.total, 2);
    assert.deepEqual(
      (await search('ledgerline invoices')).rows.map((x) => x.slug),
      ['ledgerline'],
    );
    const browse = await search('');
    assert.equal(browse.total, 7);
    assert.deepEqual(
      browse.rows.map((x) => x.votes_count),
      [...browse.rows.map((x) => x.votes_count)].sort((a, b) => b - a),
    );
  });

  test('new words are searchable at once after a write', async () => {
    assert.deepEqual(await slugs('quokkamatic'), []);
    await listing(t.store.db, {
      slug: 'quokka',
      name: 'Quokkamatic',
      tagline: 'Happy animal photos',
      category: 'creative',
    });
    assert.deepEqual(await slugs('quokkamatic'), ['quokka']);
    assert.deepEqual(await slugs('qoukkamatic'), ['quokka'], 'and corrected against');
    await t.store.db.deleteFrom('listings').where('slug', '=', 'quokka').execute();
  });
});

// ---------------------------------------------------------------- both engines, same answers

const PG_URL = process.env.DATABASE_URL ?? process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function pgReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

describe('one algorithm, two engines, the same results', () => {
  const stores: Array<{ store: Store; cleanup: () => Promise<void> }> = [];
  let available = false;

  before(async () => {
    available = await pgReachable();
    if (!available) return;
    const dir = mkdtempSync(join(tmpdir(), 'launchlist-both-'));
    const sqlite = await openStore({ DATA_DIR: dir, DATABASE_URL: undefined });
    stores.push({
      store: sqlite,
      cleanup: async () => {
        await sqlite.close();
        rmSync(dir, { recursive: true, force: true });
      },
    });
    const name = `ll_both_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(PG_URL);
    u.pathname = '/' + name;
    const postgres = await openStore({ DATA_DIR: dir, DATABASE_URL: u.toString() });
    stores.push({
      store: postgres,
      cleanup: async () => {
        await postgres.close();
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    });
    for (const s of stores) await searchCorpus(s.store.db);
  });
  after(async () => {
    for (const s of stores) await s.cleanup();
  });

  test('every query gives the same matches and the same best match on SQLite and PostgreSQL', async (ctx) => {
    if (!available) return ctx.skip(`PostgreSQL not reachable at ${PG_URL}`);
    assert.deepEqual(
      stores.map((s) => s.store.engine),
      ['sqlite', 'postgres'],
    );
    const queries = [
      'invoicely',
      'invoic',
      'simpel invoicng',
      'remtoe teams',
      'frelancres',
      'cofee',
      'cafe creme',
      'Straße',
      'zürich',
      'e-mail',
      'email',
      'finance',
      'photo edtiing',
      'ai',
      'ship ',
      'shp ',
      'ledgerline invoices',
      'bookeeping smal',
      'newsletters',
      'for',
      'zanzibarian',
      '',
    ];
    for (const q of queries) {
      const [a, b] = await Promise.all(
        stores.map((s) => searchListings(s.store.db, s.store.engine, { q, limit: 50, offset: 0 })),
      );
      assert.equal(a.total, b.total, `total for ${JSON.stringify(q)}`);
      assert.deepEqual(
        a.rows.map((r) => r.slug).sort(),
        b.rows.map((r) => r.slug).sort(),
        `matches for ${JSON.stringify(q)}`,
      );
      assert.equal(a.rows[0]?.slug, b.rows[0]?.slug, `best match for ${JSON.stringify(q)}`);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, on purpose
      if (/^[\x00-\x7f]*$/.test(q)) assert.deepEqual(a.plan, b.plan, `plan for ${JSON.stringify(q)}`);
    }
  });

  test('on 2,000 synthetic listings, 150 typo queries match and rank the same listings on both engines', async (ctx) => {
    if (!available) return ctx.skip(`PostgreSQL not reachable at ${PG_URL}`);
    for (const s of stores) await seedSynthetic(s.store, 2000, { seed: 7, now: new Date('2026-06-01T00:00:00Z') });
    const [sqlite, postgres] = stores.map((s) => s.store);
    const sample = await sqlite.db
      .selectFrom('listings')
      .select(['name', 'tagline'])
      .where('status', '=', 'live')
      .orderBy('id')
      .limit(150)
      .offset(10)
      .execute();
    let corrected = 0;
    for (const [i, row] of sample.entries()) {
      const words = `${row.name} ${row.tagline}`
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter((w) => w.length >= 5);
      const w = words[i % words.length];
      const k = 1 + (i % (w.length - 2));
      const other = words[(i + 1) % words.length];
      // a word with two neighbours swapped, and every third time a second word of the listing half typed
      const q =
        `${w.slice(0, k)}${w[k + 1]}${w[k]}${w.slice(k + 2)} ${i % 3 === 0 && other !== w ? other.slice(0, 3) : ''}`.trim();
      const [a, b] = await Promise.all(
        [sqlite, postgres].map((st) => searchListings(st.db, st.engine, { q, limit: 100, offset: 0 })),
      );
      assert.equal(a.total, b.total, `total for ${q}`);
      assert.deepEqual(a.plan, b.plan, `plan for ${q}`);
      assert.deepEqual(
        a.rows.map((r) => r.slug),
        b.rows.map((r) => r.slug),
        `the same listings in the same order for ${q} (both rank in the in-memory index)`,
      );
      if (a.plan.some((p) => p.corrected)) corrected++;
      assert.ok(a.total > 0, `the typo query ${q} finds something`);
    }
    assert.ok(corrected > 50, `most queries went through correction (${corrected})`);
  });
});
