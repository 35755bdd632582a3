// The maker's side of the website, for a person signed in with a session cookie: /submit starts a
// draft from a website (a small site on loopback, read through the real crawler) → /drafts/{id}
// reloads itself while the site is read, then shows every field with its state, its quotes and a
// lock; saving sends update_draft only what changed, a refused value is a 400 page naming the field
// with nothing saved; "Save as my listing" → /my/listings/{id}: publish free, buy a launch (→ our
// checkout page), post an update; a claim from a listing page → instructions → "Check now". Signed
// out → sign-in; another person's records → 404; every form needs its CSRF token.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Browser, csrfOf, $ } from '../auth/browser.ts';
import { liveApp, makeUser, type LiveApp } from '../auth/helpers.ts';
import { serveSite, productSite, html as sitePage, type Site } from '../jobs/support/site.ts';
import { seedShop, ownListing } from '../api/orders-fixtures.ts';
import { listing } from '../support/listing-fixtures.ts';
import { createSession, SESSION_COOKIE } from '../../src/auth/sessions.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { drainJobs, jobHandlers } from '../../src/jobs/index.ts';
import { fmtDate } from '../../src/web/pages/shared.ts';
import type { User } from '../../src/auth/users.ts';

let t: LiveApp;
let site: Site; // the product's website, read by the crawler (127.0.0.1 is on FETCH_ALLOW_HOSTS)
let claimSite: Site; // the homepage of a listed product someone claims with a meta tag

before(async () => {
  site = await serveSite(productSite('Acme Notes'));
  claimSite = await serveSite({ '/': sitePage('<!doctype html><html><head><title>Meta Co</title></head><body><h1>Meta Co</h1></body></html>') });
  t = await liveApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' }, async ({ db }) => {
    await seedShop(db);
    await listing(db, { slug: 'meta-co', name: 'Meta Co', category: 'productivity', domain: '127.0.0.1', url: `${claimSite.origin}/`, launched_at: new Date().toISOString() });
  });
  t.server.deps.services.claims = { checkIntervalMs: 0 };
});
after(async () => {
  await t.cleanup();
  await site.close();
  await claimSite.close();
});

const drain = () => drainJobs(t.server.deps, jobHandlers);

/** A new person signed in with a session cookie, and an API key of theirs to look behind the pages. */
async function person(): Promise<{ b: Browser; user: User; api: (method: string, path: string) => Promise<any> }> {
  const user = await makeUser(t.store);
  const { token } = await createSession(t.store.db, user.id);
  const b = new Browser(t.base);
  b.cookies.push({ name: SESSION_COOKIE, value: token, path: '/', expires: Infinity });
  const key = (await createApiKey(t.store.db, user.id, 'test', ['account:read', 'listings:write', 'orders:write'])).key;
  const api = async (method: string, path: string) => (await fetch(`${t.base}/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}` } })).json();
  return { b, user, api };
}

/** The draft form as the page shows it (every control's value), with some fields changed (null: left out). */
async function draftForm(b: Browser, id: string, changes: Record<string, string | string[] | null> = {}): Promise<Record<string, string | string[]>> {
  const page = await b.go(`/drafts/${id}`);
  assert.equal(page.res.status, 200, page.text.slice(0, 300));
  const $p = $(page.text);
  const form: Record<string, string | string[]> = { _csrf: csrfOf(page.text, `/drafts/${id}`) };
  const add = (name: string, v: string) => { const cur = form[name]; form[name] = cur === undefined ? v : [...(Array.isArray(cur) ? cur : [cur]), v]; };
  $p('#draft-form input[type=text], #draft-form input[type=email], #draft-form input[type=url]').each((_, el) => { form[$p(el).attr('name')!] = $p(el).attr('value') ?? ''; });
  $p('#draft-form textarea').each((_, el) => { form[$p(el).attr('name')!] = $p(el).text(); });
  $p('#draft-form select').each((_, el) => { for (const o of $p(el).find('option[selected]').toArray()) add($p(el).attr('name')!, $p(o).attr('value') ?? ''); if (!$p(el).attr('multiple') && !$p(el).find('option[selected]').length) form[$p(el).attr('name')!] = ''; });
  $p('#draft-form input[type=checkbox][checked]:not([disabled])').each((_, el) => add($p(el).attr('name')!, $p(el).attr('value')!));
  for (const [k, v] of Object.entries(changes)) { if (v === null) delete form[k]; else form[k] = v; }
  return form;
}

