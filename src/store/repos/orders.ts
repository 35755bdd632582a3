// Orders and their lines, promo codes and the products they price. Rows only: pricing and rules live
// in services/orders/, what a paid line does in services/orders/fulfilment.ts.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Engine } from '../connect.ts';
import type { DB, OrderLinesTable, OrdersTable } from '../types.ts';
import { fromJson } from '../json.ts';
import { num } from './sql-helpers.ts';
import { lockRows } from '../dialect.ts';

type Db = Kysely<DB> | Transaction<DB>;

export interface ProductRecord {
  code: string;
  name: string;
  description: string;
  price_cents: number;
  needs_listing: boolean;
  options: Record<string, unknown>;
  active: boolean;
  position: number;
}

/** Every product, active or not, in list order. */
export async function allProducts(db: Db): Promise<ProductRecord[]> {
  const rows = await db.selectFrom('products').selectAll().orderBy('position').orderBy('code').execute();
  return rows.map((r) => ({
    code: r.code,
    name: r.name,
    description: r.description,
    price_cents: num(r.price_cents),
    needs_listing: Boolean(r.needs_listing),
    options: fromJson<Record<string, unknown>>(r.options, {}),
    active: Boolean(r.active),
    position: num(r.position),
  }));
}

export interface PromoRecord {
  code: string;
  percent_off: number | null;
  amount_off_cents: number | null;
  product_codes: string[];
  max_redemptions: number | null;
  redemptions: number;
  expires_at: string | null;
  active: boolean;
}

/** The promo code stored exactly as `code` (both engines compare text case-sensitively with =). */
export async function findPromo(db: Db, code: string): Promise<PromoRecord | undefined> {
  const r = await db.selectFrom('promo_codes').selectAll().where('code', '=', code).executeTakeFirst();
  if (!r) return undefined;
  return {
    code: r.code,
    percent_off: r.percent_off === null ? null : num(r.percent_off),
    amount_off_cents: r.amount_off_cents === null ? null : num(r.amount_off_cents),
    product_codes: fromJson<string[]>(r.product_codes, []),
    max_redemptions: r.max_redemptions === null ? null : num(r.max_redemptions),
    redemptions: num(r.redemptions),
    expires_at: r.expires_at,
    active: Boolean(r.active),
  };
}

