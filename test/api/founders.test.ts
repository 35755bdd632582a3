import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { testApp, type TestApp } from '../support/app.ts';
import { addCategory, addListing } from '../support/seed-fixtures.ts';
import type { DB } from '../../src/store/types.ts';
import { toJson } from '../../src/store/json.ts';

let t: TestApp;
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url: '/api/v1' + url });
  return { status: r.statusCode, body: r.json() };
};

async function founder(
  db: Kysely<DB>,
  slug: string,
  name: string,
  country: string | null,
  listings: Array<[number, number]>,
): Promise<void> {
  const f = await db
    .insertInto('founders')
    .values({
      slug,
      name,
      title: 'Co-founder',
      bio: `${name} builds things.`,
      country,
      socials: toJson({ x: `https://x.com/${slug}` }),
      avatar_url: null,
      user_id: null,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [listingId, position] of listings)
    await db.insertInto('listing_founders').values({ listing_id: listingId, founder_id: f.id, position }).execute();
}

before(async () => {
  t = await testApp({}, async ({ db }) => {
    await addCategory(db, 'cat');
    const live1 = await addListing(db, { slug: 'live-one', category: 'cat', votes_count: 3 });
    const live2 = await addListing(db, {
      slug: 'live-two',
      category: 'cat',
      unlocked: ['story', 'milestones', 'media'],
      votes_count: 8,
    });
    const live3 = await addListing(db, { slug: 'live-three', category: 'cat' }); // has a story row, but the section is not unlocked
    const sched = await addListing(db, {
      slug: 'sched',
      category: 'cat',
      status: 'scheduled',
      launch_week: '2099-01-05',
      unlocked: ['story'],
    });
    const draft = await addListing(db, { slug: 'drafty', category: 'cat', status: 'draft' });
    const now = new Date().toISOString();
    await db
      .insertInto('stories')
      .values([
        {
          listing_id: live2,
          title: 'Why we built it',
          story: 'It started with a spreadsheet.',
          why_started: null,
          problem: 'Too many tabs.',
          journey: null,
          challenges: null,
          achievements: null,
          lessons: null,
          whats_next: null,
          updated_at: now,
        },
        {
          listing_id: live3,
          title: 'Locked story',
          story: 'Not shown.',
          why_started: null,
          problem: null,
          journey: null,
          challenges: null,
          achievements: null,
          lessons: null,
          whats_next: null,
          updated_at: now,
        },
        {
          listing_id: sched,
          title: 'Not live yet',
          story: 'Not shown either.',
          why_started: null,
          problem: null,
          journey: null,
          challenges: null,
          achievements: null,
          lessons: null,
          whats_next: null,
          updated_at: now,
        },
      ])
      .execute();
    await founder(db, 'ana-lima', 'Ana Lima', 'BR', [[live1, 0]]);
    await founder(db, 'bo-svensson', 'Bo Svensson', 'SE', [
      [live2, 0],
      [live3, 0],
      [sched, 0],
    ]);
    await founder(db, 'carla-95', 'Carla 95% Sure', 'US', [[live2, 1]]);
    await founder(db, 'dora-draft', 'Dora Draft', 'US', [[draft, 0]]);
    await founder(db, 'eve-nowhere', 'Eve Nowhere', 'US', []);
  });
});
after(async () => {
  await t.cleanup();
});

test('list_founders: only founders behind a live listing, by name, with their live companies', async () => {
  const { status, body } = await get('/founders');
  assert.equal(status, 200);
  assert.deepEqual(
    body.items.map((f: any) => f.slug),
    ['ana-lima', 'bo-svensson', 'carla-95'],
  );
  assert.equal(body.total, 3);
  const bo = body.items[1];
  assert.deepEqual(
    bo.companies.map((c: any) => c.slug),
    ['live-two', 'live-three'],
    'most voted first; the scheduled listing is left out',
  );
  assert.equal(bo.companies[0].primary_founder, true);
  assert.equal(bo.companies[0].role, 'Co-founder');
  assert.equal(body.items[2].companies[0].primary_founder, false);
  assert.equal(bo.country, 'SE');
});

test('list_founders: q is a case-insensitive part of the name (wildcards are literal); country filter', async () => {
  const q = async (s: string) => (await get('/founders?' + s)).body.items.map((f: any) => f.slug);
  assert.deepEqual(await q('q=SVENS'), ['bo-svensson']);
  assert.deepEqual(await q('q=a'), ['ana-lima', 'carla-95']);
  assert.deepEqual(await q('q=' + encodeURIComponent('95%')), ['carla-95']);
  assert.deepEqual(await q('q=' + encodeURIComponent('%')), ['carla-95'], '% matches only a literal percent sign');
  assert.deepEqual(await q('q=_'), [], '_ is not a wildcard');
  assert.deepEqual(await q('q=draft'), [], 'Dora is behind a draft only');
  assert.deepEqual(await q('country=se'), ['bo-svensson']);
  assert.deepEqual(await q('country=US&q=carla'), ['carla-95']);
  for (const bad of ['country=USA', 'country=1A', 'q=' + 'x'.repeat(121), 'page=0', 'per_page=101']) {
    const r = await get('/founders?' + bad);
    assert.equal(r.status, 400, bad);
  }
  const p = await get('/founders?per_page=2&page=2');
  assert.deepEqual([p.body.items.map((f: any) => f.slug), p.body.total, p.body.has_more], [['carla-95'], 3, false]);
});

test('get_founder: bio, socials, live companies and published stories (unlocked sections of live listings only)', async () => {
  const { status, body } = await get('/founders/bo-svensson');
  assert.equal(status, 200);
  assert.equal(body.bio, 'Bo Svensson builds things.');
  assert.deepEqual(body.socials, { x: 'https://x.com/bo-svensson' });
  assert.deepEqual(
    body.companies.map((c: any) => c.slug),
    ['live-two', 'live-three'],
  );
  assert.equal(body.stories.length, 1);
  assert.equal(body.stories[0].listing.slug, 'live-two');
  assert.equal(body.stories[0].title, 'Why we built it');
  assert.equal(body.stories[0].problem, 'Too many tabs.');
  assert.equal('journey' in body.stories[0], false, 'empty sections are left out');
});

test('get_founder: 404 for unknown founders and founders with no live listing; 400 for a bad slug', async () => {
  for (const slug of ['dora-draft', 'eve-nowhere', 'nobody']) {
    const r = await get('/founders/' + slug);
    assert.equal(r.status, 404, slug);
    assert.equal(r.body.error.code, 'not_found');
  }
  const bad = await get('/founders/-bad');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.details[0].path, 'path.slug');
});
