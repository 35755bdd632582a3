// Hot listing profiles are served from memory, yet an edit is visible at once and views still count.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { addCategory, addListing } from '../support/seed-fixtures.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { ReadCache, bumpDataVersion } from '../../src/services/read-cache.ts';
import type { ViewCounter } from '../../src/services/views.ts';

let t: TestApp;
let key: string;
let listingId: number;
before(async () => {
  t = await testApp({ READ_CACHE_MS: '60000' }, async (store) => {
    await addCategory(store.db, 'tools');
    listingId = await addListing(store.db, { slug: 'cachey', category: 'tools' });
  });
  const now = new Date().toISOString();
  const u = await t.store.db.insertInto('users').values({ email: 'owner@cachey.example', name: 'Owner', password_hash: null, role: 'user', email_verified_at: now, created_at: now }).returning('id').executeTakeFirstOrThrow();
  await t.store.db.updateTable('listings').set({ owner_id: u.id }).where('id', '=', listingId).execute();
  key = (await createApiKey(t.store.db, u.id, 'k', ['account:read', 'listings:write'])).key;
});
after(async () => { await t.cleanup(); });

const get = () => t.app.inject({ method: 'GET', url: '/api/v1/listings/cachey' });

test('a cached profile is served until a write; an edit through the API shows at once', async () => {
  assert.equal((await get()).json().tagline, 'Tagline of cachey');
  // A change this process did not make (another instance, or SQL by hand) is not seen while cached …
  await t.store.db.updateTable('listings').set({ tagline: 'Changed behind our back' }).where('id', '=', listingId).execute();
  assert.equal((await get()).json().tagline, 'Tagline of cachey');
  // … but any write through this server invalidates: the owner's edit is visible on the next read.
  const edit = await t.app.inject({ method: 'PATCH', url: `/api/v1/me/listings/${listingId}`, headers: { authorization: `Bearer ${key}` }, payload: { fields: { tagline: 'Edited by the owner' } } });
  assert.equal(edit.statusCode, 200, edit.body);
  assert.equal((await get()).json().tagline, 'Edited by the owner');
});

test('views are counted on cached reads too', async () => {
  const views = t.server.deps.services.views as ViewCounter;
  const before = views.pending(listingId);
  const a = (await get()).json().views;
  const b = (await get()).json().views;
  assert.equal(b, a + 1);
  assert.equal(views.pending(listingId), before + 2);
});

test('ReadCache: entries expire with their TTL and with any data change; TTL 0 caches nothing', () => {
  const c = new ReadCache<number>(1000);
  c.set('a', 1, 0);
  assert.equal(c.get('a', 999), 1);
  assert.equal(c.get('a', 1000), undefined);
  c.set('b', 2, 0);
  bumpDataVersion();
  assert.equal(c.get('b', 1), undefined);
  const off = new ReadCache<number>(0);
  off.set('a', 1);
  assert.equal(off.get('a'), undefined);
  const small = new ReadCache<number>(1000, 10);
  for (let i = 0; i < 25; i++) small.set(String(i), i, 0);
  assert.ok(small.size <= 10);
  assert.equal(small.get('24', 1), 24);
});
