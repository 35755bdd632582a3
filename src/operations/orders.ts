import { z } from 'zod';
import { defineOperation } from './define.ts';
import {
  Cents,
  Country,
  DateString,
  Id,
  Paged,
  Pagination,
  Timestamp,
  WeekString,
  offsetOf,
  paged,
} from './schemas.ts';
import { ORDER_STATUSES } from '../domain/orders.ts';
import { productList } from '../services/orders/catalogue.ts';
import { ORDER_TTL_DAYS, createOrder } from '../services/orders/checkout.ts';
import { CHECKOUT_NOTE } from '../services/orders/links.ts';
import { LINE_FULFILMENTS } from '../services/orders/fulfilment.ts';
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

// ------------------------------------------------------------------ results

/** Product and item options: admin-set JSON values by name (no fixed set of keys). */
const Options = z.record(z.string(), z.unknown());

const Product = z.strictObject({
  code: z.string().describe("The product code, an order item's `product`."),
  name: z.string(),
  description: z.string(),
  price_cents: Cents.describe('The current price in USD cents, excluding VAT (extra_categories: per category).'),
  price: z.string().describe('price_cents formatted, e.g. $49.00.'),
  needs_listing: z.boolean().describe("Bought for one of the user's listings: an order item names its listing_id."),
  options: Options.optional().describe(
    'Present when an order item accepts `options`: each key is an option; an array lists the accepted values, any ' +
      'other value is fixed. extra_categories `{max}` (extra categories per listing), billboard_min ' +
      '`{min_amount_cents}` (the least amount_cents accepted).',
  ),
  week: z
    .enum(['optional', 'required'])
    .optional()
    .describe(
      'Present for products sold for a launch week: optional (an item may leave `week` out: live at once, after ' +
        'payment) or required (an item must name its `week`).',
    ),
  weeks: z
    .array(WeekString)
    .optional()
    .describe(
      "Present with `week`: the Mondays (YYYY-MM-DD) the item's `week` may be (skip_queue: only those before " +
        'the free-queue week).',
    ),
});

const ProductList = z.strictObject({
  currency: z.literal('usd').describe('Every price is in US dollars.'),
  prices_exclude_vat: z.literal(true).describe('Prices exclude VAT, which depends on the billing country.'),
  products: z.array(Product).describe('Every product on sale, in list order.'),
  weeks: z
    .array(
      z.strictObject({
        start: WeekString,
        end: DateString.describe('The Sunday (YYYY-MM-DD) the week ends on.'),
        iso_week: z.string().describe('The ISO week, e.g. 2026-W47.'),
      }),
    )
    .describe('The launch weeks on sale, from next week.'),
  free_queue_week: WeekString.describe('The week a free listing submitted now is queued for.'),
});

const LineFields = {
  product: z.string().describe('The product code.'),
  name: z.string().describe('The product name.'),
  listing_id: z.number().int().optional().describe('The listing the line is bought for (products with needs_listing).'),
  listing: z
    .strictObject({ slug: z.string(), name: z.string() })
    .nullable()
    .optional()
    .describe("Present with listing_id: the listing's slug and name (null if the listing no longer exists)."),
  week: WeekString.optional().describe('The launch week chosen, when the item named one.'),
  categories: z.array(z.string()).optional().describe('extra_categories: the slugs of the categories bought.'),
  options: Options.optional().describe('The options the item gave (as list_products offers them).'),
  quantity: z.number().int().describe('1; for extra_categories the number of categories.'),
  unit_cents: Cents.describe('The price of one, in USD cents excluding VAT (billboard_min: the amount contributed).'),
  amount_cents: Cents.describe('unit_cents × quantity, in USD cents excluding VAT.'),
  description: z.string().describe('What the line buys, in words.'),
};

const Promo = z.strictObject({
  code: z.string().describe('The code, exactly as it was typed.'),
  description: z.string().describe('What it takes off, e.g. "20% off launch, before VAT".'),
  discount_cents: Cents.describe('What it takes off this order, in USD cents before VAT.'),
});

const Vat = z.strictObject({
  country: z
    .string()
    .nullable()
    .describe('The country VAT is worked out for (two letters), or null while the billing country is not known.'),
  rate_bp: z.number().int().describe('The VAT rate in basis points (1900 = 19%); 0 when no VAT is charged.'),
  cents: z.number().int().describe('The VAT in USD cents, added to the discounted subtotal.'),
  reverse_charge: z
    .boolean()
    .describe(
      "True for an EU business whose VAT number is accepted (outside the seller's country): no VAT is charged; " +
        'the business accounts for it.',
    ),
  vat_number: z.string().optional().describe('The VAT number as normalised, when one was given.'),
  note: z.string().describe('The VAT decision in words.'),
});

