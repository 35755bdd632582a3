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
  t = await testApp({ PUBLIC_URL: 'https://launchlist.example' }, async ({ db }) => {
    await addCategory(db, 'one');
    await addCategory(db, 'one-a', 'one');
    await addCategory(db, 'two');
    await addListing(db, { slug: 'live-a', category: 'one-a' });
    await addListing(db, { slug: 'live-b', category: 'two' });
    await addListing(db, { slug: 'soon', category: 'two', status: 'scheduled', launch_week: '2099-01-05' });
    await addListing(db, { slug: 'hidden', category: 'two', status: 'draft' });
    await db
      .insertInto('interview_questions')
      .values([
        { position: 2, text: 'Second question?', active: true },
        { position: 1, text: 'First question?', active: true },
        { position: 3, text: 'Retired question?', active: false },
        { position: 4, text: 'Fourth question?', active: true },
      ])
      .execute();
  });
});
after(async () => {
  await t.cleanup();
});

test('get_site_info: name, purpose, public URLs, counts, versions and the rules for callers', async () => {
  const { status, body } = await get('/site');
  assert.equal(status, 200);
  assert.equal(body.name, 'Launchlist');
  assert.ok(body.purpose.length > 40);
  assert.deepEqual(body.urls, {
    home: 'https://launchlist.example',
    api_base: 'https://launchlist.example/api/v1',
    docs: 'https://launchlist.example/docs',
    openapi: 'https://launchlist.example/api/v1/openapi.json',
    mcp: 'https://launchlist.example/mcp',
    oauth_metadata: 'https://launchlist.example/.well-known/oauth-authorization-server',
    mcp_resource_metadata: 'https://launchlist.example/.well-known/oauth-protected-resource/mcp',
    award_keys: 'https://launchlist.example/.well-known/award-keys.json',
  });
  assert.deepEqual(body.counts, { live_listings: 2, upcoming_listings: 1, categories: 3, founders: 0 });
  assert.equal(body.api_version, '1.0.0');
  assert.deepEqual(body.mcp_protocol_versions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
  const rules = body.rules.join('\n');
  assert.match(rules, /no voting through the API/i);
  assert.match(rules, /billboard is a PAID ranking/);
  assert.match(rules, /never be hard-coded/);
  assert.match(rules, /checkout_url/);
  const openapi = await t.app.inject({ url: '/api/v1/openapi.json' });
  assert.equal(openapi.statusCode, 200, 'the OpenAPI document the site info points to exists');
});

test('list_interview_questions: active questions in order, with ids to answer them', async () => {
  const { status, body } = await get('/interview-questions');
  assert.equal(status, 200);
  assert.deepEqual(
    body.items.map((q: any) => [q.position, q.question]),
    [
      [1, 'First question?'],
      [2, 'Second question?'],
      [4, 'Fourth question?'],
    ],
  );
  for (const q of body.items) assert.ok(Number.isInteger(q.id) && q.id >= 1);
});

test('public reads take no body and need no credentials', async () => {
  const withKey = await t.app.inject({ url: '/api/v1/site', headers: { authorization: 'Bearer not-a-real-key' } });
  assert.equal(
    withKey.statusCode,
    200,
    'a public operation declares no 401 (spec 4, 7): a credential that is not valid is ignored',
  );
  const anon = await t.app.inject({ url: '/api/v1/site' });
  assert.match(String(anon.headers['cache-control']), /public/);
});

test("get_site_info's counts follow a listing going live, a new category and a scheduled launch at once", async () => {
  const { siteCounts } = await import('../../src/store/repos/content.ts');
  const before = await siteCounts(t.store.db); // the database itself: no shared result in between
  await siteCounts(t.store.db); // and again, now from what was kept
  await addCategory(t.store.db, 'three');
  await addListing(t.store.db, { slug: 'live-c', category: 'three' });
  await t.store.db.updateTable('listings').set({ status: 'scheduled' }).where('slug', '=', 'hidden').execute();
  const after = await siteCounts(t.store.db);
  assert.deepEqual(after, {
    ...before,
    live_listings: before.live_listings + 1,
    upcoming_listings: before.upcoming_listings + 1,
    categories: before.categories + 1,
  });
});
