// Our own secure checkout page: the person opens the checkout_url of an order, reviews it, enters
// billing details and pays themselves. Whoever has the link may pay (the link is the secret: only a
// hash of its token is stored). The page is never cached or indexed and sends no Referer.
//
//   GET  /checkout/:token            the order, billing details and payment form (or its state)
//   POST /checkout/:token/pay        billing details + payment (CSRF-checked)
//   POST /checkout/:token/cancel     cancels a pending order (CSRF-checked)
//   GET  /checkout/:token/return     back from a redirect provider (Stripe Checkout)
//   POST /payments/stripe/webhook    Stripe tells us a Checkout Session completed (read back from Stripe by id)
//
// With the built-in test provider the payment part is a clearly labelled TEST form (4242 4242 4242
// 4242 succeeds, 4000 0000 0000 0002 is declined); nothing about the card is stored or logged.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { checkCsrf, getWebContext, type WebContext } from './context.ts';
import { csrfField, html, raw, renderPage, type SafeHtml } from './layout.ts';
import { formatCents } from '../domain/money.ts';
import { EU_COUNTRIES } from '../domain/vat.ts';
import { orderByTokenHash, linesOf, type OrderRow } from '../store/repos/orders.ts';
import { checkoutKey, tokenHash } from '../services/orders/links.ts';
import { orderViews } from '../services/orders/views.ts';
import {
  cancelOrder,
  checkPayable,
  confirmProviderPayment,
  payOrder,
  setBilling,
  type PayOutcome,
} from '../services/orders/payment.ts';
import { parseCard, type PaymentOrder, type PaymentProvider } from '../payments/index.ts';
import { sendMail } from '../mail/index.ts';
import { countries } from '../domain/countries.ts';
import { documentHeaders } from './security-headers.ts';
import type { OrderStatus } from '../domain/orders.ts';
import type { ResultOf } from '../operations/define.ts';
import type { getOrder } from '../operations/orders.ts';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const STYLE = `
.order-table td.num,.order-table th.num{text-align:right;white-space:nowrap}
.order-table tfoot th{text-align:right;font-weight:600}
.order-table tr.total th,.order-table tr.total td{font-size:1.15rem;font-weight:700;border-top:2px solid var(--fg)}
.test-mode{border:2px dashed #b35c00;background:#fff6e5;padding:10px 14px;border-radius:6px}
.test-mode strong{color:#8a4500}
.status-badge{display:inline-block;padding:2px 10px;border-radius:12px;background:var(--soft);border:1px solid var(--line);font-weight:600}
.status-paid{background:#e8f5ec;border-color:#a8d5b5;color:var(--ok)}
.cols{display:grid;gap:24px;grid-template-columns:minmax(0,1fr)}
@media (min-width:900px){.cols{grid-template-columns:minmax(0,1.2fr) minmax(0,1fr)}}
.card-row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
`;

type Values = Record<string, string>;
interface RenderOpts {
  flash?: { kind: 'info' | 'error' | 'success'; text: string } | null;
  errors?: Array<{ field: string; message: string }>;
  values?: Values;
  status?: number;
}

/** Where the pay form may lead on to: Stripe Checkout's hosted page (the redirect provider, payments/stripe.ts). */
const CHECKOUT_FORM_ACTION = ['https://checkout.stripe.com'];

function send(
  reply: FastifyReply,
  ctx: WebContext,
  title: string,
  body: SafeHtml,
  status = 200,
  flash?: RenderOpts['flash'],
): FastifyReply {
  reply.header('Cache-Control', 'no-store');
  reply.header('Pragma', 'no-cache');
  reply.header('X-Robots-Tag', 'noindex, nofollow');
  // The token is in the address: no referrer. The pay form may lead on to a redirect provider's page.
  documentHeaders(reply, { referrer: 'no-referrer', formAction: CHECKOUT_FORM_ACTION });
  const page = renderPage(
    {
      title,
      user: ctx.user,
      csrf: ctx.user ? ctx.csrf : undefined,
      noindex: true,
      flash: flash ?? null,
      head: html`<style>${raw(STYLE)}</style>`,
    },
    body,
  );
  return reply.code(status).type('text/html; charset=utf-8').send(page);
}

