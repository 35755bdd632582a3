// create_checkout: an order built from a quote. The order and its lines are saved as `pending` in
// one transaction, with the number the person sees and the hash of its checkout link's token; the
// person pays on our checkout page (payment.ts, web/checkout.ts) within ORDER_TTL_DAYS.
import { createHash } from 'node:crypto';
import type { Ctx } from '../../operations/context.ts';
import { userOf } from '../../operations/context.ts';
import { toJson } from '../../store/json.ts';
import { newOrderNumber } from '../../domain/order-number.ts';
import { checkoutKey, checkoutToken, tokenHash } from './links.ts';
import type { OrderRequest } from './items.ts';
import { priceOrder } from './quote.ts';
import { orderViewById, type OrderView } from './views.ts';

/** An unpaid order can be paid for this many days. */
export const ORDER_TTL_DAYS = 7;

/** Builds a pending order with its lines in one transaction. Returns the order number and the checkout link's token. */
export async function createOrder(ctx: Ctx, req: OrderRequest): Promise<OrderView> {
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
