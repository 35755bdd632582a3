// Relevance pages of a broad word are the same whichever query answers them: on SQLite an unfiltered
// relevance search ranks from the full-text index alone (store/search/index.ts rankedFromIndex) and
// falls back to the general query when the cut is not safe; a no-op category filter forces the
// general query, so the two must agree page by page, with ties, non-live matches and deep offsets.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';

let t: TestApp;
before(async () => {
  t = await testApp({ SEARCH_THREADS: '0' }, async (store) => {
    await category(store.db, 'everything');
    let i = 0;
    const add = (name: string, tagline: string, description: string, votes: number, status = 'live') =>
      listing(store.db, { slug: `l-${++i}`, name, tagline, description, votes, status, category: 'everything' });
    // 40 with the word in the name, in four groups of identical text (ties broken by votes, then id)
    for (let g = 0; g < 4; g++) for (let k = 0; k < 10; k++) await add(`Orbit ${['Labs', 'Cloud Suite', 'X', 'Works Studio Pro'][g]}`, 'Tools for teams', 'Plain words here.', k % 3);
    // 40 with it in the tagline only (one tie group, larger than the index-only ranking's margin), 30 in the description only
    for (let k = 0; k < 40; k++) await add(`Tagline ${k}`, 'The orbit of your team', 'Nothing else.', k); // the last written have the most votes
    for (let k = 0; k < 30; k++) await add(`Description ${k}`, 'Something', `Keep everything in orbit ${'and more '.repeat(k % 4)}`, k);
    // non-live listings that would rank first
    for (let k = 0; k < 5; k++) await add('Orbit', 'Orbit orbit', 'Orbit orbit orbit', 100, k % 2 ? 'draft' : 'scheduled');
  });
});
after(async () => { await t.cleanup(); });

const page = async (qs: string) => {
  const r = await t.app.inject({ method: 'GET', url: `/api/v1/listings?${qs}` });
  assert.equal(r.statusCode, 200, r.body);
  const b = r.json();
  return { slugs: b.items.map((x: { slug: string }) => x.slug), total: b.total };
};

test('relevance pages of a broad word: the index-only ranking equals the general query', async () => {
  for (const q of ['orbit', 'orbti', 'orbit%20cloud', 'or']) {
    for (const [perPage, pageNo] of [[20, 1], [20, 2], [20, 5], [1, 1], [7, 3], [50, 2], [100, 1], [3, 34], [5, 9], [10, 5], [4, 11]]) {
      const qs = `q=${q}&per_page=${perPage}&page=${pageNo}`;
      const fast = await page(qs);
      const general = await page(`${qs}&category=everything`);
      assert.deepEqual(fast, general, qs);
    }
  }
  const all = await page('q=orbit&per_page=100');
  assert.equal(all.total, 110, 'every live match counted, the five non-live ones not');
  assert.ok(all.slugs.slice(0, 40).every((s: string) => Number(s.slice(2)) <= 40), 'name matches rank first');
});
