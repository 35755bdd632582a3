// Issue #19 item 8 on the website, on the engine of this run: the submit form refuses a website that is
// already listed with a link to the listing and to its claim page; the draft page's "Save as my listing"
// shows the same refusal, and after a resubmission onto a live listing it says what changed and what the
// listing kept.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as cheerio from 'cheerio';
import { testApp, type TestApp } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { makeUser } from '../auth/helpers.ts';
import { createSession } from '../../src/auth/sessions.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { serveSite, productSite, type Site } from '../jobs/support/site.ts';
import { testDrafter } from '../jobs/support/drafter.ts';
import { drainJobs, jobHandlers } from '../../src/jobs/index.ts';
import { RobotsCache } from '../../src/drafting/crawler/robots.ts';

let t: TestApp;
const sites: Site[] = [];

interface Person {
  id: number;
  cookie: string;
  csrf: string;
  auth: { authorization: string };
}

async function person(): Promise<Person> {
  const u = await makeUser(t.store);
  const { token, session } = await createSession(t.store.db, u.id);
  const { key } = await createApiKey(t.store.db, u.id, 'test', ['account:read', 'listings:write']);
  return { id: u.id, cookie: `ll_session=${token}`, csrf: session.csrf, auth: { authorization: `Bearer ${key}` } };
}

const page = (url: string, p: Person) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', cookie: p.cookie } });
const post = (url: string, form: Record<string, string>, p: Person) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie: p.cookie },
    payload: new URLSearchParams({ _csrf: p.csrf, ...form }).toString(),
  });
const api = (method: 'GET' | 'POST' | 'PATCH', url: string, p: Person, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: p.auth,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

async function readyDraft(p: Person, url: string): Promise<string> {
  const res = await api('POST', '/drafts', p, { url });
  assert.equal(res.statusCode, 201, res.body);
  await drainJobs(t.server.deps, jobHandlers);
  const id = res.json().id;
  assert.equal((await api('PATCH', `/drafts/${id}`, p, { fields: { categories: ['tools'] } })).statusCode, 200);
  return id;
}

before(async () => {
  t = await testApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' });
  await category(t.store.db, 'tools');
  await listing(t.store.db, { slug: 'dupe-web', name: 'Dupe <Web>', category: 'tools' });
  t.server.deps.services.drafting = { drafter: testDrafter().drafter, crawl: { robots: new RobotsCache() } };
});
after(async () => {
  for (const s of sites) await s.close();
  await t.cleanup();
});

test('the submit form refuses a listed website with links to the listing and its claim page', async () => {
  const p = await person();
  const res = await post('/submit', { url: 'https://www.dupe-web.example/' }, p);
  assert.equal(res.statusCode, 409);
  const $ = cheerio.load(res.body);
  const alert = $('#form-problems');
  assert.equal(alert.attr('role'), 'alert');
  assert.match(alert.text(), /already listed as "Dupe <Web>"/);
  assert.equal($('#existing-listing-link').attr('href'), '/listings/dupe-web');
  assert.equal($('#existing-listing-link').text(), 'Dupe <Web>');
  assert.equal($('#existing-listing-claim').attr('href'), '/listings/dupe-web/claim');
  assert.match($('#existing-listing').text(), /claim that listing/);
  // The address stays in the field, marked as the one at fault.
  assert.equal($('#submit-url').attr('value'), 'https://www.dupe-web.example/');
  assert.equal($('#submit-url').attr('aria-invalid'), 'true');
  assert.match($('#submit-url-error').text(), /already listed as "Dupe <Web>" \(\/listings\/dupe-web\)/);
  // The claim page it links to is there for the person.
  assert.equal((await page('/listings/dupe-web/claim', p)).statusCode, 200);
  // Nothing was drafted.
  assert.equal((await t.store.db.selectFrom('drafts').select('id').where('user_id', '=', p.id).execute()).length, 0);
  // Another website is accepted as before.
  const ok = await post('/submit', { url: 'https://not-listed-yet.example/' }, p);
  assert.equal(ok.statusCode, 303);
});

test('"Save as my listing" refuses a website listed meanwhile, and after a resubmission says what the listing kept', async () => {
  const s = await serveSite(productSite('Web Notes'));
  sites.push(s);
  const maker = await person();
  const late = await person();
  const lateDraft = await readyDraft(late, s.origin + '/');
  const draft = await readyDraft(maker, s.origin + '/');
  const saved = await post(`/drafts/${draft}`, { action: 'submit' }, maker);
  assert.equal(saved.statusCode, 303);
  const listingId = Number(/\/my\/listings\/(\d+)\?notice=saved$/.exec(saved.headers.location as string)?.[1]);
  assert.ok(listingId > 0, String(saved.headers.location));
  const { slug } = await t.store.db
    .selectFrom('listings')
    .select('slug')
    .where('id', '=', listingId)
    .executeTakeFirstOrThrow();
  await t.store.db.updateTable('listings').set({ status: 'live', plan: 'paid' }).where('id', '=', listingId).execute();

  // The other person's draft of the same site can no longer become a listing.
  const refused = await post(`/drafts/${lateDraft}`, { action: 'submit' }, late);
  assert.equal(refused.statusCode, 409);
  const $r = cheerio.load(refused.body);
  assert.equal($r('#existing-listing-link').attr('href'), `/listings/${slug}`);
  assert.equal($r('#existing-listing-claim').attr('href'), `/listings/${slug}/claim`);

  // The maker edits the tagline on the listing, then saves the draft again: the tagline is kept, and said so.
  const edit = await api('PATCH', `/me/listings/${listingId}`, maker, {
    fields: { tagline: 'Written on the listing' },
  });
  assert.equal(edit.statusCode, 200);
  const again = await post(`/drafts/${draft}`, { action: 'submit' }, maker);
  assert.equal(again.statusCode, 303);
  assert.equal(again.headers.location, `/my/listings/${listingId}?notice=resubmitted&kept=tagline`);
  const shown = cheerio.load((await page(again.headers.location as string, maker)).body);
  const flash = shown('.flash').text();
  assert.match(flash, /nothing in it changed since it last reached the listing/);
  assert.match(flash, /keeps its own tagline/);
  assert.equal(
    (await t.store.db.selectFrom('listings').select('tagline').where('id', '=', listingId).executeTakeFirstOrThrow())
      .tagline,
    'Written on the listing',
  );
});