const stateOf = (text: string, field: string) => $(text)(`#f-${field} .state`).attr('data-state');

/** Submits a product through /submit and lets the worker read the site: the ready draft's id. */
async function readyDraft(b: Browser): Promise<string> {
  const page = await b.go('/submit');
  const res = await b.request('/submit', { form: { _csrf: csrfOf(page.text, '/submit'), url: site.origin + '/' } });
  assert.equal(res.status, 303);
  const id = res.headers.get('location')!.split('/').pop()!;
  await drain();
  return id;
}

test('signed out: every maker page sends the person to sign in and back; posts change nothing; the header offers "Submit a product"', async () => {
  const anon = new Browser(t.base);
  for (const path of ['/submit']) {
    const r = await anon.request(path);
    assert.equal(r.status, 303, path);
    assert.equal(r.headers.get('location'), `/sign-in?next=${encodeURIComponent(path)}`, path);
  }
  const post = await anon.request('/submit', { form: { url: site.origin + '/' } });
  assert.equal(post.status, 303);
  assert.equal(post.headers.get('location'), '/sign-in?next=%2Fsubmit');
  assert.equal(await t.store.db.selectFrom('drafts').select('id').executeTakeFirst(), undefined, 'no draft was started');

  const home = $((await anon.go('/')).text);
  assert.equal(home('header.site a:contains("Submit a product")').attr('href'), '/sign-in?next=%2Fsubmit');
  const { b } = await person();
  const signedIn = $((await b.go('/')).text);
  assert.equal(signedIn('header.site a:contains("Submit a product")').attr('href'), '/submit');
});

test('submit a website: the draft is started and the person is sent to its page; the form is private and not indexed', async () => {
  const { b, api } = await person();
  const form = await b.go('/submit');
  assert.equal(form.res.status, 200);
  assert.equal(form.res.headers.get('cache-control'), 'private, no-store');
  assert.equal($(form.text)('meta[name=robots]').attr('content'), 'noindex');
  const res = await b.request('/submit', { form: { _csrf: csrfOf(form.text, '/submit'), url: site.origin + '/' } });
  assert.equal(res.status, 303);
  const drafts = await api('GET', '/drafts');
  assert.equal(drafts.total, 1);
  assert.equal(drafts.items[0].url, site.origin + '/');
  assert.equal(res.headers.get('location'), `/drafts/${drafts.items[0].id}`);
});

test('a website address the operation refuses is shown by the field (400) and starts nothing', async () => {
  const { b, api } = await person();
  const page = await b.go('/submit');
  const bad = await b.go('/submit', { form: { _csrf: csrfOf(page.text, '/submit'), url: 'not-a-url' } });
  assert.equal(bad.res.status, 400);
  const $b = $(bad.text);
  assert.match($b('#submit-url-error').text(), /not a domain name/);
  assert.equal($b('#submit-url').attr('aria-invalid'), 'true');
  assert.equal($b('#submit-url').attr('value'), 'not-a-url', 'what was typed stays in the field');
  assert.equal((await api('GET', '/drafts')).total, 0);
});

test('the submit form is refused without its CSRF token and starts nothing', async () => {
  const { b, api } = await person();
  assert.equal((await b.go('/submit', { form: { url: site.origin + '/' } })).res.status, 403);
  assert.equal((await api('GET', '/drafts')).total, 0);
});
