import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { toJson } from '../../src/store/json.ts';
import { addWeeks, mondayOf } from '../../src/domain/weeks.ts';

let t: TestApp;
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url: '/api/v1' + url });
  return { status: r.statusCode, body: r.json() };
};

before(async () => {
  t = await testApp({}, async ({ db }) => {
    const now = new Date().toISOString();
    const p = (
      code: string,
      price: number,
      position: number,
      extra: { options?: unknown; active?: boolean; needs_listing?: boolean } = {},
    ) => ({
      code,
      name: `Product ${code}`,
      description: `What ${code} does.`,
      price_cents: price,
      needs_listing: extra.needs_listing ?? true,
      options: toJson(extra.options ?? {}),
      active: extra.active ?? true,
      position,
      updated_at: now,
    });
    await db
      .insertInto('products')
      .values([
        p('launch', 1234, 1),
        p('skip_queue', 777, 2),
        p('relaunch', 2222, 3),
        p('featured', 5555, 4),
        p('billboard_min', 321, 5, { options: { min_amount_cents: 321 } }),
        p('extra_categories', 99, 6, { options: { max: 3 } }),
        p('retired', 100, 7, { active: false }),
        p('gift_card', 2500, 8, { needs_listing: false }),
      ])
      .execute();
    await db
      .insertInto('settings')
      .values({ key: 'free_queue_weeks', value: toJson(3), updated_at: now })
      .execute();
  });
});
after(async () => {
  await t.cleanup();
});

test('list_products: active products with prices from the database (USD cents, excluding VAT)', async () => {
  const { status, body } = await get('/products');
  assert.equal(status, 200);
  assert.equal(body.currency, 'usd');
  assert.equal(body.prices_exclude_vat, true);
  assert.deepEqual(
    body.products.map((p: any) => [p.code, p.price_cents, p.price]),
    [
      ['launch', 1234, '$12.34'],
      ['skip_queue', 777, '$7.77'],
      ['relaunch', 2222, '$22.22'],
      ['featured', 5555, '$55.55'],
      ['billboard_min', 321, '$3.21'],
      ['extra_categories', 99, '$0.99'],
      ['gift_card', 2500, '$25.00'],
    ],
  );
  const by = Object.fromEntries(body.products.map((p: any) => [p.code, p]));
  assert.deepEqual(by.billboard_min.options, { min_amount_cents: 321 });
  assert.deepEqual(by.extra_categories.options, { max: 3 });
  assert.equal('options' in by.featured, false);
  assert.equal(by.gift_card.needs_listing, false);
  assert.equal(by.launch.needs_listing, true);

  await t.store.db.updateTable('products').set({ price_cents: 4321 }).where('code', '=', 'launch').execute();
  const after = await get('/products');
  assert.equal(
    after.body.products[0].price_cents,
    4321,
    'a price changed by the admin shows at once: nothing is hard-coded',
  );
});

test('list_products: the weeks offered — 8 Mondays from next week; skip_queue only before the free-queue week', async () => {
  const { body } = await get('/products');
  const monday = mondayOf(new Date());
  const next8 = Array.from({ length: 8 }, (_, i) => addWeeks(monday, i + 1));
  const by = Object.fromEntries(body.products.map((p: any) => [p.code, p]));
  assert.deepEqual(by.launch.weeks, next8);
  assert.equal(by.launch.week, 'optional');
  assert.deepEqual(by.relaunch.weeks, next8);
  assert.equal(by.relaunch.week, 'required');
  assert.deepEqual(
    by.skip_queue.weeks,
    [addWeeks(monday, 1), addWeeks(monday, 2)],
    'free queue is 3 weeks: skipping to week 3 or later would skip nothing',
  );
  assert.equal('weeks' in by.featured, false);
  assert.equal(body.free_queue_week, addWeeks(monday, 3));
  assert.deepEqual(
    body.weeks.map((w: any) => w.start),
    next8,
  );
  for (const w of body.weeks) assert.match(w.iso_week, /^\d{4}-W\d{2}$/);
});
