// The site team's review of listing edits (update_my_listing publishes at once; every edit leaves a
// listing_versions row with before/after of the changed fields). GET /admin/edits lists them,
// unreviewed first, newest first; POST /admin/edits/:id/reviewed (CSRF-checked) marks one reviewed;
// POST /admin/edits/:id/revert puts the fields it changed back (services/listing-edits.ts revertVersion:
// a field a later edit changed again is kept), records that as an edit by the admin, and mails the owner
// with the reason given.
// Admins only (users.role = 'admin'): others get a 403 page, signed-out people go to sign-in.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { listVersions, markVersionReviewed, type VersionView } from '../../store/repos/my-listings.ts';
import { checkCsrf } from '../context.ts';
import { requireAdmin } from './guard.ts';
import { recordIdOf } from '../../operations/schemas.ts';
import { revertVersion } from '../../services/listing-edits.ts';
import { sendMail } from '../../mail/index.ts';
import { csrfField, html, sendPage, type SafeHtml } from '../layout.ts';
import { pageLink } from '../pages/shared.ts';

export const EDITS_PER_PAGE = 50;

function value(v: unknown): SafeHtml {
  if (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0))
    return html`<em class="hint">(empty)</em>`;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    return html`<div style="white-space:pre-wrap">${String(v)}</div>`;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string'))
    return html`<ul>${v.map((x) => html`<li>${x}</li>`)}</ul>`;
  if (Array.isArray(v) && v.every((x) => x && typeof x === 'object' && 'question' in x)) {
    return html`<dl>${(v as Array<{ question: string; answer: string }>).map((f) => html`<dt>${f.question}</dt><dd>${f.answer}</dd>`)}</dl>`;
  }
  if (typeof v === 'object' && !Array.isArray(v))
    return html`<dl>${Object.entries(v as Record<string, unknown>).map(([k, x]) => html`<dt>${k}</dt><dd>${String(x)}</dd>`)}</dl>`;
  return html`<pre>${JSON.stringify(v, null, 2)}</pre>`;
}

