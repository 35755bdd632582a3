// The admin prices page: only admins (others get 403, signed-out people the sign-in page); prices in
// USD saved as cents in one transaction, validated (nothing saved on any error), CSRF-checked; the
// new prices show at once in list_products and in new quotes; billboard minimum and free queue too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Browser, csrfOf, $ } from '../auth/browser.ts';
import { liveApp, signedInBrowser, type LiveApp } from '../auth/helpers.ts';
import { makeUser } from '../jobs/support/users.ts';
import { addWeeks, mondayOf } from '../../src/domain/weeks.ts';
import { parseUsd } from '../../src/web/admin/prices.ts';
import { PRICE, ownListing, seedShop } from '../api/orders-fixtures.ts';

let t: LiveApp;
let buyer: Awaited<ReturnType<typeof makeUser>>;
let listingId: number;

before(async () => {
  t = await liveApp({}, async ({ db }) => {
    await seedShop(db);
  });
  buyer = await makeUser(t.store.db, ['account:read', 'orders:write']);
  listingId = await ownListing(t.store.db, buyer.id, { slug: 'priced-live', status: 'live', plan: 'paid' });
});
after(async () => {
  await t.cleanup();
});

const signedIn = (role: 'user' | 'admin') => signedInBrowser(t, role);
async function api(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.base}/api/v1${path}`, {
    method,
    headers: { ...buyer.auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: await r.json() };
}
const products = async () =>
  Object.fromEntries((await api('GET', '/products')).body.products.map((p: any) => [p.code, p]));

/** The page's form as it stands (every price, toggle and setting), with some fields changed. */
async function formWith(b: Browser, changes: Record<string, string | null>): Promise<Record<string, string>> {
  const page = await b.go('/admin/prices');
  assert.equal(page.res.status, 200);
  const $p = $(page.text);
  const fields: Record<string, string> = { _csrf: csrfOf(page.text, '/admin/prices') };
  $p('#prices-form input').each((_, el) => {
    const name = $p(el).attr('name')!;
    if (name === '_csrf') return;
    if ($p(el).attr('type') === 'checkbox') {
      if ($p(el).attr('checked') !== undefined) fields[name] = 'on';
    } else fields[name] = $p(el).attr('value') ?? '';
  });
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) delete fields[k];
    else fields[k] = v;
  }
  return fields;
}

test('parseUsd: dollars and cents to integer cents', () => {
  assert.equal(parseUsd('49'), 4900);
  assert.equal(parseUsd('49.9'), 4990);
  assert.equal(parseUsd('$1,049.05'), 104905);
  assert.equal(parseUsd('0'), 0);
  for (const bad of ['', '-5', '4.999', 'abc', '1e3', '12,34']) assert.equal(parseUsd(bad), null, bad);
});

test('signed out: to the sign-in page; a signed-in non-admin: 403 and nothing changes', async () => {
  const anon = new Browser(t.base);
  const r = await anon.request('/admin/prices');
  assert.equal(r.status, 303);
  assert.equal(r.headers.get('location'), '/sign-in?next=%2Fadmin%2Fprices');
  assert.equal((await anon.request('/admin/prices', { form: { price_launch: '1.00' } })).status, 303);

  const user = await signedIn('user');
  const page = await user.go('/admin/prices');
  assert.equal(page.res.status, 403);
  assert.match($(page.text)('h1').text(), /Admins only/);
  const post = await user.request('/admin/prices', { form: { price_launch: '1.00' } });
  assert.equal(post.status, 403);
  assert.equal((await products()).launch.price_cents, PRICE.launch);
});

test('an admin sets prices: list_products and new quotes show them at once', async () => {
  const admin = await signedIn('admin');
  const page = await admin.go('/admin/prices');
  assert.equal(page.res.status, 200);
  assert.equal(page.res.headers.get('cache-control'), 'private, no-store');
  assert.equal($(page.text)('#price_launch').attr('value'), '45.00');
  assert.equal(
    $(page.text)('input[name=active_retired]').attr('checked'),
    undefined,
    'an inactive product shows unticked',
  );

  const res = await admin.request('/admin/prices', {
    form: await formWith(admin, {
      price_launch: '59.90',
      price_featured: '120',
      billboard_min: '7.50',
      free_queue_weeks: '3',
      active_ai_review: null,
    }),
  });
  assert.equal(res.status, 303);
  assert.match((await admin.go(res.headers.get('location')!)).text, /Prices saved/);

  const list = await products();
  assert.equal(list.launch.price_cents, 5990);
  assert.equal(list.featured.price_cents, 12000);
  assert.equal(list.billboard_min.price_cents, 750);
  assert.deepEqual(list.billboard_min.options, { min_amount_cents: 750 });
  assert.equal(list.skip_queue.price_cents, PRICE.skip_queue, 'untouched prices stay');
  assert.equal('ai_review' in list, false, 'taken off sale');
  assert.equal((await api('GET', '/products')).body.free_queue_week, addWeeks(mondayOf(new Date()), 3));

  const q = await api('POST', '/orders/quote', {
    items: [
      { product: 'featured', listing_id: listingId },
      { product: 'billboard_min', listing_id: listingId },
    ],
  });
  assert.equal(q.status, 200, JSON.stringify(q.body));
  assert.deepEqual(
    q.body.lines.map((l: any) => l.amount_cents),
    [12000, 750],
  );
  const low = await api('POST', '/orders/quote', {
    items: [{ product: 'billboard_min', listing_id: listingId, amount_cents: 700 }],
  });
  assert.equal(low.status, 400);
  assert.match(low.body.error.details[0].message, /at least 750/);
  const off = await api('POST', '/orders/quote', { items: [{ product: 'ai_review', listing_id: listingId }] });
  assert.equal(off.status, 400);
  assert.equal(off.body.error.details[0].path, 'body.items.0.product');
});

test('bad values: nothing is saved, the errors are shown by their fields; CSRF is required', async () => {
  const admin = await signedIn('admin');
  const before = await products();
  for (const [field, value, message] of [
    ['price_launch', '-1', /enter an amount/],
    ['price_launch', 'cheap', /enter an amount/],
    ['price_launch', '1000000.01', /at most \$1,000,000\.00/],
    ['billboard_min', '0', /at least \$0\.01/],
    ['free_queue_weeks', '0', /1 to 52/],
    ['vat_seller_country', 'Ireland', /two-letter code/],
    ['vat_seller_country', 'ZZ', /two-letter code/],
  ] as const) {
    const res = await admin.go('/admin/prices', {
      form: await formWith(admin, { price_featured: '1.00', [field]: value }),
    });
    assert.equal(res.res.status, 400, `${field}=${value}`);
    assert.match($(res.text)(`#${field}-error`).text(), message);
    assert.equal($(res.text)(`#${field}`).attr('aria-invalid'), 'true');
  }
  const noCsrf = await admin.request('/admin/prices', {
    form: { ...(await formWith(admin, { price_featured: '1.00' })), _csrf: 'forged' },
  });
  assert.equal(noCsrf.status, 403);
  assert.deepEqual(await products(), before, 'nothing changed');
});
