// The owner's view of a listing (get_my_listing, and what update_my_listing and choose_free_listing
// answer with): the public profile with every section, the lifecycle fields only the owner sees, and
// `next_steps` — what to do next for the listing's status, worded for the API or for the website.
// Also the ownership check every owner's operation starts with (ownOr404).
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../store/types.ts';
import type { Engine } from '../store/connect.ts';
import type { Config } from '../config.ts';
import type { Ctx } from '../operations/context.ts';
import { userOf } from '../operations/context.ts';
import { notFound } from '../operations/errors.ts';
import { fromJson } from '../store/json.ts';
import { ownerProfile } from '../store/repos/listings.ts';
import { freeQueueWeeks } from '../store/repos/settings.ts';
import { findOwnListing, iso, isoOrNull, lastBadgeCheck, type OwnRow } from '../store/repos/my-listings.ts';
import { listingPageUrl } from '../domain/badges.ts';

type ViewDeps = { db: Kysely<DB>; engine: Engine; config: Pick<Config, 'publicUrl'> };

function badgeUrls(publicUrl: string, slug: string) {
  return { api: `${publicUrl}/api/v1/listings/${slug}/badges`, page: `${publicUrl}/listings/${slug}/badges` };
}

/**
 * What the owner should do next, in plain words, for the listing's status: for the API (`next_steps`,
 * naming the operations to call) or, with `audience: 'web'`, for the owner's page on the website
 * (naming its buttons).
 */
export function nextSteps(
  row: Pick<OwnRow, 'status' | 'plan' | 'slug' | 'url' | 'launch_week'>,
  publicUrl: string,
  opts: {
    queueWeeks?: number;
    lastCheck?: { checked_at: string; found: boolean; detail: string | null } | null;
    audience?: 'api' | 'web';
  } = {},
): string[] {
  const page = listingPageUrl(publicUrl, row.slug);
  const badges = badgeUrls(publicUrl, row.slug);
  const web = opts.audience === 'web';
  const weeks = opts.queueWeeks === undefined ? 'a few weeks out' : `${opts.queueWeeks} weeks out`;
  switch (row.status) {
    case 'draft':
      return web
        ? [
            `Publish the listing: "Publish free" below queues it for the launch week ${weeks}; it goes live in that week once a Launchlist badge is on your homepage.`,
            'Or "Buy a launch" below to go live at once or in a week you choose, with the paid extras.',
          ]
        : [
            `Publish the listing: choose_free_listing (POST /me/listings/{listing_id}/free) queues it for the launch week ${weeks}; it goes live in that week once a Launchlist badge is on your homepage.`,
            'Or buy a `launch` with create_checkout to go live at once or in a week you choose, with the paid extras (prices from list_products).',
          ];
    case 'awaiting_badge': {
      const steps = [
        web
          ? `Put a Launchlist badge on your homepage ${row.url}: copy the ready-to-paste HTML from your badge page ${badges.page}. Any of its badges, or a plain link to ${page}, counts.`
          : `Put a Launchlist badge on your homepage ${row.url}: get the ready-to-paste HTML from get_badges (GET ${badges.api}) or the badge page ${badges.page}. Any of its badges, or a plain link to ${page}, counts.`,
        `We read your homepage about every 15 minutes. Once the badge is there the listing is scheduled and goes live in the week of ${row.launch_week} (Monday 00:00 UTC); if that week has already started, it goes live at once. Keep the badge up.`,
      ];
      if (opts.lastCheck && !opts.lastCheck.found)
        steps.push(`Last check ${opts.lastCheck.checked_at}: ${opts.lastCheck.detail ?? 'no badge found'}.`);
      return steps;
    }
    case 'scheduled':
      return [
        `Nothing to do: the listing goes live in the week of ${row.launch_week} (Monday 00:00 UTC) at ${page}.${row.plan === 'free' ? ' Keep the Launchlist badge on your homepage.' : ''}`,
        web
          ? 'Meanwhile you can post updates below; they show on the listing once it is live.'
          : 'Meanwhile you can polish it with update_my_listing, add milestones and write your founder story.',
      ];
    case 'live':
      return [
        web
          ? `The listing is live at ${page}. Tell your followers what is new with "Post an update" below; votes come from people on the site.`
          : `The listing is live at ${page}. Tell your followers what is new with post_listing_update; votes come from people on the site.`,
      ];
    default:
      return [];
  }
}

/**
 * The own-listing view: {listing_id, slug, status, plan, launch_week, launched_at, unlocked, verified,
 * badge_seen_at, created_at, updated_at, public_url, badges, last_badge_check, next_steps} and
 * everything public (the get_listing profile), with story, milestones and media always present.
 */
export async function ownListingView(deps: ViewDeps, row: OwnRow) {
  const [profile, lastCheck, queueWeeks] = await Promise.all([
    ownerProfile(deps.db, deps.engine, row.id),
    lastBadgeCheck(deps.db, row.id),
    row.status === 'draft' ? freeQueueWeeks(deps.db) : Promise.resolve(undefined),
  ]);
  if (!profile) return notFound('listing', row.id); // deleted since its row was read
  return {
    listing_id: row.id,
    ...profile,
    slug: row.slug,
    status: row.status,
    plan: row.plan,
    launch_week: row.launch_week,
    launched_at: isoOrNull(row.launched_at),
    unlocked: fromJson<string[]>(row.unlocked, []),
    verified: row.verified_at !== null,
    badge_seen_at: isoOrNull(row.badge_seen_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    public_url: listingPageUrl(deps.config.publicUrl, row.slug),
    badges: badgeUrls(deps.config.publicUrl, row.slug),
    last_badge_check: lastCheck,
    next_steps: nextSteps(row, deps.config.publicUrl, { queueWeeks, lastCheck }),
  };
}

export const viewDeps = (ctx: Ctx): ViewDeps => ({ db: ctx.db, engine: ctx.engine, config: ctx.config });

/** The caller's listing row (locked FOR UPDATE on PostgreSQL with `lock`), or a 404. */
export async function ownOr404(
  db: Kysely<DB> | Transaction<DB>,
  id: number,
  userId: number,
  opts: { engine?: Engine; lock?: boolean } = {},
): Promise<OwnRow> {
  const row = await findOwnListing(db, id, userId, opts);
  return row ?? notFound('listing', id);
}

/** What get_my_listing answers (update_my_listing and choose_free_listing too, with more). */
export type OwnListingView = Awaited<ReturnType<typeof ownListingView>>;

export async function getMyListing(ctx: Ctx, id: number): Promise<OwnListingView> {
  return ownListingView(viewDeps(ctx), await ownOr404(ctx.db, id, userOf(ctx).userId));
}