function when(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

function versionBlock(v: VersionView, csrf: string): SafeHtml {
  const fields = [...new Set([...Object.keys(v.before), ...Object.keys(v.after)])];
  return html`
  <article class="edit" id="edit-${v.id}" data-version="${v.id}" data-reviewed="${v.reviewed_at ? 'yes' : 'no'}">
    <h2>${pageLink(v.listing)} <small class="hint">(${v.listing.status}, listing ${v.listing.id})</small></h2>
    <p>${v.draft_id === null ? html`Edit #${v.id}` : html`<strong class="from-draft">Edit #${v.id} from draft ${v.draft_id}</strong> (the maker re-submitted or edited a draft of the listing: values drafted from the website, not typed on the listing)`} by ${v.user ? html`${v.user.name} &lt;${v.user.email}&gt;` : html`<em>unknown</em>`}, ${when(v.created_at)}.
      ${v.apply_to.length ? html`Also sent to: <strong class="apply-to">${v.apply_to.join(', ')}</strong>.` : html`This listing only.`}</p>
    <table>
      <thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
      <tbody>${fields.map((f) => html`<tr data-field="${f}"><th scope="row"><code>${f}</code></th><td class="before">${value(v.before[f])}</td><td class="after">${value(v.after[f])}</td></tr>`)}</tbody>
    </table>
    ${
      v.reviewed_at
        ? html`<p class="reviewed">Reviewed ${when(v.reviewed_at)}${v.reviewed_by ? html` by ${v.reviewed_by.name}` : ''}.</p>`
        : html`<form method="post" action="/admin/edits/${v.id}/reviewed">${csrfField(csrf)}<button type="submit">Mark edit #${v.id} reviewed</button></form>`
    }
    <details class="revert"><summary>Revert edit #${v.id}</summary>
      <form method="post" action="/admin/edits/${v.id}/revert" class="stack">${csrfField(csrf)}
        <p class="hint">Puts back the values before this edit (a field changed again since is left as it is) and tells the owner by email.</p>
        <label for="reason-${v.id}">Reason, for the owner <span class="hint">(optional)</span></label>
        <textarea id="reason-${v.id}" name="reason" rows="2" maxlength="1000"></textarea>
        <p><button type="submit" class="danger">Revert edit #${v.id}</button></p>
      </form>
    </details>
  </article>`;
}

export function registerAdminEditPages(app: FastifyInstance, deps: AppDeps): void {
  app.get('/admin/edits', async (req, reply) => {
    const ctx = await requireAdmin(deps, req, reply, '/admin/edits');
    if (!ctx) return reply;
    const q = (req.query ?? {}) as Record<string, string | undefined>;
    const page = Math.min(1000, Math.max(1, Number.parseInt(q.page ?? '1', 10) || 1));
    const { items, total, unreviewed } = await listVersions(deps.store.db, {
      limit: EDITS_PER_PAGE,
      offset: (page - 1) * EDITS_PER_PAGE,
    });
    const pages = Math.max(1, Math.ceil(total / EDITS_PER_PAGE));
    const flash =
      q.notice === 'reviewed'
        ? { kind: 'success' as const, text: 'The edit is marked reviewed.' }
        : q.notice === 'reverted'
          ? {
              kind: 'success' as const,
              text: `The edit is reverted${q.restored ? `: ${q.restored} put back` : ' (nothing to put back)'}${q.kept ? `; ${q.kept} kept, changed again since` : ''}. The owner has been told.`,
            }
          : null;
    return sendPage(
      reply,
      { title: 'Listing edits', user: ctx.user, csrf: ctx.csrf, noindex: true, flash },
      html`
      <h1>Listing edits</h1>
      <p>Owners' edits publish at once; each shows the fields it changed, before and after. <strong>${unreviewed}</strong> of ${total} not reviewed yet (shown first, newest first).</p>
      ${items.length ? items.map((v) => versionBlock(v, ctx.csrf)) : html`<p>No edits yet.</p>`}
      ${
        pages > 1
          ? html`<nav aria-label="Pages" class="actions">
        ${page > 1 ? html`<a href="/admin/edits?page=${page - 1}">Previous page</a>` : ''}
        <span>Page ${page} of ${pages}</span>
        ${page < pages ? html`<a href="/admin/edits?page=${page + 1}">Next page</a>` : ''}
      </nav>`
          : ''
      }`,
    );
  });

  /** A POST on one edit: the admin, the edit's id (undefined when the path holds none) and its 404 page; null once the reply is sent (sign-in, 403, CSRF). */
  const editPost = async (req: FastifyRequest, reply: FastifyReply) => {
    const ctx = await requireAdmin(deps, req, reply, '/admin/edits');
    if (!ctx || !(await checkCsrf(deps, req, reply))) return null;
    const raw = (req.params as { id: string }).id;
    const notFound = () =>
      sendPage(
        reply,
        { title: 'Edit not found', user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true },
        html`
      <h1>Edit not found</h1><p>There is no listing edit #${raw}. <a href="/admin/edits">Back to the edits</a>.</p>`,
        404,
      );
    return { ctx, id: recordIdOf(raw), notFound };
  };

  app.post('/admin/edits/:id/reviewed', async (req, reply) => {
    const post = await editPost(req, reply);
    if (!post) return reply;
    const { ctx, id } = post;
    if (id === undefined || !(await markVersionReviewed(deps.store.db, id, ctx.user!.id, new Date().toISOString())))
      return post.notFound();
    return reply.redirect(`/admin/edits?notice=reviewed#edit-${id}`, 303);
  });

  app.post('/admin/edits/:id/revert', async (req, reply) => {
    const post = await editPost(req, reply);
    if (!post) return reply;
    const { ctx, id } = post;
    const reasonRaw = (req.body as Record<string, unknown> | undefined)?.reason;
    const reason = typeof reasonRaw === 'string' ? reasonRaw.trim().slice(0, 1000) : '';
    const out =
      id === undefined
        ? undefined
        : await revertVersion(deps.store.db, deps.store.engine, id, ctx.user!.id, new Date().toISOString());
    if (!out) return post.notFound();
    req.log.info(
      { admin: ctx.user!.id, version: id, listing: out.listing.id, restored: out.restored, kept: out.kept },
      'listing edit reverted',
    );
    const owner =
      out.restored.length && out.listing.owner_id !== null
        ? await deps.store.db
            .selectFrom('users')
            .select(['email', 'name'])
            .where('id', '=', out.listing.owner_id)
            .executeTakeFirst()
        : undefined;
    if (owner) {
      await sendMail(
        { db: deps.store.db, config: deps.config, log: req.log },
        {
          to: owner.email,
          subject: `Your edit of ${out.listing.name} was reverted`,
          text:
            `Hello ${owner.name},\n\nThe site team has reverted your edit #${id} of ${out.listing.name}: ${out.restored.join(', ')} ${out.restored.length === 1 ? 'is' : 'are'} back to ${out.restored.length === 1 ? 'its' : 'their'} earlier value.\n` +
            (reason ? `\nTheir reason: ${reason}\n` : '') +
            `\nThe listing: ${deps.config.publicUrl}/listings/${out.listing.slug}\nReply to this message if you think this was a mistake.\n`,
        },
      );
    }
    const qs = new URLSearchParams({
      notice: 'reverted',
      ...(out.restored.length ? { restored: out.restored.join(', ') } : {}),
      ...(out.kept.length ? { kept: out.kept.join(', ') } : {}),
    });
    return reply.redirect(`/admin/edits?${qs}#edit-${id}`, 303);
  });
}
