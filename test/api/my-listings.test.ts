// "My listings" through HTTP on the engine of this run: list_my_listings, get_my_listing,
// update_my_listing (rules, limits, version history, apply_to), post_listing_update (followers
// mailed), add_milestone / delete_milestone, set_founder_story — ownership, scopes and bad input.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { testApp, type TestApp } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { makeUser } from '../jobs/support/users.ts';
import type { DB } from '../../src/store/types.ts';
import { toJson } from '../../src/store/json.ts';
import { outboxFor } from '../../src/mail/index.ts';
import type { ListingPlan } from '../../src/domain/vocabulary.ts';

let t: TestApp;
type User = Awaited<ReturnType<typeof makeUser>>;
let owner: User;
let other: User;
let reader: User;
const ids: Record<string, number> = {};

const api = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  auth: Record<string, string> = owner.auth,
) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: auth,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const patch = (id: number, body: unknown, auth?: Record<string, string>) =>
  api('PATCH', `/me/listings/${id}`, body, auth);

function assert400(res: { statusCode: number; body: string; json(): any }, path: string, message?: RegExp) {
  assert.equal(res.statusCode, 400, res.body);
  const body = res.json();
  assert.equal(body.error.code, 'validation_failed');
  const hit = body.error.details.find((d: { path: string }) => d.path === path);
  assert.ok(hit, `no detail for ${path}: ${JSON.stringify(body.error.details)}`);
  if (message) assert.match(hit.message, message);
}
function assert404(res: { statusCode: number; body: string; json(): any }, why?: string) {
  assert.equal(res.statusCode, 404, `${why ?? ''} ${res.body}`);
  assert.equal(res.json().error.code, 'not_found');
}

async function own(
  db: Kysely<DB>,
  userId: number,
  f: Parameters<typeof listing>[1] & { plan?: ListingPlan; created_at?: string },
): Promise<number> {
  const id = await listing(db, f);
  await db
    .updateTable('listings')
    .set({
      owner_id: userId,
      ...(f.plan ? { plan: f.plan } : {}),
      ...(f.created_at ? { created_at: f.created_at } : {}),
    })
    .where('id', '=', id)
    .execute();
  return id;
}
const versionsOf = (id: number) =>
  t.store.db.selectFrom('listing_versions').selectAll().where('listing_id', '=', id).orderBy('id').execute();
const rowOf = (id: number) =>
  t.store.db.selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

before(async () => {
  t = await testApp();
  const db = t.store.db;
  await category(db, 'tools', { name: 'Tools' });
  await db
    .insertInto('sites')
    .values([
      { key: 'launchlist', name: 'Launchlist', url: t.config.publicUrl },
      { key: 'saasgarden', name: 'SaaS Garden', url: 'https://saasgarden.example' },
      { key: 'aitoolshelf', name: 'AI Tool Shelf', url: 'https://aitoolshelf.example' },
    ])
    .execute();
  owner = await makeUser(db);
  other = await makeUser(db);
  reader = await makeUser(db, ['account:read']);
  ids.alpha = await own(db, owner.id, {
    slug: 'alpha',
    name: 'Alpha',
    tagline: 'First tagline',
    category: 'tools',
    status: 'draft',
    plan: 'none',
    created_at: '2026-01-01T10:00:00.000Z',
  });
  ids.bravo = await own(db, owner.id, {
    slug: 'bravo',
    name: 'Bravo',
    tagline: 'Bravo tagline',
    description: 'Bravo keeps notes.',
    category: 'tools',
    status: 'live',
    plan: 'free',
    created_at: '2026-01-02T10:00:00.000Z',
    socials: { x: 'https://x.com/bravo' },
    features: ['Notes'],
  });
  ids.unlocked = await own(db, owner.id, {
    slug: 'unlocked',
    name: 'Unlocked',
    category: 'tools',
    status: 'live',
    unlocked: ['story', 'milestones'],
    created_at: '2026-01-03T10:00:00.000Z',
  });
  ids.charlie = await own(db, other.id, {
    slug: 'charlie',
    name: 'Charlie',
    tagline: 'Not yours',
    category: 'tools',
    status: 'live',
    created_at: '2026-01-04T10:00:00.000Z',
  });
});
after(async () => {
  await t.cleanup();
});