const Totals = {
  subtotal_cents: Cents.describe('The sum of the lines, in USD cents excluding VAT.'),
  discount_cents: Cents.describe('What the promo code takes off, in USD cents before VAT (0 without one).'),
  promo: Promo.nullable().describe('The promo code applied, or null.'),
  vat: Vat,
  total_cents: z.number().int().describe('What the person pays, in USD cents: subtotal − discount + VAT.'),
  total: z.string().describe('total_cents formatted, e.g. $88.06.'),
  prices_exclude_vat: z.literal(true).describe('Line prices exclude VAT; total_cents includes it.'),
};

const Quote = z.strictObject({
  currency: z.literal('usd').describe('Every amount is in US dollars.'),
  lines: z.array(z.strictObject(LineFields)).describe('One line per item, in the order given.'),
  ...Totals,
});

const CHECKOUT_URL_TEXT = [
  'Present while the order is pending: a link to our own checkout page, which the person opens to review the order,',
  'enter billing details and pay themselves. Hand it to the person; never ask for card or payment details (the API',
  'never takes them). Whoever has the link can pay.',
].join(' ');

const Order = z.strictObject({
  number: z.string().describe('The order number (get_order takes it), e.g. LL-2026-K7Q4-M9XD-2TPA.'),
  status: z
    .enum(ORDER_STATUSES)
    .describe(
      'pending (waiting for payment at checkout_url), paid (the lines are fulfilled at once, or by the site team), ' +
        `expired (not paid within ${ORDER_TTL_DAYS} days), cancelled (on the checkout page). Only pending orders ` +
        'can be paid.',
    ),
  currency: z.string().describe('usd: every order is in US dollars.'),
  created_at: Timestamp,
  expires_at: Timestamp.nullable().describe('Until when a pending order can be paid.'),
  paid_at: Timestamp.nullable().describe('When it was paid, or null.'),
  lines: z
    .array(
      z.strictObject({
        ...LineFields,
        fulfilled: z.boolean().describe('True once the line was carried out.'),
        fulfilled_at: Timestamp.nullable().describe('When it was carried out, or null.'),
        fulfilment: z
          .enum(LINE_FULFILMENTS)
          .describe(
            'automatic: applied at payment; by_staff: carried out by the site team (done_for_you, ai_review, a ' +
              "bundle's done-for-you part), which marks the line fulfilled.",
          ),
        fulfilment_note: z
          .string()
          .optional()
          .describe('Present on a paid line the site team has still to carry out: what happens next.'),
      }),
    )
    .describe('The lines, in the order they were given.'),
  ...Totals,
  billing: z
    .strictObject({
      name: z.string().nullable(),
      country: z.string().nullable().describe('Two letters.'),
      address: z.string().nullable(),
    })
    .optional()
    .describe('The billing details entered on the checkout page (absent until then).'),
  checkout_url: z.string().optional().describe(CHECKOUT_URL_TEXT),
  note: z.string().optional().describe('Present with checkout_url: how to use the link.'),
});

// ------------------------------------------------------------------ examples

const EXAMPLE_LINES: z.input<typeof Quote>['lines'] = [
  {
    product: 'launch',
    name: 'Paid launch',
    listing_id: 42,
    listing: { slug: 'funnelry', name: 'Funnelry' },
    quantity: 1,
    unit_cents: 4900,
    amount_cents: 4900,
    description: 'Paid launch of Funnelry: live at once; unlocks the founder story, milestones and media',
  },
  {
    product: 'billboard_min',
    name: 'Billboard contribution',
    listing_id: 42,
    listing: { slug: 'funnelry', name: 'Funnelry' },
    quantity: 1,
    unit_cents: 2500,
    amount_cents: 2500,
    description: 'Billboard contribution for Funnelry: $25.00 on the billboard, a PAID ranking',
  },
];

const EXAMPLE_QUOTE: z.input<typeof Quote> = {
  currency: 'usd',
  lines: EXAMPLE_LINES,
  subtotal_cents: 7400,
  discount_cents: 0,
  promo: null,
  vat: {
    country: 'DE',
    rate_bp: 1900,
    cents: 1406,
    reverse_charge: false,
    note: 'VAT at 19% for DE (EU), added to the prices, which exclude VAT.',
  },
  total_cents: 8806,
  total: '$88.06',
  prices_exclude_vat: true,
};

const EXAMPLE_ORDER: z.input<typeof Order> = {
  number: 'LL-2026-K7Q4-M9XD-2TPA',
  status: 'pending',
  currency: 'usd',
  created_at: '2026-11-20T10:00:00.000Z',
  expires_at: '2026-11-27T10:00:00.000Z',
  paid_at: null,
  lines: EXAMPLE_LINES.map((l) => ({ ...l, fulfilled: false, fulfilled_at: null, fulfilment: 'automatic' as const })),
  subtotal_cents: 7400,
  discount_cents: 0,
  promo: null,
  vat: {
    country: 'DE',
    rate_bp: 1900,
    cents: 1406,
    reverse_charge: false,
    note: 'VAT at 19% for DE, added to the prices, which exclude VAT.',
  },
  total_cents: 8806,
  total: '$88.06',
  prices_exclude_vat: true,
  checkout_url: 'https://launchlist.example/checkout/Vq3kR8m1ZpX0cT7yLw2nB5dJ4hF6gS9aE1uO3iK8rQw',
  note: CHECKOUT_NOTE,
};

