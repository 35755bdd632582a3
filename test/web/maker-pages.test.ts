// The maker's side of the website, for a person signed in with a session cookie: /submit starts a
// draft from a website (a small site on loopback, read through the real crawler) → /drafts/{id}
// reloads itself while the site is read, then shows every field with its state, its quotes and a
// lock; saving sends update_draft only what changed, a refused value is a 400 page naming the field
// with nothing saved; "Save as my listing" → /my/listings/{id}: publish free, buy a launch (→ our
// checkout page), post an update; a claim from a listing page → instructions → "Check now". Signed
// out → sign-in; another person's records → 404; every form needs its CSRF token. "Redraft from the
// website" sends update_draft `regenerate` (at most 5 fields; a locked one is not offered).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Browser, csrfOf, $ } from '../auth/browser.ts';
import { liveApp, type LiveApp } from '../auth/helpers.ts';
import { serveSite, productSite, html as sitePage, type Site } from '../jobs/support/site.ts';
import { seedShop, ownListing } from '../api/orders-fixtures.ts';
import { listing } from '../support/listing-fixtures.ts';
import { drainJobs, jobHandlers } from '../../src/jobs/index.ts';
import { fmtDate } from '../../src/web/pages/shared.ts';
import { parseRobots } from '../../src/drafting/crawler/robots.ts';
import { draftFromSite, signedInPerson } from './maker-support.ts';
import { testDrafter, type TestDrafter } from '../jobs/support/drafter.ts';

let t: LiveApp;
let site: Site; // the product's website, read by the crawler (127.0.0.1 is on FETCH_ALLOW_HOSTS)
let claimSite: Site; // the homepage of a listed product someone claims with a meta tag

before(async () => {
  site = await serveSite(productSite('Acme Notes'));
  claimSite = await serveSite({
    '/': sitePage('<!doctype html><html><head><title>Meta Co</title></head><body><h1>Meta Co</h1></body></html>'),
  });
  t = await liveApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' }, async ({ db }) => {
    await seedShop(db);
    await listing(db, {
      slug: 'meta-co',
      name: 'Meta Co',
      category: 'productivity',
      domain: '127.0.0.1',
      url: `${claimSite.origin}/`,
      launched_at: new Date().toISOString(),
    });
  });
  t.server.deps.services.claims = { checkIntervalMs: 0 };
});
after(async () => {
  await t.cleanup();
  await site.close();
  await claimSite.close();
});

const drain = () => drainJobs(t.server.deps, jobHandlers);

const person = () => signedInPerson(t);

/** The draft form as the page shows it (every control's value), with some fields changed (null: left out). */
async function draftForm(
  b: Browser,
  id: string,
  changes: Record<string, string | string[] | null> = {},
): Promise<Record<string, string | string[]>> {
  const page = await b.go(`/drafts/${id}`);
  assert.equal(page.res.status, 200, page.text.slice(0, 300));
  const $p = $(page.text);
  const form: Record<string, string | string[]> = { _csrf: csrfOf(page.text, `/drafts/${id}`) };
  const add = (name: string, v: string) => {
    const cur = form[name];
    form[name] = cur === undefined ? v : [...(Array.isArray(cur) ? cur : [cur]), v];
  };
  $p('#draft-form input[type=text], #draft-form input[type=email], #draft-form input[type=url]').each((_, el) => {
    form[$p(el).attr('name')!] = $p(el).attr('value') ?? '';
  });
  $p('#draft-form textarea').each((_, el) => {
    form[$p(el).attr('name')!] = $p(el).text();
  });
  $p('#draft-form select').each((_, el) => {
    for (const o of $p(el).find('option[selected]').toArray()) add($p(el).attr('name')!, $p(o).attr('value') ?? '');
    if (!$p(el).attr('multiple') && !$p(el).find('option[selected]').length) form[$p(el).attr('name')!] = '';
  });
  $p('#draft-form input[type=checkbox][checked]:not([disabled])').each((_, el) =>
    add($p(el).attr('name')!, $p(el).attr('value')!),
  );
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete form[k];
    else form[k] = v;
  }
  return form;
}

const stateOf = (text: string, field: string) => $(text)(`#f-${field} .state`).attr('data-state');

/** Submits a product through /submit and lets the worker read the site: the ready draft's id. */
const readyDraft = (b: Browser): Promise<string> => draftFromSite(t, b, site.origin + '/');

