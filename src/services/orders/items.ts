// The rules of every order item (quote_order, create_checkout, and again at payment): which products
// are on sale, which listing an item is for, the weeks offered, bundles, featured placements, extra
// categories, the billboard minimum, one of each thing per listing. Prices each valid item from the
// products table; writes nothing.
import type { Kysely, Transaction } from 'kysely';
import type { ErrorDetail } from '../../operations/errors.ts';
import type { DB } from '../../store/types.ts';
import {
  allProducts,
  categoriesBySlug,
  listingCategoryIds,
  listingsByIds,
  type OrderLineRow,
  type OrderListing,
} from '../../store/repos/orders.ts';
import { openPlacements } from '../../store/repos/featured.ts';
import { WEEK_PRODUCTS, isDateString, isMonday, mondayOf, productWeeks } from '../../domain/weeks.ts';
import { formatCents } from '../../domain/money.ts';
import { billboardMinimum, partsOf, type OrderSettings } from './catalogue.ts';
import { siteListings } from '../same-site.ts';
import type { Engine } from '../../store/connect.ts';
import { lockSite, type SameSiteListing } from '../../store/repos/same-site.ts';

/** Products that set a listing's launch week: at most one of them per listing per order. */
const WEEK_SETTERS = new Set(['launch', 'launch_bundle', 'relaunch', 'skip_queue']);
/** Listing statuses a paid launch can start from. */
const LAUNCHABLE = new Set(['draft', 'awaiting_badge', 'scheduled']);

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
  /** At payment (inside its transaction): the engine, to hold each launched website's publication lock (store/repos/same-site.ts lockSite) until the order is fulfilled. */
  lockSitesOn?: Engine,
): Promise<{ lines: PricedLine[]; errors: ErrorDetail[] }> {
  const products = new Map((await allProducts(db)).map((p) => [p.code, p]));
  const listingIds = items.map((i) => i.listing_id).filter((x): x is number => typeof x === 'number');
  const [listings, placements] = await Promise.all([
    listingsByIds(db, listingIds),
    openPlacements(db, listingIds, now),
  ]);
  // One website, one listing (services/same-site.ts): a saved listing whose website another person has
  // published since cannot be launched.
  const listedElsewhere = new Map<number, SameSiteListing>();
  for (const item of items) {
    const l = item.listing_id === undefined ? undefined : listings.get(item.listing_id);
    const product = products.get(item.product);
    if (!l || l.owner_id !== userId || l.status !== 'draft' || !product || !partsOf(product).includes('launch'))
      continue;
    if (lockSitesOn) await lockSite(db, lockSitesOn, l.url);
    const { other } = await siteListings(db, l.url, userId);
    if (other) listedElsewhere.set(l.id, other);
  }
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
        else if (listedElsewhere.has(listing.id)) {
          const other = listedElsewhere.get(listing.id)!;
          err(
            'listing_id',
            `${listing.name} cannot be launched: its website is already listed as "${other.name}" (/listings/${other.slug}); one website has one listing. If the product is yours, claim that listing with claim_listing (slug "${other.slug}")`,
          );
        }
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
