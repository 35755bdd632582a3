// "My listings" and the listing lifecycle (spec 4.5 and part 3).
//
// Listing statuses and moves (the spec shows the names; the moves are ours and written into the
// operation descriptions):
//
//   draft           submit_draft saved it (plan none); not public.
//     │ choose_free_listing → plan free, launch_week W = the Monday `free_queue_weeks` weeks after
//     │                       the current week (settings; default 4)
//     ▼
//   awaiting_badge  queued for week W; public as "upcoming", goes live only once our badge (or a
//     │             link to its listing page) is on the listing's homepage. The listings.advance job
//     │             reads the homepage (guarded fetcher, robots.txt respected) about every 15 minutes
//     │             and records each check in badge_checks.
//     │ badge found → badge_seen_at = now; week W not started yet → scheduled; started → live.
//     │               (Found only after week W has ENDED: the launch week becomes the current week.)
//     ▼
//   scheduled       cleared to go live in its launch week (free with the badge found, or paid for a
//     │             future week).
//     │ launch week starts (listings.advance) → live, launched_at = now
//     ▼
//   live            public, searchable, open to votes from people on the site.
//
// Paid launches (create_checkout + payment) move a listing to live or scheduled from the orders
// module; a listing on a paid plan refuses choose_free_listing with 409.
//
// This module holds the listing lifecycle job (listings.advance, run by jobs/listings.ts): the badge
// checks of awaiting_badge listings (the homepage is read by drafting/crawler/homepage-badge.ts) and
// the launches of scheduled listings whose week has started. The other moves live with their
// workflows: choose_free_listing in services/publishing.ts, the owner's edits in
// services/listing-edits.ts, the owner's view in services/own-listing.ts.
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import type { Engine } from '../store/connect.ts';
import type { Config } from '../config.ts';
import { awaitingBadge, insertBadgeCheck } from '../store/repos/my-listings.ts';
import { mondayOf } from '../domain/weeks.ts';
import { checkHomepageBadge } from '../drafting/crawler/homepage-badge.ts';
import type { BadgeCheckOptions } from './options.ts';

/** How often the listings.advance job runs (badge checks and launches). */
export const ADVANCE_EVERY_MS = 15 * 60_000;
/** Homepages read per run at most (the least recently checked first), and how many at once. */
export const BADGE_CHECKS_PER_RUN = 200;
export const BADGE_CHECK_CONCURRENCY = 6;

export interface AdvanceDeps {
  store: { db: Kysely<DB>; engine: Engine };
  config: Pick<Config, 'FETCH_ALLOW_HOSTS' | 'publicUrl'>;
  services?: { badgeChecks: BadgeCheckOptions };
  log?: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
}

export interface AdvanceReport {
  /** Homepages read. */
  checked: number;
  /** Slugs whose badge was found in this run. */
  badge_found: string[];
  /** Slugs that went live in this run. */
  launched: string[];
}

/**
 * One pass of the lifecycle (the listings.advance job; idempotent): reads the homepage of every
 * listing awaiting its badge (at most BADGE_CHECKS_PER_RUN, least recently checked first), records
 * each check in badge_checks, moves those with the badge to scheduled (badge_seen_at = now), then
 * makes every scheduled listing whose launch week has started live (launched_at = now).
 */
export async function advanceListings(
  deps: AdvanceDeps,
  now: Date,
  opts: { signal?: AbortSignal } = {},
): Promise<AdvanceReport> {
  const db = deps.store.db;
  const thisMonday = mondayOf(now);
  const at = now.toISOString();
  const report: AdvanceReport = { checked: 0, badge_found: [], launched: [] };

  const waiting = await awaitingBadge(db, BADGE_CHECKS_PER_RUN);
  let next = 0;
  const worker = async () => {
    while (next < waiting.length && !opts.signal?.aborted) {
      const l = waiting[next++];
      const check = await checkHomepageBadge(l, {
        allowHosts: deps.config.FETCH_ALLOW_HOSTS,
        publicUrl: deps.config.publicUrl,
        robots: deps.services?.badgeChecks.robots,
        signal: opts.signal,
      });
      report.checked++;
      await db.transaction().execute(async (trx) => {
        await insertBadgeCheck(trx, l.id, check.found, check.detail, at);
        if (!check.found) return;
        // Found only after its week ended: it launches in the current week instead of a past one.
        const week = l.launch_week && l.launch_week >= thisMonday ? l.launch_week : thisMonday;
        const r = await trx
          .updateTable('listings')
          .set({ status: 'scheduled', badge_seen_at: at, launch_week: week, updated_at: at })
          .where('id', '=', l.id)
          .where('status', '=', 'awaiting_badge')
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) > 0) report.badge_found.push(l.slug);
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(BADGE_CHECK_CONCURRENCY, waiting.length) }, worker));

  const launched = await db
    .updateTable('listings')
    .set({ status: 'live', launched_at: at, updated_at: at })
    .where('status', '=', 'scheduled')
    .where('launch_week', 'is not', null)
    .where('launch_week', '<=', thisMonday)
    .returning('slug')
    .execute();
  report.launched = launched.map((r) => r.slug);
  if (report.badge_found.length || report.launched.length) deps.log?.info(report, 'listings advanced');
  return report;
}
