// Orders: pricing (prices only from the products table), the rules of every order item, promo codes,
// VAT, building an order, and paying it. Used by the API (quote_order, create_checkout, get_order,
// list_my_orders) and by the checkout page.
//
// Order statuses:
//   pending    built by create_checkout; waiting for the person to pay at checkout_url
//   paid       payment succeeded; the lines were fulfilled in the same transaction (see fulfilment.ts)
//   expired    still unpaid ORDER_TTL_DAYS after it was built; it can no longer be paid
//   cancelled  the person cancelled it on the checkout page; it can no longer be paid
import { createHash, createHmac } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Ctx, Services } from '../operations/context.ts';
import { userOf } from '../operations/context.ts';
import { ApiError, notFound, type ErrorDetail } from '../operations/errors.ts';
import { validationError } from '../operations/errors.ts';
import type { Engine } from '../store/connect.ts';
import type { DB } from '../store/types.ts';
import { toJson } from '../store/json.ts';
import { getSetting, freeQueueWeeks } from '../store/repos/settings.ts';
import {
  allProducts,
  categoriesBySlug,
  expireDueOrders,
  findPromo,
  linesOf,
  listingCategoryIds,
  listingsByIds,
  lockOrder,
  orderByNumber,
  ordersOfUser,
  redeemPromo,
  type OrderLineRow,
  type OrderListing,
  type OrderRow,
  type ProductRecord,
  type PromoRecord,
} from '../store/repos/orders.ts';
import { WEEK_PRODUCTS, isDateString, isMonday, mondayOf, productWeeks } from '../domain/weeks.ts';
import { formatCents, vatCents } from '../domain/money.ts';
import { decideVat, vatRatesFrom, type VatDecision } from '../domain/vat.ts';
import { newOrderNumber } from '../domain/order-number.ts';
import { confirmReverseCharge } from './vat-check.ts';
import type { ChargeResult } from '../payments/types.ts';
import { bundleParts, fulfilOrderLines, fulfilmentKind } from './fulfilment.ts';
import { openPlacements } from '../store/repos/featured.ts';