function notFoundPage(reply: FastifyReply, ctx: WebContext): FastifyReply {
  return send(
    reply,
    ctx,
    'Checkout link not valid',
    html`
    <h1>This checkout link is not valid</h1>
    <p>Check that the whole link was copied. Links of orders are made when an order is built; ask whoever built the order for its link again.</p>`,
    404,
  );
}

const STATUS_TEXT: Record<OrderStatus, string> = {
  pending: 'Waiting for payment',
  paid: 'Paid',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

function fmtDate(iso: string | null): string {
  if (!iso) return '';
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The order as get_order shows it (services/orders/views.ts orderViews). */
type View = ResultOf<typeof getOrder>;

function orderTable(v: View): SafeHtml {
  const paid = v.status === 'paid';
  const vat = v.vat;
  const vatLabel = vat.reverse_charge
    ? 'VAT (reverse charge)'
    : vat.country
      ? `VAT (${vat.rate_bp / 100}%, ${vat.country})`
      : 'VAT (depends on your billing country)';
  return html`
  <table class="order-table" aria-describedby="vat-note">
    <caption class="sr-only">Order ${v.number}</caption>
    <thead><tr><th scope="col">Item</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Price</th><th scope="col" class="num">Amount</th>${paid ? html`<th scope="col">Delivered</th>` : ''}</tr></thead>
    <tbody>
      ${v.lines.map(
        (l) => html`<tr>
        <td><strong>${l.name}</strong><br><span class="hint">${l.description}</span></td>
        <td class="num">${l.quantity}</td><td class="num">${formatCents(l.unit_cents)}</td><td class="num">${formatCents(l.amount_cents)}</td>
        ${paid ? html`<td>${l.fulfilled ? html`Done` : html`Our team is on it`}</td>` : ''}
      </tr>`,
      )}
    </tbody>
    <tfoot>
      <tr><th scope="row" colspan="3">Subtotal</th><td class="num" id="subtotal">${formatCents(v.subtotal_cents)}</td>${paid ? html`<td></td>` : ''}</tr>
      ${v.promo ? html`<tr><th scope="row" colspan="3">Promo code <code>${v.promo.code}</code> (${v.promo.description})</th><td class="num" id="discount">−${formatCents(v.discount_cents)}</td>${paid ? html`<td></td>` : ''}</tr>` : ''}
      <tr><th scope="row" colspan="3">${vatLabel}</th><td class="num" id="vat">${formatCents(vat.cents)}</td>${paid ? html`<td></td>` : ''}</tr>
      <tr class="total"><th scope="row" colspan="3">Total</th><td class="num" id="total">${formatCents(v.total_cents)}</td>${paid ? html`<td></td>` : ''}</tr>
    </tfoot>
  </table>
  <p class="hint" id="vat-note">Prices are in US dollars. ${vat.note}</p>`;
}

function fieldError(errors: RenderOpts['errors'], field: string): SafeHtml | string {
  const e = errors?.find((x) => x.field === field);
  return e ? html`<p class="field-error" id="${field}-error" role="alert">${e.message}</p>` : '';
}
const described = (errors: RenderOpts['errors'], field: string) =>
  errors?.some((x) => x.field === field) ? raw(` aria-invalid="true" aria-describedby="${field}-error"`) : '';

function payForm(
  token: string,
  csrf: string,
  v: View,
  order: OrderRow,
  provider: PaymentProvider,
  opts: RenderOpts,
): SafeHtml {
  const vals: Values = {
    name: order.billing_name ?? '',
    country: order.billing_country ?? '',
    address: order.billing_address ?? '',
    vat_number: order.vat_number ?? '',
    ...(opts.values ?? {}),
  };
  const errors = opts.errors;
  const free = v.total_cents === 0;
  const eu = new Set(EU_COUNTRIES);
  let payment: SafeHtml;
  if (free) payment = html`<p>Nothing to pay: the promo code covers the whole order. Confirm to place it.</p>`;
  else if (provider.kind === 'card-form') {
    payment = html`
      ${
        provider.test
          ? html`<div class="test-mode" role="note" id="test-mode"><p><strong>TEST MODE — no real payment is taken.</strong></p>
        <p>Pay with the test card <code>4242 4242 4242 4242</code>, or use <code>4000 0000 0000 0002</code> to see a declined card. Any future expiry date and any 3-digit security code.</p></div>`
          : ''
      }
      <p><label for="card_number">Card number</label>
        <input type="text" id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" maxlength="23" required${described(errors, 'card_number')}></p>
      ${fieldError(errors, 'card_number')}
      <div class="card-row">
        <p><label for="card_expiry">Expiry <span class="hint">(MM/YY)</span></label>
          <input type="text" id="card_expiry" name="card_expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" required${described(errors, 'card_expiry')}></p>
        <p><label for="card_cvc">Security code</label>
          <input type="text" id="card_cvc" name="card_cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required${described(errors, 'card_cvc')}></p>
      </div>
      ${fieldError(errors, 'card_expiry')}${fieldError(errors, 'card_cvc')}
      <p class="hint">Your card details are used for this payment only; Launchlist stores nothing about your card.</p>`;
  } else {
    payment = html`<p>You pay on ${provider.name === 'stripe' ? "Stripe's" : "the payment provider's"} secure page (cards, wallets and the other methods offered there), then come back here.${provider.test ? html` <strong>Test mode:</strong> no real money moves.` : ''}</p>`;
  }
  return html`
  <form method="post" action="/checkout/${token}/pay" class="stack" id="pay-form">
    ${csrfField(csrf)}
    <input type="hidden" name="expected_total_cents" value="${v.total_cents}">
    <fieldset>
      <legend>Billing details</legend>
      <p><label for="name">Name or company</label><input type="text" id="name" name="name" autocomplete="name" maxlength="160" required value="${vals.name}"${described(errors, 'name')}></p>
      ${fieldError(errors, 'name')}
      <p><label for="country">Country</label>
        <select id="country" name="country" autocomplete="country" required${described(errors, 'country')}>
          <option value="">Choose a country</option>
          ${countries().map((c) => html`<option value="${c.code}"${c.code === vals.country.toUpperCase() ? raw(' selected') : ''}>${c.name}${eu.has(c.code) ? ' (EU)' : ''}</option>`)}
        </select></p>
      ${fieldError(errors, 'country')}
      <p><label for="address">Billing address</label><textarea id="address" name="address" rows="3" maxlength="500" autocomplete="street-address" required${described(errors, 'address')}>${vals.address}</textarea></p>
      ${fieldError(errors, 'address')}
      <p><label for="vat_number">EU VAT number <span class="hint">(optional; businesses in the EU pay no VAT with a valid number — reverse charge)</span></label>
        <input type="text" id="vat_number" name="vat_number" maxlength="32" value="${vals.vat_number}"${described(errors, 'vat_number')}></p>
      ${fieldError(errors, 'vat_number')}
    </fieldset>
    <fieldset>
      <legend>Payment</legend>
      ${payment}
    </fieldset>
    <p class="hint">The total includes the VAT for the country above. If your country or VAT number changes the VAT, you are shown the new total before anything is charged.</p>
    <p><button type="submit" id="pay-button">${free ? 'Confirm order' : provider.kind === 'redirect' ? `Continue to payment (${formatCents(v.total_cents)})` : `Pay ${formatCents(v.total_cents)}`}</button></p>
  </form>
  <form method="post" action="/checkout/${token}/cancel" id="cancel-form">
    ${csrfField(csrf)}
    <p><button type="submit" class="secondary">Cancel this order</button></p>
  </form>`;
}

async function viewOf(deps: AppDeps, order: OrderRow): Promise<View> {
  return (
    await orderViews(deps.store.db, [order], { key: checkoutKey(deps.services), publicUrl: deps.config.publicUrl })
  )[0];
}

async function render(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  token: string,
  order: OrderRow,
  opts: RenderOpts = {},
): Promise<FastifyReply> {
  const ctx = await getWebContext(deps, req, reply);
  const v = await viewOf(deps, order);
  const provider = deps.services.payments;
  const status = v.status;
  let main: SafeHtml;
  if (status === 'pending') main = payForm(token, ctx.csrf, v, order, provider, opts);
  else if (status === 'paid') {
    main = html`<section aria-labelledby="paid-h"><h2 id="paid-h">Paid — thank you</h2>
      <p>Paid on ${fmtDate(v.paid_at)}. A receipt was sent to the account that built the order.</p>
      <p>Paid launches and extras are applied at once; work done by our team is shown as “Our team is on it” until it is delivered.</p></section>`;
  } else if (status === 'expired')
    main = html`<h2>This order has expired</h2><p>It was not paid by ${fmtDate(v.expires_at)}, so it can no longer be paid. Nothing was charged. Build a new order for current prices.</p>`;
  else
    main = html`<h2>This order was cancelled</h2><p>Nothing was charged. Build a new order if you still want these items.</p>`;
  const body = html`
    <h1>Order ${v.number}</h1>
    <p><span class="status-badge${status === 'paid' ? ' status-paid' : ''}" id="order-status">${STATUS_TEXT[status]}</span>
      ${status === 'pending' ? html` · pay by ${fmtDate(v.expires_at)}` : ''}</p>
    <div class="cols">
      <section aria-labelledby="summary-h"><h2 id="summary-h">Your order</h2>${orderTable(v)}</section>
      <section aria-labelledby="next-h"><h2 id="next-h" class="sr-only">${status === 'pending' ? 'Billing and payment' : 'Status'}</h2>${main}</section>
    </div>`;
  return send(reply, ctx, `Checkout · ${v.number}`, body, opts.status ?? 200, opts.flash);
}

async function load(deps: AppDeps, token: string): Promise<OrderRow | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const order = await orderByTokenHash(deps.store.db, tokenHash(token));
  if (order && order.status === 'pending' && order.expires_at && Date.parse(order.expires_at) <= Date.now()) {
    await deps.store.db
      .updateTable('orders')
      .set({ status: 'expired' })
      .where('id', '=', order.id)
      .where('status', '=', 'pending')
      .execute();
    return { ...order, status: 'expired' };
  }
  return order;
}

async function paymentOrder(deps: AppDeps, order: OrderRow): Promise<PaymentOrder> {
  const lines = (await linesOf(deps.store.db, [order.id])).get(order.id) ?? [];
  return {
    number: order.number,
    total_cents: order.total_cents,
    currency: order.currency,
    description: lines.map((l) => l.description).join('; '),
  };
}

async function sendReceipt(deps: AppDeps, order: OrderRow, log: FastifyRequest['log']): Promise<void> {
  try {
    const user = await deps.store.db
      .selectFrom('users')
      .select(['email', 'name'])
      .where('id', '=', order.user_id)
      .executeTakeFirst();
    if (!user) return;
    const lines = (await linesOf(deps.store.db, [order.id])).get(order.id) ?? [];
    const text = [
      `Hello ${user.name || ''},`.trim(),
      '',
      `Order ${order.number} is paid: ${formatCents(order.total_cents)} (VAT ${formatCents(order.vat_cents)}${order.reverse_charge ? ', reverse charge' : ''}).`,
      '',
      ...lines.map((l) => `- ${l.description}: ${formatCents(l.amount_cents)}`),
      '',
      "Paid launches and extras are applied already. Work done by our team (such as the done-for-you launch or the AI review) follows; get_order shows each line's state.",
      `${deps.config.publicUrl}/account`,
    ].join('\n');
    await sendMail(
      { db: deps.store.db, config: deps.config, log },
      { to: user.email, subject: `Launchlist: payment received for order ${order.number}`, text },
    );
  } catch (err) {
    log.error({ err, order: order.number }, 'could not send the receipt');
  }
}

async function outcomeReply(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  token: string,
  outcome: PayOutcome,
): Promise<FastifyReply> {
  switch (outcome.kind) {
    case 'paid':
      await sendReceipt(deps, outcome.order, req.log);
      return reply.redirect(`/checkout/${token}?paid=1`, 303);
    case 'already_paid':
      return reply.redirect(`/checkout/${token}?paid=1`, 303);
    default: {
      const order = await load(deps, token);
      if (!order) return notFoundPage(reply, await getWebContext(deps, req, reply));
      const status = outcome.kind === 'declined' ? 402 : 409;
      return render(deps, req, reply, token, order, { status, flash: { kind: 'error', text: outcome.message } });
    }
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function registerCheckoutPages(app: FastifyInstance, deps: AppDeps): void {
  app.get('/checkout/:token', async (req, reply) => {
    const { token } = req.params as { token: string };
    const order = await load(deps, token);
    if (!order) return notFoundPage(reply, await getWebContext(deps, req, reply));
    const q = req.query as Record<string, string | undefined>;
    const flash =
      q.paid && order.status === 'paid'
        ? { kind: 'success' as const, text: 'Payment received. Thank you!' }
        : q.cancelled
          ? { kind: 'info' as const, text: 'The payment was not completed. Nothing was charged; you can try again.' }
          : null;
    return render(deps, req, reply, token, order, { flash });
  });

  app.post('/checkout/:token/pay', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const { token } = req.params as { token: string };
    const order = await load(deps, token);
    if (!order) return notFoundPage(reply, await getWebContext(deps, req, reply));
    if (order.status === 'paid') return reply.redirect(`/checkout/${token}?paid=1`, 303); // paying twice charges nothing
    if (order.status !== 'pending')
      return render(deps, req, reply, token, order, {
        status: 409,
        flash: { kind: 'error', text: `This order is ${order.status} and can no longer be paid. Nothing was charged.` },
      });

    const body = (req.body ?? {}) as Record<string, unknown>;
    const values = {
      name: str(body.name),
      country: str(body.country),
      address: str(body.address),
      vat_number: str(body.vat_number),
    };
    const billing = await setBilling(deps.store.db, order.id, values);
    if (!billing.ok)
      return render(deps, req, reply, token, order, {
        status: 400,
        errors: billing.errors,
        values,
        flash: { kind: 'error', text: 'Check the billing details below. Nothing was charged.' },
      });
    const updated = billing.order;
    if (updated.status !== 'pending')
      return reply.redirect(`/checkout/${token}${updated.status === 'paid' ? '?paid=1' : ''}`, 303); // paid meanwhile (a double click)
    const provider = deps.services.payments;
    const now = new Date();

    let card: ReturnType<typeof parseCard> | undefined;
    if (updated.total_cents > 0 && provider.kind === 'card-form') {
      card = parseCard(body, now);
      if (!card.ok)
        return render(deps, req, reply, token, updated, {
          status: 400,
          errors: card.errors,
          values,
          flash: { kind: 'error', text: 'Check the card details below. Nothing was charged.' },
        });
    }
    if (Number(str(body.expected_total_cents)) !== updated.total_cents) {
      return render(deps, req, reply, token, updated, {
        status: 409,
        values,
        flash: {
          kind: 'info',
          text: `With these billing details the total is ${formatCents(updated.total_cents)} (VAT ${formatCents(updated.vat_cents)}${updated.reverse_charge ? ', reverse charge' : ''}). Nothing was charged: check the total and pay again.`,
        },
      });
    }

    if (updated.total_cents === 0) {
      return outcomeReply(
        deps,
        req,
        reply,
        token,
        await payOrder(deps.store.db, deps.store.engine, order.id, now, async () => ({ ok: true, ref: 'no_charge' }), {
          provider: 'none',
        }),
      );
    }
    if (provider.kind === 'card-form') {
      const c = card as Extract<ReturnType<typeof parseCard>, { ok: true }>;
      const payOrderDetails = await paymentOrder(deps, updated);
      const outcome = await payOrder(
        deps.store.db,
        deps.store.engine,
        order.id,
        now,
        (o) => provider.charge({ ...payOrderDetails, total_cents: o.total_cents }, c.card),
        { provider: provider.name },
      );
      return outcomeReply(deps, req, reply, token, outcome);
    }
    // A redirect provider: check everything now, then send the person to the provider's page.
    const payable = await checkPayable(deps.store.db, updated, now);
    if (!payable.ok)
      return render(deps, req, reply, token, updated, { status: 409, flash: { kind: 'error', text: payable.message } });
    const base = `${deps.config.publicUrl}/checkout/${token}`;
    let started: { url: string; ref: string };
    try {
      started = await provider.startCheckout(await paymentOrder(deps, updated), {
        successUrl: `${base}/return?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${base}?cancelled=1`,
      });
    } catch (err) {
      req.log.error({ err, order: updated.number }, 'payment provider refused to start a checkout');
      return render(deps, req, reply, token, updated, {
        status: 502,
        flash: {
          kind: 'error',
          text: 'The payment provider could not be reached. Nothing was charged; please try again in a moment.',
        },
      });
    }
    await deps.store.db
      .updateTable('orders')
      .set({ provider: provider.name, provider_ref: started.ref })
      .where('id', '=', order.id)
      .where('status', '=', 'pending')
      .execute();
    return reply.redirect(started.url, 303);
  });

  app.get('/checkout/:token/return', async (req, reply) => {
    const { token } = req.params as { token: string };
    const order = await load(deps, token);
    if (!order) return notFoundPage(reply, await getWebContext(deps, req, reply));
    const provider = deps.services.payments;
    const sessionId = str((req.query as Record<string, unknown>).session_id);
    if (order.status === 'paid') return reply.redirect(`/checkout/${token}?paid=1`, 303);
    if (provider.kind !== 'redirect' || !/^[A-Za-z0-9_]{1,255}$/.test(sessionId))
      return reply.redirect(`/checkout/${token}`, 303);
    const outcome = await confirmProviderPayment(deps.store, provider, sessionId, order, req.log);
    if (!outcome)
      return render(deps, req, reply, token, order, {
        status: 409,
        flash: {
          kind: 'error',
          text: 'The payment was not completed, or does not belong to this order. Nothing was recorded; you can try again.',
        },
      });
    return outcomeReply(deps, req, reply, token, outcome);
  });

  app.post('/checkout/:token/cancel', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const { token } = req.params as { token: string };
    const order = await load(deps, token);
    if (!order) return notFoundPage(reply, await getWebContext(deps, req, reply));
    await cancelOrder(deps.store.db, order.id);
    return reply.redirect(`/checkout/${token}`, 303);
  });

  // Stripe's webhook. The event body is not trusted: only the session id is taken from it, and the
  // session is read back from Stripe with our secret key before anything is recorded.
  app.post('/payments/stripe/webhook', async (req, reply) => {
    const provider = deps.services.payments;
    if (provider.kind !== 'redirect' || provider.name !== 'stripe')
      return reply
        .code(404)
        .send({ error: { code: 'not_found', message: 'Stripe is not configured.', request_id: req.id } });
    const event = (req.body ?? {}) as { type?: unknown; data?: { object?: { id?: unknown; object?: unknown } } };
    const id = event.data?.object?.id;
    if (
      typeof event.type !== 'string' ||
      !event.type.startsWith('checkout.session.') ||
      typeof id !== 'string' ||
      !/^cs_[A-Za-z0-9_]{1,250}$/.test(id)
    )
      return reply.send({ received: true, handled: false });
    const payment = await provider.retrieve(id);
    if (!payment.paid || !payment.order_number) return reply.send({ received: true, handled: false });
    const row = await deps.store.db
      .selectFrom('orders')
      .select('checkout_token')
      .where('number', '=', payment.order_number)
      .executeTakeFirst();
    const order = row ? await orderByTokenHash(deps.store.db, row.checkout_token) : undefined;
    if (!order) return reply.send({ received: true, handled: false });
    const outcome = await confirmProviderPayment(deps.store, provider, id, order, req.log, payment);
    return reply.send({
      received: true,
      handled: Boolean(outcome && (outcome.kind === 'paid' || outcome.kind === 'already_paid')),
    });
  });
}
