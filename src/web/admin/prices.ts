// The admin page where prices are set: every product's price (USD, stored as cents) and whether it is
// on sale, plus the billboard minimum, the free-queue length and the seller's VAT country. One form,
// saved in one transaction; list_products and new quotes read the new values at once.
//
//   GET  /admin/prices   admins only (guard.ts: others get a 403 page; signed out: to the sign-in page)
//   POST /admin/prices   CSRF-checked; every value validated before anything is saved
import { isCountry } from '../../domain/countries.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { checkCsrf, type WebContext } from '../context.ts';
import { requireAdmin } from './guard.ts';
import { csrfField, html, raw, sendPage, type SafeHtml } from '../layout.ts';
import { centsToDecimal, formatCents } from '../../domain/money.ts';
import { allProducts, type ProductRecord } from '../../store/repos/orders.ts';
import { priceSettings, savePrices } from '../../services/orders/catalogue.ts';

export const MAX_PRICE_CENTS = 100_000_000;
const PATH = '/admin/prices';

/** "49", "49.9", "49.90", "1,049.00", "$12" → cents; null when it is not an amount of USD. */
export function parseUsd(input: string): number | null {
  const s = input
    .trim()
    .replace(/^\$/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

interface FormState {
  values: Record<string, string>;
  errors: Record<string, string>;
}

function err(state: FormState | undefined, name: string): SafeHtml | string {
  const e = state?.errors[name];
  return e ? html`<span class="field-error" id="${name}-error" role="alert">${e}</span>` : '';
}
const invalidAttr = (state: FormState | undefined, name: string) =>
  state?.errors[name] ? raw(` aria-invalid="true" aria-describedby="${name}-error"`) : '';

async function renderPage(
  deps: AppDeps,
  reply: FastifyReply,
  ctx: WebContext,
  state?: FormState,
  flash?: { kind: 'success' | 'error'; text: string },
  status = 200,
) {
  const cur = await priceSettings(deps.store.db);
  const val = (name: string, fallback: string) => state?.values[name] ?? fallback;
  const row = (p: ProductRecord) => {
    const isBillboard = p.code === 'billboard_min';
    const activeChecked = state ? state.values[`active_${p.code}`] === 'on' : p.active;
    return html`<tr>
      <th scope="row"><code>${p.code}</code><br><span class="hint">${p.name}</span></th>
      <td>${
        isBillboard
          ? html`<span class="hint">The minimum contribution, set below (${formatCents(p.price_cents)} now).</span>`
          : html`<label class="sr-only" for="price_${p.code}">Price of ${p.name} in USD</label>
          <input type="text" inputmode="decimal" id="price_${p.code}" name="price_${p.code}" value="${val(`price_${p.code}`, centsToDecimal(p.price_cents))}" size="10"${invalidAttr(state, `price_${p.code}`)}>
          ${err(state, `price_${p.code}`)}`
      }</td>
      <td><label><input type="checkbox" name="active_${p.code}"${activeChecked ? raw(' checked') : ''}> On sale</label></td>
      <td>${p.needs_listing ? 'For a listing' : '—'}</td>
    </tr>`;
  };
  const body = html`
    <h1>Prices</h1>
    <p>Prices are in US dollars, exclude VAT and are shown everywhere at once (list_products, quotes, new orders). Orders already built keep the prices they were built with.</p>
    <form method="post" action="${PATH}" id="prices-form">
      ${csrfField(ctx.csrf)}
      <table>
        <caption class="sr-only">Products and prices</caption>
        <thead><tr><th scope="col">Product</th><th scope="col">Price (USD, excl. VAT)</th><th scope="col">On sale</th><th scope="col">Bought for</th></tr></thead>
        <tbody>${cur.products.map(row)}</tbody>
      </table>
      <fieldset>
        <legend>Settings</legend>
        <p><label for="billboard_min">Billboard minimum contribution (USD)</label>
          <input type="text" inputmode="decimal" id="billboard_min" name="billboard_min" value="${val('billboard_min', cur.billboardMin === null ? '' : centsToDecimal(cur.billboardMin))}"${invalidAttr(state, 'billboard_min')}>
          ${err(state, 'billboard_min')}</p>
        <p><label for="free_queue_weeks">Free queue (weeks a free listing waits for its launch week)</label>
          <input type="text" inputmode="numeric" id="free_queue_weeks" name="free_queue_weeks" value="${val('free_queue_weeks', String(cur.queue))}"${invalidAttr(state, 'free_queue_weeks')}>
          ${err(state, 'free_queue_weeks')}</p>
        <p><label for="vat_seller_country">Seller's VAT country <span class="hint">(two letters; empty = established outside the EU. EU businesses in this country are charged VAT; elsewhere in the EU they get the reverse charge.)</span></label>
          <input type="text" id="vat_seller_country" name="vat_seller_country" maxlength="2" value="${val('vat_seller_country', cur.seller)}"${invalidAttr(state, 'vat_seller_country')}>
          ${err(state, 'vat_seller_country')}</p>
      </fieldset>
      <p><button type="submit">Save prices</button></p>
    </form>`;
  return sendPage(
    reply,
    { title: 'Prices', user: ctx.user, csrf: ctx.csrf, noindex: true, flash: flash ?? null },
    body,
    status,
  );
}

export function registerAdminPricesPage(app: FastifyInstance, deps: AppDeps): void {
  app.get(PATH, async (req, reply) => {
    const ctx = await requireAdmin(deps, req, reply, PATH);
    if (!ctx) return reply;
    const saved = (req.query as Record<string, unknown>).saved === '1';
    return renderPage(deps, reply, ctx, undefined, saved ? { kind: 'success', text: 'Prices saved.' } : undefined);
  });

  app.post(PATH, async (req, reply) => {
    const ctx = await requireAdmin(deps, req, reply, PATH);
    if (!ctx) return reply;
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : '');
    const products = await allProducts(deps.store.db);
    const values: Record<string, string> = {};
    const errors: Record<string, string> = {};
    const prices = new Map<string, number>();
    const active = new Map<string, boolean>();
    const money = (name: string, label: string, min: number): number | null => {
      const raw = str(name);
      values[name] = raw;
      const cents = parseUsd(raw);
      if (cents === null) errors[name] = `${label}: enter an amount in US dollars, e.g. 49 or 49.00.`;
      else if (cents < min) errors[name] = `${label}: must be at least ${formatCents(min)}.`;
      else if (cents > MAX_PRICE_CENTS) errors[name] = `${label}: must be at most ${formatCents(MAX_PRICE_CENTS)}.`;
      else return cents;
      return null;
    };
    for (const p of products) {
      values[`active_${p.code}`] = body[`active_${p.code}`] === 'on' ? 'on' : '';
      active.set(p.code, body[`active_${p.code}`] === 'on');
      if (p.code === 'billboard_min') continue;
      const cents = money(`price_${p.code}`, `Price of ${p.code}`, 0);
      if (cents !== null) prices.set(p.code, cents);
    }
    const billboardMin = money('billboard_min', 'Billboard minimum', 1);
    const queueRaw = str('free_queue_weeks').trim();
    values.free_queue_weeks = queueRaw;
    const queue = /^\d{1,2}$/.test(queueRaw) ? Number(queueRaw) : NaN;
    if (!(queue >= 1 && queue <= 52)) errors.free_queue_weeks = 'Free queue: a whole number of weeks from 1 to 52.';
    const seller = str('vat_seller_country').trim().toUpperCase();
    values.vat_seller_country = seller;
    if (seller && !isCountry(seller))
      errors.vat_seller_country = "Seller's VAT country: a country's two-letter code (e.g. IE), or empty.";
    if (Object.keys(errors).length) {
      return renderPage(
        deps,
        reply,
        ctx,
        { values, errors },
        { kind: 'error', text: 'Nothing was saved: correct the values marked below.' },
        400,
      );
    }
    const at = new Date().toISOString();
    await savePrices(deps.store.db, products, { prices, active, billboardMin: billboardMin!, queue, seller }, at);
    req.log.info(
      {
        admin: ctx.user!.id,
        prices: Object.fromEntries(prices),
        billboard_min_cents: billboardMin,
        free_queue_weeks: queue,
      },
      'prices changed',
    );
    return reply.redirect(`${PATH}?saved=1`, 303);
  });
}
