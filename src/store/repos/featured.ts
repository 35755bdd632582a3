// Featured placements (migration 120): the paid spot at the top of the home page and of a listing's
// category pages, for the product's number of days. Always shown labelled as paid.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../types.ts';
import { summariesByIds, type ListingSummary } from './summary.ts';

type Db = Kysely<DB> | Transaction<DB>;

/** Days a placement runs when the product's options do not say. */
export const DEFAULT_FEATURED_DAYS = 7;
/** The longest placement read back (placements not yet started are looked for among listings launched this recently). */
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

/** The days a featured line buys: the line's chosen `days`, else the product's, else 7 (whole days, 1–366). */
export function featuredDays(lineOptions: Record<string, unknown>, productOptions: Record<string, unknown>): number {
  for (const v of [lineOptions.days, productOptions.days]) {
    if (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_DAYS) return v;
  }
  return DEFAULT_FEATURED_DAYS;
}

/** Records a bought placement: it runs from now when the listing is live, else from the day it goes live. */
export async function addPlacement(
  trx: Db,
  listingId: number,
  orderId: number | null,
  days: number,
  now: Date,
): Promise<void> {
  const l = await trx.selectFrom('listings').select('status').where('id', '=', listingId).executeTakeFirstOrThrow();
  const live = l.status === 'live';
  await trx
    .insertInto('featured_placements')
    .values({
      listing_id: listingId,
      order_id: orderId,
      days,
      starts_at: live ? now.toISOString() : null,
      ends_at: live ? new Date(now.getTime() + days * DAY_MS).toISOString() : null,
      created_at: now.toISOString(),
    })
    .execute();
}

export interface Placement {
  listing_id: number;
  starts_at: string | null;
  ends_at: string | null;
}

/**
 * The placements of these listings that have not ended: running (starts_at ≤ now < ends_at) or waiting
 * for the listing to go live (`starts_at` null). Keyed by listing id; one per listing (the latest).
 */
export async function openPlacements(
  db: Db,
  listingIds: readonly number[],
  now: Date,
): Promise<Map<number, Placement>> {
  const out = new Map<number, Placement>();
  if (!listingIds.length) return out;
  const rows = await candidates(db, now, { listingIds });
  for (const r of rows) {
    const span = spanOf(r);
    if (span && span.end > now.getTime())
      out.set(r.listing_id, {
        listing_id: r.listing_id,
        starts_at: span.start ? new Date(span.start).toISOString() : null,
        ends_at: span.start ? new Date(span.end).toISOString() : null,
      });
  }
  return out;
}

/**
 * Live listings featured now, the most recently started first, at most `limit`. With `category` (a slug):
 * only those in that category or one of its subcategories (primary or extra).
 */
export async function featuredNow(
  db: Db,
  now: Date,
  opts: { limit: number; category?: string },
): Promise<Array<ListingSummary & { featured_until: string }>> {
  let rows = (await candidates(db, now)).filter((r) => r.status === 'live');
  if (opts.category !== undefined && rows.length) {
    // Placements running now are few: they are checked against the category by their listings' own rows
    // (an index lookup), never by listing every member of a category that may hold tens of thousands.
    const self = db.selectFrom('categories').select('id').where('slug', '=', opts.category);
    const cats = db
      .selectFrom('categories')
      .select('id')
      .where((eb) => eb.or([eb('slug', '=', opts.category!), eb('parent_id', 'in', self)]));
    const inCategory = new Set(
      (
        await db
          .selectFrom('listing_categories')
          .select('listing_id')
          .where('listing_id', 'in', [...new Set(rows.map((r) => r.listing_id))])
          .where('category_id', 'in', cats)
          .execute()
      ).map((r) => r.listing_id),
    );
    rows = rows.filter((r) => inCategory.has(r.listing_id));
  }
  const running = new Map<number, { start: number; end: number }>();
  for (const r of rows) {
    const span = spanOf(r);
    if (!span?.start || span.start > now.getTime() || span.end <= now.getTime()) continue;
    const had = running.get(r.listing_id);
    if (!had || had.end < span.end) running.set(r.listing_id, { start: span.start, end: span.end });
  }
  const order = [...running].sort((a, b) => b[1].start - a[1].start || a[0] - b[0]).slice(0, opts.limit);
  const summaries = await summariesByIds(
    db,
    order.map(([id]) => id),
  );
  return order.flatMap(([id, span]) => {
    const s = summaries.get(id);
    return s ? [{ ...s, featured_until: new Date(span.end).toISOString() }] : [];
  });
}

/** A placement with its listing's status and launch: what `spanOf` needs. */
type PlacementRow = {
  listing_id: number;
  days: number;
  starts_at: string | null;
  ends_at: string | null;
  created_at: string;
  status: string;
  launched_at: string | null;
};

/**
 * Placements that may not have ended (an end after now, or none yet: the listing was not live when
 * bought), with their listing's status and launch, in placement order. The placements are read first
 * (a handful), then their listings by key: joined in one statement, PostgreSQL planned a hash over
 * every live listing whenever featured_placements had no statistics, and a table this small is never
 * analysed by autovacuum (a category page took ~7 ms for it at 10,000 listings, 0.1 ms this way).
 */
async function candidates(db: Db, now: Date, opts: { listingIds?: readonly number[] } = {}): Promise<PlacementRow[]> {
  const oldest = now.getTime() - MAX_DAYS * DAY_MS;
  let q = db
    .selectFrom('featured_placements as p')
    .select(['p.listing_id', 'p.days', 'p.starts_at', 'p.ends_at', 'p.created_at'])
    .where((eb) => eb.or([eb('p.ends_at', '>', now.toISOString()), eb('p.ends_at', 'is', null)]));
  if (opts.listingIds) q = q.where('p.listing_id', 'in', [...new Set(opts.listingIds)]);
  const placements = await q.orderBy('p.id').execute();
  if (!placements.length) return [];
  const listings = new Map(
    (
      await db
        .selectFrom('listings')
        .select(['id', 'status', 'launched_at'])
        .where('id', 'in', [...new Set(placements.map((p) => p.listing_id))])
        .execute()
    ).map((l) => [l.id, l]),
  );
  return placements.flatMap((p) => {
    const l = listings.get(p.listing_id);
    if (!l) return [];
    // no end yet: still waiting for its listing to go live, or started with a launch in the last MAX_DAYS
    const launched = l.launched_at === null ? Number.NaN : new Date(l.launched_at).getTime();
    if (p.ends_at === null && l.status === 'live' && !(launched >= oldest)) return [];
    return [{ ...p, status: l.status, launched_at: l.launched_at }];
  });
}

/**
 * When a placement runs, in ms: its stored span, or, when it had none (bought before the listing went
 * live), from the later of its purchase and the listing's launch. `start` 0 means it has not started.
 */
function spanOf(r: PlacementRow): { start: number; end: number } | undefined {
  if (r.starts_at && r.ends_at) return { start: Date.parse(r.starts_at), end: Date.parse(r.ends_at) };
  if (r.status !== 'live' || !r.launched_at) return { start: 0, end: Number.POSITIVE_INFINITY };
  const start = Math.max(Date.parse(r.launched_at), Date.parse(r.created_at));
  return { start, end: start + Number(r.days) * DAY_MS };
}
