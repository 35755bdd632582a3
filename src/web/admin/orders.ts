// The site team's work queue: lines of paid orders that payment could not fulfil by itself
// (done_for_you, ai_review, the staff part of a launch bundle, any product without automatic
// fulfilment). get_order shows such a line as not fulfilled until an admin marks it delivered here;
// the buyer is then mailed.
//
//   GET  /admin/orders                      admins only (guard.ts); the longest waiting first, 50 a page
//   POST /admin/orders/lines/:id/delivered  CSRF-checked; a line already delivered, unpaid or unknown is a 404 page
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { checkCsrf } from '../context.ts';
import { requireAdmin } from './guard.ts';
import { csrfField, html, sendPage, type SafeHtml } from '../layout.ts';
import { pageLink } from '../pages/shared.ts';
import { recordIdOf } from '../../operations/schemas.ts';
import { formatCents } from '../../domain/money.ts';
import { lineForDelivery, staffQueue, type StaffLine } from '../../store/repos/orders.ts';
import { markLineFulfilled } from '../../services/orders/fulfilment.ts';
import { sendMail } from '../../mail/index.ts';

const PATH = '/admin/orders';
export const QUEUE_PER_PAGE = 50;

function details(l: StaffLine): SafeHtml {
  const parts: SafeHtml[] = [];
  if (l.week) parts.push(html`week of ${l.week}`);
  if (l.categories.length) parts.push(html`categories: ${l.categories.join(', ')}`);
  for (const [k, v] of Object.entries(l.options))
    parts.push(html`${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.length ? html`<br><span class="hint">${parts.map((p, i) => html`${i ? '; ' : ''}${p}`)}</span>` : html``;
}

function lineRow(l: StaffLine, csrf: string): SafeHtml {
  return html`<tr id="line-${l.id}" data-line="${l.id}">
    <td><strong>${l.description}</strong> <code>${l.product_code}</code>${details(l)}</td>
    <td>${l.listing ? pageLink(l.listing) : html`<span class="hint">—</span>`}</td>
    <td>${l.order_number}<br><span class="hint">paid <time datetime="${l.paid_at}">${l.paid_at.slice(0, 10)}</time></span></td>
    <td>${l.buyer_name}<br><span class="hint">${l.buyer_email}</span></td>
    <td>${formatCents(l.amount_cents)}</td>
    <td><form method="post" action="${PATH}/lines/${l.id}/delivered">${csrfField(csrf)}<button type="submit">Mark delivered<span class="sr-only">: ${l.description}, order ${l.order_number}</span></button></form></td>
  </tr>`;
}

export function registerAdminOrdersPage(app: FastifyInstance, deps: AppDeps): void {
  app.get(PATH, async (req, reply) => {
    const ctx = await requireAdmin(deps, req, reply, PATH);
    if (!ctx) return reply;
    const q = (req.query ?? {}) as Record<string, unknown>;
    const page = Math.min(1000, Math.max(1, Number.parseInt(typeof q.page === 'string' ? q.page : '1', 10) || 1));
    const { rows, total } = await staffQueue(deps.store.db, QUEUE_PER_PAGE, (page - 1) * QUEUE_PER_PAGE);
    const pages = Math.max(1, Math.ceil(total / QUEUE_PER_PAGE));
    const flash =
      typeof q.delivered === 'string'
        ? { kind: 'success' as const, text: `Marked delivered; the buyer has been mailed (order ${q.delivered}).` }
        : null;
    return sendPage(
      reply,
      { title: 'Orders to deliver', user: ctx.user, csrf: ctx.csrf, noindex: true, flash },
      html`
      <h1>Orders to deliver</h1>
      <p>Paid order lines that payment does not fulfil by itself: the team's work (listing on other launch sites, reviews …). The buyer sees each as not fulfilled in their order until it is marked delivered here. <strong>${total}</strong> waiting, the longest waiting first.</p>
      ${
        rows.length
          ? html`<table>
        <thead><tr><th scope="col">What</th><th scope="col">Listing</th><th scope="col">Order</th><th scope="col">Buyer</th><th scope="col">Amount (excl. VAT)</th><th scope="col"><span class="sr-only">Action</span></th></tr></thead>
        <tbody>${rows.map((l) => lineRow(l, ctx.csrf))}</tbody>
      </table>`
          : html`<p>Nothing is waiting.</p>`
      }
      ${
        pages > 1
          ? html`<nav aria-label="Pages" class="actions">
        ${page > 1 ? html`<a href="${PATH}?page=${page - 1}">Previous page</a>` : ''}
        <span>Page ${page} of ${pages}</span>
        ${page < pages ? html`<a href="${PATH}?page=${page + 1}">Next page</a>` : ''}
      </nav>`
          : ''
      }`,
    );
  });

  app.post(`${PATH}/lines/:id/delivered`, async (req, reply) => {
    const ctx = await requireAdmin(deps, req, reply, PATH);
    if (!ctx) return reply;
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const raw = (req.params as { id: string }).id;
    const id = recordIdOf(raw);
    const db = deps.store.db;
    const line = id === undefined ? undefined : await lineForDelivery(db, id);
    if (id === undefined || !line || !(await markLineFulfilled(db, id))) {
      return sendPage(
        reply,
        { title: 'Nothing to deliver', user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true },
        html`
        <h1>Nothing to deliver</h1><p>Order line #${raw} is not waiting for the team: it does not exist, its order is not paid, or it was delivered already. <a href="${PATH}">Back to the orders to deliver</a>.</p>`,
        404,
      );
    }
    req.log.info({ admin: ctx.user!.id, order_line: id, order: line.number }, 'order line delivered');
    await sendMail(
      { db, config: deps.config, log: req.log },
      {
        to: line.email,
        subject: `Delivered: ${line.description} (order ${line.number})`,
        text:
          `Hello ${line.name},\n\nThe site team has delivered "${line.description}"${line.listing_name ? ` for ${line.listing_name}` : ''}, from your order ${line.number}.\n` +
          'Your order now shows it as fulfilled.\n\nThank you for launching with us.\n',
      },
    );
    return reply.redirect(`${PATH}?delivered=${encodeURIComponent(line.number)}`, 303);
  });
}
