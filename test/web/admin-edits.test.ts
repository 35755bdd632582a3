// The site team's review of listing edits (/admin/edits) on the engine of this run: admins only
// (signed-out → sign-in, others → 403), each edit with who, when, before/after of the changed
// fields and apply_to, unreviewed first, and "mark reviewed" as a CSRF-checked form post.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as cheerio from 'cheerio';
import { testApp, type TestApp } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { makeUser as makeApiUser } from '../jobs/support/users.ts';
import { makeUser } from '../auth/helpers.ts';
import { createSession } from '../../src/auth/sessions.ts';
import { outboxFor } from '../../src/mail/index.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof makeApiUser>>;
let admin: { id: number; cookie: string; csrf: string };
let person: { id: number; cookie: string; csrf: string };
let listingId = 0;
const versionIds: number[] = [];

async function session(role: 'user' | 'admin') {
  const u = await makeUser(t.store, { role });
  const { token, session: s } = await createSession(t.store.db, u.id);
  return { id: u.id, cookie: `ll_session=${token}`, csrf: s.csrf };
}
const page = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
const post = (url: string, form: Record<string, string>, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: {
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
    },
    payload: new URLSearchParams(form).toString(),
  });
const versionRow = (id: number) =>
  t.store.db.selectFrom('listing_versions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

before(async () => {
  t = await testApp();
  await category(t.store.db, 'tools');
  await t.store.db
    .insertInto('sites')
    .values({ key: 'saasgarden', name: 'SaaS Garden', url: 'https://saasgarden.example' })
    .execute();
  owner = await makeApiUser(t.store.db);
  listingId = await listing(t.store.db, {
    slug: 'edited',
    name: 'Edited <Co>',
    tagline: 'Old tagline',
    category: 'tools',
    city: 'Paris',
  });
  await t.store.db.updateTable('listings').set({ owner_id: owner.id }).where('id', '=', listingId).execute();
  const edit = async (body: unknown) => {
    const r = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/me/listings/${listingId}`,
      headers: owner.auth,
      payload: body as object,
    });
    assert.equal(r.statusCode, 200, r.body);
    versionIds.push(r.json().version_id);
  };
  await edit({ fields: { tagline: '<script>alert(1)</script> New tagline', features: ['Fast', 'Safe'] } });
  await edit({ fields: { headline: 'Best notes', city: 'Lyon' }, apply_to: ['saasgarden'] });
  admin = await session('admin');
  person = await session('user');
});
after(async () => {
  await t.cleanup();
});

test('signed out: sent to sign-in; signed in without the admin role: 403 page, no edits shown', async () => {
  const out = await page('/admin/edits');
  assert.equal(out.statusCode, 303);
  assert.equal(out.headers.location, '/sign-in?next=%2Fadmin%2Fedits');
  const res = await page('/admin/edits', person.cookie);
  assert.equal(res.statusCode, 403);
  const $ = cheerio.load(res.body);
  assert.equal($('h1').text(), 'Admins only');
  assert.equal($('article.edit').length, 0);
  assert.ok(!res.body.includes('New tagline'));
});

test('admins see every edit, newest first: listing, who, when, before/after of the changed fields only, apply_to', async () => {
  const res = await page('/admin/edits', admin.cookie);
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['cache-control']), /no-store/);
  const $ = cheerio.load(res.body);
  const edits = $('article.edit');
  assert.deepEqual(edits.map((_, el) => Number($(el).attr('data-version'))).get(), [versionIds[1], versionIds[0]]);
  const newest = edits.eq(0);
  assert.equal(newest.find('h2 a').attr('href'), '/listings/edited');
  assert.equal(newest.find('h2 a').text(), 'Edited <Co>', 'names are shown as text');
  assert.match(newest.text(), new RegExp(`Maker \\d+ <${owner.email.replace(/[.+]/g, '\\$&')}>`));
  assert.equal(newest.find('.apply-to').text(), 'saasgarden');
  assert.deepEqual(
    newest
      .find('tbody tr')
      .map((_, el) => $(el).attr('data-field'))
      .get()
      .sort(),
    ['city', 'headline'],
  );
  const city = newest.find('tr[data-field=city]');
  assert.equal(city.find('td.before').text().trim(), 'Paris');
  assert.equal(city.find('td.after').text().trim(), 'Lyon');
  assert.match(newest.find('tr[data-field=headline] td.before').text(), /\(empty\)/);

  const oldest = edits.eq(1);
  assert.match(oldest.text(), /This listing only/);
  assert.equal(oldest.find('tr[data-field=tagline] td.after').text().trim(), '<script>alert(1)</script> New tagline');
  assert.ok(!res.body.includes('<script>alert(1)</script>'), 'what owners type is escaped');
  assert.deepEqual(
    oldest
      .find('tr[data-field=features] td.after li')
      .map((_, el) => $(el).text())
      .get(),
    ['Fast', 'Safe'],
  );
  assert.match($('main').text(), /2\s+of 2 not reviewed/);
});

test('mark reviewed: needs the CSRF token and the admin role; then the edit shows as reviewed, after the unreviewed ones', async () => {
  const [oldId, newId] = versionIds;
  const url = `/admin/edits/${newId}/reviewed`;
  assert.equal((await post(url, {}, admin.cookie)).statusCode, 403, 'no CSRF token');
  assert.equal((await post(url, { _csrf: person.csrf }, admin.cookie)).statusCode, 403, "someone else's token");
  assert.equal((await post(url, { _csrf: person.csrf }, person.cookie)).statusCode, 403, 'not an admin');
  assert.equal((await post(url, { _csrf: admin.csrf })).statusCode, 303, 'signed out → sign-in');
  assert.equal((await versionRow(newId)).reviewed_at, null);

  const ok = await post(url, { _csrf: admin.csrf }, admin.cookie);
  assert.equal(ok.statusCode, 303);
  assert.equal(ok.headers.location, `/admin/edits?notice=reviewed#edit-${newId}`);
  const row = await versionRow(newId);
  assert.ok(row.reviewed_at);
  assert.equal(row.reviewed_by, admin.id);

  const $ = cheerio.load((await page('/admin/edits?notice=reviewed', admin.cookie)).body);
  assert.deepEqual(
    $('article.edit')
      .map((_, el) => Number($(el).attr('data-version')))
      .get(),
    [oldId, newId],
    'unreviewed first',
  );
  assert.equal($(`#edit-${newId}`).attr('data-reviewed'), 'yes');
  assert.equal($(`#edit-${newId} form[action$="/reviewed"]`).length, 0, 'no mark-reviewed form once reviewed');
  assert.match($(`#edit-${newId} .reviewed`).text(), /Reviewed .* by Person/);
  assert.equal($(`#edit-${oldId} form[action="/admin/edits/${oldId}/reviewed"] input[name=_csrf]`).val(), admin.csrf);
  assert.match($('.flash').text(), /marked reviewed/);

  const missing = await post('/admin/edits/999999/reviewed', { _csrf: admin.csrf }, admin.cookie);
  assert.equal(missing.statusCode, 404);
  const bad = await post('/admin/edits/abc/reviewed', { _csrf: admin.csrf }, admin.cookie);
  assert.equal(bad.statusCode, 404);
  // Past the largest id an integer column holds (PostgreSQL refused it: a 500), or not in digits.
  for (const id of ['2147483648', '999999999999', '1e3']) {
    assert.equal((await post(`/admin/edits/${id}/reviewed`, { _csrf: admin.csrf }, admin.cookie)).statusCode, 404, id);
  }
});

test('revert: the fields an edit changed go back, a field changed again since is kept, the owner is told why, and the revert is itself an edit', async () => {
  // A third edit changes the city again (Lyon → Nice) after the second one (city Paris → Lyon, headline set).
  const third = await t.app.inject({
    method: 'PATCH',
    url: `/api/v1/me/listings/${listingId}`,
    headers: owner.auth,
    payload: { fields: { city: 'Nice' } },
  });
  assert.equal(third.statusCode, 200, third.body);
  const second = versionIds[1];
  const url = `/admin/edits/${second}/revert`;
  const before = await page('/admin/edits', admin.cookie);
  assert.equal(
    cheerio.load(before.body)(`#edit-${second} form[action="${url}"] textarea[name=reason]`).length,
    1,
    'each edit offers a revert with a reason',
  );
  assert.equal((await post(url, { reason: 'x' }, admin.cookie)).statusCode, 403, 'no CSRF token');
  assert.equal((await post(url, { _csrf: person.csrf, reason: 'x' }, person.cookie)).statusCode, 403, 'not an admin');
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/listings/edited' })).json().headline, 'Best notes');

  const res = await post(url, { _csrf: admin.csrf, reason: 'Headlines may not <claim> to be the best.' }, admin.cookie);
  assert.equal(res.statusCode, 303);
  const shown = cheerio.load((await page(res.headers.location as string, admin.cookie)).body);
  assert.match(shown('.flash').text(), /reverted: headline put back; city kept, changed again since/);

  const pub = (await t.app.inject({ method: 'GET', url: '/api/v1/listings/edited' })).json();
  assert.equal(pub.headline, null, 'the public profile shows the value before the edit');
  assert.equal(pub.city, 'Nice', 'the later edit of the city is not lost');

  const [mail] = await outboxFor(t.store.db, owner.email);
  assert.match(mail.subject, /Your edit of Edited <Co> was reverted/);
  assert.match(mail.text, /headline is back to its earlier value/);
  assert.match(mail.text, /Their reason: Headlines may not <claim> to be the best\./);

  // The revert is in the history as the admin's edit, already reviewed; the reverted edit is reviewed too.
  const revert = await t.store.db
    .selectFrom('listing_versions')
    .selectAll()
    .where('listing_id', '=', listingId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  assert.equal(revert.user_id, admin.id);
  assert.deepEqual(JSON.parse(revert.before as string), { headline: 'Best notes' });
  assert.deepEqual(JSON.parse(revert.after as string), { headline: null });
  assert.ok(revert.reviewed_at);
  assert.ok((await versionRow(second)).reviewed_at);

  // Again: nothing left to put back, and no second mail.
  const again = await post(url, { _csrf: admin.csrf }, admin.cookie);
  assert.match(
    cheerio
      .load((await page(again.headers.location as string, admin.cookie)).body)('.flash')
      .text(),
    /nothing to put back/,
  );
  assert.equal((await outboxFor(t.store.db, owner.email)).filter((m) => /was reverted/.test(m.subject)).length, 1);
  assert.equal((await post('/admin/edits/999999/revert', { _csrf: admin.csrf }, admin.cookie)).statusCode, 404);
});

test('/admin: linked from the header for admins only; it counts what waits for the team and links every admin page', async () => {
  const home = cheerio.load((await page('/', admin.cookie)).body);
  assert.equal(home('header.site a[href="/admin"]').text(), 'Admin');
  assert.equal(
    cheerio.load((await page('/', person.cookie)).body)('header.site a[href="/admin"]').length,
    0,
    'not for other people',
  );
  assert.equal((await page('/admin', person.cookie)).statusCode, 403);
  assert.equal((await page('/admin')).headers.location, '/sign-in?next=%2Fadmin');
  const res = await page('/admin', admin.cookie);
  assert.equal(res.statusCode, 200);
  const $ = cheerio.load(res.body);
  assert.deepEqual(
    $('main a')
      .map((_, a) => $(a).attr('href'))
      .get(),
    ['/admin/edits', '/admin/orders', '/admin/votes', '/admin/prices', '/admin/programmes'],
  );
  const unreviewed = await t.store.db
    .selectFrom('listing_versions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('reviewed_at', 'is', null)
    .executeTakeFirstOrThrow();
  assert.equal(Number($('[data-count=edits]').text()), Number(unreviewed.n));
  assert.equal($('[data-count=orders]').text(), '0');
});

test('an edit of a listing that is not live names it without a link (its public page would be a 404)', async () => {
  const id = await listing(t.store.db, {
    slug: 'edited-draft',
    name: 'Draft <Co>',
    category: 'tools',
    status: 'draft',
  });
  await t.store.db.updateTable('listings').set({ owner_id: owner.id }).where('id', '=', id).execute();
  const r = await t.app.inject({
    method: 'PATCH',
    url: `/api/v1/me/listings/${id}`,
    headers: owner.auth,
    payload: { fields: { tagline: 'Not live yet' } },
  });
  assert.equal(r.statusCode, 200, r.body);
  const $ = cheerio.load((await page('/admin/edits', admin.cookie)).body);
  const edit = $(`article.edit[data-version="${r.json().version_id}"]`);
  assert.equal(edit.find('h2').text().replace(/\s+/g, ' ').trim(), `Draft <Co> (draft, listing ${id})`);
  assert.equal(edit.find('h2 a').length, 0);
  assert.equal((await page('/listings/edited-draft')).statusCode, 404, 'the page a link would open');
});

test("a refused request on an admin page is the site's HTML error page for a browser (it was the API's JSON)", async () => {
  const res = await page('/admin/edits?page=%00', admin.cookie);
  assert.equal(res.statusCode, 400);
  assert.match(String(res.headers['content-type']), /text\/html/);
  const $ = cheerio.load(res.body);
  assert.equal($('h1').text(), 'This address cannot be used');
  assert.match($('main li').text(), /page.*NUL/);
  const big = await post('/admin/edits/1/revert', { _csrf: admin.csrf, reason: 'x'.repeat(1024 * 1024) }, admin.cookie);
  assert.equal(big.statusCode, 413);
  assert.equal(cheerio.load(big.body)('h1').text(), 'This form could not be sent', 'a form, not an address');
  const api = await t.app.inject({ method: 'GET', url: '/api/v1/listings?page=%00', headers: { accept: 'text/html' } });
  assert.match(String(api.headers['content-type']), /application\/json/, 'the API keeps its JSON errors');
});