/** Counts one redemption unless the code is used up; false when it was (nothing changes then). */
export async function redeemPromo(db: Db, code: string): Promise<boolean> {
  const res = await db
    .updateTable('promo_codes')
    .set((eb) => ({ redemptions: eb('redemptions', '+', 1) }))
    .where('code', '=', code)
    .where((eb) => eb.or([eb('max_redemptions', 'is', null), eb('redemptions', '<', eb.ref('max_redemptions'))]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** A listing as the order rules need it. */
export interface OrderListing {
  id: number;
  slug: string;
  name: string;
  url: string;
  owner_id: number | null;
  status: string;
  plan: string;
  launch_week: string | null;
  launched_at: string | null;
  primary_category_id: number | null;
  unlocked: string[];
}

export async function listingsByIds(db: Db, ids: readonly number[]): Promise<Map<number, OrderListing>> {
  const out = new Map<number, OrderListing>();
  const unique = [...new Set(ids)];
  if (!unique.length) return out;
  const rows = await db
    .selectFrom('listings')
    .select([
      'id',
      'slug',
      'name',
      'url',
      'owner_id',
      'status',
      'plan',
      'launch_week',
      'launched_at',
      'primary_category_id',
      'unlocked',
    ])
    .where('id', 'in', unique)
    .execute();
  for (const r of rows) out.set(r.id, { ...r, unlocked: fromJson<string[]>(r.unlocked, []) });
  return out;
}

/** The categories a listing is in: primary and extras (category id → is_primary). */
export async function listingCategoryIds(
  db: Db,
  listingIds: readonly number[],
): Promise<Map<number, Map<number, boolean>>> {
  const out = new Map<number, Map<number, boolean>>();
  const unique = [...new Set(listingIds)];
  if (!unique.length) return out;
  const rows = await db
    .selectFrom('listing_categories')
    .select(['listing_id', 'category_id', 'is_primary'])
    .where('listing_id', 'in', unique)
    .execute();
  for (const r of rows) {
    let m = out.get(r.listing_id);
    if (!m) out.set(r.listing_id, (m = new Map()));
    m.set(r.category_id, Boolean(r.is_primary));
  }
  return out;
}

export async function categoriesBySlug(
  db: Db,
  slugs: readonly string[],
): Promise<Map<string, { id: number; slug: string; name: string }>> {
  const out = new Map<string, { id: number; slug: string; name: string }>();
  const unique = [...new Set(slugs)];
  if (!unique.length) return out;
  const rows = await db.selectFrom('categories').select(['id', 'slug', 'name']).where('slug', 'in', unique).execute();
  for (const r of rows) out.set(r.slug, r);
  return out;
}

export type OrderRow = Omit<OrdersTable, 'id' | 'reverse_charge'> & { id: number; reverse_charge: boolean };
export type OrderLineRow = Omit<OrderLinesTable, 'id' | 'options' | 'categories'> & {
  id: number;
  options: Record<string, unknown>;
  categories: string[];
};

function orderRow(o: Selectable<OrdersTable>): OrderRow {
  return {
    ...o,
    subtotal_cents: num(o.subtotal_cents),
    discount_cents: num(o.discount_cents),
    vat_cents: num(o.vat_cents),
    total_cents: num(o.total_cents),
    vat_rate_bp: num(o.vat_rate_bp),
    reverse_charge: Boolean(o.reverse_charge),
  };
}

function lineRow(l: Selectable<OrderLinesTable>): OrderLineRow {
  return {
    ...l,
    quantity: num(l.quantity),
    unit_cents: num(l.unit_cents),
    amount_cents: num(l.amount_cents),
    options: fromJson<Record<string, unknown>>(l.options, {}),
    categories: fromJson<string[]>(l.categories, []),
  };
}

export async function orderByNumber(db: Db, userId: number, number: string): Promise<OrderRow | undefined> {
  const r = await db
    .selectFrom('orders')
    .selectAll()
    .where('number', '=', number)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return r ? orderRow(r) : undefined;
}

export async function orderByTokenHash(db: Db, hash: string): Promise<OrderRow | undefined> {
  const r = await db.selectFrom('orders').selectAll().where('checkout_token', '=', hash).executeTakeFirst();
  return r ? orderRow(r) : undefined;
}

/** The order row, locked for the rest of the transaction on PostgreSQL (SQLite transactions are serial already). */
export async function lockOrder(trx: Transaction<DB>, engine: Engine, id: number): Promise<OrderRow | undefined> {
  const r = await trx.selectFrom('orders').selectAll().where('id', '=', id).$call(lockRows(engine)).executeTakeFirst();
  return r ? orderRow(r) : undefined;
}

export async function ordersOfUser(
  db: Db,
  userId: number,
  limit: number,
  offset: number,
): Promise<{ rows: OrderRow[]; total: number }> {
  const rows = await db
    .selectFrom('orders')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const total = num(
    (
      await db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );
  return { rows: rows.map(orderRow), total };
}

/** Lines of the given orders, in the order they were added, grouped by order id. */
export async function linesOf(db: Db, orderIds: readonly number[]): Promise<Map<number, OrderLineRow[]>> {
  const out = new Map<number, OrderLineRow[]>();
  if (!orderIds.length) return out;
  const rows = await db
    .selectFrom('order_lines')
    .selectAll()
    .where('order_id', 'in', [...new Set(orderIds)])
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const line = lineRow(r);
    const list = out.get(line.order_id) ?? [];
    list.push(line);
    out.set(line.order_id, list);
  }
  return out;
}

/** Pending orders past their expiry become `expired` (of one user, or all). Returns how many. */
export async function expireDueOrders(db: Db, now: Date, userId?: number): Promise<number> {
  let q = db
    .updateTable('orders')
    .set({ status: 'expired' })
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now.toISOString());
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** A line of a paid order that waits for the site team (done_for_you, ai_review, a bundle's staff part …). */
export interface StaffLine extends OrderLineRow {
  order_number: string;
  paid_at: string;
  buyer_email: string;
  buyer_name: string;
  /** The listing the line is for (its status: only a live listing has a public page). */
  listing: { slug: string; name: string; status: string } | null;
}

/** Lines of paid orders not fulfilled yet, the longest waiting first (the team's queue), and how many there are. */
export async function staffQueue(db: Db, limit: number, offset: number): Promise<{ rows: StaffLine[]; total: number }> {
  const base = db
    .selectFrom('order_lines as ln')
    .innerJoin('orders as o', 'o.id', 'ln.order_id')
    .where('o.status', '=', 'paid')
    .where('ln.fulfilled_at', 'is', null);
  const rows = await base
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .leftJoin('listings as l', 'l.id', 'ln.listing_id')
    .selectAll('ln')
    .select([
      'o.number as order_number',
      'o.paid_at',
      'u.email as buyer_email',
      'u.name as buyer_name',
      'l.slug as listing_slug',
      'l.name as listing_name',
      'l.status as listing_status',
    ])
    .orderBy('o.paid_at')
    .orderBy('ln.id')
    .limit(limit)
    .offset(offset)
    .execute();
  const total = num((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    rows: rows.map((r) => ({
      ...lineRow(r),
      order_number: r.order_number,
      paid_at: r.paid_at as string,
      buyer_email: r.buyer_email,
      buyer_name: r.buyer_name,
      listing:
        r.listing_slug === null ? null : { slug: r.listing_slug, name: r.listing_name!, status: r.listing_status! },
    })),
    total,
  };
}

/** An order line with its order's number, buyer and listing name (to tell the buyer it was delivered). */
export async function lineForDelivery(
  db: Db,
  lineId: number,
): Promise<
  { description: string; number: string; email: string; name: string; listing_name: string | null } | undefined
> {
  return db
    .selectFrom('order_lines as ln')
    .innerJoin('orders as o', 'o.id', 'ln.order_id')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .leftJoin('listings as l', 'l.id', 'ln.listing_id')
    .select(['ln.description', 'o.number', 'u.email', 'u.name', 'l.name as listing_name'])
    .where('ln.id', '=', lineId)
    .executeTakeFirst();
}
