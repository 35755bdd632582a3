// /admin: the site team's start page, linked from the header for admins: what waits for them
// (edits not reviewed, paid lines to deliver) and where prices are set.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { requireAdmin } from './guard.ts';
import { html, sendPage } from '../layout.ts';
import { staffQueue } from '../../store/repos/orders.ts';
import { listVersions } from '../../store/repos/my-listings.ts';
import { listVoteReviews } from '../../store/repos/vote-reviews.ts';

export function registerAdminHome(app: FastifyInstance, deps: AppDeps): void {
  app.get('/admin', async (req, reply) => {
    const ctx = await requireAdmin(deps, req, reply, '/admin');
    if (!ctx) return reply;
    const [edits, queue, votes] = await Promise.all([
      listVersions(deps.store.db, { limit: 0, offset: 0 }),
      staffQueue(deps.store.db, 0, 0),
      listVoteReviews(deps.store.db, { limit: 0 }),
    ]);
    return sendPage(
      reply,
      { title: 'Admin', user: ctx.user, csrf: ctx.csrf, noindex: true, narrow: true },
      html`
      <h1>Admin</h1>
      <ul class="admin-links">
        <li><a href="/admin/edits">Listing edits</a> — <strong data-count="edits">${edits.unreviewed}</strong> not reviewed</li>
        <li><a href="/admin/orders">Orders to deliver</a> — <strong data-count="orders">${queue.total}</strong> paid lines waiting for the team</li>
        <li><a href="/admin/votes">Vote reviews</a> — <strong data-count="votes">${votes.open}</strong> patterns waiting for a decision</li>
        <li><a href="/admin/prices">Prices and settings</a> — products, billboard minimum, free queue, seller's VAT country</li>
        <li><a href="/admin/programmes">Programmes</a> — define programmes, set jury places, rotate the award signing key</li>
      </ul>`,
    );
  });
}
