// Publishing a saved listing for free (choose_free_listing): plan free, queued for the launch week
// `free_queue_weeks` weeks out, awaiting its badge (or scheduled at once when the badge was seen
// before). Paid launches are published by the orders module (services/fulfilment.ts); the listing
// lifecycle job (services/listings.ts) takes it from there.
import type { Ctx } from '../operations/context.ts';
import { userOf } from '../operations/context.ts';
import { ApiError } from '../operations/errors.ts';
import { freeQueueWeeks } from '../store/repos/settings.ts';
import { freeQueueWeek } from '../domain/weeks.ts';
import type { ListingStatus } from '../domain/vocabulary.ts';
import { ownListingView, ownOr404, viewDeps, type OwnListingView } from './own-listing.ts';
import { alreadyListed, siteListings } from './same-site.ts';
import { lockSite } from '../store/repos/same-site.ts';

export async function chooseFreeListing(ctx: Ctx, id: number): Promise<OwnListingView> {
  const user = userOf(ctx);
  const now = ctx.now();
  const queueWeeks = await freeQueueWeeks(ctx.db);
  const row = await ctx.db.transaction().execute(async (trx) => {
    // The website's lock first, then the listing's row, in the order payment takes them (no deadlock).
    const site = await trx.selectFrom('listings').select('url').where('id', '=', id).executeTakeFirst();
    if (site) await lockSite(trx, ctx.engine, site.url);
    const row = await ownOr404(trx, id, user.userId, { engine: ctx.engine, lock: true });
    if (row.plan === 'paid') {
      throw new ApiError(
        'conflict',
        `This listing is on a paid plan (status ${row.status}${row.launch_week ? `, launch week ${row.launch_week}` : ''}); the free plan cannot replace it.`,
      );
    }
    if (row.plan === 'free') return row; // already chosen: same week, no second queue move
    if (row.status !== 'draft') {
      throw new ApiError(
        'conflict',
        `The free plan is chosen for a submitted listing in status draft; this one is ${row.status}.`,
      );
    }
    // One website, one listing: another person's listing of the site published first wins (services/same-site.ts);
    // publications of one site wait for each other (the lock above), so "first" holds for two at the same moment too.
    const { other } = await siteListings(trx, row.url, user.userId);
    if (other) throw alreadyListed(ctx.config, row.url, other);
    const week = freeQueueWeek(now, queueWeeks);
    const at = now.toISOString();
    // A badge already seen (e.g. found before) clears it at once: scheduled for week W.
    const status: ListingStatus = row.badge_seen_at ? 'scheduled' : 'awaiting_badge';
    await trx
      .updateTable('listings')
      .set({ plan: 'free', status, launch_week: week, updated_at: at })
      .where('id', '=', id)
      .execute();
    return { ...row, plan: 'free' as const, status, launch_week: week, updated_at: at };
  });
  return ownListingView(viewDeps(ctx), row);
}