const PRICE_RULES =
  'Prices are set by the site admin, in USD cents, exclude VAT, and must never be hard-coded by clients: ' +
  'always read them from list_products or quote_order.';

export const listProducts = defineOperation({
  name: 'list_products',
  method: 'GET',
  path: '/products',
  access: 'public',
  tags: ['Orders'],
  summary: 'Everything purchasable, with current prices',
  description:
    `Every product with its current price in USD cents (excluding VAT), \`needs_listing\` (bought for one of ` +
    `the user's listings), \`options\` where an order item accepts them, and the launch weeks offered. ` +
    `${PRICE_RULES}\n\n` +
    'Returns `{currency: "usd", prices_exclude_vat: true, products: [{code, name, description, price_cents, ' +
    'price (formatted), needs_listing, options?, week? ("optional" | "required"), weeks? (Mondays YYYY-MM-DD ' +
    "the item's `week` may be)}], weeks: [{start, end, iso_week}] (launch weeks on sale, from next week), " +
    'free_queue_week (the week a free listing submitted now is queued for)}`. ' +
    'skip_queue weeks are only those before the free-queue week. Options: extra_categories `{max}` (extra ' +
    'categories per listing), billboard_min `{min_amount_cents}` (the least amount_cents accepted).',
  response: ProductList,
  examples: {
    response: {
      currency: 'usd',
      prices_exclude_vat: true,
      products: [
        {
          code: 'launch',
          name: 'Paid launch',
          description:
            'Go live at once, or in a launch week you choose. Unlocks the founder story, milestones and media ' +
            'sections; no badge needed on your homepage.',
          price_cents: 4900,
          price: '$49.00',
          needs_listing: true,
          week: 'optional',
          weeks: ['2026-11-30', '2026-12-07'],
        },
        {
          code: 'billboard_min',
          name: 'Billboard contribution',
          description:
            'A contribution to the billboard, the PAID ranking ordered by money contributed. You choose the ' +
            'amount, at least the minimum. It never affects community rankings or awards.',
          price_cents: 500,
          price: '$5.00',
          needs_listing: true,
          options: { min_amount_cents: 500 },
        },
      ],
      weeks: [
        { start: '2026-11-30', end: '2026-12-06', iso_week: '2026-W49' },
        { start: '2026-12-07', end: '2026-12-13', iso_week: '2026-W50' },
      ],
      free_queue_week: '2026-12-21',
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx) => productList(ctx.db, ctx.now()),
});

const ORDER_RULES =
  'Item rules (every broken rule is a 400 `validation_failed` naming `body.items.<i>.<field>`; nothing is ' +
  'saved): `product` must be an active code from list_products; ' +
  '`listing_id` is required for products with needs_listing=true and must be one of your listings, and ' +
  "refused for the others; `week` (a Monday YYYY-MM-DD among the product's `weeks` in list_products) — " +
  'launch and launch_bundle: optional (omitted = live at once, after payment), relaunch: required (a live ' +
  'listing only), skip_queue: required, only for a listing on the free plan waiting in the free queue, and ' +
  'earlier than its queued week; ' +
  'launch/launch_bundle only for a listing that is not live and not already paid, and not for a saved listing ' +
  "whose website another person's listing has been published for since (one website, one listing: the message " +
  'names that listing and claim_listing); featured (a placement on ' +
  "the home page and the listing's category pages for the product's `days`, from payment or, for a listing " +
  'not live yet, from its launch) not while one is running or waiting; `amount_cents` only for ' +
  'billboard_min, at least its `min_amount_cents` (default: that minimum); ' +
  '`categories` only for extra_categories: 1 to `max` slugs of existing categories that are not already the ' +
  "listing's (at most `max` extras per listing), priced per category; " +
  '`options` only for products whose list entry has options, each key one of them (an array lists the ' +
  'accepted values; any other value is fixed). ' +
  'An order holds each product once per listing (a bundle counts as its parts) and one of launch, ' +
  'launch_bundle, relaunch and skip_queue per listing.\n\n' +
  'VAT (prices exclude it; it is added to the discounted subtotal): `billing_country` in the EU → that ' +
  "country's rate; outside the EU → none; a `vat_number` of valid format for an EU country → reverse charge " +
  "(no VAT, with a note), unless it is the seller's own country; no billing_country → no VAT yet (settled on " +
  'the checkout page). ' +
  'A vat_number whose format is wrong, or whose country differs from billing_country, is a 400 on ' +
  '`body.vat_number`.\n\n' +
  'Promo codes (exactly as typed, case-sensitive): a code that cannot be used is refused with 400 ' +
  '`promo_code_refused` and the reason (no such code, no longer active, expired, used up, not valid for ' +
  'these products); nothing is built. ' +
  `Wrong codes are rate-limited per user (${PROMO_TRIES} per ${PROMO_WINDOW_MS / 60_000} minutes; then 429 ` +
  `\`rate_limited\` with Retry-After, even for a right code). The code is checked again at payment.`;

const QUOTE_SHAPE =
  'Returns `{currency: "usd", lines: [{product, name, listing_id?, listing?: {slug, name}, week?, ' +
  'categories?, options?, quantity, unit_cents, amount_cents, description}], subtotal_cents, discount_cents, ' +
  'promo: {code, description, discount_cents} | null, vat: {country, rate_bp, cents, reverse_charge, ' +
  'vat_number?, note}, total_cents, total (formatted), prices_exclude_vat: true}`.';

const ORDER_SHAPE =
  'An order: `{number (e.g. LL-2026-K7Q4-M9XD-2TPA), status, currency, created_at, expires_at, paid_at, lines: ' +
  '[{product, name, listing_id?, listing?, week?, categories?, options?, quantity, unit_cents, amount_cents, ' +
  'description, fulfilled, fulfilled_at, fulfilment: "automatic" | "by_staff", fulfilment_note?}], ' +
  'subtotal_cents, ' +
  'discount_cents, promo, vat: {country, rate_bp, cents, reverse_charge, vat_number?, note}, total_cents, ' +
  'total, prices_exclude_vat: true, billing?, ' +
  'checkout_url and note (while pending)}`. Statuses: `pending` (waiting for payment at checkout_url), ' +
  '`paid` (paid; lines fulfilled at once — done_for_you, ai_review and the done-for-you part of a bundle are ' +
  'carried out by the site team, which marks them fulfilled), ' +
  `\`expired\` (not paid within ${ORDER_TTL_DAYS} days), \`cancelled\` (cancelled on the checkout page). ` +
  `Only pending orders can be paid.`;

export const quoteOrder = defineOperation({
  name: 'quote_order',
  method: 'POST',
  path: '/orders/quote',
  access: 'orders:write',
  readOnly: true,
  tags: ['Orders'],
  summary: 'Price an order without saving it',
  description:
    `Prices the items at the site's current prices and validates every option (weeks, categories, ` +
    `billboard minimum, promo code). Saves and charges nothing. With a promo code, shows what it takes off ` +
    `(before VAT). ${PRICE_RULES}\n\n${QUOTE_SHAPE}\n\n${ORDER_RULES}`,
  body: OrderBody,
  response: Quote,
  status: 200,
  idempotencyKey: true,
  paginated: false,
  examples: {
    response: EXAMPLE_QUOTE,
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
    `Builds an order (status \`pending\`) and returns its \`checkout_url\`: a secure page on this service ` +
    `where the person reviews the order, enters billing details and pays THEMSELVES. Hand the link to the ` +
    `person; never ask for card or payment details — the API never takes them. ${PRICE_RULES}\n\n` +
    `Takes the same body as quote_order and applies the same rules; prices are fixed when the order is ` +
    `built. The link works for ${ORDER_TTL_DAYS} days (\`expires_at\`); whoever has it can pay, so share it ` +
    `only with the person paying. get_order shows the link again while the order is pending. ` +
    `After payment the lines are fulfilled at once (a paid launch goes live or is scheduled for its week; ` +
    `extras apply).\n\nReturns 201 with the order. ${ORDER_SHAPE}\n\n${ORDER_RULES}`,
  body: OrderBody,
  response: Order,
  status: 201,
  idempotencyKey: true,
  paginated: false,
  examples: {
    response: EXAMPLE_ORDER,
    request: {
      items: [
        { product: 'launch', listing_id: 42 },
        { product: 'billboard_min', listing_id: 42, amount_cents: 2500 },
      ],
      billing_country: 'DE',
    },
  },
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
  response: Paged(Order),
  examples: { response: { items: [EXAMPLE_ORDER], page: 1, per_page: 20, total: 1, has_more: false } },
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
  description:
    `One of the caller's orders by its number: status, totals with VAT, lines and whether each ` +
    `line was fulfilled, and its checkout_url while pending. Another user's order, or an unknown number, ` +
    `answers 404. ${ORDER_SHAPE}`,
  params: z.object({ number: z.string().min(1).max(255) }),
  response: Order,
  examples: { response: EXAMPLE_ORDER },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => getOrderView(ctx, input.number),
});
