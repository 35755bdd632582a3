// Issue #19 item 8 on the engine of this run: a draft never silently overwrites a listing (every change
// it makes to an existing listing is an edit with a version row in the site team's review, the maker's
// later edits on the listing are kept, re-submitting proposes only what changed), and one website has
// one listing (a website another person has publicly listed is refused with 409 naming the listing and
// how to claim it: REST and MCP).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveSite, productSite, type Site } from '../jobs/support/site.ts';
import { testDrafter } from '../jobs/support/drafter.ts';
import { makeUser } from '../jobs/support/users.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { liveApp, connect, ERAS, type Live } from '../mcp/support.ts';
import { drainJobs, jobHandlers } from '../../src/jobs/index.ts';
import { RobotsCache } from '../../src/drafting/crawler/robots.ts';
import { revertVersion } from '../../src/services/listing-edits.ts';
import { lockSite } from '../../src/store/repos/same-site.ts';
import { createSession } from '../../src/auth/sessions.ts';
import { makeUser as makeAdmin } from '../auth/helpers.ts';
import * as cheerio from 'cheerio';

let t: Live;
let maker: Awaited<ReturnType<typeof makeUser>>;
let rival: Awaited<ReturnType<typeof makeUser>>;
const sites: Site[] = [];

before(async () => {
  t = await liveApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' }, async (store) => {
    await category(store.db, 'productivity');
    await category(store.db, 'developer-tools');
    await category(store.db, 'analytics');
    await store.db
      .insertInto('products')
      .values({
        code: 'launch',
        name: 'Launch',
        description: 'A paid launch.',
        price_cents: 4500,
        needs_listing: true,
        options: '{}',
        active: true,
        position: 1,
        updated_at: new Date().toISOString(),
      } as never)
      .execute();
  });
  maker = await makeUser(t.store.db, ['account:read', 'listings:write', 'orders:write']);
  rival = await makeUser(t.store.db);
  t.server.deps.services.drafting = { drafter: testDrafter().drafter, crawl: { robots: new RobotsCache() } };
});
after(async () => {
  for (const s of sites) await s.close();
  await t.cleanup();
});

