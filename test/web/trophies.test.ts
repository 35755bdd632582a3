// The trophy pages (issue #21) on the demo content: cabinets, trophy leaderboard, Hall of Fame,
// programmes (with the enter form for a signed-in maker, refusals naming the rule), the award
// verification page, award badges linking to it, and the admin's programmes page and key rotation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Browser, csrfOf, $ } from '../auth/browser.ts';
import { liveApp, signedInBrowser, type LiveApp } from '../auth/helpers.ts';
import { seedDemo } from '../../src/store/seed/index.ts';
import { signedInPerson } from './maker-support.ts';

let t: LiveApp;
let anon: Browser;

before(async () => {
  t = await liveApp({}, async (store) => {
    await seedDemo(store);
  });
  anon = new Browser(t.base);
});
after(async () => {
  await t?.cleanup();
});

const api = async (path: string) => (await fetch(`${t.base}/api/v1${path}`)).json();

test('the Hall of Fame page: years, months and every #1 with a link to its verification', async () => {
  const page = await anon.go('/hall-of-fame');
  assert.equal(page.res.status, 200);
  const d = $(page.text);
  assert.equal(d('h1').text(), 'Hall of Fame');
  assert.deepEqual(
    d('main h2')
      .map((_, e) => d(e).text())
      .get(),
    ['Launch of the Year', 'Launch of the Month', 'Launch of the Week #1'],
  );
  const h = await api('/hall-of-fame');
  assert.equal(d('#hof-weeks ~ ul .item, section[aria-labelledby=hof-weeks] .item').length, h.weeks.length);
  assert.ok(d('a.verify[href^="/awards/"]').length > 0);
  assert.match(d('details.note').text(), /#1 = 3, #2 = 2, #3 = 1/);
});

test('a listing cabinet links each award to its verification page, which shows a valid signature', async () => {
  const award = (await api('/awards?per_page=1')).items[0];
  const listingPage = $((await anon.go(`/listings/${award.listing.slug}`)).text);
  assert.ok(
    listingPage(`a[href="/listings/${award.listing.slug}/trophies"]`).length > 0,
    'the listing page links its cabinet',
  );
  assert.ok(
    listingPage(`a[href="/awards/${award.week}/${award.rank}"]`).length > 0,
    'its awards link their verification',
  );

  const page = await anon.go(`/listings/${award.listing.slug}/trophies`);
  assert.equal(page.res.status, 200);
  const d = $(page.text);
  assert.match(d('h1').text(), /trophy cabinet/);
  const verify = d(`a.verify[href="/awards/${award.week}/${award.rank}"]`);
  assert.equal(verify.length, 1);
  assert.ok(d('.badge-list img').length >= 3);

  const v = await anon.go(verify.attr('href')!);
  assert.equal(v.res.status, 200);
  const vd = $(v.text);
  assert.match(vd('.verdict').text(), /The signature is valid/);
  const expected = await api(`/awards/${award.week}/${award.rank}/verification`);
  assert.equal(vd('#stmt').text(), expected.statement);
  assert.equal(vd('#sig').text(), expected.signature);
  assert.ok(vd('a[href$="/.well-known/award-keys.json"]').length > 0);
  assert.equal((await anon.go(`/awards/${award.week}/9`)).res.status, 404);
  assert.equal((await anon.go('/awards/2001-01-01/1')).res.status, 404);
});

test('founder cabinet, trophy leaderboard by year and category', async () => {
  const award = (await api('/awards?per_page=1')).items[0];
  const founder = (await api(`/listings/${award.listing.slug}`)).founders[0].slug;
  const fp = await anon.go(`/founders/${founder}`);
  assert.ok($(fp.text)(`a[href="/founders/${founder}/trophies"]`).length > 0);
  const f = await anon.go(`/founders/${founder}/trophies`);
  assert.equal(f.res.status, 200);
  assert.ok($(f.text)(`section.card h2 a[href="/listings/${award.listing.slug}"]`).length > 0);

  const board = await anon.go('/trophies');
  assert.equal(board.res.status, 200);
  const d = $(board.text);
  const top = (await api('/trophies/leaderboard?per_page=1')).items[0];
  assert.equal(d('ol.items .item h2 a').first().text(), top.listing.name);
  const year = d('#tl-year option').eq(1).attr('value')!;
  const y = $((await anon.go(`/trophies?year=${year}`)).text);
  assert.equal(y('#tl-year option[selected]').attr('value'), year);
  const cat = top.listing.primary_category.slug;
  const c = $((await anon.go(`/trophies?category=${cat}`)).text);
  assert.ok(c('ol.items .item').length > 0);
  assert.equal((await anon.go('/trophies?category=no-such-category')).res.status, 404);
});

test('programmes: the list, a decided programme with its results, an open one offering the enter form', async () => {
  const list = $((await anon.go('/programmes')).text);
  const programmes = (await api('/programmes')).items;
  assert.equal(list('ul.grid > li').length, programmes.length);
  const jury = programmes.find((p: any) => p.winners.rule === 'jury');
  const jd = $((await anon.go(`/programmes/${jury.slug}`)).text);
  assert.equal(jd('#res-h').text(), 'Results');
  assert.ok(jd('section[aria-labelledby=res-h] ol .item').length >= 1);
  const open = programmes.find((p: any) => p.state === 'open');
  const od = $((await anon.go(`/programmes/${open.slug}`)).text);
  assert.equal(od(`a[href="/programmes/${open.slug}/enter"]`).length, 1);
  // signed out, the enter form sends to sign-in first
  const r = await anon.request(`/programmes/${open.slug}/enter`);
  assert.equal(r.status, 303);
  assert.match(r.headers.get('location')!, /^\/sign-in\?next=/);
});

test('a signed-in maker enters a programme; a refusal names the rule', async () => {
  const programmes = (await api('/programmes')).items;
  const open = programmes.find((p: any) => p.state === 'open');
  const upcoming = programmes.find((p: any) => p.state === 'upcoming');
  const person = await signedInPerson(t);
  const entered = new Set((await api(`/programmes/${open.slug}`)).entry_list.map((e: any) => e.listing.slug));
  const year = open.rules.launched_from.slice(0, 4);
  const rows = await t.store.db
    .selectFrom('listings')
    .select(['id', 'slug', 'name', 'launched_at'])
    .where('status', '=', 'live')
    .orderBy('launched_at', 'desc')
    .execute();
  const mine = rows.find((l) => String(l.launched_at).startsWith(year) && !entered.has(l.slug))!;
  await t.store.db.updateTable('listings').set({ owner_id: person.user.id }).where('id', '=', mine.id).execute();

  const form = await person.b.go(`/programmes/${open.slug}/enter`);
  assert.equal(form.res.status, 200);
  const d = $(form.text);
  assert.equal(d('#enter-listing option').first().text(), mine.name);
  const csrf = csrfOf(form.text, `/programmes/${open.slug}/enter`);

  const refused = await person.b.go(`/programmes/${upcoming.slug}/enter`, {
    form: { _csrf: csrf, listing_id: String(mine.id) },
  });
  assert.equal(refused.res.status, 409);
  assert.match($(refused.text)('#enter-listing-error').text(), /entries open on .*rule "period"/);

  const done = await person.b.go(`/programmes/${open.slug}/enter`, {
    form: { _csrf: csrf, listing_id: String(mine.id) },
  });
  assert.equal(done.res.status, 200);
  assert.match(done.url, /\/my\/programmes\?notice=entered$/);
  const dd = $(done.text);
  assert.match(dd('.flash').text(), /Entered/);
  assert.ok(dd(`a[href="/programmes/${open.slug}"]`).length > 0);
  const noCsrf = await person.b.request(`/programmes/${open.slug}/enter`, { form: { listing_id: String(mine.id) } });
  assert.equal(noCsrf.status, 403);
});

test('award badges link to the award verification page', async () => {
  const award = (await api('/awards?per_page=1')).items[0];
  const b = await api(`/listings/${award.listing.slug}/badges`);
  const badge = b.badges.find((x: any) => x.key === `launch_of_the_week_${award.rank}`);
  assert.match(badge.html, new RegExp(`href="${t.base}/awards/${award.week}/${award.rank}\\?ref=badge"`));
  assert.match(badge.markdown, new RegExp(`\\(${t.base}/awards/${award.week}/${award.rank}\\?ref=badge\\)$`));
  assert.equal(badge.awards[0].verify_url, `${t.base}/awards/${award.week}/${award.rank}`);
  const launched = b.badges.find((x: any) => x.key === 'launched');
  assert.match(launched.html, new RegExp(`href="${t.base}/listings/${award.listing.slug}\\?ref=badge"`));
});

test('admin: define a programme (validated), it is listed publicly; rotate the signing key', async () => {
  const user = await signedInBrowser(t, 'user');
  assert.equal((await user.go('/admin/programmes')).res.status, 403);
  const admin = await signedInBrowser(t, 'admin');
  const page = await admin.go('/admin/programmes');
  assert.equal(page.res.status, 200);
  const csrf = csrfOf(page.text, '/admin/programmes');
  const fields = {
    _csrf: csrf,
    name: 'Spring Makers Cup',
    slug: 'spring-makers-cup',
    description: 'A spring cup.',
    starts_on: '2026-03-01',
    ends_on: '2026-02-01',
    launched_from: '',
    launched_to: '',
    categories: 'no-such-category',
    winners: 'community_votes',
    winners_count: '3',
  };
  const bad = await admin.go('/admin/programmes', { form: fields });
  assert.equal(bad.res.status, 400);
  const bd = $(bad.text);
  assert.match(bd('#ends_on-error').text(), /not before/);
  assert.match(bd('#categories-error').text(), /no category/);
  assert.equal((await api('/programmes/spring-makers-cup')).error.code, 'not_found', 'nothing saved');

  const good = await admin.go('/admin/programmes', {
    form: { ...fields, ends_on: '2026-05-31', categories: '', launched_from: '2026-01-01', winners: 'jury' },
  });
  assert.equal(good.res.status, 200);
  const p = await api('/programmes/spring-makers-cup');
  assert.equal(p.winners.rule, 'jury');
  assert.deepEqual(p.rules, { launched_from: '2026-01-01' });
  assert.ok($((await anon.go('/programmes')).text)('a[href="/programmes/spring-makers-cup"]').length > 0);

  // the jury's places: the admin sets them on the programme's page, get_programme shows them
  const jury = (await api('/programmes')).items.find((p: any) => p.winners.rule === 'jury' && p.entries >= 2);
  const row = await t.store.db
    .selectFrom('programmes')
    .select('id')
    .where('slug', '=', jury.slug)
    .executeTakeFirstOrThrow();
  const edit = await admin.go(`/admin/programmes/${row.id}`);
  assert.equal(edit.res.status, 200);
  const inputs = $(edit.text)('input[name^=place_]')
    .map((_, e) => $(edit.text)(e).attr('name'))
    .get();
  assert.ok(inputs.length >= 2);
  const places: Record<string, string> = { _csrf: csrfOf(edit.text, `/admin/programmes/${row.id}/places`) };
  inputs.forEach((name, i) => (places[name] = i === inputs.length - 1 ? '1' : ''));
  const saved = await admin.go(`/admin/programmes/${row.id}/places`, { form: places });
  assert.equal(saved.res.status, 200);
  const winners = (await api(`/programmes/${jury.slug}`)).results.winners;
  assert.equal(winners.length, 1);
  assert.equal(winners[0].place, 1);

  const before = (await (await fetch(`${t.base}/.well-known/award-keys.json`)).json()).keys.length;
  const rotated = await admin.go('/admin/award-keys/rotate', {
    form: { _csrf: csrfOf(page.text, '/admin/award-keys/rotate') },
  });
  assert.equal(rotated.res.status, 200);
  assert.match($(rotated.text)('.flash').text(), /New signing key/);
  const after = (await (await fetch(`${t.base}/.well-known/award-keys.json`)).json()).keys;
  assert.equal(after.length, before + 1);
});
