import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notImplemented } from './errors.ts';
import { Country, JsonObject, Paged, Pagination } from './schemas.ts';
import { activeProducts } from '../store/repos/content.ts';
import { freeQueueWeeks } from '../store/repos/settings.ts';
import { WEEK_PRODUCTS, freeQueueWeek, launchWeeksOffered, productWeeks, weekInfo } from '../domain/weeks.ts';
import { formatCents } from '../domain/money.ts';

export const OrderBody = z.strictObject({
  items: z.array(z.strictObject({
    product: z.string().min(1).max(60).describe('A product code from list_products.'),
    listing_id: z.number().int().min(1).optional().describe('Needed when the product has needs_listing=true.'),
    week: z.string().max(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a Monday as YYYY-MM-DD').optional().describe('A Monday YYYY-MM-DD among the weeks list_products offers.'),
    amount_cents: z.number().int().min(1).max(100000000).optional().describe('billboard_min only; at least the minimum.'),
    categories: z.array(z.string().max(220)).max(10).optional().describe('extra_categories only; up to 3 extra category slugs.'),
    options: z.record(z.string(), z.unknown()).refine((o) => Object.keys(o).length <= 20, 'must have at most 20 properties').optional(),
  })).min(1).max(20),
  billing_country: Country.optional().describe('For the VAT preview.'),
  vat_number: z.string().max(32).optional().describe('An EU business with a valid number gets reverse charge.'),
  promo_code: z.string().max(40).optional().describe('Exactly as the user typed it.'),
});

const PRICE_RULES = 'Prices are set by the site admin, in USD cents, exclude VAT, and must never be hard-coded by clients: always read them from list_products or quote_order.';

export const listProducts = defineOperation({
  name: 'list_products', method: 'GET', path: '/products', access: 'public', tags: ['Orders'],
  summary: 'Everything purchasable, with current prices',
  description: `Every product with its current price in USD cents (excluding VAT), \`needs_listing\` (bought for one of the user's listings), \`options\` where an order item accepts them, and the launch weeks offered. ${PRICE_RULES}\n\n`
    + 'Returns `{currency: "usd", prices_exclude_vat: true, products: [{code, name, description, price_cents, price (formatted), needs_listing, options?, week? ("optional" | "required"), weeks? (Mondays YYYY-MM-DD the item\'s `week` may be)}], weeks: [{start, end, iso_week}] (launch weeks on sale, from next week), free_queue_week (the week a free listing submitted now is queued for)}`. '
    + 'skip_queue weeks are only those before the free-queue week. Options: extra_categories `{max}` (extra categories per listing), billboard_min `{min_amount_cents}` (the least amount_cents accepted).',
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  handler: async (ctx) => {
    const now = ctx.now();
    const queue = await freeQueueWeeks(ctx.db);
    const products = (await activeProducts(ctx.db)).map((p) => {
      const weeks = productWeeks(p.code, now, queue);
      return {
        code: p.code, name: p.name, description: p.description, price_cents: p.price_cents, price: formatCents(p.price_cents), needs_listing: p.needs_listing,
        ...(Object.keys(p.options).length ? { options: p.options } : {}),
        ...(weeks ? { week: WEEK_PRODUCTS[p.code], weeks } : {}),
      };
    });
    return {
      currency: 'usd',
      prices_exclude_vat: true,
      products,
      weeks: launchWeeksOffered(now).map((w) => { const i = weekInfo(w, now); return { start: i.start, end: i.end, iso_week: i.iso_week }; }),
      free_queue_week: freeQueueWeek(now, queue),
    };
  },
});

export const quoteOrder = defineOperation({
  name: 'quote_order', method: 'POST', path: '/orders/quote', access: 'orders:write', tags: ['Orders'],
  summary: 'Price an order without saving it',
  description: `Prices the items at the site's current prices and validates every option (weeks, categories, billboard minimum, promo code). Saves and charges nothing. With a promo code, shows what it takes off (before VAT). ${PRICE_RULES}`,
  body: OrderBody,
  response: JsonObject, status: 200, idempotencyKey: true, paginated: false,
  pending: 'a later issue (orders)',
  handler: async () => notImplemented('orders issue'),
});

export const createCheckout = defineOperation({
  name: 'create_checkout', method: 'POST', path: '/orders/checkout', access: 'orders:write', tags: ['Orders'],
  summary: 'Build an order and get its checkout link',
  description: `Builds an order (status \`pending\`) and returns its \`checkout_url\`: a secure page on this service where the person reviews the order, enters billing details and pays THEMSELVES. Hand the link to the person; never ask for card or payment details — the API never takes them. ${PRICE_RULES}`,
  body: OrderBody,
  response: JsonObject, status: 201, idempotencyKey: true, paginated: false,
  pending: 'a later issue (orders)',
  handler: async () => notImplemented('orders issue'),
});

export const listMyOrders = defineOperation({
  name: 'list_my_orders', method: 'GET', path: '/orders', access: 'account:read', tags: ['Orders'],
  summary: "The caller's orders",
  description: "The caller's orders, newest first.",
  query: z.object({ ...Pagination }),
  response: Paged(JsonObject), status: 200, idempotencyKey: false, paginated: true,
  pending: 'a later issue (orders)',
  handler: async () => notImplemented('orders issue'),
});

export const getOrder = defineOperation({
  name: 'get_order', method: 'GET', path: '/orders/{number}', access: 'account:read', tags: ['Orders'],
  summary: 'One order',
  description: 'An order: status (pending, paid, …), totals with VAT, lines and whether each line was fulfilled, and its checkout_url while pending.',
  params: z.object({ number: z.string().min(1).max(40) }),
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  pending: 'a later issue (orders)',
  handler: async () => notImplemented('orders issue'),
});
