// Quoting (quote_order, and create_checkout before it saves): the items checked and priced, VAT
// decided from the billing country and VAT number, a promo code applied (wrong codes rate-limited per
// user), the totals. Nothing is saved.
import type { Ctx } from '../../operations/context.ts';
import { userOf } from '../../operations/context.ts';
import { ApiError, validationError } from '../../operations/errors.ts';
import { formatCents, vatCents } from '../../domain/money.ts';
import { decideVat, type VatDecision } from '../../domain/vat.ts';
import { orderSettings } from './catalogue.ts';
import { checkItems, type OrderRequest, type PricedLine } from './items.ts';
import { checkPromo, promoRefused, type PromoView } from './promo-codes.ts';
import { confirmReverseCharge } from '../vat-check.ts';

export interface Priced {
  lines: PricedLine[];
  subtotal_cents: number;
  discount_cents: number;
  promo: PromoView | null;
  vat: VatDecision;
  vat_cents: number;
  total_cents: number;
}

function rateLimited(seconds: number): ApiError {
  return new ApiError(
    'rate_limited',
    `Too many wrong promo codes: try again in ${seconds} seconds. Promo codes are rate-limited so they cannot be guessed.`,
    [{ path: 'body.promo_code', message: `too many wrong codes; retry after ${seconds} seconds` }],
    { 'Retry-After': String(seconds) },
  );
}

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

/** VAT as a quote or an order shows it. */
export interface VatView {
  country: string | null;
  rate_bp: number;
  cents: number;
  reverse_charge: boolean;
  vat_number?: string;
  note: string;
}

/** A line as a quote shows it (an order's lines add their fulfilment, views.ts). */
export interface QuoteLine {
  product: string;
  name: string;
  listing_id?: number;
  listing?: { slug: string; name: string } | null;
  week?: string;
  categories?: string[];
  options?: Record<string, unknown>;
  quantity: number;
  unit_cents: number;
  amount_cents: number;
  description: string;
}

/** The money of a quote and of an order alike. */
export interface Totals {
  subtotal_cents: number;
  discount_cents: number;
  promo: PromoView | null;
  vat: VatView;
  total_cents: number;
  total: string;
  prices_exclude_vat: true;
}

/** The quote_order answer. */
export interface Quote extends Totals {
  currency: 'usd';
  lines: QuoteLine[];
}

/** The quote_order answer. */
export function quoteView(p: Priced): Quote {
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

function lineOut(l: PricedLine): QuoteLine {
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
