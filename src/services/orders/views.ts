// An order as get_order, list_my_orders, create_checkout and the checkout page show it: its lines
// with what each fulfilment is, the promo code, VAT with its note, billing details, and its
// checkout_url while it is pending. Pending orders past their expiry are marked expired first.
import type { Kysely } from 'kysely';
import type { Ctx } from '../../operations/context.ts';
import { userOf } from '../../operations/context.ts';
import { notFound } from '../../operations/errors.ts';
import type { DB } from '../../store/types.ts';
import {
  allProducts,
  expireDueOrders,
  findPromo,
  linesOf,
  listingsByIds,
  orderByNumber,
  ordersOfUser,
  type OrderLineRow,
  type OrderListing,
  type OrderRow,
  type ProductRecord,
} from '../../store/repos/orders.ts';
import { formatCents } from '../../domain/money.ts';
import { fulfilmentKind, type LineFulfilment } from './fulfilment.ts';
import { CHECKOUT_NOTE, checkoutKey, checkoutToken, checkoutUrl } from './links.ts';
import { promoDescription, type PromoView } from './promo-codes.ts';
import type { QuoteLine, Totals } from './quote.ts';
import type { OrderStatus } from '../../domain/orders.ts';

/** A line of an order: as quoted, and whether it was fulfilled. */
export interface OrderLineView extends QuoteLine {
  fulfilled: boolean;
  fulfilled_at: string | null;
  fulfilment: LineFulfilment;
  fulfilment_note?: string;
}

/** An order as get_order, list_my_orders, create_checkout and the checkout page show it. */
export interface OrderView extends Totals {
  number: string;
  status: OrderStatus;
  currency: string;
  created_at: string;
  expires_at: string | null;
  paid_at: string | null;
  lines: OrderLineView[];
  billing?: { name: string | null; country: string | null; address: string | null };
  checkout_url?: string;
  note?: string;
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
): OrderView {
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
): Promise<OrderView[]> {
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

export async function orderViewById(ctx: Ctx, id: number): Promise<OrderView | undefined> {
  const row = await ctx.db.selectFrom('orders').select('number').where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const o = await orderByNumber(ctx.db, userOf(ctx).userId, row.number);
  if (!o) return undefined;
  return (await orderViews(ctx.db, [o], { key: checkoutKey(ctx.services), publicUrl: ctx.config.publicUrl }))[0];
}

export async function getOrder(ctx: Ctx, number: string): Promise<OrderView> {
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
): Promise<{ items: OrderView[]; total: number }> {
  const user = userOf(ctx);
  await expireDueOrders(ctx.db, ctx.now(), user.userId);
  const { rows, total } = await ordersOfUser(ctx.db, user.userId, limit, offset);
  return {
    items: await orderViews(ctx.db, rows, { key: checkoutKey(ctx.services), publicUrl: ctx.config.publicUrl }),
    total,
  };
}
