// The vote review queue (issue #21): what the detection job filed (bursts of new accounts on one
// network, rings of accounts voting for the same listings), with the site team's decisions.
// GET /admin/votes lists open reviews first; POST /admin/votes/:id/decide (CSRF-checked) with
// action=discount|restore and an optional note applies the decision, logs it (who, when, what) and
// recounts the listings' sums (store/repos/vote-reviews.ts). Admins only.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { checkCsrf } from '../context.ts';
import { requireAdmin } from './guard.ts';
import { recordIdOf } from '../../operations/schemas.ts';
import { decideVoteReview, listVoteReviews, type ReviewView } from '../../store/repos/vote-reviews.ts';
import { voteWeightsOf } from '../../services/vote-context.ts';
import { csrfField, html, sendPage, type SafeHtml } from '../layout.ts';

function when(iso: string): SafeHtml {
  const s = new Date(iso).toISOString();
  return html`<time datetime="${s}">${s.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

function reviewBlock(r: ReviewView, csrf: string): SafeHtml {
  const decide = (action: 'discount' | 'restore', label: string) =>
    html`<form method="post" action="/admin/votes/${r.id}/decide" class="stack">${csrfField(csrf)}<input type="hidden" name="action" value="${action}">
      <label for="note-${r.id}-${action}">Note <span class="hint">(optional, kept in the log)</span></label>
      <input id="note-${r.id}-${action}" name="note" maxlength="500">
      <button type="submit">${label}</button></form>`;
  return html`
  <article class="vote-review" id="review-${r.id}" data-review="${r.id}" data-status="${r.status}" data-kind="${r.kind}">
    <h2>${r.kind === 'burst' ? 'Burst' : 'Ring'} #${r.id} <small class="hint">(${r.status})</small></h2>
    <p>${r.summary} Found ${when(r.created_at)}.</p>
    <p>${r.votes} votes from ${r.accounts} accounts, counting <strong data-weight>${r.weight}</strong> now. Listings: ${r.listings.map((l, i) => html`${i ? ', ' : ''}<a href="/listings/${l.slug}">${l.name}</a>`)}.</p>
    <div class="actions">
      ${r.status !== 'discounted' ? decide('discount', `Discount these votes (count 0)`) : ''}
      ${r.status !== 'restored' ? decide('restore', `Restore these votes (full rules weight)`) : ''}
    </div>
    ${
      r.decisions.length
        ? html`<h3>Decisions</h3><ul class="decisions">${r.decisions.map((d) => html`<li>${when(d.at)} — <strong>${d.action}</strong> by ${d.by} (${d.votes_changed} votes changed weight)${d.note ? html`: ${d.note}` : ''}</li>`)}</ul>`
        : ''
    }
  </article>`;
}

export function registerAdminVotesPage(app: FastifyInstance, deps: AppDeps): void {
  app.get('/admin/votes', async (req, reply) => {
    const ctx = await requireAdmin(deps, req, reply, '/admin/votes');
    if (!ctx) return reply;
    const q = (req.query ?? {}) as Record<string, string | undefined>;
    const { items, open } = await listVoteReviews(deps.store.db, { limit: 100 });
    const flash =
      q.notice === 'discount' || q.notice === 'restore'
        ? {
            kind: 'success' as const,
            text: `Decision logged: the votes are ${q.notice === 'discount' ? 'discounted' : 'restored'}${q.changed ? ` (${q.changed} changed weight)` : ''}; the rankings are updated.`,
          }
        : null;
    return sendPage(
      reply,
      { title: 'Vote reviews', user: ctx.user, csrf: ctx.csrf, noindex: true, flash },
      html`
      <h1>Vote reviews</h1>
      <p>Patterns the detection job found. Their votes count × ${deps.config.VOTE_WEIGHT_UNDER_REVIEW} until you decide: discount (they count 0) or restore (they count what the weight rules give). Every decision is logged. <strong data-count="open">${open}</strong> open.</p>
      ${items.length ? items.map((r) => reviewBlock(r, ctx.csrf)) : html`<p>Nothing found so far.</p>`}`,
    );
  });

  app.post('/admin/votes/:id/decide', async (req, reply) => {
    const ctx = await requireAdmin(deps, req, reply, '/admin/votes');
    if (!ctx || !(await checkCsrf(deps, req, reply))) return reply;
    const raw = (req.params as { id: string }).id;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const action = body.action === 'discount' || body.action === 'restore' ? body.action : undefined;
    const note = typeof body.note === 'string' && body.note.trim() ? body.note.trim().slice(0, 500) : null;
    const id = recordIdOf(raw);
    const out =
      id === undefined || !action
        ? undefined
        : await decideVoteReview(
            deps.store.db,
            deps.store.engine,
            id,
            { id: ctx.user!.id, email: ctx.user!.email },
            action,
            note,
            voteWeightsOf(deps.config),
            new Date(),
          );
    if (!out || out.status === 'not_found')
      return sendPage(
        reply,
        { title: 'Review not found', user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true },
        html`<h1>Review not found</h1><p>There is no vote review #${raw} (or no decision was given). <a href="/admin/votes">Back to the reviews</a>.</p>`,
        404,
      );
    return reply.redirect(`/admin/votes?notice=${action}&changed=${out.votesChanged}#review-${id}`, 303);
  });
}
