// get_listing's materialised profiles (migration 080, store/profile-reader.ts): served from
// listing_profiles while fresh, rebuilt after anything the profile shows changes, never stale.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { testApp, ENGINE, type TestApp } from '../support/app.ts';
import { addCategory, addListing } from '../support/seed-fixtures.ts';
import { PROFILE_CACHE_EXCLUDED } from '../../src/store/migrations/080_profile_cache.ts';
import { refreshProfiles, storeProfiles } from '../../src/store/repos/profile-cache.ts';
import { ProfileReader, TextCache } from '../../src/store/profile-reader.ts';
import type { ViewCounter } from '../../src/store/view-counter.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';

let t: TestApp;
let id: number;
let other: number;
let key: string;
before(async () => {
  t = await testApp({}, async (store) => {
    await addCategory(store.db, 'tools');
    await addCategory(store.db, 'cli-tools', 'tools');
    id = await addListing(store.db, { slug: 'cachey', category: 'cli-tools' });
    other = await addListing(store.db, { slug: 'bystander', category: 'tools' });
  });
  const now = new Date().toISOString();
  const u = await t.store.db
    .insertInto('users')
    .values({
      email: 'owner@cachey.example',
      name: 'Owner',
      password_hash: null,
      role: 'user',
      email_verified_at: now,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.store.db.updateTable('listings').set({ owner_id: u.id }).where('id', '=', id).execute();
  key = (await createApiKey(t.store.db, u.id, 'k', ['account:read', 'listings:write'])).key;
});
after(async () => {
  await t.cleanup();
});

const profiles = () => t.server.deps.services.profiles as ProfileReader;
const get = async (slug = 'cachey') => {
  const r = await t.app.inject({ method: 'GET', url: `/api/v1/listings/${slug}` });
  await profiles().settle(); // the background write-back of a rebuilt profile
  return r;
};
const rev = async (listingId = id) =>
  (await t.store.db.selectFrom('listings').select('profile_rev').where('id', '=', listingId).executeTakeFirstOrThrow())
    .profile_rev;
const stored = async (listingId = id) =>
  t.store.db.selectFrom('listing_profiles').selectAll().where('listing_id', '=', listingId).executeTakeFirst();

test('the first read builds and stores the profile; later reads are served from it', async () => {
  const first = await get();
  assert.equal(first.statusCode, 200);
  const row = await stored();
  assert.ok(row, 'a profile row was written');
  assert.equal(row.rev, await rev());
  assert.equal(JSON.parse(row.body).tagline, 'Tagline of cachey');
  assert.equal(JSON.parse(row.body).votes, undefined, 'the live counters are not part of the stored text');
  // Proof that reads come from the stored text: change it behind the service's back (same rev).
  await t.store.db
    .updateTable('listing_profiles')
    .set({ body: row.body.replace('Tagline of cachey', 'Served from listing_profiles') })
    .where('listing_id', '=', id)
    .execute();
  const second = (await get()).json();
  assert.equal(second.tagline, 'Served from listing_profiles');
  for (const k of ['votes', 'followers', 'views']) assert.equal(typeof second[k], 'number', k);
});

test('an edit through the API is visible on the next read (the triggers make the stored text stale)', async () => {
  await get();
  const edit = await t.app.inject({
    method: 'PATCH',
    url: `/api/v1/me/listings/${id}`,
    headers: { authorization: `Bearer ${key}` },
    payload: { fields: { tagline: 'Edited by the owner' } },
  });
  assert.equal(edit.statusCode, 200, edit.body);
  assert.equal((await get()).json().tagline, 'Edited by the owner');
  assert.equal((await stored())!.rev, await rev(), 'rebuilt and stored again');
});

test('every listings column but the live counters bumps profile_rev; the counters do not', async () => {
  const columns =
    ENGINE === 'sqlite'
      ? (await sql<{ name: string }>`SELECT name FROM pragma_table_info('listings')`.execute(t.store.db)).rows.map(
          (r) => r.name,
        )
      : (
          await sql<{
            name: string;
          }>`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'listings' AND table_schema = current_schema()`.execute(
            t.store.db,
          )
        ).rows.map((r) => r.name);
  assert.ok(columns.length > 30);
  for (const c of columns) {
    if (c === 'id' || c === 'profile_rev' || c === 'search') continue;
    const before = await rev(other);
    await sql`UPDATE listings SET ${sql.id(c)} = ${sql.id(c)} WHERE id = ${other}`.execute(t.store.db);
    const bumped = (await rev(other)) > before;
    assert.equal(
      bumped,
      !(PROFILE_CACHE_EXCLUDED as readonly string[]).includes(c),
      `listings.${c}: a migration that adds a column must call recreateListingsTrigger()`,
    );
  }
});

test('changes in the tables the profile shows are visible at once: updates, reviews, categories, founders', async () => {
  await get();
  const now = new Date().toISOString();
  await t.store.db
    .insertInto('updates')
    .values({ listing_id: id, title: 'Version 2 is out', body: 'Faster.', created_at: now })
    .execute();
  assert.equal((await get()).json().latest_updates[0]?.title, 'Version 2 is out');

  await t.store.db
    .insertInto('reviews')
    .values({
      listing_id: id,
      user_id: null,
      author_name: 'Ann',
      rating: 4,
      body: 'Good.',
      genuine: true,
      created_at: now,
    })
    .execute();
  assert.deepEqual((await get()).json().community_rating, { average: 4, count: 1 });

  await t.store.db.updateTable('categories').set({ name: 'Command Line' }).where('slug', '=', 'cli-tools').execute();
  await t.store.db.updateTable('categories').set({ name: 'Developer Tools' }).where('slug', '=', 'tools').execute();
  const cats = (await get()).json().categories;
  assert.equal(cats[0].name, 'Command Line');
  assert.equal(cats[0].parent.name, 'Developer Tools', 'a parent category rename shows too');

  const f = await t.store.db
    .insertInto('founders')
    .values({
      slug: 'ann-founder',
      name: 'Ann',
      title: 'CEO',
      bio: null,
      country: null,
      socials: '{}',
      avatar_url: null,
      user_id: null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.store.db
    .insertInto('listing_founders')
    .values({ listing_id: id, founder_id: f.id, position: 0 } as never)
    .execute();
  assert.equal((await get()).json().founders[0]?.title, 'CEO');
  await t.store.db.updateTable('founders').set({ title: 'Chief Tinkerer' }).where('id', '=', f.id).execute();
  assert.equal((await get()).json().founders[0]?.title, 'Chief Tinkerer');
});

test('a profile built before a write is not stored over it', async () => {
  await get();
  const old = await rev();
  await t.store.db.updateTable('listings').set({ tagline: 'Newer than the build' }).where('id', '=', id).execute();
  await storeProfiles(t.store.db, [{ id, rev: old, body: '{"tagline":"built from the old rev"}' }]);
  assert.notEqual((await stored())!.body, '{"tagline":"built from the old rev"}');
  assert.equal((await get()).json().tagline, 'Newer than the build');
});

test('a listing that stops being live is a 404 even with a stored profile', async () => {
  await get('bystander');
  // 'removed': a status no public read shows
  await t.store.db
    .updateTable('listings')
    .set({ status: 'removed' as never })
    .where('id', '=', other)
    .execute();
  assert.equal((await get('bystander')).statusCode, 404);
  await t.store.db.updateTable('listings').set({ status: 'live' }).where('id', '=', other).execute();
});

test('refreshProfiles builds every missing or stale profile (seeding)', async () => {
  await t.store.db.deleteFrom('listing_profiles').execute();
  await t.store.db.updateTable('listings').set({ tagline: 'Refreshed' }).where('id', '=', other).execute();
  const n = await refreshProfiles(t.store, { batch: 1 });
  assert.equal(n, 2);
  assert.equal(JSON.parse((await stored(other))!.body).tagline, 'Refreshed');
  assert.equal(await refreshProfiles(t.store), 0, 'nothing left to build');
});

test('views are counted on every read and shown at once; votes come from their column', async () => {
  const views = t.server.deps.services.views as ViewCounter;
  const before = views.pending(id);
  const a = (await get()).json();
  const b = (await get()).json();
  assert.equal(b.views, a.views + 1);
  assert.equal(views.pending(id), before + 2);
  await t.store.db.updateTable('listings').set({ votes_count: 41 }).where('id', '=', id).execute();
  assert.equal((await get()).json().votes, 41);
});

test('TextCache: holds texts up to its byte budget, the oldest leave first; a zero budget holds nothing', () => {
  const c = new TextCache(3 * (100 + 120)); // room for three 100-character texts with their overhead
  for (const s of ['a', 'b', 'c', 'd']) c.set(s, s.charCodeAt(0), 1, s.repeat(100));
  assert.equal(c.size, 3);
  assert.equal(c.get('a'), undefined, 'the oldest left');
  assert.deepEqual(c.get('d'), { id: 100, rev: 1, text: 'd'.repeat(100) });
  c.set('b', 98, 2, 'B'.repeat(100)); // a newer rev replaces the entry without growing the cache
  assert.equal(c.size, 3);
  assert.equal(c.get('b')?.rev, 2);
  assert.equal(c.bytes, 3 * 220);
  const none = new TextCache(0);
  none.set('a', 1, 1, 'text');
  assert.equal(none.get('a'), undefined);
});

test('PostgreSQL: a text read once is held by the process and not sent again until its rev changes', {
  skip: ENGINE !== 'postgres' && 'the text cache is for PostgreSQL only',
}, async () => {
  await get();
  await get(); // the stored text came with this read and is held now
  const row = (await stored())!;
  // Changed behind the service's back at the same rev: the process keeps serving the text it holds,
  // which shows the database did not send it again.
  await t.store.db
    .updateTable('listing_profiles')
    .set({ body: row.body.replace(/"tagline":"[^"]*"/, '"tagline":"changed in the table only"') })
    .where('listing_id', '=', id)
    .execute();
  assert.notEqual((await get()).json().tagline, 'changed in the table only');
  // The counters still come from the database on every read.
  await t.store.db.updateTable('listings').set({ votes_count: 77 }).where('id', '=', id).execute();
  assert.equal((await get()).json().votes, 77);
  // A write the profile shows bumps the rev: the held text is not served for it.
  await t.store.db.updateTable('listings').set({ tagline: 'A new rev' }).where('id', '=', id).execute();
  assert.equal((await get()).json().tagline, 'A new rev');
  assert.equal((await get()).json().tagline, 'A new rev');
});

test('PostgreSQL: a held text is served only for the listing it was built from, whatever the revs', {
  skip: ENGINE !== 'postgres' && 'the text cache is for PostgreSQL only',
}, async () => {
  const a = await addListing(t.store.db, { slug: 'renamed-away', category: 'tools' });
  const b = await addListing(t.store.db, { slug: 'takes-the-slug', category: 'tools' });
  await refreshProfiles(t.store);
  await get('renamed-away'); // held: listing a's text under the slug renamed-away
  // The slug moves to listing b, whose rev is made equal to the one held for a.
  const heldRev = await rev(a);
  await t.store.db.updateTable('listings').set({ slug: 'renamed-away-old' }).where('id', '=', a).execute();
  await t.store.db.updateTable('listings').set({ slug: 'renamed-away' }).where('id', '=', b).execute();
  await t.store.db.updateTable('listings').set({ profile_rev: heldRev }).where('id', '=', b).execute();
  await refreshProfiles(t.store);
  const body = (await get('renamed-away')).json();
  assert.equal(body.tagline, 'Tagline of takes-the-slug');
});

test('PostgreSQL: a held view total is used until it is VIEWS_TTL old or this process writes views', {
  skip: ENGINE !== 'postgres' && 'the text cache is for PostgreSQL only',
}, async () => {
  let epoch = 0;
  const reader = new ProfileReader(t.store, { textCacheBytes: 1 << 20, viewsEpoch: () => epoch, viewsTtlMs: 200 });
  try {
    const views = async () => (await reader.get('cachey'))!.views;
    const setViews = (n: number) =>
      t.store.db.updateTable('listing_view_totals').set({ views: n }).where('listing_id', '=', id).execute();
    await setViews(100);
    await reader.get('cachey'); // the text and the total come from the database
    assert.equal(await views(), 100);
    await setViews(150); // another instance's write, say
    assert.equal(await views(), 100, 'the held total is used within its time');
    epoch++; // this process wrote views
    assert.equal(await views(), 150, 'a write of this process makes the held total stale at once');
    await setViews(175);
    assert.equal(await views(), 150);
    await new Promise((r) => setTimeout(r, 250));
    assert.equal(await views(), 175, "another instance's write shows once the held total is VIEWS_TTL old");
  } finally {
    await reader.close();
  }
});

// PROFILE_FRESH_MS: a profile the database confirmed a moment ago is answered without a round trip,
// until this process writes something that could change a profile.
const pgOnly = { skip: ENGINE !== 'postgres' && 'the confirmed window is for PostgreSQL only' };
/** Another instance (or a person with psql): a connection outside this process's pool. */
async function elsewhere(text: string): Promise<void> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({
    connectionString: (t.store.pgPool!.options as { connectionString: string }).connectionString,
  });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/** A reader of its own with this window (the server's keeps running beside it). */
async function withReader(freshMs: number, use: (reader: ProfileReader) => Promise<void>): Promise<void> {
  const reader = new ProfileReader(t.store, { textCacheBytes: 1 << 20, freshMs });
  try {
    await use(reader);
  } finally {
    await reader.close();
  }
}

test(
  'PostgreSQL: a confirmed profile is served without asking the database until it is PROFILE_FRESH_MS old',
  pgOnly,
  () =>
    withReader(300, async (reader) => {
      await reader.get('cachey');
      await reader.get('cachey'); // held and confirmed now
      await elsewhere(`UPDATE listings SET votes_count = 901 WHERE id = ${id}`);
      assert.notEqual(
        (await reader.get('cachey'))!.votes,
        901,
        "within the window another instance's write is not seen yet",
      );
      await new Promise((r) => setTimeout(r, 350));
      assert.equal((await reader.get('cachey'))!.votes, 901, 'once the window has passed the database is asked again');
    }),
);

test(
  'PostgreSQL: a write of this process that could change a profile is seen on the next read; bookkeeping writes are not counted',
  pgOnly,
  () =>
    withReader(60_000, async (reader) => {
      await reader.get('cachey');
      await reader.get('cachey');
      await elsewhere(`UPDATE listings SET votes_count = 902 WHERE id = ${id}`);
      // Writes to bookkeeping tables (here the job queue and the view totals) leave the confirmation standing.
      const writes = t.store.pgWrites!();
      await t.store.db.deleteFrom('jobs').where('id', '<', 0).execute();
      await t.store.db
        .updateTable('listing_view_totals')
        .set({ views: sql`views` })
        .where('listing_id', '=', other)
        .execute();
      assert.equal(t.store.pgWrites!(), writes);
      assert.notEqual((await reader.get('cachey'))!.votes, 902);
      // A write to any other table is counted: even one to another listing makes the next read ask.
      await t.store.db.updateTable('listings').set({ followers_count: 3 }).where('id', '=', other).execute();
      assert.equal(t.store.pgWrites!(), writes + 1);
      assert.equal((await reader.get('cachey'))!.votes, 902);
    }),
);

test(
  'PostgreSQL: a write inside a transaction is counted again when it commits (its rows are visible only then)',
  pgOnly,
  () =>
    withReader(60_000, async (reader) => {
      await reader.get('cachey');
      await t.store.db.transaction().execute(async (trx) => {
        await trx.updateTable('listings').set({ votes_count: 903 }).where('id', '=', id).execute();
        // Read on another connection while the transaction is open: it confirms the old count…
        assert.notEqual((await reader.get('cachey'))!.votes, 903);
        assert.notEqual((await reader.get('cachey'))!.votes, 903);
      });
      // …and the COMMIT makes the next read ask again.
      assert.equal((await reader.get('cachey'))!.votes, 903);
      const before = t.store.pgWrites!();
      await t.store.db.transaction().execute(async (trx) => {
        await trx.selectFrom('listings').select('id').where('id', '=', id).execute();
      });
      assert.equal(t.store.pgWrites!(), before, 'a transaction that only read counts nothing');
    }),
);
