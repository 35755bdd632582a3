// quote_order, create_checkout, get_order, list_my_orders: prices from the products table, every item
// rule and refusal, VAT (EU consumer, EU business reverse charge, outside the EU), promo codes (and
// their rate limit), and orders that are built, listed, hidden from others and expire.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { makeUser } from '../jobs/support/users.ts';
import { addDays, addWeeks, mondayOf } from '../../src/domain/weeks.ts';
import { PRICE, addPromo, ownListing, seedShop } from './orders-fixtures.ts';

let t: TestApp;
type User = Awaited<ReturnType<typeof makeUser>>;
let ua: User;
let ub: User;
let reader: User;
const L: Record<string, number> = {};
const monday = mondayOf(new Date());
const week = (n: number) => addWeeks(monday, n);

before(async () => {
  t = await testApp({}, async ({ db }) => {
    await seedShop(db);
  });
  const db = t.store.db;
  ua = await makeUser(db, ['account:read', 'listings:write', 'orders:write']);
  ub = await makeUser(db, ['account:read', 'listings:write', 'orders:write']);
  reader = await makeUser(db, ['account:read']);
  L.draft = await ownListing(db, ua.id, { slug: 'acme-draft', status: 'draft', plan: 'none' });
  L.free = await ownListing(db, ua.id, {
    slug: 'acme-free',
    status: 'awaiting_badge',
    plan: 'free',
    launch_week: week(4),
  });
  L.live = await ownListing(db, ua.id, {
    slug: 'acme-live',
    status: 'live',
    plan: 'paid',
    unlocked: ['story', 'milestones', 'media'],
  });
  L.featured = await ownListing(db, ua.id, {
    slug: 'acme-featured',
    status: 'live',
    plan: 'paid',
    unlocked: ['featured'],
  });
  const soon = new Date(Date.now() + 3 * 86_400_000).toISOString();
  await db
    .insertInto('featured_placements')
    .values({
      listing_id: L.featured,
      order_id: null,
      days: 7,
      starts_at: new Date().toISOString(),
      ends_at: soon,
      created_at: new Date().toISOString(),
    })
    .execute();
  L.liveFree = await ownListing(db, ua.id, { slug: 'acme-live-free', status: 'live', plan: 'free' });
  L.extras = await ownListing(db, ua.id, {
    slug: 'acme-extras',
    status: 'live',
    plan: 'paid',
    extraCategories: ['design', 'marketing'],
  });
  L.bee = await ownListing(db, ub.id, { slug: 'bee-live', status: 'live', plan: 'free' });
});
after(async () => {
  await t.cleanup();
});

type Res = { status: number; body: any; headers: Record<string, unknown> };
async function call(
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  auth: { authorization: string } = ua.auth,
  headers: Record<string, string> = {},
): Promise<Res> {
  const r = await t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { ...auth, ...headers },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return { status: r.statusCode, body: r.json(), headers: r.headers };
}
const quote = (body: unknown, auth?: { authorization: string }) => call('POST', '/orders/quote', body, auth);
const checkout = (body: unknown, auth?: { authorization: string }, headers?: Record<string, string>) =>
  call('POST', '/orders/checkout', body, auth, headers);
