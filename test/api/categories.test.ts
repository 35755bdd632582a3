import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { addCategory, addListing } from '../support/seed-fixtures.ts';

let t: TestApp;
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url: '/api/v1' + url });
  return { status: r.statusCode, body: r.json() };
};

before(async () => {
  t = await testApp({}, async ({ db }) => {
    await addCategory(db, 'alpha', undefined, { position: 0 });
    await addCategory(db, 'alpha-one', 'alpha', { position: 0 });
    await addCategory(db, 'alpha-two', 'alpha', { position: 1 });
    await addCategory(db, 'beta', undefined, { position: 1 });
    await addCategory(db, 'beta-one', 'beta');
    await addCategory(db, 'gamma', undefined, { position: 2 });
    await addListing(db, { slug: 'l-one', category: 'alpha-one', extraCategories: ['alpha-two'], votes_count: 5 });
    await addListing(db, { slug: 'l-two', category: 'alpha-one', votes_count: 9 });
    await addListing(db, { slug: 'l-three', category: 'alpha', votes_count: 1 });
    await addListing(db, { slug: 'l-scheduled', category: 'beta-one', status: 'scheduled', launch_week: '2099-01-05' });
    await addListing(db, { slug: 'l-draft', category: 'beta-one', status: 'draft' });
  });
});
after(async () => {
  await t.cleanup();
});

test('list_categories: the tree with live counts; a parent counts each listing of its subcategories once', async () => {
  const { status, body } = await get('/categories');
  assert.equal(status, 200);
  const tree = Object.fromEntries(body.categories.map((c: any) => [c.slug, c]));
  assert.deepEqual(
    body.categories.map((c: any) => c.slug),
    ['alpha', 'beta', 'gamma'],
  );
  assert.equal(tree.alpha.live_listings, 3, 'l-one (in two subcategories) counts once, plus l-two and l-three');
  assert.deepEqual(
    tree.alpha.subcategories.map((c: any) => [c.slug, c.live_listings]),
    [
      ['alpha-one', 2],
      ['alpha-two', 1],
    ],
  );
  assert.equal(tree.beta.live_listings, 0, 'scheduled and draft listings are not live');
  assert.deepEqual(
    tree.beta.subcategories.map((c: any) => [c.slug, c.live_listings]),
    [['beta-one', 0]],
  );
  assert.equal(tree.gamma.live_listings, 0);
  assert.equal(body.total_categories, 6);
  assert.equal(tree.alpha.description, 'All about alpha.');
});

test('list_categories: include_empty=false hides categories without live listings', async () => {
  const { status, body } = await get('/categories?include_empty=false');
  assert.equal(status, 200);
  assert.deepEqual(
    body.categories.map((c: any) => [c.slug, c.subcategories.map((s: any) => s.slug)]),
    [['alpha', ['alpha-one', 'alpha-two']]],
  );
  assert.equal(body.total_categories, 3);
  assert.equal((await get('/categories?include_empty=true')).body.total_categories, 6);
  for (const value of ['maybe', 'TRUE', 'yes', '']) {
    const bad = await get(`/categories?include_empty=${value}`);
    assert.equal(bad.status, 400, value);
    assert.equal(bad.body.error.details[0].path, 'query.include_empty');
    assert.equal(
      bad.body.error.details[0].message,
      'must be true or false (1 and 0 are accepted too)',
      'says what is accepted (was: "Invalid input")',
    );
  }
  assert.equal((await get('/categories?include_empty=0')).body.total_categories, 3);
  assert.equal((await get('/categories?include_empty=1')).body.total_categories, 6);
});

test('get_category: description, FAQs, parent, subcategories and live listings (subcategories included) most voted first', async () => {
  const { status, body } = await get('/categories/alpha');
  assert.equal(status, 200);
  assert.equal(body.slug, 'alpha');
  assert.equal(body.parent, null);
  assert.deepEqual(body.faqs, [{ question: 'What is alpha?', answer: 'A test category.' }]);
  assert.deepEqual(body.attributes, ['open_source', 'api']);
  assert.deepEqual(body.subcategories, [
    { slug: 'alpha-one', name: 'Alpha One', live_listings: 2 },
    { slug: 'alpha-two', name: 'Alpha Two', live_listings: 1 },
  ]);
  assert.deepEqual(
    body.items.map((l: any) => [l.slug, l.votes]),
    [
      ['l-two', 9],
      ['l-one', 5],
      ['l-three', 1],
    ],
  );
  assert.equal(body.total, 3);
  assert.equal(body.live_listings, 3);
  const first = body.items[0];
  for (const k of ['slug', 'name', 'url', 'tagline', 'votes', 'primary_category', 'launch_week', 'status'])
    assert.ok(k in first, `summary has ${k}`);
  assert.deepEqual(first.primary_category, { slug: 'alpha-one', name: 'Alpha One' });

  const sub = await get('/categories/alpha-two');
  assert.deepEqual(sub.body.parent, { slug: 'alpha', name: 'Alpha' });
  assert.deepEqual(
    sub.body.items.map((l: any) => l.slug),
    ['l-one'],
    'an extra category lists the listing too',
  );
  assert.deepEqual((await get('/categories/beta-one')).body.items, [], 'no scheduled or draft listings');
});

test('get_category: pagination bounds', async () => {
  const p1 = await get('/categories/alpha?per_page=2');
  assert.deepEqual(
    [p1.body.items.length, p1.body.page, p1.body.per_page, p1.body.total, p1.body.has_more],
    [2, 1, 2, 3, true],
  );
  const p2 = await get('/categories/alpha?per_page=2&page=2');
  assert.deepEqual([p2.body.items.map((l: any) => l.slug), p2.body.has_more], [['l-three'], false]);
  const p9 = await get('/categories/alpha?page=9');
  assert.deepEqual([p9.status, p9.body.items, p9.body.total, p9.body.has_more], [200, [], 3, false]);
  for (const q of ['page=0', 'page=1001', 'per_page=0', 'per_page=101', 'page=abc']) {
    const r = await get('/categories/alpha?' + q);
    assert.equal(r.status, 400, q);
    assert.equal(r.body.error.code, 'validation_failed');
    assert.match(r.body.error.details[0].path, /^query\.(page|per_page)$/, q);
  }
});

test('get_category: unknown slug is 404, a bad slug 400', async () => {
  const nf = await get('/categories/no-such-category');
  assert.equal(nf.status, 404);
  assert.equal(nf.body.error.code, 'not_found');
  const bad = await get('/categories/Not_A_Slug');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.details[0].path, 'path.slug');
});