export const ORDER_STATUSES = ['pending', 'paid', 'expired', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** An unpaid order can be paid for this many days. */
export const ORDER_TTL_DAYS = 7;
/** Products that set a listing's launch week: at most one of them per listing per order. */
const WEEK_SETTERS = new Set(['launch', 'launch_bundle', 'relaunch', 'skip_queue']);
/** Listing statuses a paid launch can start from. */
const LAUNCHABLE = new Set(['draft', 'awaiting_badge', 'scheduled']);
export const CHECKOUT_NOTE = 'Hand this link to the person; they pay on our page. Never ask for card details.';

export interface OrderItem {
  product: string;
  listing_id?: number;
  week?: string;
  amount_cents?: number;
  categories?: string[];
  options?: Record<string, unknown>;
}
export interface OrderRequest {
  items: OrderItem[];
  billing_country?: string;
  vat_number?: string;
  promo_code?: string;
}

export interface PricedLine {
  product: string;
  name: string;
  listing_id: number | null;
  listing: { slug: string; name: string } | null;
  week: string | null;
  quantity: number;
  unit_cents: number;
  amount_cents: number;
  description: string;
  categories: string[];
  options: Record<string, unknown>;
}

export interface PromoView {
  code: string;
  description: string;
  discount_cents: number;
}

export interface Priced {
  lines: PricedLine[];
  subtotal_cents: number;
  discount_cents: number;
  promo: PromoView | null;
  vat: VatDecision;
  vat_cents: number;
  total_cents: number;
}

// ------------------------------------------------------------------------------------ settings

export interface OrderSettings {
  queueWeeks: number;
  billboardMinCents: number | null;
  vatRates: Record<string, number>;
  sellerCountry: string | null;
}

export async function orderSettings(db: Kysely<DB> | Transaction<DB>): Promise<OrderSettings> {
  const [queueWeeks, billboardMin, rates, seller] = await Promise.all([
    freeQueueWeeks(db as Kysely<DB>),
    getSetting<unknown>(db as Kysely<DB>, 'billboard_min_cents', null),
    getSetting<unknown>(db as Kysely<DB>, 'vat_rates_bp', null),
    getSetting<unknown>(db as Kysely<DB>, 'vat_seller_country', null),
  ]);
  return {
    queueWeeks,
    billboardMinCents:
      typeof billboardMin === 'number' && Number.isInteger(billboardMin) && billboardMin >= 1 ? billboardMin : null,
    vatRates: vatRatesFrom(rates),
    sellerCountry: typeof seller === 'string' && /^[A-Za-z]{2}$/.test(seller) ? seller.toUpperCase() : null,
  };
}

/** The least billboard contribution: the product's `min_amount_cents` option (what list_products shows), else the setting, else its price. */
export function billboardMinimum(product: ProductRecord, settings: Pick<OrderSettings, 'billboardMinCents'>): number {
  const opt = product.options.min_amount_cents;
  if (typeof opt === 'number' && Number.isInteger(opt) && opt >= 1) return opt;
  return settings.billboardMinCents ?? Math.max(1, product.price_cents);
}

/** The product codes a product stands for: a bundle its parts, anything else itself. */
export function partsOf(product: Pick<ProductRecord, 'code' | 'options'>): string[] {
  return product.code === 'launch_bundle' ? bundleParts(product.options) : [product.code];
}

// ------------------------------------------------------------------------------------ items

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function listingState(l: OrderListing): string {
  return `plan ${l.plan}, status ${l.status}${l.launch_week ? `, launch week ${l.launch_week}` : ''}`;
}

/**
 * Checks every item against the products, the caller's listings and the rules, and prices it.
 * Returns the priced lines and every rule broken (paths made by `pathOf(index)`); nothing is written.
 */
export async function checkItems(
  db: Kysely<DB> | Transaction<DB>,
  userId: number,
  items: readonly OrderItem[],
  now: Date,
  settings: OrderSettings,
  pathOf: (i: number) => string = (i) => `body.items.${i}`,
): Promise<{ lines: PricedLine[]; errors: ErrorDetail[] }> {
  const products = new Map((await allProducts(db)).map((p) => [p.code, p]));
  const listingIds = items.map((i) => i.listing_id).filter((x): x is number => typeof x === 'number');
  const [listings, placements] = await Promise.all([
    listingsByIds(db, listingIds),
    openPlacements(db, listingIds, now),
  ]);
  const catSlugs = items.flatMap((i) => i.categories ?? []);
  const [categories, listingCats] = await Promise.all([
    categoriesBySlug(db, catSlugs),
    listingCategoryIds(
      db,
      items.filter((i) => i.product === 'extra_categories' && i.listing_id).map((i) => i.listing_id!),
    ),
  ]);

  const errors: ErrorDetail[] = [];
  const lines: PricedLine[] = [];
  /** listing id → part code → item index that buys it */
  const bought = new Map<number, Map<string, number>>();
  /** listing id → index of the item that sets its week */
  const weekSetter = new Map<number, number>();

  items.forEach((item, i) => {
    const p = pathOf(i);
    const err = (field: string, message: string) => errors.push({ path: field ? `${p}.${field}` : p, message });
    const code = item.product;
    const product = products.get(code);
    if (!product?.active) {
      err(
        'product',
        `"${code}" is not a product on sale; use a code from list_products (${
          [...products.values()]
            .filter((x) => x.active)
            .map((x) => x.code)
            .join(', ') || 'none on sale'
        })`,
      );
      return;
    }
    const before = errors.length;

    // Fields that do not apply to this product.
    if (item.listing_id !== undefined && !product.needs_listing)
      err('listing_id', `is not accepted: ${code} is not bought for a listing (needs_listing=false)`);
    if (item.week !== undefined && !(code in WEEK_PRODUCTS))
      err('week', `is not accepted for ${code}: only ${Object.keys(WEEK_PRODUCTS).join(', ')} take a week`);
    if (item.amount_cents !== undefined && code !== 'billboard_min')
      err('amount_cents', `is not accepted for ${code}: only billboard_min takes an amount`);
    if (item.categories !== undefined && code !== 'extra_categories')
      err('categories', `is not accepted for ${code}: only extra_categories takes categories`);
    if (item.options !== undefined) {
      const declared = Object.keys(product.options);
      if (!declared.length) err('options', `is not accepted: ${code} has no options in list_products`);
      else {
        for (const [k, v] of Object.entries(item.options)) {
          if (!(k in product.options)) {
            err(`options.${k}`, `is not an option of ${code}; its options are ${declared.join(', ')}`);
            continue;
          }
          const allowed = product.options[k];
          if (Array.isArray(allowed)) {
            if (!allowed.some((a) => sameJson(a, v))) err(`options.${k}`, `must be one of ${JSON.stringify(allowed)}`);
          } else if (!sameJson(allowed, v))
            err(`options.${k}`, `must be ${JSON.stringify(allowed)} (fixed for this product in list_products)`);
        }
      }
    }

    // The listing it is bought for.
    let listing: OrderListing | undefined;
    if (product.needs_listing) {
      if (item.listing_id === undefined)
        err('listing_id', `is required: ${code} is bought for one of your listings (needs_listing=true)`);
      else {
        const l = listings.get(item.listing_id);
        if (!l || l.owner_id !== userId)
          err('listing_id', `${item.listing_id} is not one of your listings (see list_my_listings)`);
        else listing = l;
      }
    }

    // The week.
    let week: string | null = null;
    if (code in WEEK_PRODUCTS) {
      const offered = productWeeks(code, now, settings.queueWeeks) ?? [];
      if (item.week === undefined) {
        if (WEEK_PRODUCTS[code] === 'required')
          err(
            'week',
            `is required for ${code}: one of the weeks offered (${offered.join(', ') || 'none at the moment'})`,
          );
      } else if (!isDateString(item.week)) err('week', 'must be a real date YYYY-MM-DD (a Monday)');
      else if (!isMonday(item.week))
        err(
          'week',
          `must be a Monday: ${item.week} is a ${WEEKDAYS[new Date(item.week + 'T00:00:00Z').getUTCDay()]}; its week starts on ${mondayOf(item.week)}`,
        );
      else if (!offered.includes(item.week))
        err(
          'week',
          offered.length
            ? `must be one of the weeks offered for ${code} in list_products: ${offered.join(', ')}`
            : `no week is offered for ${code} at the moment`,
        );
      else week = item.week;
    }

    // Rules that depend on the listing.
    const parts = partsOf(product);
    const categoriesBought: Array<{ id: number; slug: string; name: string }> = [];
    if (listing) {
      if (parts.includes('launch')) {
        if (listing.plan === 'paid')
          err(
            'listing_id',
            `${listing.name} is already on the paid plan (${listingState(listing)}); buy relaunch to launch it again in a new week`,
          );
        else if (listing.status === 'live')
          err('listing_id', `${listing.name} is already live; buy relaunch to launch it again in a new week`);
        else if (!LAUNCHABLE.has(listing.status))
          err('listing_id', `${listing.name} cannot be launched while its status is ${listing.status}`);
      }
      const placement = parts.includes('featured') ? placements.get(listing.id) : undefined;
      if (placement)
        err(
          'listing_id',
          `${listing.name} already has a featured placement ${placement.ends_at ? `until ${placement.ends_at.slice(0, 10)}` : 'waiting for its launch'}; buy another once it has ended`,
        );
      if (code === 'skip_queue') {
        if (
          listing.plan !== 'free' ||
          !['awaiting_badge', 'scheduled'].includes(listing.status) ||
          !listing.launch_week
        ) {
          err(
            'listing_id',
            `skip_queue is only for listings on the free plan waiting in the free queue; ${listing.name} is not (${listingState(listing)})`,
          );
        } else if (week && week >= listing.launch_week) {
          err('week', `must be earlier than the listing's queued launch week ${listing.launch_week}`);
        }
      }
      if (code === 'relaunch' && listing.status !== 'live') {
        err(
          'listing_id',
          listing.launched_at
            ? `${listing.name} is not live now (status ${listing.status}); only a live listing can be relaunched`
            : `${listing.name} has not launched yet; buy launch instead`,
        );
      }
      if (code === 'extra_categories') {
        const max =
          typeof product.options.max === 'number' && product.options.max >= 1 ? Math.floor(product.options.max) : 3;
        const slugs = item.categories ?? [];
        const own = listingCats.get(listing.id) ?? new Map<number, boolean>();
        const extras = [...own.entries()].filter(
          ([id, primary]) => !primary && id !== listing!.primary_category_id,
        ).length;
        if (!slugs.length)
          err('categories', `is required for extra_categories: 1 to ${max} category slugs from list_categories`);
        const seen = new Set<string>();
        slugs.forEach((slug, k) => {
          const cat = categories.get(slug);
          if (seen.has(slug)) err(`categories.${k}`, `"${slug}" appears twice`);
          else if (!cat) err(`categories.${k}`, `no category "${slug}" exists; use slugs from list_categories`);
          else if (own.has(cat.id) || cat.id === listing!.primary_category_id)
            err(`categories.${k}`, `"${slug}" is already one of ${listing!.name}'s categories`);
          else categoriesBought.push(cat);
          seen.add(slug);
        });
        if (extras + slugs.length > max)
          err(
            'categories',
            `at most ${max} extra categories per listing: ${listing.name} has ${extras}, so at most ${Math.max(0, max - extras)} more`,
          );
      }
      // One of each thing per listing per order (bundles count as their parts).
      let mine = bought.get(listing.id);
      if (!mine) bought.set(listing.id, (mine = new Map()));
      for (const part of code === 'billboard_min' ? [] : parts) {
        const j = mine.get(part);
        if (j !== undefined)
          err(
            'product',
            `conflicts with items.${j} (${items[j].product}): ${part} would be bought twice for ${listing.name}; put it in the order once`,
          );
        else mine.set(part, i);
      }
      if (WEEK_SETTERS.has(code)) {
        const j = weekSetter.get(listing.id);
        if (j !== undefined && !errors.slice(before).some((e) => e.path === `${p}.product`))
          err(
            'product',
            `conflicts with items.${j} (${items[j].product}): only one of launch, launch_bundle, relaunch and skip_queue per listing in an order`,
          );
        else if (j === undefined) weekSetter.set(listing.id, i);
      }
    }

    // Price.
    let quantity = 1;
    let unit = product.price_cents;
    if (code === 'extra_categories') quantity = Math.max(1, (item.categories ?? []).length);
    if (code === 'billboard_min') {
      const min = billboardMinimum(product, settings);
      unit = item.amount_cents ?? min;
      if (unit < min) err('amount_cents', `must be at least ${min} (${formatCents(min)}), the billboard minimum`);
    }
    if (errors.length > before) return;

    const who = listing ? listing.name : '';
    let description: string;
    switch (code) {
      case 'launch':
        description = `Paid launch of ${who}: ${week ? `in the week of ${week}` : 'live at once'}; unlocks the founder story, milestones and media`;
        break;
      case 'launch_bundle':
        description = `${product.name} for ${who} (${parts.map((x) => products.get(x)?.name ?? x).join(' + ')}): ${week ? `launch in the week of ${week}` : 'live at once'}`;
        break;
      case 'skip_queue':
        description = `Skip the free queue for ${who}: launch week ${listing!.launch_week} moves to ${week}`;
        break;
      case 'relaunch':
        description = `Relaunch of ${who} in the week of ${week}`;
        break;
      case 'featured':
        description = `Featured placement for ${who}${typeof product.options.days === 'number' ? ` (${product.options.days} days)` : ''}; a paid placement, always labelled as such`;
        break;
      case 'extra_categories':
        description = `Extra categories for ${who}: ${categoriesBought.map((c) => c.name).join(', ')}`;
        break;
      case 'billboard_min':
        description = `Billboard contribution for ${who}: ${formatCents(unit)} on the billboard, a PAID ranking`;
        break;
      default:
        description = listing ? `${product.name} for ${who}` : product.name;
    }
    lines.push({
      product: code,
      name: product.name,
      listing_id: listing?.id ?? null,
      listing: listing ? { slug: listing.slug, name: listing.name } : null,
      week,
      quantity,
      unit_cents: unit,
      amount_cents: unit * quantity,
      description,
      categories: categoriesBought.map((c) => c.slug),
      options: item.options ?? {},
    });
  });
  return { lines, errors };
}

// ------------------------------------------------------------------------------------ promo codes

export type PromoCheck = { ok: true; promo: PromoRecord; view: PromoView } | { ok: false; reason: string };

/** Whether a promo code can be used on these lines, and what it takes off (before VAT). */
export async function checkPromo(
  db: Kysely<DB> | Transaction<DB>,
  code: string,
  lines: readonly Pick<PricedLine, 'product' | 'amount_cents'>[],
  now: Date,
): Promise<PromoCheck> {
  const promo = await findPromo(db, code);
  if (!promo)
    return {
      ok: false,
      reason: `there is no promo code "${code}" (codes must be typed exactly as given, upper and lower case included)`,
    };
  if (!promo.active) return { ok: false, reason: `the promo code "${code}" is no longer active` };
  if (promo.expires_at && Date.parse(promo.expires_at) <= now.getTime())
    return { ok: false, reason: `the promo code "${code}" expired on ${promo.expires_at.slice(0, 10)}` };
  if (promo.max_redemptions !== null && promo.redemptions >= promo.max_redemptions)
    return {
      ok: false,
      reason: `the promo code "${code}" is used up (it could be used ${promo.max_redemptions} times)`,
    };
  const eligible = promo.product_codes.length ? lines.filter((l) => promo.product_codes.includes(l.product)) : lines;
  if (!eligible.length)
    return {
      ok: false,
      reason: `the promo code "${code}" is valid only for ${promo.product_codes.join(', ')}, and none of them is in this order`,
    };
  const base = eligible.reduce((s, l) => s + l.amount_cents, 0);
  let discount = 0;
  let what: string;
  if (promo.percent_off !== null && promo.percent_off > 0) {
    const pct = Math.min(100, promo.percent_off);
    discount = Math.round((base * pct) / 100);
    what = `${pct}% off`;
  } else {
    discount = Math.min(base, Math.max(0, promo.amount_off_cents ?? 0));
    what = `${formatCents(promo.amount_off_cents ?? 0)} off`;
  }
  if (discount <= 0) return { ok: false, reason: `the promo code "${code}" takes nothing off this order` };
  const scope = promo.product_codes.length ? ` ${promo.product_codes.join(', ')}` : ' the order';
  return {
    ok: true,
    promo,
    view: { code: promo.code, description: `${what}${scope}, before VAT`, discount_cents: discount },
  };
}

function rateLimited(seconds: number): ApiError {
  return new ApiError(
    'rate_limited',
    `Too many wrong promo codes: try again in ${seconds} seconds. Promo codes are rate-limited so they cannot be guessed.`,
    [{ path: 'body.promo_code', message: `too many wrong codes; retry after ${seconds} seconds` }],
    { 'Retry-After': String(seconds) },
  );
}

export function promoRefused(reason: string, path = 'body.promo_code'): ApiError {
  return new ApiError(
    'promo_code_refused',
    `Promo code refused: ${reason}. Nothing was built; remove promo_code or use another code.`,
    [{ path, message: reason }],
  );
}

// ------------------------------------------------------------------------------------ pricing

export function totals(
  lines: readonly PricedLine[],
  discount: number,
  vat: VatDecision,
): { subtotal_cents: number; discount_cents: number; vat_cents: number; total_cents: number } {
  const subtotal = lines.reduce((s, l) => s + l.amount_cents, 0);
  const d = Math.min(subtotal, Math.max(0, discount));
  const net = subtotal - d;
  const v = vat.reverse_charge ? 0 : vatCents(net, vat.rate_bp);
  return { subtotal_cents: subtotal, discount_cents: d, vat_cents: v, total_cents: net + v };
}

/** Prices a request for the signed-in caller: every rule checked, nothing saved. Throws 400 / promo_code_refused / 429. */
export async function priceOrder(ctx: Ctx, req: OrderRequest): Promise<Priced> {
  const user = userOf(ctx);
  const now = ctx.now();
  const settings = await orderSettings(ctx.db);
  const { lines, errors } = await checkItems(ctx.db, user.userId, req.items, now, settings);
  const vat = decideVat({
    billingCountry: req.billing_country,
    vatNumber: req.vat_number,
    sellerCountry: settings.sellerCountry,
    rates: settings.vatRates,
  });
  if (!vat.ok) errors.push({ path: `body.${vat.field}`, message: vat.message });
  if (errors.length) throw validationError(errors);
  if (!vat.ok) throw new Error('unreachable');
  // The reverse charge only for a number VIES knows (or its fallback when VIES is down): services/vat-check.ts.
  const confirmed = await confirmReverseCharge(ctx, vat.vat, settings.vatRates);
  if (!confirmed.ok) throw validationError([{ path: `body.${confirmed.field}`, message: confirmed.message }]);
  vat.vat = confirmed.vat;

  let promo: PromoView | null = null;
  if (req.promo_code !== undefined && req.promo_code !== '') {
    const guard = ctx.services.promoGuard;
    const key = `u:${user.userId}`;
    const blocked = await guard.retryAfter(key, now.getTime());
    if (blocked) throw rateLimited(blocked);
    const check = await checkPromo(ctx.db, req.promo_code, lines, now);
    if (!check.ok) {
      const wait = await guard.fail(key, now.getTime());
      if (wait) throw rateLimited(wait);
      throw promoRefused(check.reason);
    }
    promo = check.view;
  }
  return { lines, promo, vat: vat.vat, ...totals(lines, promo?.discount_cents ?? 0, vat.vat) };
}

/** The quote_order answer. */
export function quoteView(p: Priced): Record<string, unknown> {
  return {
    currency: 'usd',
    lines: p.lines.map(lineOut),
    subtotal_cents: p.subtotal_cents,
    discount_cents: p.discount_cents,
    promo: p.promo,
    vat: {
      country: p.vat.country,
      rate_bp: p.vat.rate_bp,
      cents: p.vat_cents,
      reverse_charge: p.vat.reverse_charge,
      ...(p.vat.vat_number ? { vat_number: p.vat.vat_number } : {}),
      note: p.vat.note,
    },
    total_cents: p.total_cents,
    total: formatCents(p.total_cents),
    prices_exclude_vat: true,
  };
}

function lineOut(l: PricedLine): Record<string, unknown> {
  return {
    product: l.product,
    name: l.name,
    ...(l.listing_id !== null ? { listing_id: l.listing_id, listing: l.listing } : {}),
    ...(l.week ? { week: l.week } : {}),
    ...(l.categories.length ? { categories: l.categories } : {}),
    ...(Object.keys(l.options).length ? { options: l.options } : {}),
    quantity: l.quantity,
    unit_cents: l.unit_cents,
    amount_cents: l.amount_cents,
    description: l.description,
  };
}

// ------------------------------------------------------------------------------------ checkout links

const linkKeys = new WeakMap<object, Buffer>();

/** The key checkout links are derived from (from the server secrets, so it survives restarts and is shared by instances). */
export function checkoutKey(services: Pick<Services, 'secrets'>): Buffer {
  const { secrets } = services;
  let k = linkKeys.get(secrets);
  if (!k)
    linkKeys.set(secrets, (k = createHmac('sha256', secrets.csrfKey).update('launchlist checkout links v1').digest()));
  return k;
}

/** The secret in an order's checkout link. Derived from the order number, so only its hash is stored and the link can be shown again. */
export function checkoutToken(key: Buffer, number: string): string {
  return createHmac('sha256', key).update(`checkout\0${number}`).digest('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function checkoutUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/checkout/${token}`;
}

// ------------------------------------------------------------------------------------ orders

/** Builds a pending order with its lines in one transaction. Returns the order number and the checkout link's token. */
export async function createOrder(ctx: Ctx, req: OrderRequest): Promise<Record<string, unknown>> {
  const user = userOf(ctx);
  const priced = await priceOrder(ctx, req);
  const now = ctx.now();
  const at = now.toISOString();
  const key = checkoutKey(ctx.services);
  const provider = ctx.config.STRIPE_SECRET_KEY ? 'stripe' : 'test';
  const placeholder = `new-${createHash('sha256').update(`${user.userId}:${at}:${Math.random()}`).digest('hex')}`;
  const { id, number } = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('orders')
      .values({
        number: placeholder,
        user_id: user.userId,
        status: 'pending',
        currency: 'usd',
        subtotal_cents: priced.subtotal_cents,
        discount_cents: priced.discount_cents,
        vat_cents: priced.vat_cents,
        total_cents: priced.total_cents,
        vat_rate_bp: priced.vat.reverse_charge ? 0 : priced.vat.rate_bp,
        billing_country: priced.vat.country,
        vat_number: priced.vat.vat_number,
        reverse_charge: priced.vat.reverse_charge,
        promo_code: priced.promo?.code ?? null,
        checkout_token: placeholder,
        provider,
        provider_ref: null,
        created_at: at,
        paid_at: null,
        expires_at: new Date(now.getTime() + ORDER_TTL_DAYS * 86_400_000).toISOString(),
        billing_name: null,
        billing_address: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const number = newOrderNumber(at); // the year and random characters, never the row id
    await trx
      .updateTable('orders')
      .set({ number, checkout_token: tokenHash(checkoutToken(key, number)) })
      .where('id', '=', row.id)
      .execute();
    await trx
      .insertInto('order_lines')
      .values(
        priced.lines.map((l) => ({
          order_id: row.id,
          product_code: l.product,
          description: l.description,
          listing_id: l.listing_id,
          week: l.week,
          quantity: l.quantity,
          unit_cents: l.unit_cents,
          amount_cents: l.amount_cents,
          options: toJson(l.options),
          fulfilled_at: null,
          categories: toJson(l.categories),
        })),
      )
      .execute();
    return { id: row.id, number };
  });
  const view = await orderViewById(ctx, id);
  if (!view) throw new Error(`order ${number} vanished`);
  return view;
}

function vatNoteOf(o: OrderRow): string {
  if (o.reverse_charge)
    return `Reverse charge: no VAT is charged; the business (VAT number ${o.vat_number}, ${o.billing_country}) accounts for the VAT itself.`;
  if (!o.billing_country)
    return 'VAT is not included yet: it depends on the billing country, entered on the checkout page.';
  if (o.vat_rate_bp > 0)
    return `VAT at ${o.vat_rate_bp / 100}% for ${o.billing_country}, added to the prices, which exclude VAT.`;
  return `No VAT: the billing country ${o.billing_country} is not charged VAT.`;
}

/** The order as get_order, list_my_orders and create_checkout show it. */
export function orderView(
  o: OrderRow,
  lines: readonly OrderLineRow[],
  extra: {
    products: Map<string, ProductRecord>;
    listings: Map<number, OrderListing>;
    promo?: PromoView | null;
    checkoutUrl?: string | null;
  },
): Record<string, unknown> {
  const pending = o.status === 'pending';
  return {
    number: o.number,
    status: o.status,
    currency: o.currency,
    created_at: o.created_at,
    expires_at: o.expires_at,
    paid_at: o.paid_at,
    lines: lines.map((l) => {
      const product = extra.products.get(l.product_code);
      const listing = l.listing_id !== null ? extra.listings.get(l.listing_id) : undefined;
      const kind = product ? fulfilmentKind(product) : 'staff';
      return {
        product: l.product_code,
        name: product?.name ?? l.product_code,
        ...(l.listing_id !== null
          ? { listing_id: l.listing_id, listing: listing ? { slug: listing.slug, name: listing.name } : null }
          : {}),
        ...(l.week ? { week: l.week } : {}),
        ...(l.categories.length ? { categories: l.categories } : {}),
        ...(Object.keys(l.options).length ? { options: l.options } : {}),
        quantity: l.quantity,
        unit_cents: l.unit_cents,
        amount_cents: l.amount_cents,
        description: l.description,
        fulfilled: l.fulfilled_at !== null,
        fulfilled_at: l.fulfilled_at,
        fulfilment: kind === 'automatic' ? 'automatic' : 'by_staff',
        ...(o.status === 'paid' && l.fulfilled_at === null && kind !== 'automatic'
          ? {
              fulfilment_note:
                kind === 'partly'
                  ? 'The automatic parts were applied at payment; our team carries out the rest and marks the line fulfilled.'
                  : 'Our team carries this out and marks the line fulfilled.',
            }
          : {}),
      };
    }),
    subtotal_cents: o.subtotal_cents,
    discount_cents: o.discount_cents,
    promo: o.promo_code
      ? (extra.promo ?? { code: o.promo_code, description: 'promo code', discount_cents: o.discount_cents })
      : null,
    vat: {
      country: o.billing_country,
      rate_bp: o.vat_rate_bp,
      cents: o.vat_cents,
      reverse_charge: o.reverse_charge,
      ...(o.vat_number ? { vat_number: o.vat_number } : {}),
      note: vatNoteOf(o),
    },
    total_cents: o.total_cents,
    total: formatCents(o.total_cents),
    prices_exclude_vat: true,
    ...(o.billing_name || o.billing_address
      ? { billing: { name: o.billing_name, country: o.billing_country, address: o.billing_address } }
      : {}),
    ...(pending && extra.checkoutUrl ? { checkout_url: extra.checkoutUrl, note: CHECKOUT_NOTE } : {}),
  };
}

/** Loads what orderView needs for several orders at once. */
export async function orderViews(
  db: Kysely<DB>,
  rows: readonly OrderRow[],
  link: { key: Buffer; publicUrl: string },
): Promise<Record<string, unknown>[]> {
  const lines = await linesOf(
    db,
    rows.map((r) => r.id),
  );
  const all = [...lines.values()].flat();
  const [products, listings] = await Promise.all([
    allProducts(db).then((ps) => new Map(ps.map((p) => [p.code, p]))),
    listingsByIds(
      db,
      all.map((l) => l.listing_id).filter((x): x is number => x !== null),
    ),
  ]);
  const promos = new Map<string, PromoView>();
  for (const code of new Set(rows.map((r) => r.promo_code).filter((c): c is string => Boolean(c)))) {
    const p = await findPromo(db, code);
    if (p) promos.set(code, { code, description: promoDescription(p), discount_cents: 0 });
  }
  return rows.map((o) => {
    const promo = o.promo_code ? promos.get(o.promo_code) : undefined;
    return orderView(o, lines.get(o.id) ?? [], {
      products,
      listings,
      promo: o.promo_code
        ? { code: o.promo_code, description: promo?.description ?? 'promo code', discount_cents: o.discount_cents }
        : null,
      checkoutUrl: o.status === 'pending' ? checkoutUrl(link.publicUrl, checkoutToken(link.key, o.number)) : null,
    });
  });
}

export function promoDescription(p: PromoRecord): string {
  const what =
    p.percent_off !== null && p.percent_off > 0
      ? `${Math.min(100, p.percent_off)}% off`
      : `${formatCents(p.amount_off_cents ?? 0)} off`;
  return `${what}${p.product_codes.length ? ` ${p.product_codes.join(', ')}` : ' the order'}, before VAT`;
}

async function orderViewById(ctx: Ctx, id: number): Promise<Record<string, unknown> | undefined> {
  const row = await ctx.db.selectFrom('orders').select('number').where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const o = await orderByNumber(ctx.db, userOf(ctx).userId, row.number);
  if (!o) return undefined;
  return (await orderViews(ctx.db, [o], { key: checkoutKey(ctx.services), publicUrl: ctx.config.publicUrl }))[0];
}

export async function getOrder(ctx: Ctx, number: string): Promise<Record<string, unknown>> {
  const user = userOf(ctx);
  await expireDueOrders(ctx.db, ctx.now(), user.userId);
  const o = await orderByNumber(ctx.db, user.userId, number);
  if (!o) return notFound('order', number);
  return (await orderViews(ctx.db, [o], { key: checkoutKey(ctx.services), publicUrl: ctx.config.publicUrl }))[0];
}

export async function listOrders(
  ctx: Ctx,
  limit: number,
  offset: number,
): Promise<{ items: Record<string, unknown>[]; total: number }> {
  const user = userOf(ctx);
  await expireDueOrders(ctx.db, ctx.now(), user.userId);
  const { rows, total } = await ordersOfUser(ctx.db, user.userId, limit, offset);
  return {
    items: await orderViews(ctx.db, rows, { key: checkoutKey(ctx.services), publicUrl: ctx.config.publicUrl }),
    total,
  };
}

// ------------------------------------------------------------------------------------ paying

/** The items an order's stored lines stand for (to check them again at payment). */
export function itemsOfLines(lines: readonly OrderLineRow[]): OrderItem[] {
  return lines.map((l) => ({
    product: l.product_code,
    ...(l.listing_id !== null ? { listing_id: l.listing_id } : {}),
    ...(l.week ? { week: l.week } : {}),
    ...(l.product_code === 'billboard_min' ? { amount_cents: l.unit_cents } : {}),
    ...(l.product_code === 'extra_categories' ? { categories: l.categories } : {}),
    ...(Object.keys(l.options).length ? { options: l.options } : {}),
  }));
}

export interface BillingDetails {
  name: string;
  country: string;
  address: string;
  vat_number?: string;
}

export type BillingResult =
  | { ok: true; order: OrderRow }
  | { ok: false; errors: Array<{ field: string; message: string }> };

/** Saves the billing details of a pending order and works out its VAT and total again (nothing is charged). */
export async function setBilling(db: Kysely<DB>, orderId: number, b: BillingDetails): Promise<BillingResult> {
  const errors: Array<{ field: string; message: string }> = [];
  const name = b.name.trim();
  const address = b.address.trim();
  const country = b.country.trim().toUpperCase();
  if (!name) errors.push({ field: 'name', message: 'Enter the name to bill.' });
  else if (name.length > 160) errors.push({ field: 'name', message: 'The name can be at most 160 characters.' });
  if (!/^[A-Z]{2}$/.test(country)) errors.push({ field: 'country', message: 'Choose the billing country.' });
  if (!address) errors.push({ field: 'address', message: 'Enter the billing address.' });
  else if (address.length > 500)
    errors.push({ field: 'address', message: 'The address can be at most 500 characters.' });
  if ((b.vat_number ?? '').length > 32)
    errors.push({ field: 'vat_number', message: 'The VAT number can be at most 32 characters.' });
  const settings = await orderSettings(db);
  const vat = decideVat({
    billingCountry: country,
    vatNumber: b.vat_number,
    sellerCountry: settings.sellerCountry,
    rates: settings.vatRates,
  });
  if (!vat.ok) {
    if (vat.field === 'vat_number') errors.push({ field: 'vat_number', message: `The VAT number ${vat.message}.` });
    else if (!errors.some((e) => e.field === 'country'))
      errors.push({ field: 'country', message: 'Choose the billing country from the list.' }); // once, if the format check above has not said so
  }
  if (errors.length || !vat.ok) return { ok: false, errors };
  return db.transaction().execute(async (trx) => {
    const o = await trx
      .selectFrom('orders')
      .select(['subtotal_cents', 'discount_cents', 'status'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    const net = Number(o.subtotal_cents) - Number(o.discount_cents);
    const v = vat.vat.reverse_charge ? 0 : vatCents(net, vat.vat.rate_bp);
    await trx
      .updateTable('orders')
      .set({
        billing_name: name,
        billing_address: address,
        billing_country: vat.vat.country,
        vat_number: vat.vat.vat_number,
        reverse_charge: vat.vat.reverse_charge,
        vat_rate_bp: vat.vat.reverse_charge ? 0 : vat.vat.rate_bp,
        vat_cents: v,
        total_cents: net + v,
      })
      .where('id', '=', orderId)
      .where('status', '=', 'pending')
      .execute();
    const row = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    return {
      ok: true as const,
      order: {
        ...row,
        subtotal_cents: Number(row.subtotal_cents),
        discount_cents: Number(row.discount_cents),
        vat_cents: Number(row.vat_cents),
        total_cents: Number(row.total_cents),
        vat_rate_bp: Number(row.vat_rate_bp),
        reverse_charge: Boolean(row.reverse_charge),
      },
    };
  });
}

export type PayOutcome =
  | { kind: 'paid'; order: OrderRow }
  | { kind: 'already_paid'; order: OrderRow }
  | { kind: 'not_payable'; status: string; message: string }
  | { kind: 'refused'; message: string; details: ErrorDetail[] }
  | { kind: 'declined'; message: string };

class Declined extends Error {}
class Refused extends Error {
  readonly details: ErrorDetail[];
  constructor(message: string, details: ErrorDetail[]) {
    super(message);
    this.details = details;
  }
}

/**
 * Checks a pending order again (expiry, every line's rules, the promo code), then charges it and, in
 * the same transaction, marks it paid, counts the promo redemption and fulfils its lines. Paying an
 * order that is already paid changes nothing. `charge` runs inside the transaction, after every
 * check passed; a decline rolls everything back (the order stays pending). With `alreadyCharged`
 * (a provider that took the money on its own page) a failed re-check no longer stops the payment.
 */
export async function payOrder(
  db: Kysely<DB>,
  engine: Engine,
  orderId: number,
  now: Date,
  charge: (order: OrderRow) => Promise<ChargeResult>,
  opts: { alreadyCharged?: boolean; provider?: string } = {},
): Promise<PayOutcome> {
  try {
    return await db.transaction().execute(async (trx) => {
      const o = await lockOrder(trx, engine, orderId);
      if (!o) return { kind: 'not_payable', status: 'missing', message: 'This order does not exist.' } as PayOutcome;
      if (o.status === 'paid') return { kind: 'already_paid', order: o } as PayOutcome;
      if (o.status === 'pending' && o.expires_at && Date.parse(o.expires_at) <= now.getTime()) {
        await trx.updateTable('orders').set({ status: 'expired' }).where('id', '=', o.id).execute();
        return {
          kind: 'not_payable',
          status: 'expired',
          message: `This order expired on ${o.expires_at.slice(0, 10)} without being paid. Build a new order.`,
        } as PayOutcome;
      }
      if (o.status !== 'pending')
        return {
          kind: 'not_payable',
          status: o.status,
          message: `This order is ${o.status} and can no longer be paid. Build a new order.`,
        } as PayOutcome;

      const lines = (await linesOf(trx, [o.id])).get(o.id) ?? [];
      if (!opts.alreadyCharged) {
        const settings = await orderSettings(trx);
        const { errors } = await checkItems(trx, o.user_id, itemsOfLines(lines), now, settings, (i) => `lines.${i}`);
        if (errors.length)
          throw new Refused(
            'This order can no longer be paid as it is: ' +
              errors.map((e) => `${e.path}: ${e.message}`).join('; ') +
              '. Nothing was charged; build a new order.',
            errors,
          );
      }
      if (o.promo_code) {
        const check = await checkPromo(
          trx,
          o.promo_code,
          lines.map((l) => ({ product: l.product_code, amount_cents: l.amount_cents })),
          now,
        );
        const redeemed = check.ok && (await redeemPromo(trx, o.promo_code));
        if (!redeemed && !opts.alreadyCharged) {
          const reason = check.ok ? `the promo code "${o.promo_code}" is used up` : check.reason;
          throw new Refused(`Promo code refused: ${reason}. Nothing was charged; build a new order without it.`, [
            { path: 'promo_code', message: reason },
          ]);
        }
      }
      const result = await charge(o);
      if (!result.ok) throw new Declined(result.message);
      const at = now.toISOString();
      const upd = await trx
        .updateTable('orders')
        .set({
          status: 'paid',
          paid_at: at,
          provider_ref: result.ref,
          ...(opts.provider ? { provider: opts.provider } : {}),
        })
        .where('id', '=', o.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(upd.numUpdatedRows) !== 1) throw new Error(`order ${o.number} changed while it was being paid`);
      await fulfilOrderLines(trx, { id: o.id, status: 'paid' }, lines, now);
      return { kind: 'paid', order: { ...o, status: 'paid', paid_at: at, provider_ref: result.ref } } as PayOutcome;
    });
  } catch (e) {
    if (e instanceof Declined) return { kind: 'declined', message: e.message };
    if (e instanceof Refused) return { kind: 'refused', message: e.message, details: e.details };
    throw e;
  }
}

/** Checks a pending order without charging (before sending the person to a provider's own page). */
export async function checkPayable(
  db: Kysely<DB>,
  order: OrderRow,
  now: Date,
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (order.status !== 'pending') return { ok: false, message: `This order is ${order.status}.` };
  if (order.expires_at && Date.parse(order.expires_at) <= now.getTime())
    return { ok: false, message: 'This order has expired.' };
  const lines = (await linesOf(db, [order.id])).get(order.id) ?? [];
  const { errors } = await checkItems(
    db,
    order.user_id,
    itemsOfLines(lines),
    now,
    await orderSettings(db),
    (i) => `lines.${i}`,
  );
  if (errors.length)
    return {
      ok: false,
      message:
        'This order can no longer be paid as it is: ' +
        errors.map((e) => `${e.path}: ${e.message}`).join('; ') +
        '. Build a new order.',
    };
  if (order.promo_code) {
    const check = await checkPromo(
      db,
      order.promo_code,
      lines.map((l) => ({ product: l.product_code, amount_cents: l.amount_cents })),
      now,
    );
    if (!check.ok) return { ok: false, message: `Promo code refused: ${check.reason}. Build a new order without it.` };
  }
  return { ok: true };
}

/** Cancels a pending order (from the checkout page). */
export async function cancelOrder(db: Kysely<DB>, orderId: number): Promise<boolean> {
  const r = await db
    .updateTable('orders')
    .set({ status: 'cancelled' })
    .where('id', '=', orderId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