describe('list_my_listings and get_my_listing', () => {
  test("every listing the caller owns, any status, newest first, paginated; never someone else's", async () => {
    const res = await api('GET', '/me/listings');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(
      body.items.map((i: { slug: string }) => i.slug),
      ['unlocked', 'bravo', 'alpha'],
    );
    assert.equal(body.total, 3);
    const alpha = body.items[2];
    assert.equal(alpha.listing_id, ids.alpha);
    assert.equal(alpha.status, 'draft');
    assert.equal(alpha.plan, 'none');
    assert.equal(alpha.name, 'Alpha');
    assert.equal(alpha.public_url, `${t.config.publicUrl}/listings/alpha`);
    assert.deepEqual(body.items[0].unlocked, ['story', 'milestones']);

    const p2 = (await api('GET', '/me/listings?per_page=2&page=2')).json();
    assert.deepEqual(
      p2.items.map((i: { slug: string }) => i.slug),
      ['alpha'],
    );
    assert.equal(p2.has_more, false);
    const p1 = (await api('GET', '/me/listings?per_page=2')).json();
    assert.equal(p1.has_more, true);

    const theirs = (await api('GET', '/me/listings', undefined, other.auth)).json();
    assert.deepEqual(
      theirs.items.map((i: { slug: string }) => i.slug),
      ['charlie'],
    );
    assert400(await api('GET', '/me/listings?per_page=101'), 'query.per_page');
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/me/listings' })).statusCode, 401);
  });

  test('the own view: lifecycle fields, next steps and everything public, story and milestones always shown to the owner', async () => {
    const res = await api('GET', `/me/listings/${ids.alpha}`);
    assert.equal(res.statusCode, 200);
    const v = res.json();
    assert.equal(v.listing_id, ids.alpha);
    assert.equal(v.slug, 'alpha');
    assert.equal(v.status, 'draft');
    assert.equal(v.plan, 'none');
    assert.equal(v.launch_week, null);
    assert.equal(v.launched_at, null);
    assert.equal(v.verified, false);
    assert.equal(v.badge_seen_at, null);
    assert.equal(v.created_at, '2026-01-01T10:00:00.000Z');
    assert.equal(v.public_url, `${t.config.publicUrl}/listings/alpha`);
    assert.equal(v.tagline, 'First tagline', 'public profile fields are there');
    assert.equal(v.categories[0].slug, 'tools');
    assert.equal(v.story, null, 'the owner sees the story section even though it is not unlocked');
    assert.deepEqual(v.milestones, []);
    assert.deepEqual(v.unlocked, []);
    assert.ok(
      v.next_steps.some((s: string) => /choose_free_listing/.test(s)),
      JSON.stringify(v.next_steps),
    );
    // The draft is not public.
    assert404(await api('GET', '/listings/alpha', undefined, {}));
  });

  test("someone else's listing and a missing one are 404; a bad id is 400", async () => {
    assert404(await api('GET', `/me/listings/${ids.charlie}`));
    assert404(await api('GET', '/me/listings/999999'));
    assert400(await api('GET', '/me/listings/0'), 'path.listing_id');
    assert.equal((await api('GET', `/me/listings/${ids.charlie}`, undefined, other.auth)).statusCode, 200);
  });
});

