// The product catalogue and its prices: what list_products shows (products on sale, their prices,
// options and launch weeks), the settings that price an order (the free-queue length, the billboard
// minimum, VAT rates, the seller's VAT country), the least billboard contribution, what a bundle
// stands for, and what the admin's prices page reads and saves. Prices come only from the products
// table, set by the admin; nothing is hard-coded.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../store/types.ts';
import { toJson } from '../../store/json.ts';
import { getSetting, freeQueueWeeks } from '../../store/repos/settings.ts';
import { activeProducts } from '../../store/repos/content.ts';
import { allProducts, type ProductRecord } from '../../store/repos/orders.ts';
import { vatRatesFrom } from '../../domain/vat.ts';
import { formatCents } from '../../domain/money.ts';
import { WEEK_PRODUCTS, freeQueueWeek, launchWeeksOffered, productWeeks, weekInfo } from '../../domain/weeks.ts';
import { bundleParts } from './fulfilment.ts';

/** A product as list_products shows it. */
export interface ProductView {
  code: string;
  name: string;
  description: string;
  price_cents: number;
  price: string;
  needs_listing: boolean;
  options?: Record<string, unknown>;
  week?: 'optional' | 'required';
  weeks?: string[];
}

/** The list_products answer. */
export interface ProductList {
  currency: 'usd';
  prices_exclude_vat: true;
  products: ProductView[];
  weeks: Array<{ start: string; end: string; iso_week: string }>;
  free_queue_week: string;
}

/** list_products: every product on sale with its price, and the launch weeks on sale. */
export async function productList(db: Kysely<DB>, now: Date): Promise<ProductList> {
  const queue = await freeQueueWeeks(db);
  const products = (await activeProducts(db)).map((p) => {
    const weeks = productWeeks(p.code, now, queue);
    return {
      code: p.code,
      name: p.name,
      description: p.description,
      price_cents: p.price_cents,
      price: formatCents(p.price_cents),
      needs_listing: p.needs_listing,
      ...(Object.keys(p.options).length ? { options: p.options } : {}),
      ...(weeks ? { week: WEEK_PRODUCTS[p.code], weeks } : {}),
    };
  });
  return {
    currency: 'usd',
    prices_exclude_vat: true,
    products,
    weeks: launchWeeksOffered(now).map((w) => {
      const i = weekInfo(w, now);
      return { start: i.start, end: i.end, iso_week: i.iso_week };
    }),
    free_queue_week: freeQueueWeek(now, queue),
  };
}

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

// ------------------------------------------------------------------ the admin's prices page

/** What the prices page shows: every product (on sale or not), the free queue, the billboard minimum, the seller's VAT country. */
export async function priceSettings(db: Kysely<DB>) {
  const [products, queue, billboardMin, seller] = await Promise.all([
    allProducts(db),
    freeQueueWeeks(db),
    getSetting<unknown>(db, 'billboard_min_cents', null),
    getSetting<unknown>(db, 'vat_seller_country', null),
  ]);
  const bb = products.find((p) => p.code === 'billboard_min');
  const bbOpt = bb?.options.min_amount_cents;
  const min =
    typeof bbOpt === 'number' ? bbOpt : typeof billboardMin === 'number' ? billboardMin : (bb?.price_cents ?? null);
  return { products, queue, billboardMin: min, seller: typeof seller === 'string' ? seller : '' };
}

/** The prices page's values, already checked. */
export interface PriceChanges {
  /** Each product's price (every product but billboard_min, whose price is the minimum). */
  prices: ReadonlyMap<string, number>;
  /** Each product on sale or not. */
  active: ReadonlyMap<string, boolean>;
  billboardMin: number;
  queue: number;
  /** Two letters, or '' for none. */
  seller: string;
}

/** Saves the prices page in one transaction: prices, on sale, the billboard minimum and the settings. */
export async function savePrices(
  db: Kysely<DB>,
  products: readonly ProductRecord[],
  c: PriceChanges,
  at: string,
): Promise<void> {
  const { prices, active, billboardMin, queue, seller } = c;
  await db.transaction().execute(async (trx) => {
    for (const p of products) {
      const on = active.get(p.code) ?? false;
      const patch =
        p.code === 'billboard_min'
          ? { price_cents: billboardMin, options: toJson({ ...p.options, min_amount_cents: billboardMin }) }
          : { price_cents: prices.get(p.code)! };
      await trx
        .updateTable('products')
        .set({ active: on, updated_at: at, ...patch })
        .where('code', '=', p.code)
        .execute();
    }
    const setting = (key: string, value: unknown) =>
      trx
        .insertInto('settings')
        .values({ key, value: toJson(value), updated_at: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: toJson(value), updated_at: at }))
        .execute();
    await setting('billboard_min_cents', billboardMin);
    await setting('free_queue_weeks', queue);
    await setting('vat_seller_country', seller || null);
  });
}