const orderCount = async () =>
  Number(
    (
      await t.store.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

function refused(r: Res, path: string, message?: RegExp) {
  assert.equal(r.status, 400, JSON.stringify(r.body));
  assert.equal(r.body.error.code, 'validation_failed');
  const hit = r.body.error.details.find((d: { path: string }) => d.path === path);
  assert.ok(hit, `a detail for ${path}: ${JSON.stringify(r.body.error.details)}`);
  if (message) assert.match(hit.message, message);
}

test('quote: a paid launch priced from the products table, nothing saved or charged', async () => {
  const before = await orderCount();
  const r = await quote({ items: [{ product: 'launch', listing_id: L.draft }] });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.currency, 'usd');
  assert.equal(r.body.prices_exclude_vat, true);
  assert.equal(r.body.lines.length, 1);
  const [line] = r.body.lines;
  assert.deepEqual(
    {
      product: line.product,
      listing_id: line.listing_id,
      quantity: line.quantity,
      unit: line.unit_cents,
      amount: line.amount_cents,
    },
    { product: 'launch', listing_id: L.draft, quantity: 1, unit: PRICE.launch, amount: PRICE.launch },
  );
  assert.match(line.description, /live at once/);
  assert.equal(r.body.subtotal_cents, PRICE.launch);
  assert.equal(r.body.discount_cents, 0);
  assert.equal(r.body.promo, null);
  assert.deepEqual(
    { country: r.body.vat.country, rate: r.body.vat.rate_bp, cents: r.body.vat.cents, rc: r.body.vat.reverse_charge },
    { country: null, rate: 0, cents: 0, rc: false },
  );
  assert.match(r.body.vat.note, /billing country/);
  assert.equal(r.body.total_cents, PRICE.launch);
  assert.equal(await orderCount(), before, 'a quote saves nothing');

  // A price the admin changes shows in the next quote: nothing is hard-coded.
  await t.store.db.updateTable('products').set({ price_cents: 4700 }).where('code', '=', 'launch').execute();
  try {
    assert.equal((await quote({ items: [{ product: 'launch', listing_id: L.draft }] })).body.total_cents, 4700);
  } finally {
    await t.store.db.updateTable('products').set({ price_cents: PRICE.launch }).where('code', '=', 'launch').execute();
  }
});

test('quote: every product with its rule — weeks, extras priced per category, billboard amount, bundles, options', async () => {
  const r = await quote({
    items: [
      { product: 'launch', listing_id: L.draft, week: week(2) },
      { product: 'skip_queue', listing_id: L.free, week: week(1) },
      { product: 'featured', listing_id: L.live, options: { days: 7 } },
      { product: 'done_for_you', listing_id: L.live },
      { product: 'ai_review', listing_id: L.live },
      { product: 'extra_categories', listing_id: L.live, categories: ['note-taking', 'developer-tools'] },
      { product: 'relaunch', listing_id: L.liveFree, week: week(8) },
      { product: 'billboard_min', listing_id: L.live, amount_cents: 2500 },
      { product: 'billboard_min', listing_id: L.extras },
    ],
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const by = (i: number) => r.body.lines[i];
  assert.equal(by(0).week, week(2));
  assert.match(by(0).description, new RegExp(`week of ${week(2)}`));
  assert.equal(by(1).amount_cents, PRICE.skip_queue);
  assert.match(by(1).description, new RegExp(`${week(4)} moves to ${week(1)}`));
  assert.equal(by(2).amount_cents, PRICE.featured);
  assert.deepEqual(by(2).options, { days: 7 });
  assert.equal(by(3).amount_cents, PRICE.done_for_you);
  assert.equal(by(4).amount_cents, PRICE.ai_review);
  assert.deepEqual(
    [by(5).quantity, by(5).unit_cents, by(5).amount_cents],
    [2, PRICE.extra_categories, 2 * PRICE.extra_categories],
    'priced per extra category',
  );
  assert.deepEqual(by(5).categories, ['note-taking', 'developer-tools']);
  assert.equal(by(6).amount_cents, PRICE.relaunch);
  assert.deepEqual([by(7).unit_cents, by(7).amount_cents], [2500, 2500], 'billboard: the amount chosen');
  assert.equal(by(8).amount_cents, PRICE.billboard_min, 'billboard without an amount: the minimum');
  const sum =
    PRICE.launch +
    PRICE.skip_queue +
    PRICE.featured +
    PRICE.done_for_you +
    PRICE.ai_review +
    2 * PRICE.extra_categories +
    PRICE.relaunch +
    2500 +
    PRICE.billboard_min;
  assert.equal(r.body.subtotal_cents, sum);
  assert.equal(r.body.total_cents, sum);

  const bundle = await quote({
    items: [
      { product: 'launch_bundle', listing_id: L.free },
      { product: 'gift_card' },
      { product: 'tier_pack', listing_id: L.live, options: { tier: 'pro' } },
    ],
  });
  assert.equal(bundle.status, 200, JSON.stringify(bundle.body));
  assert.equal(bundle.body.lines[0].amount_cents, PRICE.launch_bundle);
  assert.match(bundle.body.lines[0].description, /live at once/);
  assert.equal(bundle.body.lines[1].amount_cents, PRICE.gift_card);
  assert.equal('listing_id' in bundle.body.lines[1], false);
  assert.equal(bundle.body.lines[2].amount_cents, PRICE.tier_pack);
});

test('refused items: products, listings and fields that do not apply — 400 naming the field, nothing saved', async () => {
  const before = await orderCount();
  refused(
    await quote({ items: [{ product: 'moon_landing', listing_id: L.draft }] }),
    'body.items.0.product',
    /not a product on sale/,
  );
  refused(
    await quote({ items: [{ product: 'retired', listing_id: L.draft }] }),
    'body.items.0.product',
    /not a product on sale/,
  );
  refused(await quote({ items: [{ product: 'launch' }] }), 'body.items.0.listing_id', /is required/);
  refused(
    await quote({ items: [{ product: 'launch', listing_id: L.bee }] }),
    'body.items.0.listing_id',
    /not one of your listings/,
  );
  refused(
    await quote({ items: [{ product: 'launch', listing_id: 999999 }] }),
    'body.items.0.listing_id',
    /not one of your listings/,
  );
  refused(
    await quote({ items: [{ product: 'gift_card', listing_id: L.draft }] }),
    'body.items.0.listing_id',
    /not bought for a listing/,
  );
  refused(
    await quote({ items: [{ product: 'featured', listing_id: L.live, week: week(1) }] }),
    'body.items.0.week',
    /not accepted for featured/,
  );
  refused(
    await quote({ items: [{ product: 'launch', listing_id: L.draft, amount_cents: 5000 }] }),
    'body.items.0.amount_cents',
    /only billboard_min/,
  );
  refused(
    await quote({ items: [{ product: 'launch', listing_id: L.draft, categories: ['design'] }] }),
    'body.items.0.categories',
    /only extra_categories/,
  );
  refused(
    await quote({ items: [{ product: 'launch', listing_id: L.draft, options: { fast: true } }] }),
    'body.items.0.options',
    /has no options/,
  );
  refused(
    await quote({ items: [{ product: 'tier_pack', listing_id: L.live, options: { colour: 'red' } }] }),
    'body.items.0.options.colour',
    /not an option of tier_pack/,
  );
  refused(
    await quote({ items: [{ product: 'tier_pack', listing_id: L.live, options: { tier: 'gold' } }] }),
    'body.items.0.options.tier',
    /one of \["basic","pro"\]/,
  );
  refused(
    await quote({ items: [{ product: 'tier_pack', listing_id: L.live, options: { seats: 50 } }] }),
    'body.items.0.options.seats',
    /must be 5/,
  );
  // zod rules of the body itself
  refused(await quote({ items: [] }), 'body.items');
  refused(
    await quote({ items: Array.from({ length: 21 }, () => ({ product: 'ai_review', listing_id: L.live })) }),
    'body.items',
  );
  refused(await quote({ items: [{ product: 'launch', listing_id: L.draft, colour: 'red' }] }), 'body.items.0');
  refused(
    await quote({ items: [{ product: 'billboard_min', listing_id: L.live, amount_cents: 0 }] }),
    'body.items.0.amount_cents',
  );
  refused(await quote({ items: [{ product: 'launch', listing_id: L.draft, week: 'next' }] }), 'body.items.0.week');
  // every broken rule is reported at once
  const many = await quote({ items: [{ product: 'moon_landing' }, { product: 'launch', listing_id: L.bee }] });
  refused(many, 'body.items.0.product');
  refused(many, 'body.items.1.listing_id');
  refused(await checkout({ items: [{ product: 'launch', listing_id: L.bee }] }), 'body.items.0.listing_id');
  assert.equal(await orderCount(), before, 'nothing was built');
});

test('weeks: a Monday among the weeks offered; launch optional, relaunch and skip_queue required', async () => {
  const tuesday = addDays(week(1), 1);
  refused(
    await quote({ items: [{ product: 'launch', listing_id: L.draft, week: '2026-02-30' }] }),
    'body.items.0.week',
    /real date/,
  );
  refused(
    await quote({ items: [{ product: 'launch', listing_id: L.draft, week: tuesday }] }),
    'body.items.0.week',
    new RegExp(`${tuesday} is a Tuesday; its week starts on ${week(1)}`),
  );
  refused(
    await quote({ items: [{ product: 'launch', listing_id: L.draft, week: monday }] }),
    'body.items.0.week',
    /one of the weeks offered/,
  );
  refused(
    await quote({ items: [{ product: 'launch', listing_id: L.draft, week: week(9) }] }),
    'body.items.0.week',
    /one of the weeks offered/,
  );
  refused(
    await quote({ items: [{ product: 'launch', listing_id: L.draft, week: week(-1) }] }),
    'body.items.0.week',
    /one of the weeks offered/,
  );
  refused(
    await quote({ items: [{ product: 'relaunch', listing_id: L.live }] }),
    'body.items.0.week',
    /is required for relaunch/,
  );
  refused(
    await quote({ items: [{ product: 'skip_queue', listing_id: L.free }] }),
    'body.items.0.week',
    /is required for skip_queue/,
  );
  // skip_queue offers only the weeks before the free-queue week (4 weeks here)
  refused(
    await quote({ items: [{ product: 'skip_queue', listing_id: L.free, week: week(5) }] }),
    'body.items.0.week',
    new RegExp(`${week(1)}, ${week(2)}, ${week(3)}$`),
  );
});

test('listing rules: launch, skip_queue, relaunch, featured and extra categories', async () => {
  refused(
    await quote({ items: [{ product: 'launch', listing_id: L.live }] }),
    'body.items.0.listing_id',
    /already on the paid plan/,
  );
  refused(
    await quote({ items: [{ product: 'launch', listing_id: L.liveFree }] }),
    'body.items.0.listing_id',
    /already live; buy relaunch/,
  );
  refused(
    await quote({ items: [{ product: 'launch_bundle', listing_id: L.liveFree }] }),
    'body.items.0.listing_id',
    /already live/,
  );
  refused(
    await quote({ items: [{ product: 'skip_queue', listing_id: L.live, week: week(1) }] }),
    'body.items.0.listing_id',
    /only for listings on the free plan/,
  );
  refused(
    await quote({ items: [{ product: 'skip_queue', listing_id: L.draft, week: week(1) }] }),
    'body.items.0.listing_id',
    /only for listings on the free plan/,
  );
  refused(
    await quote({ items: [{ product: 'relaunch', listing_id: L.draft, week: week(2) }] }),
    'body.items.0.listing_id',
    /has not launched yet; buy launch/,
  );
  refused(
    await quote({ items: [{ product: 'featured', listing_id: L.featured }] }),
    'body.items.0.listing_id',
    /already has a featured placement until \d{4}-\d\d-\d\d; buy another once it has ended/,
  );
  refused(
    await quote({ items: [{ product: 'extra_categories', listing_id: L.live }] }),
    'body.items.0.categories',
    /is required/,
  );
  refused(
    await quote({ items: [{ product: 'extra_categories', listing_id: L.live, categories: ['astrology'] }] }),
    'body.items.0.categories.0',
    /no category "astrology"/,
  );
  refused(
    await quote({ items: [{ product: 'extra_categories', listing_id: L.live, categories: ['productivity'] }] }),
    'body.items.0.categories.0',
    /already one of/,
  );
  refused(
    await quote({ items: [{ product: 'extra_categories', listing_id: L.extras, categories: ['design'] }] }),
    'body.items.0.categories.0',
    /already one of/,
  );
  refused(
    await quote({ items: [{ product: 'extra_categories', listing_id: L.live, categories: ['design', 'design'] }] }),
    'body.items.0.categories.1',
    /appears twice/,
  );
  refused(
    await quote({
      items: [
        {
          product: 'extra_categories',
          listing_id: L.live,
          categories: ['design', 'marketing', 'finance', 'note-taking'],
        },
      ],
    }),
    'body.items.0.categories',
    /at most 3 extra categories/,
  );
  refused(
    await quote({
      items: [{ product: 'extra_categories', listing_id: L.extras, categories: ['finance', 'note-taking'] }],
    }),
    'body.items.0.categories',
    /has 2, so at most 1 more/,
  );
  assert.equal(
    (await quote({ items: [{ product: 'extra_categories', listing_id: L.extras, categories: ['finance'] }] })).status,
    200,
    'the third extra category fits',
  );
  refused(
    await quote({ items: [{ product: 'billboard_min', listing_id: L.live, amount_cents: PRICE.billboard_min - 1 }] }),
    'body.items.0.amount_cents',
    /at least 600 \(\$6\.00\)/,
  );
});

test('one of each thing per listing: duplicates and launch-week products conflict', async () => {
  refused(
    await quote({
      items: [
        { product: 'featured', listing_id: L.live },
        { product: 'featured', listing_id: L.live },
      ],
    }),
    'body.items.1.product',
    /conflicts with items.0/,
  );
  refused(
    await quote({
      items: [
        { product: 'launch', listing_id: L.draft },
        { product: 'launch_bundle', listing_id: L.draft },
      ],
    }),
    'body.items.1.product',
    /launch would be bought twice/,
  );
  refused(
    await quote({
      items: [
        { product: 'launch', listing_id: L.free },
        { product: 'skip_queue', listing_id: L.free, week: week(1) },
      ],
    }),
    'body.items.1.product',
    /only one of launch, launch_bundle, relaunch and skip_queue/,
  );
  // the same product for two different listings is fine, and so are two billboard contributions
  const ok = await quote({
    items: [
      { product: 'featured', listing_id: L.live },
      { product: 'featured', listing_id: L.liveFree },
      { product: 'billboard_min', listing_id: L.live },
      { product: 'billboard_min', listing_id: L.live, amount_cents: 1000 },
    ],
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.subtotal_cents, 2 * PRICE.featured + PRICE.billboard_min + 1000);
});

test('VAT: EU consumer at the rate from the settings, EU business reverse charge, outside the EU none', async () => {
  const items = [{ product: 'featured', listing_id: L.live }];
  const de = await quote({ items, billing_country: 'de' });
  assert.equal(de.status, 200, JSON.stringify(de.body));
  assert.deepEqual(
    {
      country: de.body.vat.country,
      rate: de.body.vat.rate_bp,
      cents: de.body.vat.cents,
      rc: de.body.vat.reverse_charge,
    },
    { country: 'DE', rate: 1600, cents: Math.round(PRICE.featured * 0.16), rc: false },
  );
  assert.equal(de.body.total_cents, PRICE.featured + Math.round(PRICE.featured * 0.16));

  const fr = await quote({ items, billing_country: 'FR' });
  assert.equal(fr.body.vat.rate_bp, 2000, 'a country the setting does not list: the default table');

  const business = await quote({ items, billing_country: 'DE', vat_number: 'DE136695976' });
  assert.equal(business.status, 200);
  assert.deepEqual(
    { rate: business.body.vat.rate_bp, cents: business.body.vat.cents, rc: business.body.vat.reverse_charge },
    { rate: 0, cents: 0, rc: true },
  );
  assert.match(business.body.vat.note, /Reverse charge/);
  assert.equal(business.body.total_cents, PRICE.featured);

  const us = await quote({ items, billing_country: 'US' });
  assert.deepEqual(
    { rate: us.body.vat.rate_bp, cents: us.body.vat.cents, rc: us.body.vat.reverse_charge },
    { rate: 0, cents: 0, rc: false },
  );
  assert.match(us.body.vat.note, /outside the EU/);

  refused(
    await quote({ items, billing_country: 'DE', vat_number: 'DE12' }),
    'body.vat_number',
    /not a valid DE VAT number/,
  );
  refused(
    await quote({ items, billing_country: 'FR', vat_number: 'DE136695976' }),
    'body.vat_number',
    /billing_country is FR/,
  );
  refused(await quote({ items, billing_country: 'Deutschland' }), 'body.billing_country');

  // The seller's own country: a business there pays VAT.
  await t.store.db
    .insertInto('settings')
    .values({ key: 'vat_seller_country', value: '"DE"', updated_at: new Date().toISOString() })
    .execute();
  try {
    const domestic = await quote({ items, billing_country: 'DE', vat_number: 'DE136695976' });
    assert.equal(domestic.body.vat.reverse_charge, false);
    assert.equal(domestic.body.vat.rate_bp, 1600);
  } finally {
    await t.store.db.deleteFrom('settings').where('key', '=', 'vat_seller_country').execute();
  }
});

test('promo codes: percent and amount off before VAT, product-restricted; refusals with the reason', async () => {
  const db = t.store.db;
  await addPromo(db, 'LAUNCH20', { percent_off: 20 });
  await addPromo(db, 'TENOFF', { amount_off_cents: 1000 });
  await addPromo(db, 'FEATUREHALF', { percent_off: 50, product_codes: ['featured'] });
  await addPromo(db, 'OLD', { percent_off: 10, expires_at: '2020-01-01T00:00:00.000Z' });
  await addPromo(db, 'GONE', { percent_off: 10, max_redemptions: 3, redemptions: 3 });
  await addPromo(db, 'OFF', { percent_off: 10, active: false });
  await addPromo(db, 'RELAUNCHONLY', { percent_off: 10, product_codes: ['relaunch'] });
  const items = [
    { product: 'featured', listing_id: L.live },
    { product: 'ai_review', listing_id: L.live },
  ];
  const subtotal = PRICE.featured + PRICE.ai_review;

  const pct = await quote({ items, promo_code: 'LAUNCH20', billing_country: 'DE' });
  assert.equal(pct.status, 200, JSON.stringify(pct.body));
  assert.equal(pct.body.discount_cents, Math.round(subtotal * 0.2));
  assert.deepEqual(pct.body.promo, {
    code: 'LAUNCH20',
    description: '20% off the order, before VAT',
    discount_cents: Math.round(subtotal * 0.2),
  });
  const net = subtotal - Math.round(subtotal * 0.2);
  assert.equal(pct.body.vat.cents, Math.round(net * 0.16), 'VAT on the discounted subtotal');
  assert.equal(pct.body.total_cents, net + Math.round(net * 0.16));

  const amount = await quote({ items, promo_code: 'TENOFF' });
  assert.equal(amount.body.discount_cents, 1000);
  assert.equal(amount.body.total_cents, subtotal - 1000);

  const restricted = await quote({ items, promo_code: 'FEATUREHALF' });
  assert.equal(restricted.body.discount_cents, PRICE.featured / 2, 'only the featured line is discounted');

  const refusedWith = async (code: string, reason: RegExp) => {
    const r = await quote({ items, promo_code: code });
    assert.equal(r.status, 400, `${code}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error.code, 'promo_code_refused');
    assert.equal(r.body.error.details[0].path, 'body.promo_code');
    assert.match(r.body.error.details[0].message, reason);
    assert.match(r.body.error.message, /Nothing was built/);
  };
  await refusedWith('OLD', /expired on 2020-01-01/);
  await refusedWith('GONE', /used up/);
  await refusedWith('RELAUNCHONLY', /valid only for relaunch/);
  await refusedWith('OFF', /no longer active/);

  // Other users have their own allowance of wrong tries; use one for the rest.
  const before = await orderCount();
  const r = await checkout({ items: [{ product: 'gift_card' }], promo_code: 'launch20' }, ub.auth);
  assert.equal(r.status, 400);
  assert.equal(r.body.error.code, 'promo_code_refused', 'codes are exact: launch20 is not LAUNCH20');
  assert.match(r.body.error.details[0].message, /no promo code "launch20"/);
  assert.equal(await orderCount(), before, 'a refused code builds nothing');
});

test('wrong promo codes are rate-limited per user: 429 with Retry-After, even for a right code after', async () => {
  const guesser = await makeUser(t.store.db, ['account:read', 'orders:write']);
  const items = [{ product: 'gift_card' }];
  await addPromo(t.store.db, 'REALCODE', { percent_off: 5 });
  for (let i = 0; i < 5; i++) {
    const r = await quote({ items, promo_code: `GUESS${i}` }, guesser.auth);
    assert.equal(r.status, 400, `try ${i + 1}`);
    assert.equal(r.body.error.code, 'promo_code_refused');
  }
  const sixth = await quote({ items, promo_code: 'GUESS5' }, guesser.auth);
  assert.equal(sixth.status, 429);
  assert.equal(sixth.body.error.code, 'rate_limited');
  const retry = Number(sixth.headers['retry-after']);
  assert.ok(retry > 0 && retry <= 15 * 60, `Retry-After ${sixth.headers['retry-after']}`);
  const right = await quote({ items, promo_code: 'REALCODE' }, guesser.auth);
  assert.equal(right.status, 429, 'while blocked even a right code is refused, so guessing learns nothing');
  // without a code the guesser can still quote; another user is not affected
  assert.equal((await quote({ items }, guesser.auth)).status, 200);
  assert.equal((await quote({ items, promo_code: 'REALCODE' }, ub.auth)).status, 200);
});

test('create_checkout: a pending order with a readable number and a working checkout link', async () => {
  const before = await orderCount();
  const r = await checkout({
    items: [
      { product: 'launch', listing_id: L.draft },
      { product: 'billboard_min', listing_id: L.live, amount_cents: 1200 },
    ],
    billing_country: 'NL',
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const o = r.body;
  assert.match(o.number, /^LL-\d{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  assert.equal(o.status, 'pending');
  assert.equal(o.subtotal_cents, PRICE.launch + 1200);
  assert.equal(o.vat.rate_bp, 2100);
  assert.equal(o.vat.cents, Math.round((PRICE.launch + 1200) * 0.21));
  assert.equal(o.total_cents, PRICE.launch + 1200 + Math.round((PRICE.launch + 1200) * 0.21));
  assert.equal(o.lines.length, 2);
  assert.ok(o.lines.every((l: any) => l.fulfilled === false && l.fulfilled_at === null));
  assert.match(
    o.checkout_url,
    new RegExp(`^${t.config.publicUrl.replace(/[.:/]/g, '\\$&')}/checkout/[A-Za-z0-9_-]{43}$`),
  );
  assert.match(o.note, /Never ask for card details/);
  const expires = Date.parse(o.expires_at) - Date.parse(o.created_at);
  assert.equal(Math.round(expires / 86_400_000), 7);
  assert.equal(await orderCount(), before + 1);

  // Only a hash of the link's token is stored.
  const token = o.checkout_url.split('/').pop();
  const row = await t.store.db
    .selectFrom('orders')
    .selectAll()
    .where('number', '=', o.number)
    .executeTakeFirstOrThrow();
  assert.notEqual(row.checkout_token, token);
  assert.ok(!JSON.stringify(row).includes(token));

  // The link opens our checkout page.
  const page = await t.app.inject({ method: 'GET', url: new URL(o.checkout_url).pathname });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, new RegExp(o.number));

  // get_order shows the same order and the same link while pending.
  const got = await call('GET', `/orders/${o.number}`);
  assert.equal(got.status, 200);
  assert.equal(got.body.checkout_url, o.checkout_url);
  assert.equal(got.body.total_cents, o.total_cents);
  assert.deepEqual(
    got.body.lines.map((l: any) => [l.product, l.amount_cents, l.fulfilled]),
    [
      ['launch', PRICE.launch, false],
      ['billboard_min', 1200, false],
    ],
  );
});

test('Idempotency-Key: a retried create_checkout returns the same order and builds one', async () => {
  const body = { items: [{ product: 'ai_review', listing_id: L.live }] };
  const before = await orderCount();
  const a = await checkout(body, ua.auth, { 'idempotency-key': 'order-retry-1' });
  const b = await checkout(body, ua.auth, { 'idempotency-key': 'order-retry-1' });
  assert.equal(a.status, 201);
  assert.equal(b.status, 201);
  assert.equal(b.headers['idempotent-replayed'], 'true');
  assert.equal(b.body.number, a.body.number);
  assert.equal(await orderCount(), before + 1);
});

test("get_order and list_my_orders: own orders only (another user's is 404), newest first, paginated", async () => {
  const mine = await checkout({ items: [{ product: 'gift_card' }] }, ub.auth);
  assert.equal(mine.status, 201);
  const other = await call('GET', `/orders/${mine.body.number}`, undefined, ua.auth);
  assert.equal(other.status, 404);
  assert.equal(other.body.error.code, 'not_found');
  assert.equal((await call('GET', '/orders/LL-1999-000001')).status, 404);
  assert.equal(
    (await call('GET', `/orders/${'X'.repeat(120)}`)).status,
    404,
    'an order number is a string: an unknown one of any sensible length is a 404',
  );

  const second = await checkout(
    { items: [{ product: 'gift_card' }, { product: 'ai_review', listing_id: L.bee }] },
    ub.auth,
  );
  const list = await call('GET', '/orders?per_page=1', undefined, ub.auth);
  assert.equal(list.status, 200);
  assert.equal(list.body.total, 2);
  assert.equal(list.body.has_more, true);
  assert.equal(list.body.items[0].number, second.body.number, 'newest first');
  const page2 = await call('GET', '/orders?per_page=1&page=2', undefined, ub.auth);
  assert.equal(page2.body.items[0].number, mine.body.number);
  assert.equal(page2.body.has_more, false);
  const all = await call('GET', '/orders', undefined, ua.auth);
  assert.ok(
    all.body.items.every((o: any) => o.number !== mine.body.number),
    "no one else's orders",
  );
  refused(await call('GET', '/orders?per_page=101', undefined, ub.auth), 'query.per_page');

  // account:read reads orders; quoting needs orders:write
  assert.equal((await call('GET', '/orders', undefined, reader.auth)).status, 200);
  const noScope = await quote({ items: [{ product: 'gift_card' }] }, reader.auth);
  assert.equal(noScope.status, 403);
  assert.equal(
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/orders/quote',
        payload: { items: [{ product: 'gift_card' }] },
      })
    ).statusCode,
    401,
  );
});

test('an unpaid order expires after its time: status expired, no checkout link', async () => {
  const r = await checkout({ items: [{ product: 'gift_card' }] });
  await t.store.db
    .updateTable('orders')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('number', '=', r.body.number)
    .execute();
  const got = await call('GET', `/orders/${r.body.number}`);
  assert.equal(got.body.status, 'expired');
  assert.equal('checkout_url' in got.body, false);
  const page = await t.app.inject({ method: 'GET', url: new URL(r.body.checkout_url).pathname });
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /This order has expired/);
  assert.doesNotMatch(page.body, /id="pay-form"/);
});