type Auth = { authorization: string };
const api = (method: 'GET' | 'POST' | 'PATCH', url: string, auth: Auth, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: auth,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

async function site(name = 'Acme Notes'): Promise<Site> {
  const s = await serveSite(productSite(name));
  sites.push(s);
  return s;
}

/** A ready draft of `url` with a primary category. */
async function readyDraft(auth: Auth, url: string): Promise<string> {
  const res = await api('POST', '/drafts', auth, { url });
  assert.equal(res.statusCode, 201, res.body);
  await drainJobs(t.server.deps, jobHandlers);
  const id = res.json().id;
  assert.equal((await api('GET', `/drafts/${id}`, auth)).json().status, 'ready');
  assert.equal(
    (await api('PATCH', `/drafts/${id}`, auth, { fields: { categories: ['productivity'] } })).statusCode,
    200,
  );
  return id;
}

const row = (id: number) =>
  t.store.db.selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const versions = (listingId: number) =>
  t.store.db.selectFrom('listing_versions').selectAll().where('listing_id', '=', listingId).orderBy('id').execute();
const categoriesOf = async (listingId: number) =>
  (
    await t.store.db
      .selectFrom('listing_categories')
      .innerJoin('categories', 'categories.id', 'listing_categories.category_id')
      .select(['categories.slug', 'listing_categories.is_primary'])
      .where('listing_id', '=', listingId)
      .orderBy('categories.slug')
      .execute()
  ).map((c) => `${c.slug}${c.is_primary ? '*' : ''}`);

async function goLive(listingId: number): Promise<void> {
  await t.store.db
    .updateTable('listings')
    .set({ status: 'live', plan: 'paid', launched_at: new Date().toISOString() })
    .where('id', '=', listingId)
    .execute();
}

test("re-submitting after the listing went live goes through the listing-edit path and keeps the maker's later edit", async () => {
  const s = await site();
  const id = await readyDraft(maker.auth, s.origin + '/');
  const first = await api('POST', `/drafts/${id}/submit`, maker.auth);
  assert.equal(first.statusCode, 200, first.body);
  assert.deepEqual(
    { ...(first.json() as object), listing_id: 0, slug: '' },
    {
      listing_id: 0,
      slug: '',
      status: 'draft',
      draft_id: id,
      created: true,
      version_id: null,
      changed_fields: [],
      kept_fields: [],
    },
  );
  const listingId: number = first.json().listing_id;
  await goLive(listingId);
  // A paid extra category, bought with an order: never the draft's to remove.
  const analytics = await t.store.db
    .selectFrom('categories')
    .select('id')
    .where('slug', '=', 'analytics')
    .executeTakeFirstOrThrow();
  await t.store.db
    .insertInto('listing_categories')
    .values({ listing_id: listingId, category_id: analytics.id, is_primary: false })
    .execute();
  const live = await row(listingId);

  // The maker edits the tagline on the listing.
  const edit = await api('PATCH', `/me/listings/${listingId}`, maker.auth, {
    fields: { tagline: 'Edited on the listing page' },
  });
  assert.equal(edit.statusCode, 200, edit.body);
  assert.equal((await versions(listingId)).length, 1);

  // Re-submitting the unchanged draft changes nothing: the live name, logo and the edited tagline stay.
  const again = await api('POST', `/drafts/${id}/submit`, maker.auth);
  assert.equal(again.statusCode, 200, again.body);
  assert.equal(again.json().listing_id, listingId);
  assert.equal(again.json().created, false);
  assert.equal(again.json().version_id, null);
  assert.deepEqual(again.json().changed_fields, []);
  assert.deepEqual(again.json().kept_fields, ['tagline']);
  let l = await row(listingId);
  assert.equal(l.tagline, 'Edited on the listing page');
  assert.equal(l.name, live.name);
  assert.equal(l.status, 'live');
  assert.equal((await versions(listingId)).length, 1, 'nothing changed: no version row');

  // What the maker changes in the draft reaches the live listing as an edit: a version row, not yet
  // reviewed (the site team's edit review), with before and after; the edited tagline is kept.
  const logo = 'https://cdn.example/acme-logo.png';
  const patched = await api('PATCH', `/drafts/${id}`, maker.auth, {
    fields: { name: 'Acme Notes Pro', logo_url: logo, categories: ['developer-tools'] },
  });
  assert.equal(patched.statusCode, 200, patched.body);
  l = await row(listingId);
  assert.deepEqual([l.name, l.logo_url, l.tagline], ['Acme Notes Pro', logo, 'Edited on the listing page']);
  assert.deepEqual(await categoriesOf(listingId), ['analytics', 'developer-tools*'], 'the paid extra category stays');
  const vs = await versions(listingId);
  assert.equal(vs.length, 2);
  const v = vs[1];
  assert.equal(v.user_id, maker.id);
  assert.equal(v.reviewed_at, null, 'in the review queue');
  assert.deepEqual(JSON.parse(v.before), { name: 'Acme Notes', logo_url: null, primary_category: 'productivity' });
  assert.deepEqual(JSON.parse(v.after), {
    name: 'Acme Notes Pro',
    logo_url: logo,
    primary_category: 'developer-tools',
  });

  // Submitting again proposes nothing more; the listing's own tagline is still named as kept.
  const third = (await api('POST', `/drafts/${id}/submit`, maker.auth)).json();
  assert.deepEqual(
    [third.created, third.version_id, third.changed_fields, third.kept_fields],
    [false, null, [], ['tagline']],
  );
  assert.equal((await versions(listingId)).length, 2);

  // The explicit replacement: the tagline sent in update_draft replaces the listing's, as an edit too.
  const draftTagline = (await api('GET', `/drafts/${id}`, maker.auth)).json().fields.tagline.value;
  await api('PATCH', `/drafts/${id}`, maker.auth, { fields: { tagline: draftTagline } });
  assert.equal((await row(listingId)).tagline, draftTagline);
  const replaced = (await versions(listingId))[2];
  assert.deepEqual(JSON.parse(replaced.before), { tagline: 'Edited on the listing page' });
  assert.deepEqual(
    (await api('POST', `/drafts/${id}/submit`, maker.auth)).json().kept_fields,
    [],
    'the listing now shows the draft everywhere',
  );

  // The site team reverts the draft's edit: name, logo and primary category go back; the extra category stays.
  const admin = await makeUser(t.store.db);
  const out = await revertVersion(t.store.db, t.store.engine, v.id, admin.id, new Date().toISOString());
  assert.deepEqual(out?.restored.sort(), ['logo_url', 'name', 'primary_category']);
  l = await row(listingId);
  assert.deepEqual([l.name, l.logo_url], ['Acme Notes', null]);
  assert.deepEqual(await categoriesOf(listingId), ['analytics', 'productivity*']);
});

test('a new draft of a website the maker already listed goes to that listing as a reviewed edit of what the maker set by hand', async () => {
  const s = await site('Beacon Notes');
  const first = await readyDraft(maker.auth, s.origin + '/');
  const listingId: number = (await api('POST', `/drafts/${first}/submit`, maker.auth)).json().listing_id;
  await goLive(listingId);
  await api('PATCH', `/me/listings/${listingId}`, maker.auth, { fields: { tagline: 'The tagline the maker wrote' } });
  const before = await row(listingId);

  // The maker starts again from the website (written without the trailing slash: the same site).
  const second = await readyDraft(maker.auth, s.origin);
  await api('PATCH', `/drafts/${second}`, maker.auth, { fields: { name: 'Beacon Notes 2', city: 'Lisbon' } });
  const res = await api('POST', `/drafts/${second}/submit`, maker.auth);
  assert.equal(res.statusCode, 200, res.body);
  const out = res.json();
  assert.equal(out.listing_id, listingId);
  assert.equal(out.slug, before.slug);
  assert.equal(out.created, false);
  assert.deepEqual(out.changed_fields, ['name', 'city']);
  assert.deepEqual(out.kept_fields, ['tagline'], "the AI's tagline does not replace the maker's");
  const l = await row(listingId);
  assert.deepEqual([l.name, l.city, l.tagline], ['Beacon Notes 2', 'Lisbon', 'The tagline the maker wrote']);
  const v = (await versions(listingId)).at(-1)!;
  assert.equal(v.id, out.version_id);
  assert.equal(v.reviewed_at, null);
  assert.deepEqual(JSON.parse(v.after), { name: 'Beacon Notes 2', city: 'Lisbon' });
  assert.equal((await api('GET', `/drafts/${second}`, maker.auth)).json().listing_id, listingId);
  // The site team's edit review says where the edit came from: the draft, not a hand edit on the listing.
  assert.equal(v.draft_id, second);
  const hand = (await versions(listingId)).find((x) => JSON.parse(x.after).tagline === 'The tagline the maker wrote');
  assert.equal(hand?.draft_id, null);
  const admin = await makeAdmin(t.store, { role: 'admin' });
  const { token } = await createSession(t.store.db, admin.id);
  const review = cheerio.load(
    (await t.app.inject({ method: 'GET', url: '/admin/edits', headers: { cookie: `ll_session=${token}` } })).body,
  );
  assert.match(review(`#edit-${v.id} .from-draft`).text(), new RegExp(`Edit #${v.id} from draft ${second}`));
  assert.equal(review(`#edit-${hand?.id} .from-draft`).length, 0, 'a hand edit is not labelled as a draft');
  assert.equal(
    (await t.store.db.selectFrom('listings').select('id').where('owner_id', '=', maker.id).execute()).length,
    2,
    'no second listing of the site (the other listing is the first test’s)',
  );
});

test('a website another person has publicly listed is refused with 409 naming the listing and how to claim it', async () => {
  const owned = await listing(t.store.db, { slug: 'dupe-co', name: 'Dupe Co', category: 'productivity' });
  await listing(t.store.db, {
    slug: 'alice-pages',
    name: 'Alice Pages',
    category: 'productivity',
    domain: 'alice.github.io',
    url: 'https://alice.github.io/',
  });
  await listing(t.store.db, {
    slug: 'hidden-co',
    name: 'Hidden Co',
    category: 'productivity',
    status: 'draft',
  });
  for (const url of [
    'https://dupe-co.example/',
    'dupe-co.example',
    'https://WWW.Dupe-Co.example/index.html?ref=x#top',
    'http://app.dupe-co.example/',
    'https://alice.github.io',
  ]) {
    const res = await api('POST', '/drafts', rival.auth, { url });
    assert.equal(res.statusCode, 409, `${url}: ${res.body}`);
    const e = res.json().error;
    assert.equal(e.code, 'conflict');
    const slug = url.includes('alice') ? 'alice-pages' : 'dupe-co';
    assert.match(e.message, new RegExp(`already listed as .*/listings/${slug}\\b.*claim_listing with slug "${slug}"`));
    assert.deepEqual(e.existing_listing, {
      slug,
      name: slug === 'dupe-co' ? 'Dupe Co' : 'Alice Pages',
      url: slug === 'dupe-co' ? 'https://dupe-co.example/' : 'https://alice.github.io/',
      page_url: `${t.url}/listings/${slug}`,
      claim: { operation: 'claim_listing', slug, page_url: `${t.url}/listings/${slug}/claim` },
    });
    assert.equal(e.details[0].path, 'body.url');
  }
  assert.ok(owned > 0);
  // Another path, another site under a private suffix, a listing that is not public: not duplicates.
  for (const url of [
    'https://dupe-co.example/another-product',
    'https://bob.github.io/',
    'https://hidden-co.example/',
  ]) {
    const res = await api('POST', '/drafts', rival.auth, { url });
    assert.equal(res.statusCode, 201, `${url}: ${res.body}`);
  }
  // The claim the error points to is open to the rival.
  const claim = await api('POST', '/claims', rival.auth, { slug: 'dupe-co', method: 'dns' });
  assert.equal(claim.statusCode, 201, claim.body);
});

test('submit_draft and choose_free_listing refuse a website that became listed meanwhile; the first published wins', async () => {
  const s = await site('Race Notes');
  const mine = await readyDraft(maker.auth, s.origin + '/');
  const theirs = await readyDraft(rival.auth, s.origin + '/');
  const mineOut = (await api('POST', `/drafts/${mine}/submit`, maker.auth)).json();
  // The maker's listing is saved, not public: it blocks nobody.
  const theirsOut = await api('POST', `/drafts/${theirs}/submit`, rival.auth);
  assert.equal(theirsOut.statusCode, 200, theirsOut.body);
  assert.equal(theirsOut.json().created, true);
  // The rival publishes first; the maker's free plan is refused, naming the rival's listing.
  const free = await api('POST', `/me/listings/${theirsOut.json().listing_id}/free`, rival.auth);
  assert.equal(free.statusCode, 200, free.body);
  const refused = await api('POST', `/me/listings/${mineOut.listing_id}/free`, maker.auth);
  assert.equal(refused.statusCode, 409, refused.body);
  assert.equal(refused.json().error.existing_listing.slug, theirsOut.json().slug);
  assert.equal((await row(mineOut.listing_id)).status, 'draft');
  // … and so is a paid launch of it (quote, checkout, and again at payment).
  const quote = await api('POST', '/orders/quote', maker.auth, {
    items: [{ product: 'launch', listing_id: mineOut.listing_id }],
  });
  assert.equal(quote.statusCode, 400, quote.body);
  assert.equal(quote.json().error.details[0].path, 'body.items.0.listing_id');
  assert.match(
    quote.json().error.details[0].message,
    new RegExp(`already listed as .*/listings/${theirsOut.json().slug}.*claim_listing`),
  );

  // A third person's draft of the site, made while nothing was public, is refused at submit.
  const third = await makeUser(t.store.db);
  const s2 = await site('Later Notes');
  const late = await readyDraft(third.auth, s2.origin + '/');
  const early = await readyDraft(maker.auth, s2.origin + '/');
  const earlyOut = (await api('POST', `/drafts/${early}/submit`, maker.auth)).json();
  await goLive(earlyOut.listing_id);
  const lateOut = await api('POST', `/drafts/${late}/submit`, third.auth);
  assert.equal(lateOut.statusCode, 409, lateOut.body);
  assert.equal(lateOut.json().error.existing_listing.slug, earlyOut.slug);
  assert.match(lateOut.json().error.message, /claim_listing/);
  assert.equal((await api('GET', `/drafts/${late}`, third.auth)).json().listing_id, null);
});

test('a website being published by one person makes another person publishing it wait, then be refused', async () => {
  const s = await site('Same Moment Notes');
  const mine = await readyDraft(maker.auth, s.origin + '/');
  const theirs = await readyDraft(rival.auth, s.origin + '/');
  const mineOut = (await api('POST', `/drafts/${mine}/submit`, maker.auth)).json();
  const theirsOut = (await api('POST', `/drafts/${theirs}/submit`, rival.auth)).json();
  // The maker's publication is under way (its transaction holds the site's lock and has not committed) …
  const publishing = await t.store.db.startTransaction().execute();
  await lockSite(publishing, t.store.engine, s.origin + '/');
  await publishing
    .updateTable('listings')
    .set({ plan: 'free', status: 'awaiting_badge', launch_week: '2099-01-05' })
    .where('id', '=', mineOut.listing_id)
    .execute();
  // … when the rival publishes theirs: it waits for the maker's to end instead of reading it as unpublished.
  let answered = false;
  const rivals = api('POST', `/me/listings/${theirsOut.listing_id}/free`, rival.auth).then((r) => {
    answered = true;
    return r;
  });
  try {
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(answered, false, 'the second publication did not wait for the first');
  } finally {
    await publishing.commit().execute();
  }
  const refused = await rivals;
  assert.equal(refused.statusCode, 409, refused.body);
  assert.equal(refused.json().error.existing_listing.slug, mineOut.slug);
  assert.equal((await row(theirsOut.listing_id)).status, 'draft');
});

test('MCP: submit_listing of a listed website is a tool error whose message names the listing and claim_listing', async () => {
  const key = (await import('../../src/auth/api-keys.ts')).createApiKey;
  const { key: token } = await key(t.store.db, rival.id, 'mcp', ['account:read', 'listings:write']);
  const client = await connect(t.url, ERAS[0], token);
  try {
    const r = await client.callTool({ name: 'submit_listing', arguments: { url: 'https://www.dupe-co.example/' } });
    assert.equal(r.isError, true);
    const text = (r.content as Array<{ type: string; text: string }>)[0].text;
    const body = JSON.parse(text);
    assert.equal(body.error.code, 'conflict');
    assert.match(body.error.message, /already listed as "Dupe Co".*\/listings\/dupe-co.*claim_listing/);
    assert.equal(body.error.existing_listing.claim.slug, 'dupe-co');
  } finally {
    await client.close();
  }
});
