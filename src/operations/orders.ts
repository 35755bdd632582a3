import { z } from 'zod';
import { defineOperation } from './define.ts';
import { Country, Id, JsonObject, Paged, Pagination, offsetOf, paged } from './schemas.ts';
import { productList } from '../services/orders/catalogue.ts';
import { ORDER_TTL_DAYS, createOrder } from '../services/orders/checkout.ts';
import { getOrder as getOrderView, listOrders } from '../services/orders/views.ts';
import { priceOrder, quoteView } from '../services/orders/quote.ts';
import { PROMO_TRIES, PROMO_WINDOW_MS } from '../services/promo-guard.ts';

export const OrderBody = z.strictObject({
  items: z
    .array(
      z.strictObject({
        product: z.string().min(1).max(60).describe('A product code from list_products.'),
        listing_id: Id.optional().describe('Needed when the product has needs_listing=true.'),
        week: z
          .string()
          .max(10)
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a Monday as YYYY-MM-DD')
          .optional()
          .describe('A Monday YYYY-MM-DD among the weeks list_products offers.'),
        amount_cents: z
          .number()
          .int()
          .min(1)
          .max(100000000)
          .optional()
          .describe('billboard_min only; at least the minimum.'),
        categories: z
          .array(z.string().max(220))
          .max(10)
          .optional()
          .describe('extra_categories only; up to 3 extra category slugs.'),
        options: z
          .record(z.string(), z.unknown())
          .refine((o) => Object.keys(o).length <= 20, 'must have at most 20 properties')
          .meta({ maxProperties: 20 })
          .optional(), // the meta puts the rule in the JSON Schema (OpenAPI, MCP) too
      }),
    )
    .min(1)
    .max(20),
  billing_country: Country.optional().describe('For the VAT preview.'),
  vat_number: z.string().max(32).optional().describe('An EU business with a valid number gets reverse charge.'),
  promo_code: z.string().max(40).optional().describe('Exactly as the user typed it.'),
});

const PRICE_RULES =
  'Prices are set by the site admin, in USD cents, exclude VAT, and must never be hard-coded by clients: always read them from list_products or quote_order.';

export const listProducts = defineOperation({
  name: 'list_products',
  method: 'GET',
  path: '/products',
  access: 'public',
  tags: ['Orders'],
  summary: 'Everything purchasable, with current prices',
  description:
    `Every product with its current price in USD cents (excluding VAT), \`needs_listing\` (bought for one of the user's listings), \`options\` where an order item accepts them, and the launch weeks offered. ${PRICE_RULES}\n\n` +
    'Returns `{currency: "usd", prices_exclude_vat: true, products: [{code, name, description, price_cents, price (formatted), needs_listing, options?, week? ("optional" | "required"), weeks? (Mondays YYYY-MM-DD the item\'s `week` may be)}], weeks: [{start, end, iso_week}] (launch weeks on sale, from next week), free_queue_week (the week a free listing submitted now is queued for)}`. ' +
    'skip_queue weeks are only those before the free-queue week. Options: extra_categories `{max}` (extra categories per listing), billboard_min `{min_amount_cents}` (the least amount_cents accepted).',
  response: JsonObject,
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx) => productList(ctx.db, ctx.now()),
});

const ORDER_RULES =
  'Item rules (every broken rule is a 400 `validation_failed` naming `body.items.<i>.<field>`; nothing is saved): `product` must be an active code from list_products; ' +
  "`listing_id` is required for products with needs_listing=true and must be one of your listings, and refused for the others; `week` (a Monday YYYY-MM-DD among the product's `weeks` in list_products) — " +
  'launch and launch_bundle: optional (omitted = live at once, after payment), relaunch: required (a live listing only), skip_queue: required, only for a listing on the free plan waiting in the free queue, and earlier than its queued week; ' +
  "launch/launch_bundle only for a listing that is not live and not already paid; featured (a placement on the home page and the listing's category pages for the product's `days`, from payment or, for a listing not live yet, from its launch) not while one is running or waiting; `amount_cents` only for billboard_min, at least its `min_amount_cents` (default: that minimum); " +
  "`categories` only for extra_categories: 1 to `max` slugs of existing categories that are not already the listing's (at most `max` extras per listing), priced per category; " +
  '`options` only for products whose list entry has options, each key one of them (an array lists the accepted values; any other value is fixed). ' +
  'An order holds each product once per listing (a bundle counts as its parts) and one of launch, launch_bundle, relaunch and skip_queue per listing.\n\n' +
  "VAT (prices exclude it; it is added to the discounted subtotal): `billing_country` in the EU → that country's rate; outside the EU → none; a `vat_number` of valid format for an EU country → reverse charge (no VAT, with a note), unless it is the seller's own country; no billing_country → no VAT yet (settled on the checkout page). " +
  'A vat_number whose format is wrong, or whose country differs from billing_country, is a 400 on `body.vat_number`.\n\n' +
  'Promo codes (exactly as typed, case-sensitive): a code that cannot be used is refused with 400 `promo_code_refused` and the reason (no such code, no longer active, expired, used up, not valid for these products); nothing is built. ' +
  `Wrong codes are rate-limited per user (${PROMO_TRIES} per ${PROMO_WINDOW_MS / 60_000} minutes; then 429 \`rate_limited\` with Retry-After, even for a right code). The code is checked again at payment.`;