describe('update_my_listing', () => {
  test('edits publish at once; one version with before/after of exactly the changed fields', async () => {
    const res = await patch(ids.bravo, {
      fields: {
        tagline: '  Notes for busy teams ',
        country: 'de',
        city: 'Berlin',
        founded_year: 2019,
        features: ['Search', 'search', ' ', 'Sync'],
        keywords: ['zettelkasten'],
        description: 'Bravo keeps notes.',
      },
      socials: { linkedin: 'https://linkedin.com/company/bravo', github: '' },
      faqs: [{ question: 'Is it free?', answer: 'Yes.' }],
    });
    assert.equal(res.statusCode, 200, res.body);
    const v = res.json();
    assert.equal(v.tagline, 'Notes for busy teams');
    assert.equal(v.country, 'DE', 'country is upper-cased');
    assert.equal(v.city, 'Berlin');
    assert.equal(v.founded_year, 2019);
    assert.deepEqual(v.features, ['Search', 'Sync'], 'duplicates and blanks dropped');
    assert.deepEqual(v.socials, { linkedin: 'https://linkedin.com/company/bravo' }, 'socials replace all links');
    assert.deepEqual(v.faqs, [{ question: 'Is it free?', answer: 'Yes.' }]);
    assert.deepEqual(v.changed_fields.sort(), [
      'city',
      'country',
      'faqs',
      'features',
      'founded_year',
      'keywords',
      'socials',
      'tagline',
    ]);
    assert.ok(Number.isInteger(v.version_id));
    assert.deepEqual(v.applied_to, []);

    const versions = await versionsOf(ids.bravo);
    assert.equal(versions.length, 1);
    const before = JSON.parse(versions[0].before);
    const afterV = JSON.parse(versions[0].after);
    assert.equal(versions[0].id, v.version_id);
    assert.equal(versions[0].user_id, owner.id);
    assert.deepEqual(
      Object.keys(afterV).sort(),
      v.changed_fields.sort(),
      'the unchanged description is not in the version',
    );
    assert.equal(before.tagline, 'Bravo tagline');
    assert.equal(afterV.tagline, 'Notes for busy teams');
    assert.equal(before.city, null);
    assert.deepEqual(before.socials, { x: 'https://x.com/bravo' });
    assert.deepEqual(before.features, ['Notes']);
    assert.equal(versions[0].reviewed_at, null);

    // Published at once: the public profile and the search index have it.
    const pub = (await api('GET', '/listings/bravo', undefined, {})).json();
    assert.equal(pub.tagline, 'Notes for busy teams');
    const found = (await api('GET', '/listings?q=zettelkasten', undefined, {})).json();
    assert.deepEqual(
      found.items.map((i: { slug: string }) => i.slug),
      ['bravo'],
    );
  });

  test('an empty body, or values equal to the current ones, change nothing and write no version', async () => {
    const n = (await versionsOf(ids.bravo)).length;
    const before = await rowOf(ids.bravo);
    for (const body of [
      undefined,
      {},
      { fields: { tagline: 'Notes for busy teams', country: 'DE' } },
      { fields: {}, faqs: [{ question: 'Is it free?', answer: 'Yes.' }] },
    ]) {
      const res = await patch(ids.bravo, body);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().changed_fields, []);
      assert.equal(res.json().version_id, null);
    }
    assert.equal((await versionsOf(ids.bravo)).length, n);
    assert.equal((await rowOf(ids.bravo)).updated_at, before.updated_at);
    // A partly unchanged edit records only what changed.
    const res = await patch(ids.bravo, { fields: { tagline: 'Notes for busy teams', city: 'Hamburg' } });
    assert.deepEqual(res.json().changed_fields, ['city']);
    const last = (await versionsOf(ids.bravo)).at(-1)!;
    assert.deepEqual(JSON.parse(last.before), { city: 'Berlin' });
    assert.deepEqual(JSON.parse(last.after), { city: 'Hamburg' });
  });

  test('null clears a field; clearing is a change with before/after', async () => {
    const res = await patch(ids.bravo, { fields: { city: null, usps: null } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().city, null);
    assert.deepEqual(res.json().changed_fields, ['city'], 'usps were already empty');
    assert.deepEqual(JSON.parse((await versionsOf(ids.bravo)).at(-1)!.after), { city: null });
  });

  test('apply_to records which sites receive the changed headline, summary and SEO fields', async () => {
    let res = await patch(ids.bravo, {
      fields: { headline: 'The notes app', seo_title: 'Bravo notes', tagline: 'Notes for teams' },
      apply_to: ['saasgarden'],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().applied_to, ['saasgarden']);
    assert.deepEqual(res.json().applied_fields.sort(), ['headline', 'seo_title'], 'the tagline does not travel');
    assert.equal(res.json().headline, 'The notes app');
    assert.deepEqual(JSON.parse((await versionsOf(ids.bravo)).at(-1)!.apply_to), ['saasgarden']);

    res = await patch(ids.bravo, { fields: { summary: 'A longer summary.' }, apply_to: ['all'] });
    assert.deepEqual(res.json().applied_to, ['aitoolshelf', 'saasgarden'], '"all" means every other site');
    assert.deepEqual(JSON.parse((await versionsOf(ids.bravo)).at(-1)!.apply_to), ['aitoolshelf', 'saasgarden']);

    res = await patch(ids.bravo, { fields: { pricing_model: 'Freemium plus' }, apply_to: ['all'] });
    assert.deepEqual(res.json().applied_to, [], 'nothing that travels changed');
    assert.deepEqual(JSON.parse((await versionsOf(ids.bravo)).at(-1)!.apply_to), []);

    const n = (await versionsOf(ids.bravo)).length;
    assert400(
      await patch(ids.bravo, { fields: { headline: 'Nope' }, apply_to: ['saasgarden', 'nosuchsite'] }),
      'body.apply_to.1',
      /nosuchsite.*saasgarden/,
    );
    assert400(await patch(ids.bravo, { apply_to: Array.from({ length: 61 }, () => 'all') }), 'body.apply_to');
    assert400(await patch(ids.bravo, { apply_to: ['x'.repeat(41)] }), 'body.apply_to.0');
    assert.equal((await versionsOf(ids.bravo)).length, n);
    assert.equal((await rowOf(ids.bravo)).headline, 'The notes app', 'a refused edit writes nothing');
  });

  test('every bad input is a 400 naming the field and rule; nothing is written', async () => {
    const n = (await versionsOf(ids.bravo)).length;
    const row = await rowOf(ids.bravo);
    const cases: Array<[unknown, string, RegExp?]> = [
      [{ fields: { tagline: 'x'.repeat(201) } }, 'body.fields.tagline', /200/],
      [{ fields: { short_description: 'x'.repeat(301) } }, 'body.fields.short_description'],
      [{ fields: { description: 'x'.repeat(20001) } }, 'body.fields.description'],
      [{ fields: { seo_description: 'x'.repeat(321) } }, 'body.fields.seo_description'],
      [{ fields: { features: Array.from({ length: 21 }, (_, i) => `f${i}`) } }, 'body.fields.features', /20/],
      [{ fields: { keywords: ['x'.repeat(201)] } }, 'body.fields.keywords.0'],
      [{ fields: { founded_year: 1799 } }, 'body.fields.founded_year', /1800/],
      [{ fields: { founded_year: 2101 } }, 'body.fields.founded_year', /2100/],
      [{ fields: { founded_year: '2020' } }, 'body.fields.founded_year'],
      [{ fields: { country: 'USA' } }, 'body.fields.country'],
      [{ fields: { country: 'X1' } }, 'body.fields.country', /ISO 3166-1/],
      [{ fields: { country: 'XX' } }, 'body.fields.country', /ISO 3166-1/],
      [{ fields: { contact_email: 'not-an-email' } }, 'body.fields.contact_email', /email/],
      [{ fields: { demo_video_url: 'https://example.com/video.mp4' } }, 'body.fields.demo_video_url', /video site/],
      [{ fields: { demo_video_url: 'http://www.youtube.com/watch?v=x' } }, 'body.fields.demo_video_url', /https/],
      [{ fields: { name: 'Renamed' } }, 'body.fields', /name/],
      [{ faqs: Array.from({ length: 11 }, () => ({ question: 'Q?', answer: 'A.' })) }, 'body.faqs', /10/],
      [{ faqs: [{ question: 'x'.repeat(301), answer: 'A' }] }, 'body.faqs.0.question'],
      [{ faqs: [{ question: 'Q?' }] }, 'body.faqs.0.answer', /required/],
      [{ faqs: [{ question: '  ', answer: 'A.' }] }, 'body.faqs.0.question', /empty/],
      [{ socials: { x: 'ftp://x.com/bravo' } }, 'body.socials.x', /http/],
      [{ socials: { myspace: 'https://myspace.com/bravo' } }, 'body.socials'],
      [{ unknown: 1 }, 'body', /unknown/],
    ];
    for (const [body, path, msg] of cases) assert400(await patch(ids.bravo, body), path, msg);
    assert.equal((await versionsOf(ids.bravo)).length, n);
    assert.deepEqual(await rowOf(ids.bravo), row);
  });

  test('a valid demo video, email and country are stored as given', async () => {
    const res = await patch(ids.bravo, {
      fields: {
        demo_video_url: 'https://www.youtube.com/watch?v=abc',
        contact_email: 'hello@bravo.example',
        country: 'us',
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const row = await rowOf(ids.bravo);
    assert.equal(row.demo_video_url, 'https://www.youtube.com/watch?v=abc');
    assert.equal(row.contact_email, 'hello@bravo.example');
    assert.equal(row.country, 'US');
  });

  test("someone else's listing is 404 and untouched; the scope listings:write is required", async () => {
    assert404(await patch(ids.charlie, { fields: { tagline: 'Hijacked' } }));
    assert.equal((await rowOf(ids.charlie)).tagline, 'Not yours');
    assert.equal((await versionsOf(ids.charlie)).length, 0);
    const res = await patch(ids.alpha, { fields: { tagline: 'x' } }, reader.auth);
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().error.code, 'insufficient_scope');
  });
});

describe('post_listing_update', () => {
  test('201 with the update; every follower gets one mail, the poster none; get_listing shows it', async () => {
    const db = t.store.db;
    const fans = [await makeUser(db), await makeUser(db)];
    const now = new Date().toISOString();
    await db
      .insertInto('follows')
      .values([
        ...fans.map((f) => ({ listing_id: ids.bravo, user_id: f.id, created_at: now })),
        { listing_id: ids.bravo, user_id: owner.id, created_at: now },
      ])
      .execute();
    const res = await api('POST', `/me/listings/${ids.bravo}/updates`, {
      title: 'Version 2 is out',
      body: 'Offline mode and faster search.',
    });
    assert.equal(res.statusCode, 201, res.body);
    const u = res.json();
    assert.ok(Number.isInteger(u.id));
    assert.equal(u.listing_id, ids.bravo);
    assert.equal(u.title, 'Version 2 is out');
    assert.equal(u.body, 'Offline mode and faster search.');
    assert.equal(u.followers_notified, 2);
    for (const f of fans) {
      const mails = await outboxFor(db, f.email);
      assert.equal(mails.length, 1);
      assert.match(mails[0].subject, /Bravo: Version 2 is out/);
      assert.match(mails[0].text, /Offline mode and faster search\./);
      assert.match(mails[0].text, new RegExp(`${t.config.publicUrl}/listings/bravo`));
    }
    assert.equal((await outboxFor(db, owner.email)).length, 0);
    const pub = (await api('GET', '/listings/bravo', undefined, {})).json();
    assert.equal(pub.latest_updates[0].title, 'Version 2 is out');
    assert.equal(pub.latest_updates[0].id, u.id);

    // An Idempotency-Key retry returns the same update and mails nobody twice.
    const key = { ...owner.auth, 'idempotency-key': 'update-retry-1' };
    const a = await api('POST', `/me/listings/${ids.bravo}/updates`, { title: 'Retry safe', body: 'Once.' }, key);
    const b = await api('POST', `/me/listings/${ids.bravo}/updates`, { title: 'Retry safe', body: 'Once.' }, key);
    assert.equal(b.statusCode, 201);
    assert.equal(b.headers['idempotent-replayed'], 'true');
    assert.equal(b.json().id, a.json().id);
    assert.equal((await outboxFor(db, fans[0].email)).length, 2);
  });

  test('limits and ownership', async () => {
    const url = `/me/listings/${ids.bravo}/updates`;
    assert400(await api('POST', url, { title: 'x'.repeat(201), body: 'b' }), 'body.title');
    assert400(await api('POST', url, { title: 't', body: 'x'.repeat(5001) }), 'body.body');
    assert400(await api('POST', url, { title: '   ', body: 'b' }), 'body.title', /empty/);
    assert400(await api('POST', url, { title: 't' }), 'body.body', /required/);
    assert404(await api('POST', `/me/listings/${ids.charlie}/updates`, { title: 't', body: 'b' }));
    const n = await t.store.db
      .selectFrom('updates')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('listing_id', '=', ids.charlie)
      .executeTakeFirstOrThrow();
    assert.equal(Number(n.n), 0);
  });
});

describe('milestones', () => {
  test('add_milestone → 201; the owner sees it; the public only where the section is unlocked; delete → 200 then 404', async () => {
    const res = await api('POST', `/me/listings/${ids.bravo}/milestones`, {
      date: '2025-03-01',
      title: ' First 100 customers ',
      description: 'Mostly teams.',
      url: 'https://bravo.example/100',
    });
    assert.equal(res.statusCode, 201, res.body);
    const m = res.json();
    assert.ok(Number.isInteger(m.id) && m.id >= 1);
    assert.deepEqual(
      { ...m, id: 0 },
      {
        id: 0,
        date: '2025-03-01',
        title: 'First 100 customers',
        description: 'Mostly teams.',
        url: 'https://bravo.example/100',
      },
    );
    const mine = (await api('GET', `/me/listings/${ids.bravo}`)).json();
    assert.deepEqual(
      mine.milestones.map((x: { id: number }) => x.id),
      [m.id],
    );
    assert.equal(
      (await api('GET', '/listings/bravo', undefined, {})).json().milestones,
      undefined,
      'not unlocked: not public',
    );
    const u = (
      await api('POST', `/me/listings/${ids.unlocked}/milestones`, { date: '2024-01-15', title: 'Launch' })
    ).json();
    assert.equal(u.description, null);
    assert.equal(u.url, null);
    assert.deepEqual(
      (await api('GET', '/listings/unlocked', undefined, {})).json().milestones.map((x: { title: string }) => x.title),
      ['Launch'],
    );

    assert404(await api('DELETE', `/me/listings/${ids.bravo}/milestones/${u.id}`), "another listing's milestone");
    assert404(await api('DELETE', `/me/listings/${ids.charlie}/milestones/${m.id}`));
    const del = await api('DELETE', `/me/listings/${ids.bravo}/milestones/${m.id}`);
    assert.equal(del.statusCode, 200);
    assert.deepEqual(del.json(), { deleted: true, id: m.id });
    assert404(await api('DELETE', `/me/listings/${ids.bravo}/milestones/${m.id}`));
    assert.deepEqual((await api('GET', `/me/listings/${ids.bravo}`)).json().milestones, []);
  });

  test("bad milestones are 400s; other people's listings 404", async () => {
    const url = `/me/listings/${ids.bravo}/milestones`;
    assert400(await api('POST', url, { date: '2025-03-01', title: 'x'.repeat(201) }), 'body.title');
    assert400(await api('POST', url, { date: '2025-02-30', title: 'T' }), 'body.date', /real calendar date/);
    assert400(await api('POST', url, { date: 'yesterday', title: 'T' }), 'body.date');
    assert400(
      await api('POST', url, { date: '2025-03-01', title: 'T', url: 'http://bravo.example/x' }),
      'body.url',
      /https/,
    );
    assert400(
      await api('POST', url, { date: '2025-03-01', title: 'T', description: 'x'.repeat(2001) }),
      'body.description',
    );
    assert400(await api('POST', url, { title: 'T' }), 'body.date', /required/);
    assert404(await api('POST', `/me/listings/${ids.charlie}/milestones`, { date: '2025-03-01', title: 'T' }));
  });

  test('at most 50 per listing: the 51st is refused naming the limit', async () => {
    const db = t.store.db;
    const target = await own(db, owner.id, {
      slug: 'many-milestones',
      name: 'Many',
      category: 'tools',
      status: 'draft',
      plan: 'none',
    });
    const now = new Date().toISOString();
    await db
      .insertInto('milestones')
      .values(
        Array.from({ length: 49 }, (_, i) => ({
          listing_id: target,
          date: '2024-01-01',
          title: `M${i}`,
          description: null,
          url: null,
          created_at: now,
        })),
      )
      .execute();
    const fiftieth = await api('POST', `/me/listings/${target}/milestones`, { date: '2025-01-01', title: 'Fiftieth' });
    assert.equal(fiftieth.statusCode, 201);
    const res = await api('POST', `/me/listings/${target}/milestones`, { date: '2025-01-02', title: 'One too many' });
    assert400(res, 'body', /at most 50 milestones/);
    const n = await db
      .selectFrom('milestones')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('listing_id', '=', target)
      .executeTakeFirstOrThrow();
    assert.equal(Number(n.n), 50);
  });
});

describe('set_founder_story', () => {
  test('PUT replaces the whole story; the owner sees it, the public only where unlocked', async () => {
    let res = await api('PUT', `/me/listings/${ids.bravo}/story`, {
      title: 'Why Bravo',
      story: 'We lost our notes once too often.',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().title, 'Why Bravo');
    assert.equal(res.json().story, 'We lost our notes once too often.');
    assert.equal(res.json().problem, null);
    assert.equal(res.json().shown_publicly, false);
    res = await api('PUT', `/me/listings/${ids.bravo}/story`, { why_started: 'A bad week.' });
    assert.equal(res.json().title, null, 'keys not sent are cleared (PUT replaces)');
    assert.equal(res.json().why_started, 'A bad week.');
    const mine = (await api('GET', `/me/listings/${ids.bravo}`)).json();
    assert.equal(mine.story.why_started, 'A bad week.');
    assert.equal(mine.story.title, null);
    assert.equal(
      (await api('GET', '/listings/bravo', undefined, {})).json().story,
      undefined,
      'not unlocked: not public',
    );

    const u = await api('PUT', `/me/listings/${ids.unlocked}/story`, { title: 'Our story', lessons: 'Ship early.' });
    assert.equal(u.json().shown_publicly, true);
    assert.equal((await api('GET', '/listings/unlocked', undefined, {})).json().story.lessons, 'Ship early.');

    const cleared = await api('PUT', `/me/listings/${ids.unlocked}/story`);
    assert.equal(cleared.statusCode, 200);
    assert.equal(
      (await api('GET', '/listings/unlocked', undefined, {})).json().story,
      null,
      'an empty PUT clears the story',
    );
  });

  test('limits, unknown keys and ownership', async () => {
    const url = `/me/listings/${ids.bravo}/story`;
    assert400(await api('PUT', url, { title: 'x'.repeat(201) }), 'body.title');
    assert400(await api('PUT', url, { journey: 'x'.repeat(8001) }), 'body.journey');
    assert400(await api('PUT', url, { chapter: 'one' }), 'body', /unknown/);
    assert.equal(
      (await api('GET', `/me/listings/${ids.bravo}`)).json().story.why_started,
      'A bad week.',
      'refused PUTs change nothing',
    );
    assert404(await api('PUT', `/me/listings/${ids.charlie}/story`, { title: 'Mine now' }));
  });
});

test('the own view reflects the unlocked sections and JSON columns stay JSON on this engine', async () => {
  await t.store.db
    .updateTable('listings')
    .set({ unlocked: toJson(['media']), media: toJson([{ type: 'image', url: 'https://bravo.example/a.png' }]) })
    .where('id', '=', ids.bravo)
    .execute();
  const v = (await api('GET', `/me/listings/${ids.bravo}`)).json();
  assert.deepEqual(v.unlocked, ['media']);
  assert.deepEqual(v.media, [{ type: 'image', url: 'https://bravo.example/a.png' }]);
  assert.ok(Array.isArray(v.milestones), 'milestones still shown to the owner');
});

test('ids beyond the largest a record can have (2^31 − 1) are 400s on both engines, never a database error', async () => {
  const big = 2_147_483_648;
  assert400(await api('GET', `/me/listings/${big}`), 'path.listing_id', /2147483647/);
  assert400(await api('DELETE', `/me/listings/1/milestones/${big}`), 'path.milestone_id');
  assert400(await api('POST', `/claims/${big}/verify`), 'path.claim_id');
  assert400(
    await api('PUT', '/me/interview', { answers: [{ question_id: big, answer: 'x' }] }),
    'body.answers.0.question_id',
  );
  assert404(await api('GET', '/me/listings/2147483647'), 'the largest id is a valid id that names no listing');
});
