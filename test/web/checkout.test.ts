// The checkout page: the person opens an order's checkout_url, enters billing details and pays with
// the built-in test provider (4242… succeeds, 4000…0002 is declined). Paying marks the order paid and
// fulfils it in one transaction (a launch goes live and is found by search, the billboard rises, extra
// categories appear); declined stays pending; paying twice is safe; promo codes are checked again;
// the Stripe adapter is driven against a local stand-in of its API.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as httpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Browser, csrfOf, $ } from '../auth/browser.ts';
import { liveApp, signedInBrowser, type LiveApp } from '../auth/helpers.ts';
import { makeUser } from '../jobs/support/users.ts';
import { addWeeks, mondayOf } from '../../src/domain/weeks.ts';
import { formatCents } from '../../src/domain/money.ts';
import { outboxFor } from '../../src/mail/index.ts';
import { stripeProvider, testProvider } from '../../src/payments/index.ts';
import { PRICE, addPromo, ownListing, seedShop } from '../api/orders-fixtures.ts';
import { category } from '../support/listing-fixtures.ts';

let t: LiveApp;
type User = Awaited<ReturnType<typeof makeUser>>;
let ua: User;
let ub: User;
const monday = mondayOf(new Date());
const week = (n: number) => addWeeks(monday, n);

before(async () => {
  t = await liveApp({}, async ({ db }) => {
    await seedShop(db);
  });
  ua = await makeUser(t.store.db, ['account:read', 'listings:write', 'orders:write']);
  ub = await makeUser(t.store.db, ['account:read', 'listings:write', 'orders:write']);
});
after(async () => {
  await t.cleanup();
});

