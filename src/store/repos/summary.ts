// The one listing summary used by every public list (search, categories, launches, leaderboards,
// awards, founders, badges). Select SUMMARY_SELECT from `listings as l` left-joined to
// `categories as pc` (summaryQuery does both), then map rows with toSummary().
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Engine } from '../connect.ts';
import type { DB } from '../types.ts';
import { inIndexOrder } from '../dialect.ts';
import type { ListingStatus } from '../../domain/vocabulary.ts';

/** Columns a summary needs; `id` is internal (for joins and tie-breaks) and never shown. */
export const SUMMARY_SELECT = [
  'l.id',
  'l.slug',
  'l.name',
  'l.url',
  'l.tagline',
  'l.logo_url',
  'l.votes_count',
  'l.status',
  'l.launch_week',
  'l.launched_at',
  'pc.slug as primary_category_slug',
  'pc.name as primary_category_name',
] as const;

export type SummaryRow = {
  id: number;
  slug: string;
  name: string;
  url: string;
  tagline: string | null;
  logo_url: string | null;
  votes_count: number;
  status: ListingStatus;
  launch_week: string | null;
  launched_at: string | null;
  primary_category_slug: string | null;
  primary_category_name: string | null;
};

export type ListingSummary = {
  slug: string;
  name: string;
  url: string;
  tagline: string | null;
  logo_url: string | null;
  /** All-time community votes (listings.votes_count = number of votes rows). */
  votes: number;
  primary_category: { slug: string; name: string } | null;
  status: ListingStatus;
  /** Monday YYYY-MM-DD of the launch week, or null. */
  launch_week: string | null;
  /** ISO timestamp when it went live, or null while not live. */
  launched_at: string | null;
};

export function toSummary(row: SummaryRow): ListingSummary {
  return {
    slug: row.slug,
    name: row.name,
    url: row.url,
    tagline: row.tagline,
    logo_url: row.logo_url,
    votes: Number(row.votes_count),
    primary_category: row.primary_category_slug
      ? { slug: row.primary_category_slug, name: row.primary_category_name ?? row.primary_category_slug }
      : null,
    status: row.status,
    launch_week: row.launch_week,
    launched_at: row.launched_at,
  };
}

/** `listings as l` left-joined to its primary category `pc`, selecting SUMMARY_SELECT. Add where/order/limit. */
export function summaryQuery(db: Kysely<DB>) {
  return db
    .selectFrom('listings as l')
    .leftJoin('categories as pc', 'pc.id', 'l.primary_category_id')
    .select(SUMMARY_SELECT);
}

/**
 * `listing_view_totals as vt` joined to `listings as l`, for reading listings in the order of the
 * views index (most viewed first) with no other filter than the status. SQLite is told to walk that
 * index with the listings inside it: its planner would rather sort every live listing (~30 ms at
 * 100,000 listings against ~0.05 ms). PostgreSQL chooses that plan (an incremental sort) by itself.
 */
export function viewsOrderFrom(engine: Engine): RawBuilder<unknown> {
  return inIndexOrder(
    engine,
    sql`listing_view_totals AS vt`,
    'listing_view_totals_views',
    sql`listings AS l`,
    sql`l.id = vt.listing_id`,
  );
}

/** Summaries of the given listing ids (any status), keyed by id. */
export async function summariesByIds(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, ListingSummary>> {
  const out = new Map<number, ListingSummary>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await summaryQuery(db)
      .where('l.id', 'in', unique.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.id, toSummary(r as SummaryRow));
  }
  return out;
}

/** Statuses that are publicly visible as a listing page: live, and scheduled/awaiting_badge for upcoming launches. */
export const PUBLIC_STATUSES = ['live', 'scheduled', 'awaiting_badge'] as const;