test('signed out: every maker page sends the person to sign in and back; posts change nothing; the header offers "Submit a product"', async () => {
  const anon = new Browser(t.base);
  const uuid = '00000000-0000-4000-8000-000000000000';
  for (const path of [
    '/submit',
    '/drafts',
    `/drafts/${uuid}`,
    '/my/listings',
    '/my/listings/1',
    '/claims',
    '/claims/1',
    '/listings/meta-co/claim',
  ]) {
    const r = await anon.request(path);
    assert.equal(r.status, 303, path);
    assert.equal(r.headers.get('location'), `/sign-in?next=${encodeURIComponent(path)}`, path);
  }
  const post = await anon.request('/submit', { form: { url: site.origin + '/' } });
  assert.equal(post.status, 303);
  assert.equal(post.headers.get('location'), '/sign-in?next=%2Fsubmit');
  assert.equal(
    await t.store.db.selectFrom('drafts').select('id').executeTakeFirst(),
    undefined,
    'no draft was started',
  );

  const home = $((await anon.go('/')).text);
  assert.equal(home('header.site a:contains("Submit a product")').attr('href'), '/sign-in?next=%2Fsubmit');
  const { b } = await person();
  const signedIn = $((await b.go('/')).text);
  assert.equal(signedIn('header.site a:contains("Submit a product")').attr('href'), '/submit');
});

