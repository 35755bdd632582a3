// search_listings in search threads (store/search/pool.ts, SQLite): the same answers as on the main
// thread, input errors still 400s naming the field, and committed writes seen by the next search.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, ENGINE, type TestApp } from '../support/app.ts';
import { addCategory, addListing } from '../support/seed-fixtures.ts';
import type { SearchPool } from '../../src/store/search/pool.ts';

const sqlite = ENGINE === 'sqlite';
let threaded: TestApp;
let inline: TestApp;
const prepare = async (store: TestApp['store']) => {
  await addCategory(store.db, 'tools');
  await addCategory(store.db, 'cli-tools', 'tools');
  for (const [slug, category] of [
    ['alpha-deploy', 'cli-tools'],
    ['beta-deployer', 'tools'],
    ['gamma-notes', 'tools'],
    ['delta-deploys', 'cli-tools'],
  ] as const) {
    await addListing(store.db, { slug, name: slug.replace('-', ' '), category });
  }
};
before(async () => {
  if (!sqlite) return;
  threaded = await testApp({ SEARCH_THREADS: '2' }, prepare);
  inline = await testApp({ SEARCH_THREADS: '0' }, prepare);
});
after(async () => {
  await threaded?.cleanup();
  await inline?.cleanup();
});

const search = async (t: TestApp, qs: string) => {
  const r = await t.app.inject({ method: 'GET', url: `/api/v1/listings?${qs}` });
  return { status: r.statusCode, body: r.json() };
};

test('search threads answer exactly as the main thread does', {
  skip: !sqlite && 'SQLite only: PostgreSQL searches in the database server',
}, async () => {
  assert.ok(threaded.server.deps.services.searchPool, 'SEARCH_THREADS=2 installs the pool');
  assert.equal(inline.server.deps.services.searchPool, undefined, 'SEARCH_THREADS=0 searches on the main thread');
  const queries = [
    'q=deploy',
    'q=deplyo',
    'q=alpha%20deploy',
    'q=de',
    'q=',
    'category=cli-tools',
    'q=deploy&sort=newest&per_page=1&page=2',
    'q=nothingmatchesthis',
  ];
  // Several at once, so both threads take part.
  const [a, b] = await Promise.all([
    Promise.all(queries.map((q) => search(threaded, q))),
    Promise.all(queries.map((q) => search(inline, q))),
  ]);
  for (let i = 0; i < queries.length; i++) {
    assert.equal(a[i].status, 200, queries[i]);
    assert.deepEqual(a[i].body, b[i].body, queries[i]);
  }
  assert.ok(a[1].body.items.length >= 1, 'the typo query found listings');
});

test('an unknown category is still a 400 naming query.category', { skip: !sqlite && 'SQLite only' }, async () => {
  const r = await search(threaded, 'category=no-such-category');
  assert.equal(r.status, 400);
  assert.match(JSON.stringify(r.body.error), /query\.category/);
});

test('a listing written on the main connection is found by the next search in a thread', {
  skip: !sqlite && 'SQLite only',
}, async () => {
  assert.equal((await search(threaded, 'q=zeppelin')).body.total, 0);
  await addListing(threaded.store.db, { slug: 'zeppelin-deploy', name: 'Zeppelin Deploy', category: 'tools' });
  const r = await search(threaded, 'q=zeppelin');
  assert.deepEqual(
    r.body.items.map((i: { slug: string }) => i.slug),
    ['zeppelin-deploy'],
  );
});

test('closing the server stops the threads', { skip: !sqlite && 'SQLite only' }, async () => {
  const t = await testApp({ SEARCH_THREADS: '1' }, prepare);
  assert.equal((await search(t, 'q=deploy')).status, 200);
  const pool = t.server.deps.services.searchPool as SearchPool;
  const inFlight = pool.search({ q: 'deploy', limit: 1, offset: 0 }).then(
    () => 'answered',
    (e: Error) => e.message,
  );
  await t.cleanup();
  assert.match(await inFlight, /answered|closed/, 'a search in flight at close settles');
  await assert.rejects(pool.search({ q: 'deploy', limit: 1, offset: 0 }), /closed/);
});