const QUOTE_SHAPE =
  'Returns `{currency: "usd", lines: [{product, name, listing_id?, listing?: {slug, name}, week?, categories?, options?, quantity, unit_cents, amount_cents, description}], subtotal_cents, discount_cents, ' +
  'promo: {code, description, discount_cents} | null, vat: {country, rate_bp, cents, reverse_charge, vat_number?, note}, total_cents, total (formatted), prices_exclude_vat: true}`.';

const ORDER_SHAPE =
  'An order: `{number (e.g. LL-2026-000123), status, currency, created_at, expires_at, paid_at, lines: [{product, name, listing_id?, listing?, week?, categories?, options?, quantity, unit_cents, amount_cents, description, ' +
  'fulfilled, fulfilled_at, fulfilment: "automatic" | "by_staff", fulfilment_note?}], subtotal_cents, discount_cents, promo, vat: {country, rate_bp, cents, reverse_charge, vat_number?, note}, total_cents, total, prices_exclude_vat: true, billing?, ' +
  'checkout_url and note (while pending)}`. Statuses: `pending` (waiting for payment at checkout_url), `paid` (paid; lines fulfilled at once — done_for_you, ai_review and the done-for-you part of a bundle are carried out by the site team, which marks them fulfilled), ' +
  `\`expired\` (not paid within ${ORDER_TTL_DAYS} days), \`cancelled\` (cancelled on the checkout page). Only pending orders can be paid.`;

export const quoteOrder = defineOperation({
  name: 'quote_order',
  method: 'POST',
  path: '/orders/quote',
  access: 'orders:write',
  readOnly: true,
  tags: ['Orders'],
  summary: 'Price an order without saving it',
  description: `Prices the items at the site's current prices and validates every option (weeks, categories, billboard minimum, promo code). Saves and charges nothing. With a promo code, shows what it takes off (before VAT). ${PRICE_RULES}\n\n${QUOTE_SHAPE}\n\n${ORDER_RULES}`,
  body: OrderBody,
  response: JsonObject,
  status: 200,
  idempotencyKey: true,
  paginated: false,
  examples: {
    request: {
      items: [
        { product: 'launch', listing_id: 42 },
        { product: 'billboard_min', listing_id: 42, amount_cents: 2500 },
      ],
      billing_country: 'DE',
    },
  },
  handler: async (ctx, input) => quoteView(await priceOrder(ctx, input)),
});

export const createCheckout = defineOperation({
  name: 'create_checkout',
  method: 'POST',
  path: '/orders/checkout',
  access: 'orders:write',
  tags: ['Orders'],
  summary: 'Build an order and get its checkout link',
  description:
    `Builds an order (status \`pending\`) and returns its \`checkout_url\`: a secure page on this service where the person reviews the order, enters billing details and pays THEMSELVES. Hand the link to the person; never ask for card or payment details — the API never takes them. ${PRICE_RULES}\n\n` +
    `Takes the same body as quote_order and applies the same rules; prices are fixed when the order is built. The link works for ${ORDER_TTL_DAYS} days (\`expires_at\`); whoever has it can pay, so share it only with the person paying. get_order shows the link again while the order is pending. ` +
    `After payment the lines are fulfilled at once (a paid launch goes live or is scheduled for its week; extras apply).\n\nReturns 201 with the order. ${ORDER_SHAPE}\n\n${ORDER_RULES}`,
  body: OrderBody,
  response: JsonObject,
  status: 201,
  idempotencyKey: true,
  paginated: false,
  handler: async (ctx, input) => createOrder(ctx, input),
});

export const listMyOrders = defineOperation({
  name: 'list_my_orders',
  method: 'GET',
  path: '/orders',
  access: 'account:read',
  tags: ['Orders'],
  summary: "The caller's orders",
  description: `The caller's orders, newest first, each as get_order shows it. ${ORDER_SHAPE}`,
  query: z.object({ ...Pagination }),
  response: Paged(JsonObject),
  status: 200,
  idempotencyKey: false,
  paginated: true,
  handler: async (ctx, input) => {
    const { items, total } = await listOrders(ctx, input.per_page, offsetOf(input));
    return paged(items, total, input);
  },
});

export const getOrder = defineOperation({
  name: 'get_order',
  method: 'GET',
  path: '/orders/{number}',
  access: 'account:read',
  tags: ['Orders'],
  summary: 'One order',
  description: `One of the caller's orders by its number: status, totals with VAT, lines and whether each line was fulfilled, and its checkout_url while pending. Another user's order, or an unknown number, answers 404. ${ORDER_SHAPE}`,
  params: z.object({ number: z.string().min(1).max(255) }),
  response: JsonObject,
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => getOrderView(ctx, input.number),
});