test('submit a website: the draft page says it is being read and reloads itself; once ready every field shows its state and the quotes it came from', async () => {
  const { b } = await person();
  const form = await b.go('/submit');
  assert.equal(form.res.status, 200);
  assert.equal(form.res.headers.get('cache-control'), 'private, no-store');
  assert.equal($(form.text)('meta[name=robots]').attr('content'), 'noindex');

  const res = await b.request('/submit', { form: { _csrf: csrfOf(form.text, '/submit'), url: site.origin + '/' } });
  assert.equal(res.status, 303);
  const loc = res.headers.get('location')!;
  assert.match(loc, /^\/drafts\/[0-9a-f-]{36}$/);

  const reading = await b.go(loc);
  assert.equal(reading.res.status, 200);
  const $r = $(reading.text);
  assert.equal($r('meta[http-equiv=refresh]').attr('content'), '3', 'the page reloads itself while the site is read');
  assert.match($r('#draft-progress').text(), /reading your website/);
  assert.equal($r('#draft-form').length, 0, 'no form before the draft is ready');
  // The person can stop the reloading (a time limit they can turn off), and look again by hand.
  const still = $((await b.go($r('#refresh-toggle').attr('href')!)).text);
  assert.equal(still('meta[http-equiv=refresh]').length, 0);
  assert.match(still('#draft-progress').text(), /reading your website/);
  assert.equal(still('#refresh-toggle').attr('href'), `${loc}?refresh=off`);

  await drain();
  const ready = await b.go(loc);
  const $d = $(ready.text);
  assert.equal($d('meta[http-equiv=refresh]').length, 0, 'a ready draft no longer reloads');
  assert.equal($d('#d-name').attr('value'), 'Acme Notes');
  assert.equal(stateOf(ready.text, 'name'), 'ai');
  assert.match($d('#f-name .state').text(), /Drafted from your site/);
  assert.equal($d('#f-name .evidence q').first().text(), 'Acme Notes');
  assert.equal($d('#f-name .evidence a').attr('href'), site.origin + '/');
  assert.equal(
    $d('#f-pricing_summary .evidence a').attr('href'),
    site.origin + '/pricing',
    'a quote links to the page it came from',
  );
  assert.match($d('#f-pricing_summary .evidence q').text(), /Team plan \$8 per user per month/);
  assert.equal(
    $d('#d-features').text(),
    'Shared notebooks\nOffline sync\nEnd-to-end encryption',
    'a list, one item a line',
  );
  assert.equal(stateOf(ready.text, 'contact_email'), 'not_found');
  assert.match($d('#f-contact_email .state').text(), /Not found on your site/);
  assert.equal($d('#f-contact_email .evidence').length, 0);
  assert.equal($d('#draft-form .draft-field').length, 18, 'every profile field of the draft');
  assert.ok(
    $d('#d-categories option')
      .toArray()
      .some((o) => $d(o).text() === 'Productivity'),
    'categories from list_categories',
  );
  assert.equal($d('#draft-form input[name=lock][value=tagline]').length, 1, 'a lock per field');

  const list = $((await b.go('/drafts')).text);
  assert.equal(list(`a[href="${loc}"]`).text(), 'Acme Notes');
  assert.equal(list('td .state').first().attr('data-state'), 'ready');
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

test('saving sends only the fields changed: an edit shows "edited", the others keep their state; lock and restore', async () => {
  const { b, api } = await person();
  const id = await readyDraft(b);
  const saved = await b.request(`/drafts/${id}`, {
    form: await draftForm(b, id, { tagline: 'Our own words <b>bold</b>', lock: 'features', action: 'save' }),
  });
  assert.equal(saved.status, 303);
  assert.equal(saved.headers.get('location'), `/drafts/${id}?notice=saved`);
  for (const name of ['constructor', '__proto__'])
    assert.equal(
      $((await b.go(`/drafts/${id}?notice=${name}`)).text)('.flash').length,
      0,
      `?notice=${name} names no message (it was an empty box)`,
    );
  const page = await b.go(`/drafts/${id}?notice=saved`);
  const $p = $(page.text);
  assert.equal(stateOf(page.text, 'tagline'), 'edited');
  assert.match($p('#f-tagline .state').text(), /Edited by you/);
  assert.equal($p('#d-tagline').attr('value'), 'Our own words <b>bold</b>', 'typed text is shown as text');
  assert.ok(!page.text.includes('<b>bold</b>'), 'and never as markup');
  assert.equal(stateOf(page.text, 'name'), 'ai', 'fields left alone were not sent');
  assert.equal(stateOf(page.text, 'features'), 'override');
  assert.equal($p('#f-features input[name=lock]').attr('checked'), 'checked');
  assert.match($p('.flash.success').text(), /saved/);
  const d = await api('GET', `/drafts/${id}`);
  assert.equal(d.fields.tagline.value, 'Our own words <b>bold</b>');
  assert.equal(d.fields.name.state, 'ai');

  // An emptied field is sent as null: removed.
  await b.request(`/drafts/${id}`, { form: await draftForm(b, id, { short_description: '' }) });
  assert.equal((await api('GET', `/drafts/${id}`)).fields.short_description.state, 'deleted');

  // "Restore the drafted value" brings back the AI's value.
  const restored = await b.request(`/drafts/${id}`, { form: await draftForm(b, id, { restore: 'tagline' }) });
  assert.equal(restored.headers.get('location'), `/drafts/${id}?notice=restored`);
  const after = await api('GET', `/drafts/${id}`);
  assert.equal(after.fields.tagline.state, 'ai');
  assert.match(after.fields.tagline.value, /keeps your team's notes/);
  assert.equal(after.fields.short_description.state, 'deleted', 'restoring one field leaves the others');
});

test('a value the operation refuses: 400, the message by the field it names, what was typed kept, nothing saved', async () => {
  const { b, api } = await person();
  const id = await readyDraft(b);
  const before = await api('GET', `/drafts/${id}`);

  const bad = await b.go(`/drafts/${id}`, {
    form: await draftForm(b, id, { tagline: 'A new tagline', contact_email: 'nope', action: 'save' }),
  });
  assert.equal(bad.res.status, 400);
  const $b = $(bad.text);
  assert.match($b('#d-contact_email-error').text(), /email/i);
  assert.equal($b('#d-contact_email').attr('aria-invalid'), 'true');
  assert.equal($b('#d-contact_email').attr('value'), 'nope');
  assert.equal($b('#d-tagline').attr('value'), 'A new tagline', 'the other edits stay on the form');
  assert.match($b('#form-problems').text(), /Nothing was saved/);
  assert.equal($b('#form-problems a[href="#d-contact_email"]').text(), 'Contact email');

  const long = await b.go(`/drafts/${id}`, { form: await draftForm(b, id, { features: `Fine\n${'x'.repeat(201)}` }) });
  assert.equal(long.res.status, 400);
  assert.match($(long.text)('#d-features-error').text(), /200/);
  assert.equal($(long.text)('#form-problems a[href="#d-features"]').text(), 'Features');

  const now = await api('GET', `/drafts/${id}`);
  assert.deepEqual(now.fields, before.fields, 'nothing was saved');
});

/** Runs `fn` with the workflow tests' drafter (deterministic; `taglineSuffix` makes a redraft of the tagline differ), then puts the real one back. */
async function withTestDrafter(fn: (td: TestDrafter) => Promise<void>): Promise<void> {
  const services = t.server.deps.services;
  const prev = services.drafting;
  const td = testDrafter();
  services.drafting = { ...prev, drafter: td.drafter };
  try {
    await fn(td);
  } finally {
    services.drafting = prev;
  }
}

/** The regenerate form as the page shows it (its token and the fields ticked). */
async function regenForm(b: Browser, id: string, fields: string[]): Promise<Record<string, string | string[]>> {
  const page = await b.go(`/drafts/${id}`);
  return { _csrf: csrfOf(page.text, `/drafts/${id}/regenerate`), regenerate: fields };
}

test('"Redraft from the website": the ticked fields are drafted again from the site, what was typed in them replaced; a locked field is not offered', () =>
  withTestDrafter(async (td) => {
    const { b, api } = await person();
    const id = await readyDraft(b);
    // The person types a tagline and features and locks the name.
    await b.request(`/drafts/${id}`, {
      form: await draftForm(b, id, {
        tagline: 'Typed by me',
        features: 'Mine',
        name: 'My Name',
        lock: 'name',
        action: 'save',
      }),
    });
    const page = await b.go(`/drafts/${id}`);
    const $p = $(page.text);
    assert.equal(stateOf(page.text, 'tagline'), 'edited');
    assert.match($p('#regenerate-form legend').text(), /Redraft from your website/);
    assert.match($p('#regen-hint').text(), /up to 5 fields/);
    assert.equal($p('#regenerate-form input[name=regenerate]').length, 18, 'a checkbox a profile field');
    assert.equal(
      $p('#regenerate-form input[name=regenerate][value=name]').attr('disabled'),
      'disabled',
      'the locked field cannot be ticked',
    );
    assert.match($p('#regenerate-form input[value=name]').parent().text(), /locked/);
    assert.equal($p('#regenerate-form input[value=tagline]').attr('disabled'), undefined);

    td.taglineSuffix = ' (second draft)';
    const calls = td.calls.length;
    const res = await b.request(`/drafts/${id}/regenerate`, { form: await regenForm(b, id, ['tagline', 'features']) });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `/drafts/${id}?notice=regenerated`);
    assert.equal(td.calls.length, calls + 1);
    assert.deepEqual(td.calls.at(-1)!.fields, ['tagline', 'features'], 'only the ticked fields were asked for');

    const after = await b.go(res.headers.get('location')!);
    const $a = $(after.text);
    assert.match($a('.flash.success').text(), /redrafted from your website/);
    assert.equal(stateOf(after.text, 'tagline'), 'ai');
    assert.match($a('#f-tagline .state').text(), /Drafted from your site/);
    assert.equal(
      $a('#d-tagline').attr('value'),
      "Acme Notes keeps your team's notes in one place. (second draft)",
      'the new draft replaced what was typed',
    );
    assert.equal($a('#f-tagline .evidence q').text(), "Acme Notes keeps your team's notes in one place.");
    assert.equal($a('#d-features').text(), 'Shared notebooks\nOffline sync\nEnd-to-end encryption');
    assert.equal(stateOf(after.text, 'name'), 'override', 'the locked field is left as it is');
    assert.equal($a('#d-name').attr('value'), 'My Name');
    const d = await api('GET', `/drafts/${id}`);
    assert.equal(d.fields.tagline.state, 'ai');
    assert.equal(d.fields.tagline.value, "Acme Notes keeps your team's notes in one place. (second draft)");
    assert.equal(d.fields.features.state, 'ai');
  }));

test('"Redraft from the website" refused: more than 5 fields, none, or a locked one: the reason on the page, nothing redrafted', () =>
  withTestDrafter(async (td) => {
    const { b, api } = await person();
    const id = await readyDraft(b);
    await b.request(`/drafts/${id}`, {
      form: await draftForm(b, id, { tagline: 'Typed by me', lock: 'city', action: 'save' }),
    });
    const before = await api('GET', `/drafts/${id}`);
    const calls = td.calls.length;

    const six = ['tagline', 'short_description', 'description', 'features', 'usps', 'keywords'];
    const many = await b.go(`/drafts/${id}/regenerate`, { form: await regenForm(b, id, six) });
    assert.equal(many.res.status, 400);
    const $m = $(many.text);
    assert.match($m('#form-problems').text(), /Nothing was redrafted/);
    assert.match($m('#form-problems').text(), /at most 5 fields can be redrafted at once; you ticked 6/);
    assert.equal($m('#form-problems a[href="#regen-fields"]').text(), 'Fields to redraft');
    assert.match($m('#regen-fields-error').text(), /at most 5/, 'the message is by the checkboxes too');
    assert.deepEqual(
      $m('#regenerate-form input[name=regenerate][checked]')
        .map((_, el) => $m(el).attr('value'))
        .get(),
      six,
      'what was ticked stays ticked',
    );
    assert.equal($m('#d-tagline').attr('value'), 'Typed by me', 'the draft form shows the draft as it is');

    const none = await b.go(`/drafts/${id}/regenerate`, { form: await regenForm(b, id, []) });
    assert.equal(none.res.status, 400);
    assert.match($(none.text)('#regen-fields-error').text(), /tick the fields to redraft/);

    // A locked field (a page older than the lock, or a crafted post): the operation's 409, its reason shown.
    const locked = await b.go(`/drafts/${id}/regenerate`, { form: await regenForm(b, id, ['tagline', 'city']) });
    assert.equal(locked.res.status, 409);
    assert.match($(locked.text)('#form-problems').text(), /could not be done[\s\S]*city is locked/);

    assert.equal(td.calls.length, calls, 'the drafter was not asked');
    assert.deepEqual((await api('GET', `/drafts/${id}`)).fields, before.fields, 'nothing changed');
  }));

test('"Redraft from the website" signed out → sign-in; without its CSRF token → 403; either way nothing is redrafted', () =>
  withTestDrafter(async (td) => {
    const { b, api } = await person();
    const id = await readyDraft(b);
    await b.request(`/drafts/${id}`, { form: await draftForm(b, id, { tagline: 'Typed by me', action: 'save' }) });
    const calls = td.calls.length;
    const anon = new Browser(t.base);
    const out = await anon.request(`/drafts/${id}/regenerate`, { form: { regenerate: 'tagline' } });
    assert.equal(out.status, 303);
    assert.equal(out.headers.get('location'), `/sign-in?next=${encodeURIComponent(`/drafts/${id}`)}`);
    const noToken = await b.go(`/drafts/${id}/regenerate`, { form: { regenerate: 'tagline' } });
    assert.equal(noToken.res.status, 403);
    assert.match($(noToken.text)('h1').text(), /expired/);
    assert.equal(td.calls.length, calls);
    const d = await api('GET', `/drafts/${id}`);
    assert.equal(d.fields.tagline.value, 'Typed by me');
    assert.equal(d.fields.tagline.state, 'edited');
  }));

test("save as my listing: without a category the page says so by the field; with one → the listing's page", async () => {
  const { b, api } = await person();
  const id = await readyDraft(b);
  // The drafter may have chosen categories from the site (the classifier): the maker clears them.
  const none = await b.go(`/drafts/${id}`, {
    form: await draftForm(b, id, { category_primary: '', categories_more: '', action: 'submit' }),
  });
  assert.equal(none.res.status, 400);
  assert.match($(none.text)('#d-categories-error').text(), /primary category/);
  assert.equal((await api('GET', '/me/listings')).total, 0);

  const res = await b.request(`/drafts/${id}`, {
    form: await draftForm(b, id, { category_primary: 'Productivity', categories_more: 'Design', action: 'submit' }),
  });
  assert.equal(res.status, 303);
  const d = await api('GET', `/drafts/${id}`);
  assert.deepEqual(d.fields.categories.value, ['Productivity', 'Design'], 'the first chosen is the primary');
  assert.equal(res.headers.get('location'), `/my/listings/${d.listing_id}?notice=saved`);
  const page = await b.go(res.headers.get('location')!);
  const $l = $(page.text);
  assert.equal($l('h1').text(), 'Acme Notes');
  assert.equal($l('#listing-facts .state').attr('data-state'), 'draft');
  assert.match($l('.flash.success').text(), /Saved as your listing/);
  assert.equal($l('#badge-link').length, 0, 'a listing saved but not published has no badge page yet');
  assert.match(
    $l('#next-steps').text(),
    /"Publish free" below queues it for the launch week/,
    'the next steps, in terms of the page',
  );
  assert.doesNotMatch(
    $l('#next-steps').text(),
    /choose_free_listing|create_checkout|POST \//,
    'no API words on the page',
  );
  assert.equal(
    $l(`#edit a[href="/my/listings/${d.listing_id}/edit"]`).text(),
    'Edit the profile',
    'the listing is edited on the site',
  );
  const draftPage = $((await b.go(`/drafts/${id}`)).text);
  assert.equal(draftPage(`#draft-listing a[href="/my/listings/${d.listing_id}"]`).length, 1);
});

const stepsOf = (l: { next_steps: string[] }) => l.next_steps.join(' ');

test('publish free: the page names the week it gets; afterwards the listing waits for its badge in that week', async () => {
  const { b, user, api } = await person();
  const id = await ownListing(t.store.db, user.id, { slug: 'free-one', status: 'draft', plan: 'none' });
  const products = await api('GET', '/products');
  const page = await b.go(`/my/listings/${id}`);
  assert.equal(page.res.status, 200);
  assert.equal($(page.text)('#free-week').text(), `the week of ${fmtDate(products.free_queue_week)}`);
  assert.equal($(page.text)('#badge-link').length, 0, 'no badge page before it is published (it would be a 404)');
  assert.equal((await b.go('/listings/free-one/badges')).res.status, 404);
  const res = await b.request(`/my/listings/${id}/free`, {
    form: { _csrf: csrfOf(page.text, `/my/listings/${id}/free`) },
  });
  assert.equal(res.status, 303);
  const after = await b.go(res.headers.get('location')!);
  const $a = $(after.text);
  assert.match($a('.flash.success').text(), new RegExp(`queued for the week of ${fmtDate(products.free_queue_week)}`));
  assert.equal($a('#listing-facts .state').attr('data-state'), 'awaiting_badge');
  assert.equal($a(`#listing-facts a[href="/launches/weeks/${products.free_queue_week}"]`).length, 1);
  assert.equal($a('#free').length, 0, 'no second "Publish free"');
  assert.match(
    $a('#next-steps').text(),
    /copy the ready-to-paste HTML from your badge page .*\/listings\/free-one\/badges/,
    'what to do next: the badge',
  );
  assert.doesNotMatch($a('#next-steps').text(), /get_badges/);
  assert.match(stepsOf(await api('GET', `/me/listings/${id}`)), /get_badges/, 'the API still names its operations');
  const badges = await b.go($a('#badge-link').attr('href')!);
  assert.equal(badges.res.status, 200, 'waiting for its badge: the snippets are there');
  const l = await api('GET', `/me/listings/${id}`);
  assert.equal(l.plan, 'free');
  assert.equal(l.launch_week, products.free_queue_week);
});

test('buy a launch: the order is built and the person lands on its checkout page; a week not offered is refused by the field', async () => {
  const { b, user, api } = await person();
  const id = await ownListing(t.store.db, user.id, { slug: 'paid-one', status: 'draft', plan: 'none' });
  const page = await b.go(`/my/listings/${id}`);
  const weeks = $(page.text)('#launch-week option')
    .map((_, o) => $(page.text)(o).attr('value'))
    .get();
  assert.equal(weeks[0], '', 'live at once is the first choice');
  const week = weeks[2];
  const csrf = csrfOf(page.text, `/my/listings/${id}/launch`);

  const bad = await b.go(`/my/listings/${id}/launch`, { form: { _csrf: csrf, week: '2020-01-06' } });
  assert.equal(bad.res.status, 400);
  assert.match($(bad.text)('#launch-week-error').text(), /week/);
  assert.equal((await api('GET', '/orders')).total, 0, 'no order was built');

  const res = await b.request(`/my/listings/${id}/launch`, { form: { _csrf: csrf, week } });
  assert.equal(res.status, 303);
  const orders = await api('GET', '/orders');
  assert.equal(orders.total, 1);
  const order = orders.items[0];
  assert.equal(res.headers.get('location'), order.checkout_url);
  assert.deepEqual(
    order.lines.map((x: any) => [x.product, x.listing_id, x.week]),
    [['launch', id, week]],
  );
  const checkout = await b.go(new URL(order.checkout_url).pathname);
  assert.equal(checkout.res.status, 200);
  assert.match(checkout.text, new RegExp(order.number));
});

test('a form sent from an out-of-date page (the listing was bought since) is refused with the reason at the top, though its panel is gone', async () => {
  const { b, user, api } = await person();
  const id = await ownListing(t.store.db, user.id, { slug: 'bought-since', status: 'draft', plan: 'none' });
  const stale = await b.go(`/my/listings/${id}`);
  assert.equal($(stale.text)('#free').length, 1);
  await t.store.db
    .updateTable('listings')
    .set({ status: 'live', plan: 'paid', launched_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
  for (const [action, reason] of [
    ['free', /paid plan/],
    ['launch', /already on the paid plan/],
  ] as const) {
    const res = await b.go(`/my/listings/${id}/${action}`, {
      form: { _csrf: csrfOf(stale.text, `/my/listings/${id}/${action}`) },
    });
    assert.equal(res.res.status, action === 'free' ? 409 : 400, action);
    const $r = $(res.text);
    assert.equal($r(`#${action}`).length, 0, `no ${action} panel for a paid live listing`);
    assert.match($r('#form-problems').text(), reason, `the ${action} refusal is shown`);
  }
  assert.equal((await api('GET', '/orders')).total, 0, 'no order was built');
});

test('post an update: an empty title is refused by the field; a posted one shows on the page', async () => {
  const { b, user } = await person();
  const id = await ownListing(t.store.db, user.id, { slug: 'news-one', status: 'live', plan: 'paid' });
  const page = await b.go(`/my/listings/${id}`);
  const csrf = csrfOf(page.text, `/my/listings/${id}/updates`);
  assert.equal($(page.text)('#launch').length, 0, 'no launch to buy for a live listing');
  const bad = await b.go(`/my/listings/${id}/updates`, {
    form: { _csrf: csrf, title: '  ', body: 'We shipped dark mode.' },
  });
  assert.equal(bad.res.status, 400);
  assert.match($(bad.text)('#update-title-error').text(), /must not be empty/);
  assert.equal($(bad.text)('#update-body').text(), 'We shipped dark mode.');
  const ok = await b.go(`/my/listings/${id}/updates`, {
    form: { _csrf: csrf, title: 'Dark mode <i>is</i> here', body: 'We shipped dark mode.' },
  });
  assert.equal(ok.res.status, 200);
  assert.match(ok.url, /notice=update/);
  const $o = $(ok.text);
  assert.equal($o('#update .update h3').first().text(), 'Dark mode <i>is</i> here');
  assert.match($o('.flash.success').text(), /update is posted/);
});

test("another person's draft, listing or claim is the site's 404 page; forms without their CSRF token are refused and change nothing", async () => {
  const owner = await person();
  const other = await person();
  const id = await readyDraft(owner.b);
  const lid = await ownListing(t.store.db, owner.user.id, { slug: 'private-one', status: 'draft', plan: 'none' });
  for (const path of [`/drafts/${id}`, `/my/listings/${lid}`, '/my/listings/999999', '/claims/999999']) {
    const r = await other.b.go(path);
    assert.equal(r.res.status, 404, path);
    assert.equal($(r.text)('h1').text(), 'Page not found', path);
  }
  const otherPage = await other.b.go('/drafts');
  const csrf = csrfOf(otherPage.text, '/sign-out');
  const post = await other.b.go(`/drafts/${id}`, { form: { _csrf: csrf, tagline: 'Hijacked', action: 'save' } });
  assert.equal(post.res.status, 404);
  const free = await other.b.go(`/my/listings/${lid}/free`, { form: { _csrf: csrf } });
  assert.equal(free.res.status, 404);

  // Without the token: 403, nothing changes.
  const noToken = await owner.b.go(`/drafts/${id}`, {
    form: { ...(await draftForm(owner.b, id, { tagline: 'No token' })), _csrf: '' },
  });
  assert.equal(noToken.res.status, 403);
  assert.match($(noToken.text)('h1').text(), /expired/);
  assert.notEqual((await owner.api('GET', `/drafts/${id}`)).fields.tagline.value, 'No token');
  assert.equal((await owner.b.go(`/my/listings/${lid}/free`, { form: {} })).res.status, 403);
  assert.equal((await owner.api('GET', `/me/listings/${lid}`)).plan, 'none');
  const drafts = (await owner.api('GET', '/drafts')).total;
  assert.equal((await owner.b.go('/submit', { form: { url: site.origin + '/' } })).res.status, 403);
  assert.equal((await owner.api('GET', '/drafts')).total, drafts);
  assert.equal((await other.b.go('/listings/meta-co/claim', { form: { method: 'meta' } })).res.status, 403);
});

test('claim a listing with a meta tag: the listing page offers it, the claim page shows the tag, "Check now" says what it found, then verifies', async () => {
  const { b, user } = await person();
  const listingPage = await b.go('/listings/meta-co');
  const $l = $(listingPage.text);
  assert.equal($l('#claim form').attr('action'), '/listings/meta-co/claim');
  assert.deepEqual(
    $l('#claim input[name=method]')
      .map((_, el) => $l(el).attr('value'))
      .get(),
    ['dns', 'meta', 'file', 'email'],
  );
  const csrf = csrfOf(listingPage.text, '/listings/meta-co/claim');

  const gmail = await b.go('/listings/meta-co/claim', {
    form: { _csrf: csrf, method: 'email', email: 'ceo@gmail.com' },
  });
  assert.equal(gmail.res.status, 400);
  assert.match($(gmail.text)('#claim-email-error').text(), /127\.0\.0\.1/);

  const res = await b.request('/listings/meta-co/claim', { form: { _csrf: csrf, method: 'meta' } });
  assert.equal(res.status, 303);
  const claimPath = res.headers.get('location')!;
  assert.match(claimPath, /^\/claims\/\d+$/);
  const page = await b.go(claimPath);
  const tag = $(page.text)('#claim-tag').text();
  assert.match(tag, /^<meta name="launchlist-verification" content="[0-9a-f]{32}">$/);
  assert.equal($(page.text)('#claim-facts .state').attr('data-state'), 'pending');

  const notYet = await b.go(`${claimPath}/verify`, { form: { _csrf: csrfOf(page.text, `${claimPath}/verify`) } });
  assert.equal(notYet.res.status, 200);
  assert.match(notYet.url, /notice=checked/);
  assert.equal($(notYet.text)('#claim-facts .state').attr('data-state'), 'pending');
  assert.match($(notYet.text)('#claim-last-error').text(), /launchlist-verification/);
  assert.match($(notYet.text)('.flash.info').text(), /not found yet/);

  claimSite.routes['/'] = sitePage(
    `<!doctype html><html><head><title>Meta Co</title>${tag}</head><body><h1>Meta Co</h1></body></html>`,
  );
  const ok = await b.go(`${claimPath}/verify`, { form: { _csrf: csrfOf(notYet.text, `${claimPath}/verify`) } });
  assert.equal($(ok.text)('#claim-facts .state').attr('data-state'), 'verified');
  assert.match($(ok.text)('.flash.success').text(), /Verified: Meta Co is now yours/);
  const row = await t.store.db
    .selectFrom('listings')
    .select('owner_id')
    .where('slug', '=', 'meta-co')
    .executeTakeFirstOrThrow();
  assert.equal(row.owner_id, user.id);

  const claims = $((await b.go('/claims')).text);
  assert.equal(claims(`a[href="${claimPath}"]`).text(), 'Meta Co');
  assert.equal($((await b.go('/listings/meta-co')).text)('#claim').length, 0, 'its owner is not offered to claim it');
  const anon = $((await new Browser(t.base).go('/listings/meta-co')).text);
  assert.match(anon('a:contains("Sign in to claim")').attr('href')!, /^\/sign-in\?next=%2Flistings%2Fmeta-co%2Fclaim$/);
});

test('the owner of a published listing that is not verified is offered to prove it, on the listing page and on /my/listings/{id}', async () => {
  const { b, user } = await person();
  const id = await ownListing(t.store.db, user.id, {
    slug: 'mine-unverified',
    name: 'Mine Unverified',
    status: 'live',
    plan: 'free',
  });
  const listing = $((await b.go('/listings/mine-unverified')).text);
  assert.equal(listing('#claim-h').text(), 'Your listing is not verified');
  assert.equal(listing('#claim summary').text(), 'Verify this listing');
  assert.equal(listing('#claim form').attr('action'), '/listings/mine-unverified/claim');
  const mine = $((await b.go(`/my/listings/${id}`)).text);
  assert.equal(mine('#verify-link').attr('href'), '/listings/mine-unverified/claim');
  // A saved listing that is not published yet cannot be claimed (claim_listing refuses it): no link.
  const draftId = await ownListing(t.store.db, user.id, { slug: 'mine-draft', status: 'draft', plan: 'none' });
  const draft = $((await b.go(`/my/listings/${draftId}`)).text);
  assert.equal(draft('#verify-link').length, 0);
  assert.match(draft('#listing-facts').text(), /once the listing is published/);
});

test('the account page links the maker pages under "Your products"', async () => {
  const { b } = await person();
  const $a = $((await b.go('/account')).text);
  assert.equal($a('#products-h').text(), 'Your products');
  assert.deepEqual(
    $a('#your-products a')
      .map((_, el) => $a(el).attr('href'))
      .get(),
    ['/submit', '/drafts', '/my/listings', '/claims'],
  );
});

test('robots.txt keeps crawlers out of the maker pages and still lets them read listing pages', async () => {
  const robots = parseRobots(t.base, await (await fetch(`${t.base}/robots.txt`)).text());
  for (const p of [
    '/submit',
    '/drafts',
    '/drafts/x',
    '/my/listings',
    '/my/listings/3',
    '/claims',
    '/claims/3',
    '/claims/verify/token',
    '/listings/meta-co/claim',
  ]) {
    assert.equal(robots.isAllowed(t.base + p), false, p);
  }
  for (const p of ['/listings/meta-co', '/listings/meta-co/badges', '/listings/claimer', '/launches'])
    assert.equal(robots.isAllowed(t.base + p), true, p);
});