async function api(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  auth = ua.auth,
): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.base}/api/v1${path}`, {
    method,
    headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: await r.json() };
}
async function newOrder(body: unknown, auth = ua.auth): Promise<any> {
  const r = await api('POST', '/orders/checkout', body, auth);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}
const pathOf = (url: string) => new URL(url).pathname;
const BILLING = { name: 'Ada Lovelace', country: 'US', address: '1 Analytical Way, Springfield', vat_number: '' };
const GOOD_CARD = { card_number: '4242 4242 4242 4242', card_expiry: '12/39', card_cvc: '123' };
const BAD_CARD = { card_number: '4000 0000 0000 0002', card_expiry: '12/39', card_cvc: '123' };

/** The checkout page's payment form, filled in: its action and fields (the CSRF token and total as the page shows them). */
async function payForm(
  b: Browser,
  checkoutUrl: string,
  fields: Record<string, string>,
): Promise<{ action: string; fields: Record<string, string> }> {
  const page = await b.go(pathOf(checkoutUrl));
  assert.equal(page.res.status, 200, page.text.slice(0, 500));
  const action = `${pathOf(checkoutUrl)}/pay`;
  const expected = $(page.text)('input[name=expected_total_cents]').attr('value') ?? '';
  return {
    action,
    fields: { expected_total_cents: expected, ...BILLING, ...fields, _csrf: csrfOf(page.text, action) },
  };
}

/** Opens the checkout page and sends its payment form with these fields (the token and total as the page shows them). */
async function pay(
  b: Browser,
  checkoutUrl: string,
  fields: Record<string, string>,
  opts: { csrf?: boolean } = {},
): Promise<{ res: Response; text: string; url: string }> {
  const page = await b.go(pathOf(checkoutUrl));
  assert.equal(page.res.status, 200, page.text.slice(0, 500));
  const action = `${pathOf(checkoutUrl)}/pay`;
  const expected = $(page.text)('input[name=expected_total_cents]').attr('value') ?? '';
  const form: Record<string, string> = { expected_total_cents: expected, ...BILLING, ...fields };
  if (opts.csrf !== false) form._csrf = csrfOf(page.text, action);
  return b.go(action, { form });
}

const orderOf = async (number: string, auth = ua.auth) => (await api('GET', `/orders/${number}`, undefined, auth)).body;

test('the checkout page shows the order and a clearly labelled test payment form; it is never cached or indexed', async () => {
  const id = await ownListing(t.store.db, ua.id, { slug: 'page-draft', status: 'draft', plan: 'none' });
  const o = await newOrder({ items: [{ product: 'launch', listing_id: id }], billing_country: 'NL' });
  const b = new Browser(t.base);
  const page = await b.go(pathOf(o.checkout_url));
  assert.equal(page.res.status, 200);
  assert.equal(page.res.headers.get('cache-control'), 'no-store');
  assert.match(page.res.headers.get('x-robots-tag') ?? '', /noindex/);
  assert.equal(page.res.headers.get('referrer-policy'), 'no-referrer');
  const $p = $(page.text);
  assert.equal($p('meta[name=robots]').attr('content'), 'noindex');
  assert.match($p('h1').text(), new RegExp(o.number));
  assert.equal($p('#total').text(), formatCents(o.total_cents));
  assert.equal($p('#vat').text(), formatCents(Math.round(PRICE.launch * 0.21)));
  assert.match($p('#test-mode').text(), /TEST MODE/);
  assert.match($p('#test-mode').text(), /4242 4242 4242 4242/);
  assert.ok(
    $p(`form[action="${pathOf(o.checkout_url)}/pay"] input[name=_csrf]`).attr('value'),
    'the form carries a CSRF token',
  );
  assert.equal(
    $p('select[name=country] option[selected]').attr('value'),
    'NL',
    'the billing country of the order is filled in',
  );
  assert.equal((await b.go('/checkout/not-a-real-token-at-all-0000000000000000000')).res.status, 404);
});

test('a declined card leaves the order pending and the listing untouched; a form without CSRF is refused', async () => {
  const id = await ownListing(t.store.db, ua.id, { slug: 'declined-draft', status: 'draft', plan: 'none' });
  const o = await newOrder({ items: [{ product: 'launch', listing_id: id }] });
  const b = new Browser(t.base);
  const noCsrf = await pay(b, o.checkout_url, GOOD_CARD, { csrf: false });
  assert.equal(noCsrf.res.status, 403);
  const declined = await pay(b, o.checkout_url, BAD_CARD);
  assert.equal(declined.res.status, 402);
  assert.match($(declined.text)('.flash.error').text(), /declined/);
  assert.equal((await orderOf(o.number)).status, 'pending');
  const l = await t.store.db
    .selectFrom('listings')
    .select(['status', 'plan'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  assert.deepEqual({ ...l }, { status: 'draft', plan: 'none' });
  const unknown = await pay(b, o.checkout_url, { ...GOOD_CARD, card_number: '5555 5555 5555 4444' });
  assert.equal(unknown.res.status, 402, 'only the test cards work in test mode');
  const badExpiry = await pay(b, o.checkout_url, { ...GOOD_CARD, card_expiry: '01/20' });
  assert.equal(badExpiry.res.status, 400);
  assert.match($(badExpiry.text)('#card_expiry-error').text(), /expired/);
  const noName = await pay(b, o.checkout_url, { ...GOOD_CARD, name: '' });
  assert.equal(noName.res.status, 400);
  assert.match($(noName.text)('#name-error').text(), /name/);
  assert.equal((await orderOf(o.number)).status, 'pending');
});

test('paying with the test card: paid, fulfilled at once — live and searchable, billboard raised, extra categories shown; paying twice is safe', async () => {
  const db = t.store.db;
  const id = await ownListing(db, ua.id, {
    slug: 'zanzibarix',
    name: 'Zanzibarix',
    status: 'draft',
    plan: 'none',
    description: 'Zanzibarix turns spreadsheets into dashboards.',
  });
  assert.equal((await api('GET', '/listings?q=zanzibarix')).body.total, 0, 'not public before payment');
  await addPromo(db, 'PAYTEN', { percent_off: 10, max_redemptions: 5 });
  const o = await newOrder({
    items: [
      { product: 'launch', listing_id: id },
      { product: 'billboard_min', listing_id: id, amount_cents: 777_00 },
      { product: 'extra_categories', listing_id: id, categories: ['design', 'finance'] },
      { product: 'featured', listing_id: id },
      { product: 'done_for_you', listing_id: id },
    ],
    billing_country: 'US',
    promo_code: 'PAYTEN',
  });
  // The same form sent twice at once (a double click): one payment, one fulfilment.
  const b = new Browser(t.base);
  const form = await payForm(b, o.checkout_url, GOOD_CARD);
  const [first, second] = await Promise.all([
    b.request(form.action, { form: form.fields }),
    b.request(form.action, { form: form.fields }),
  ]);
  assert.deepEqual([first.status, second.status], [303, 303]);
  const res = await b.go(first.headers.get('location')!);
  assert.equal(res.res.status, 200);
  assert.match(res.url, /\?paid=1$/);
  assert.match($(res.text)('.flash.success').text(), /Payment received/);
  assert.equal($(res.text)('#order-status').text(), 'Paid');

  const paid = await orderOf(o.number);
  assert.equal(paid.status, 'paid');
  assert.ok(paid.paid_at);
  assert.equal('checkout_url' in paid, false, 'no checkout link once paid');
  const byProduct = Object.fromEntries(paid.lines.map((l: any) => [l.product, l]));
  for (const code of ['launch', 'billboard_min', 'extra_categories', 'featured']) {
    assert.equal(byProduct[code].fulfilled, true, code);
    assert.ok(byProduct[code].fulfilled_at, code);
  }
  assert.equal(byProduct.done_for_you.fulfilled, false, 'work for the site team stays open');
  assert.equal(byProduct.done_for_you.fulfilment, 'by_staff');

  // The launch made the listing live: search finds it and the profile shows the paid sections.
  const found = await api('GET', '/listings?q=zanzibarix');
  assert.deepEqual(
    found.body.items.map((i: any) => i.slug),
    ['zanzibarix'],
  );
  const profile = await api('GET', '/listings/zanzibarix');
  assert.equal(profile.status, 200);
  assert.equal(profile.body.status, 'live');
  assert.equal(profile.body.launch_week, monday);
  for (const section of ['story', 'milestones', 'media']) assert.ok(section in profile.body, `${section} unlocked`);
  assert.deepEqual(profile.body.categories.map((c: any) => c.slug).sort(), ['design', 'finance', 'productivity']);
  assert.equal(profile.body.categories.find((c: any) => c.primary).slug, 'productivity');
  const badges = await api('GET', '/listings/zanzibarix/badges');
  assert.ok(
    badges.body.badges.some((x: any) => x.key === 'featured'),
    'the Featured badge',
  );

  // The billboard (a paid ranking) shows the contribution.
  const board = await api('GET', '/leaderboards/billboard');
  const item = board.body.items.find((i: any) => i.listing.slug === 'zanzibarix');
  assert.ok(item, 'on the billboard');
  assert.equal(item.metric.amount_cents, 777_00);
  assert.equal(item.rank, 1);

  // A receipt went to the buyer; nothing about the card was stored anywhere.
  const [mail] = await outboxFor(db, ua.email);
  assert.match(mail.subject, new RegExp(o.number));
  const orderRow = JSON.stringify(
    await db.selectFrom('orders').selectAll().where('number', '=', o.number).executeTakeFirstOrThrow(),
  );
  assert.doesNotMatch(orderRow + mail.text, /4242|\b123\b.*cvc/i);
  assert.equal(
    (await db.selectFrom('promo_codes').select('redemptions').where('code', '=', 'PAYTEN').executeTakeFirstOrThrow())
      .redemptions,
    1,
  );

  // Sending the form again later charges and applies nothing more.
  const again = await b.request(form.action, { form: form.fields });
  assert.equal(again.status, 303);
  assert.match(again.headers.get('location')!, /\?paid=1$/);
  assert.doesNotMatch((await b.go(pathOf(o.checkout_url))).text, /id="pay-form"/, 'no payment form on a paid order');
  const contributions = await db
    .selectFrom('billboard_contributions')
    .select(['amount_cents'])
    .where('listing_id', '=', id)
    .execute();
  assert.equal(contributions.length, 1, 'one contribution, not two');
  assert.equal(
    (await db.selectFrom('promo_codes').select('redemptions').where('code', '=', 'PAYTEN').executeTakeFirstOrThrow())
      .redemptions,
    1,
    'one redemption',
  );
  assert.equal((await orderOf(o.number)).paid_at, paid.paid_at);
});

test('the promo code is checked again at payment: a code used up meanwhile is refused and nothing is charged', async () => {
  const db = t.store.db;
  await addPromo(db, 'LASTONE', { amount_off_cents: 500, max_redemptions: 1 });
  const o = await newOrder({ items: [{ product: 'gift_card' }], promo_code: 'LASTONE' });
  assert.equal(o.discount_cents, 500);
  await db.updateTable('promo_codes').set({ redemptions: 1 }).where('code', '=', 'LASTONE').execute(); // someone else used it
  const b = new Browser(t.base);
  const r = await pay(b, o.checkout_url, GOOD_CARD);
  assert.equal(r.res.status, 409);
  assert.match($(r.text)('.flash.error').text(), /Promo code refused: .*used up.*Nothing was charged/);
  assert.equal((await orderOf(o.number)).status, 'pending');
  assert.equal(
    (await db.selectFrom('promo_codes').select('redemptions').where('code', '=', 'LASTONE').executeTakeFirstOrThrow())
      .redemptions,
    1,
  );

  await db
    .updateTable('promo_codes')
    .set({ expires_at: new Date(Date.now() - 60_000).toISOString(), redemptions: 0 })
    .where('code', '=', 'LASTONE')
    .execute();
  const expired = await pay(b, o.checkout_url, GOOD_CARD);
  assert.equal(expired.res.status, 409);
  assert.match($(expired.text)('.flash.error').text(), /expired/);
  assert.equal((await orderOf(o.number)).status, 'pending');
});

test('VAT follows the billing details entered on the page: a new total is shown before anything is charged', async () => {
  const o = await newOrder({ items: [{ product: 'gift_card' }] }); // no billing country yet
  assert.equal(o.vat.country, null);
  const b = new Browser(t.base);
  // A code that is no country (it would be charged no VAT) is refused by its field; nothing is charged.
  const nowhere = await pay(b, o.checkout_url, { ...GOOD_CARD, country: 'ZZ' });
  assert.equal(nowhere.res.status, 400);
  assert.match($(nowhere.text)('#country-error').text(), /Choose the billing country/);
  assert.equal((await orderOf(o.number)).status, 'pending');
  const first = await pay(b, o.checkout_url, { ...GOOD_CARD, country: 'DE' });
  assert.equal(first.res.status, 409, 'the total changed: shown, not charged');
  const vat = Math.round(PRICE.gift_card * 0.16);
  assert.match($(first.text)('.flash').text(), new RegExp(`total is \\${formatCents(PRICE.gift_card + vat)}`));
  assert.equal($(first.text)('#total').text(), formatCents(PRICE.gift_card + vat));
  assert.equal((await orderOf(o.number)).status, 'pending');
  const second = await pay(b, o.checkout_url, { ...GOOD_CARD, country: 'DE' });
  assert.equal(second.res.status, 200);
  const paid = await orderOf(o.number);
  assert.equal(paid.status, 'paid');
  assert.deepEqual(
    { country: paid.vat.country, rate: paid.vat.rate_bp, cents: paid.vat.cents, total: paid.total_cents },
    { country: 'DE', rate: 1600, cents: vat, total: PRICE.gift_card + vat },
  );
  assert.deepEqual(paid.billing, { name: BILLING.name, country: 'DE', address: BILLING.address });

  // An EU business with a valid VAT number: reverse charge, no VAT.
  const biz = await newOrder({ items: [{ product: 'gift_card' }], billing_country: 'FR' });
  assert.equal(biz.vat.rate_bp, 2000);
  const bad = await pay(b, biz.checkout_url, { ...GOOD_CARD, country: 'FR', vat_number: 'FR12' });
  assert.equal(bad.res.status, 400);
  assert.match($(bad.text)('#vat_number-error').text(), /not a valid FR VAT number/);
  await pay(b, biz.checkout_url, { ...GOOD_CARD, country: 'FR', vat_number: 'FR40303265045' }); // total falls: confirm
  const ok = await pay(b, biz.checkout_url, { ...GOOD_CARD, country: 'FR', vat_number: 'FR40303265045' });
  assert.equal(ok.res.status, 200);
  const rc = await orderOf(biz.number);
  assert.equal(rc.status, 'paid');
  assert.deepEqual(
    { rc: rc.vat.reverse_charge, cents: rc.vat.cents, total: rc.total_cents, number: rc.vat.vat_number },
    { rc: true, cents: 0, total: PRICE.gift_card, number: 'FR40303265045' },
  );
  assert.match(rc.vat.note, /Reverse charge/);
});

test('fulfilment of weeks: a launch in a chosen week is scheduled, skip_queue moves the free week, relaunch reschedules', async () => {
  const db = t.store.db;
  const later = await ownListing(db, ua.id, { slug: 'later-launch', status: 'draft', plan: 'none' });
  const queued = await ownListing(db, ua.id, {
    slug: 'queued-free',
    status: 'awaiting_badge',
    plan: 'free',
    launch_week: week(4),
  });
  const again = await ownListing(db, ua.id, {
    slug: 'launch-again',
    status: 'live',
    plan: 'paid',
    unlocked: ['story'],
  });
  const o = await newOrder({
    items: [
      { product: 'launch', listing_id: later, week: week(3) },
      { product: 'skip_queue', listing_id: queued, week: week(1) },
      { product: 'relaunch', listing_id: again, week: week(2) },
    ],
  });
  const r = await pay(new Browser(t.base), o.checkout_url, GOOD_CARD);
  assert.equal(r.res.status, 200);
  const rows = await db
    .selectFrom('listings')
    .select(['slug', 'status', 'plan', 'launch_week', 'unlocked'])
    .where('id', 'in', [later, queued, again])
    .orderBy('id')
    .execute();
  assert.deepEqual(
    rows.map((x) => ({ ...x })),
    [
      {
        slug: 'later-launch',
        status: 'scheduled',
        plan: 'paid',
        launch_week: week(3),
        unlocked: JSON.stringify(['story', 'milestones', 'media']),
      },
      { slug: 'queued-free', status: 'awaiting_badge', plan: 'free', launch_week: week(1), unlocked: '[]' },
      {
        slug: 'launch-again',
        status: 'scheduled',
        plan: 'paid',
        launch_week: week(2),
        unlocked: JSON.stringify(['story']),
      },
    ],
  );
  const upcoming = await api('GET', '/listings?status=upcoming&per_page=100');
  assert.ok(
    upcoming.body.items.some((i: any) => i.slug === 'later-launch'),
    'listed among upcoming launches',
  );
  assert.ok((await orderOf(o.number)).lines.every((l: any) => l.fulfilled));
});

/** The featured section of a page (home, category) as a visitor sees it: its heading and the listings in it. */
async function featuredOn(path: string): Promise<{ heading: string; slugs: string[]; ids: string[] }> {
  const page = await new Browser(t.base).go(path);
  assert.equal(page.res.status, 200, path);
  const $p = $(page.text);
  const box = $p('section.featured');
  const ids = $p('[id]')
    .map((_i, el) => $p(el).attr('id'))
    .get();
  return {
    heading: box.find('h2').text(),
    slugs: box
      .find('li.item h3 a')
      .map((_i, a) => $p(a).attr('href')!.replace('/listings/', ''))
      .get(),
    ids,
  };
}
const daysFromNow = (d: number) => new Date(Date.now() + d * 86_400_000);

test("featured: a paid placement shows, labelled as paid, on the home page and its categories' pages for the product's days, then ends and may be bought again", async () => {
  const db = t.store.db;
  const child = await category(db, 'focus-tools', { parent: 'productivity' });
  const id = await ownListing(db, ua.id, { slug: 'glowfeature', status: 'live', plan: 'free' });
  await db.updateTable('listing_categories').set({ category_id: child }).where('listing_id', '=', id).execute();
  await db.updateTable('listings').set({ primary_category_id: child }).where('id', '=', id).execute();
  assert.ok(!(await featuredOn('/')).slugs.includes('glowfeature'), 'not featured before payment');

  const o = await newOrder({ items: [{ product: 'featured', listing_id: id }], billing_country: 'US' });
  assert.equal((await pay(new Browser(t.base), o.checkout_url, GOOD_CARD)).res.status, 200);

  const home = await featuredOn('/');
  assert.equal(home.slugs[0], 'glowfeature', 'the newest placement first');
  assert.match(home.heading, /Featured\s*Paid placement/);
  assert.equal(new Set(home.ids).size, home.ids.length, `no element id twice on the home page: ${home.ids.join(' ')}`);
  assert.deepEqual((await featuredOn('/categories/focus-tools')).slugs, ['glowfeature'], 'its own category');
  assert.ok((await featuredOn('/categories/productivity')).slugs.includes('glowfeature'), 'the parent of its category');
  assert.ok(!(await featuredOn('/categories/design')).slugs.includes('glowfeature'), 'not in other categories');

  // While it runs, it cannot be bought again; the refusal says until when (7 days, the product's `days`).
  const again = await api('POST', '/orders/quote', { items: [{ product: 'featured', listing_id: id }] });
  assert.equal(again.status, 400);
  assert.equal(again.body.error.details[0].path, 'body.items.0.listing_id');
  assert.match(again.body.error.details[0].message, new RegExp(`until ${daysFromNow(7).toISOString().slice(0, 10)}`));

  // Seven days later it has ended: gone from the pages, and on sale for this listing again.
  await db
    .updateTable('featured_placements')
    .set({ starts_at: daysFromNow(-7.5).toISOString(), ends_at: daysFromNow(-0.5).toISOString() })
    .where('listing_id', '=', id)
    .execute();
  assert.ok(!(await featuredOn('/')).slugs.includes('glowfeature'));
  assert.deepEqual((await featuredOn('/categories/focus-tools')).slugs, []);
  assert.equal((await api('POST', '/orders/quote', { items: [{ product: 'featured', listing_id: id }] })).status, 200);
});

test('featured: a placement bought before the launch starts when the listing goes live, not at payment', async () => {
  const db = t.store.db;
  const id = await ownListing(db, ua.id, {
    slug: 'soonfeature',
    status: 'scheduled',
    plan: 'paid',
    launch_week: week(2),
  });
  const o = await newOrder({ items: [{ product: 'featured', listing_id: id }], billing_country: 'US' });
  assert.equal((await pay(new Browser(t.base), o.checkout_url, GOOD_CARD)).res.status, 200);
  assert.ok(!(await featuredOn('/')).slugs.includes('soonfeature'), 'not shown before it is live');
  const waiting = await api('POST', '/orders/quote', { items: [{ product: 'featured', listing_id: id }] });
  assert.match(waiting.body.error.details[0].message, /waiting for its launch/);

  // Paid 10 days ago, launched 3 days ago: it runs 4 more days.
  await db
    .updateTable('featured_placements')
    .set({ created_at: daysFromNow(-10).toISOString() })
    .where('listing_id', '=', id)
    .execute();
  await db
    .updateTable('listings')
    .set({ status: 'live', launch_week: mondayOf(daysFromNow(-3)), launched_at: daysFromNow(-3).toISOString() })
    .where('id', '=', id)
    .execute();
  assert.ok((await featuredOn('/')).slugs.includes('soonfeature'), 'shown once live, the days counted from the launch');
  const running = await api('POST', '/orders/quote', { items: [{ product: 'featured', listing_id: id }] });
  assert.match(running.body.error.details[0].message, new RegExp(`until ${daysFromNow(4).toISOString().slice(0, 10)}`));

  // Launched 8 days ago: its 7 days are over.
  await db
    .updateTable('listings')
    .set({ launched_at: daysFromNow(-8).toISOString() })
    .where('id', '=', id)
    .execute();
  assert.ok(!(await featuredOn('/')).slugs.includes('soonfeature'));
});

/** A browser signed in as a new person with this role. */
const signedIn = (role: 'user' | 'admin') => signedInBrowser(t, role);

test('the team delivers what payment cannot: /admin/orders lists paid staff lines, and marking one delivered fulfils it in get_order and mails the buyer', async () => {
  const id = await ownListing(t.store.db, ua.id, {
    slug: 'needs-team',
    name: 'Needs <Team>',
    status: 'live',
    plan: 'paid',
  });
  const o = await newOrder({
    items: [
      { product: 'done_for_you', listing_id: id },
      { product: 'billboard_min', listing_id: id },
    ],
    billing_country: 'US',
  });
  const unpaid = await newOrder({ items: [{ product: 'ai_review', listing_id: id }], billing_country: 'US' });
  assert.equal((await pay(new Browser(t.base), o.checkout_url, GOOD_CARD)).res.status, 200);
  const before = await orderOf(o.number);
  const dfy = before.lines.find((l: any) => l.product === 'done_for_you');
  assert.equal(dfy.fulfilled, false, 'staff work is not fulfilled by payment');
  assert.equal(before.lines.find((l: any) => l.product === 'billboard_min').fulfilled, true);

  // Only admins see the queue.
  const visitor = await new Browser(t.base).go('/admin/orders');
  assert.match(visitor.url, /\/sign-in\?next=%2Fadmin%2Forders$/);
  assert.equal((await (await signedIn('user')).go('/admin/orders')).res.status, 403);

  const admin = await signedIn('admin');
  const page = await admin.go('/admin/orders');
  assert.equal(page.res.status, 200);
  const $p = $(page.text);
  const rows = $p('tr[data-line]');
  const row = rows.filter((_i, el) => $p(el).text().includes(o.number));
  assert.equal(row.length, 1, 'the paid staff line, once; the automatic line and the unpaid order are not there');
  assert.ok(!page.text.includes(unpaid.number), 'an unpaid order is not work yet');
  assert.match(row.text(), /done_for_you/);
  assert.match(row.text(), new RegExp(ua.email.replace(/[.+]/g, '\\$&')));
  assert.equal(row.find('a[href="/listings/needs-team"]').text(), 'Needs <Team>', 'the listing name, escaped');

  const lineId = row.attr('data-line')!;
  const action = row.find('form').attr('action')!;
  assert.equal(action, `/admin/orders/lines/${lineId}/delivered`);
  // Without the CSRF token nothing changes.
  assert.equal((await admin.go(action, { form: {} })).res.status, 403);
  assert.equal((await orderOf(o.number)).lines.find((l: any) => l.product === 'done_for_you').fulfilled, false);

  const done = await admin.go(action, { form: { _csrf: csrfOf(page.text, action) } });
  assert.equal(done.res.status, 200);
  assert.match($(done.text)('.flash').text(), new RegExp(`Marked delivered.*${o.number}`));
  assert.equal($(done.text)(`tr[data-line="${lineId}"]`).length, 0, 'gone from the queue');
  assert.equal((await orderOf(o.number)).lines.find((l: any) => l.product === 'done_for_you').fulfilled, true);
  const delivered = async () =>
    (await outboxFor(t.store.db, ua.email)).filter(
      (m) => m.subject.startsWith('Delivered: ') && m.subject.includes(o.number),
    );
  const [mail] = await delivered();
  assert.ok(mail, 'the buyer is told');
  assert.match(mail!.text, /Needs <Team>/);

  // Marking it again (a second tab, a double click) is a 404 page, not a second mail.
  const again = await admin.go(action, { form: { _csrf: csrfOf(page.text, action) } });
  assert.equal(again.res.status, 404);
  assert.equal((await delivered()).length, 1);
  assert.equal(
    (await admin.go('/admin/orders/lines/99999999999/delivered', { form: { _csrf: csrfOf(page.text, action) } })).res
      .status,
    404,
  );
});

test('/admin/orders: a line for a listing that is not live names it without a link (its public page would be a 404)', async () => {
  const id = await ownListing(t.store.db, ua.id, {
    slug: 'team-before-launch',
    name: 'Before <Launch>',
    status: 'draft',
    plan: 'none',
  });
  const o = await newOrder({ items: [{ product: 'done_for_you', listing_id: id }], billing_country: 'US' });
  assert.equal((await pay(new Browser(t.base), o.checkout_url, GOOD_CARD)).res.status, 200);
  const page = await (await signedIn('admin')).go('/admin/orders');
  const $p = $(page.text);
  const row = $p('tr[data-line]').filter((_i, el) => $p(el).text().includes(o.number));
  assert.equal(row.length, 1);
  assert.match(row.find('td').eq(1).text(), /Before <Launch>/);
  assert.equal(row.find('a[href^="/listings/"]').length, 0);
  assert.equal(
    (await new Browser(t.base).go('/listings/team-before-launch')).res.status,
    404,
    'the page a link would open',
  );
});

test("a fully discounted order is confirmed without a card; cancelling an order; expired and other people's links", async () => {
  await addPromo(t.store.db, 'ONTHEHOUSE', { percent_off: 100 });
  const o = await newOrder({ items: [{ product: 'gift_card' }], promo_code: 'ONTHEHOUSE', billing_country: 'DE' });
  assert.equal(o.total_cents, 0);
  const b = new Browser(t.base);
  const page = await b.go(pathOf(o.checkout_url));
  assert.match($(page.text)('#pay-button').text(), /Confirm order/);
  assert.equal($(page.text)('input[name=card_number]').length, 0);
  const r = await pay(b, o.checkout_url, {});
  assert.equal(r.res.status, 200);
  assert.equal((await orderOf(o.number)).status, 'paid');

  const c = await newOrder({ items: [{ product: 'gift_card' }] });
  const cp = await b.go(pathOf(c.checkout_url));
  const cancel = await b.go(`${pathOf(c.checkout_url)}/cancel`, {
    form: { _csrf: csrfOf(cp.text, `${pathOf(c.checkout_url)}/cancel`) },
  });
  assert.match(cancel.text, /This order was cancelled/);
  assert.equal((await orderOf(c.number)).status, 'cancelled');
  const afterCancel = await b.request(`${pathOf(c.checkout_url)}/pay`, {
    form: {
      _csrf: csrfOf(cp.text, `${pathOf(c.checkout_url)}/pay`),
      ...BILLING,
      ...GOOD_CARD,
      expected_total_cents: String(c.total_cents),
    },
  });
  assert.equal(afterCancel.status, 409, 'a cancelled order cannot be paid');
  assert.equal((await orderOf(c.number)).status, 'cancelled');

  // Someone else's order: its number is not visible through the API, but its link is the secret.
  assert.equal((await api('GET', `/orders/${c.number}`, undefined, ub.auth)).status, 404);
});

test('Stripe: the person is sent to the hosted page and the payment is read back from Stripe before it counts', async () => {
  // A stand-in for the Stripe API on 127.0.0.1: Checkout Sessions created and read back.
  const sessions = new Map<string, Record<string, unknown>>();
  let n = 0;
  const fake: HttpServer = httpServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== 'Bearer sk_test_launchlist') {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: { message: 'bad key' } }));
        return;
      }
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        const p = new URLSearchParams(body);
        const id = `cs_test_${++n}`;
        const s = {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.example/pay/${id}`,
          status: 'open',
          payment_status: 'unpaid',
          currency: p.get('line_items[0][price_data][currency]'),
          amount_total: Number(p.get('line_items[0][price_data][unit_amount]')),
          client_reference_id: p.get('client_reference_id'),
          payment_intent: null,
          success_url: p.get('success_url'),
        };
        sessions.set(id, s);
        res.end(JSON.stringify(s));
        return;
      }
      const m = /^\/v1\/checkout\/sessions\/(cs_test_\d+)/.exec(req.url ?? '');
      if (req.method === 'GET' && m && sessions.has(m[1])) {
        res.end(JSON.stringify(sessions.get(m[1])));
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { message: 'no such route' } }));
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  const port = (fake.address() as AddressInfo).port;
  t.server.deps.services.payments = stripeProvider('sk_test_launchlist', { host: '127.0.0.1', port, protocol: 'http' });
  try {
    const id = await ownListing(t.store.db, ua.id, { slug: 'striped', status: 'draft', plan: 'none' });
    const o = await newOrder({ items: [{ product: 'launch', listing_id: id }], billing_country: 'US' });
    const b = new Browser(t.base);
    const page = await b.go(pathOf(o.checkout_url));
    assert.match($(page.text)('#pay-button').text(), /Continue to payment/);
    assert.equal(
      $(page.text)('input[name=card_number]').length,
      0,
      "no card fields: the card is entered on Stripe's page",
    );
    const form = await payForm(b, o.checkout_url, {});
    const sent = await b.request(form.action, { form: form.fields });
    assert.equal(sent.status, 303);
    assert.equal(sent.headers.get('location'), 'https://checkout.stripe.example/pay/cs_test_1');
    const s = sessions.get('cs_test_1')!;
    assert.deepEqual([s.client_reference_id, s.amount_total, s.currency], [o.number, o.total_cents, 'usd']);
    assert.equal(s.success_url, `${o.checkout_url}/return?session_id={CHECKOUT_SESSION_ID}`);

    // Coming back before paying (or with someone else's session) records nothing.
    const early = await b.go(`${pathOf(o.checkout_url)}/return?session_id=cs_test_1`);
    assert.equal(early.res.status, 409);
    assert.equal((await orderOf(o.number)).status, 'pending');
    sessions.set('cs_test_1', { ...s, status: 'complete', payment_status: 'paid', payment_intent: 'pi_test_1' });
    const back = await b.go(`${pathOf(o.checkout_url)}/return?session_id=cs_test_1`);
    assert.equal(back.res.status, 200);
    assert.match(back.url, /\?paid=1$/);
    const paid = await orderOf(o.number);
    assert.equal(paid.status, 'paid');
    assert.equal(
      (
        await t.store.db
          .selectFrom('orders')
          .select(['provider', 'provider_ref'])
          .where('number', '=', o.number)
          .executeTakeFirstOrThrow()
      ).provider_ref,
      'pi_test_1',
    );
    assert.equal((await api('GET', '/listings/striped')).body.status, 'live');

    // The webhook: a completed session of another order, read back from Stripe by its id.
    const id2 = await ownListing(t.store.db, ua.id, { slug: 'striped-two', status: 'draft', plan: 'none' });
    const o2 = await newOrder({ items: [{ product: 'launch', listing_id: id2 }], billing_country: 'US' });
    const f2 = await payForm(b, o2.checkout_url, {});
    assert.equal((await b.request(f2.action, { form: f2.fields })).status, 303);
    const hook = (sid: string) =>
      fetch(`${t.base}/payments/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'checkout.session.completed',
          data: { object: { id: sid, payment_status: 'paid' } },
        }),
      });
    assert.deepEqual(
      await (await hook('cs_test_2')).json(),
      { received: true, handled: false },
      'the event claims paid, but Stripe says unpaid',
    );
    assert.equal((await orderOf(o2.number)).status, 'pending');
    sessions.set('cs_test_2', { ...sessions.get('cs_test_2')!, status: 'complete', payment_status: 'paid' });
    assert.deepEqual(await (await hook('cs_test_2')).json(), { received: true, handled: true });
    assert.equal((await orderOf(o2.number)).status, 'paid');
  } finally {
    t.server.deps.services.payments = testProvider();
    await new Promise<void>((r) => fake.close(() => r()));
  }
});
