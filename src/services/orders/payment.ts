// Paying an order (the checkout page, web/checkout.ts): billing details and the VAT they imply,
// every line and the promo code checked again, the charge, and in the same transaction the order
// marked paid and its lines fulfilled (fulfilment.ts); a payment a redirect provider took on its own
// page is read back from the provider and recorded once it matches the order; cancelling.
import type { Kysely } from 'kysely';
import type { ErrorDetail } from '../../operations/errors.ts';
import type { Engine } from '../../store/connect.ts';
import type { DB } from '../../store/types.ts';
import { linesOf, lockOrder, redeemPromo, type OrderRow } from '../../store/repos/orders.ts';
import { vatCents } from '../../domain/money.ts';
import { decideVat } from '../../domain/vat.ts';
import type { ChargeResult, ProviderPayment, RedirectProvider } from '../../payments/types.ts';
import { orderSettings } from './catalogue.ts';
import { fulfilOrderLines } from './fulfilment.ts';
import { checkItems, itemsOfLines } from './items.ts';
import { checkPromo } from './promo-codes.ts';

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
        const { errors } = await checkItems(
          trx,
          o.user_id,
          itemsOfLines(lines),
          now,
          settings,
          (i) => `lines.${i}`,
          engine, // the launched websites' publication locks, held until this transaction ends
        );
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

/** Where confirmProviderPayment reports what it refused (the request's log). */
export interface PaymentLog {
  error(obj: object, msg: string): void;
}

/** Records a payment the provider took on its own page, once it is read back from the provider and matches the order. */
export async function confirmProviderPayment(
  store: { db: Kysely<DB>; engine: Engine },
  provider: RedirectProvider,
  ref: string,
  order: OrderRow,
  log: PaymentLog,
  known?: ProviderPayment,
): Promise<PayOutcome | null> {
  let payment = known;
  try {
    payment ??= await provider.retrieve(ref);
  } catch (err) {
    log.error({ err, order: order.number }, 'could not read the payment back from the provider');
    return null;
  }
  if (
    !payment.paid ||
    payment.order_number !== order.number ||
    payment.amount_cents !== order.total_cents ||
    (payment.currency ?? '').toLowerCase() !== order.currency
  ) {
    if (payment.paid) log.error({ order: order.number, payment }, 'a provider payment does not match its order');
    return null;
  }
  return payOrder(store.db, store.engine, order.id, new Date(), async () => ({ ok: true, ref: payment.ref }), {
    alreadyCharged: true,
    provider: provider.name,
  });
}
