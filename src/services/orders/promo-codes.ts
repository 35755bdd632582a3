// Promo codes: whether a code can be used on an order's lines and what it takes off (before VAT),
// the refusal an API caller sees, and how a stored order describes its code. Wrong codes are
// rate-limited by the caller (quote.ts, with services/promo-guard.ts).
import type { Kysely, Transaction } from 'kysely';
import { ApiError } from '../../operations/errors.ts';
import type { DB } from '../../store/types.ts';
import { findPromo, type PromoRecord } from '../../store/repos/orders.ts';
import { formatCents } from '../../domain/money.ts';
import type { PricedLine } from './items.ts';

export interface PromoView {
  code: string;
  description: string;
  discount_cents: number;
}

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

export function promoRefused(reason: string, path = 'body.promo_code'): ApiError {
  return new ApiError(
    'promo_code_refused',
    `Promo code refused: ${reason}. Nothing was built; remove promo_code or use another code.`,
    [{ path, message: reason }],
  );
}

export function promoDescription(p: PromoRecord): string {
  const what =
    p.percent_off !== null && p.percent_off > 0
      ? `${Math.min(100, p.percent_off)}% off`
      : `${formatCents(p.amount_off_cents ?? 0)} off`;
  return `${what}${p.product_codes.length ? ` ${p.product_codes.join(', ')}` : ' the order'}, before VAT`;
}
