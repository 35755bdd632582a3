// Launch of the Week awards: decided from community votes only, when a week has ended.
import type { Kysely } from 'kysely';
import type { DB } from '../types.ts';
import { AWARD_KIND, AWARD_RANKS, awardTitle } from '../../domain/ranking.ts';
import { snapshotCanonical, statementText, type SnapshotEntry } from '../../domain/award-statement.ts';
import { launchesOfWeek } from './launches.ts';
import { sha256Hex, signBytes, signingKey } from './award-keys.ts';
import { isoWeekLabel, mondayOf, weekBounds, addDays } from '../../domain/weeks.ts';
import { summaryQuery, toSummary, type ListingSummary, type SummaryRow } from './summary.ts';
import { num } from './sql-helpers.ts';

export type AwardWinner = { listing_id: number; rank: number; votes: number };

/**
 * Decides Launch of the Week #1–#3 for the week starting `weekMonday` (any date snaps to its Monday),
 * from the week's own ranking (store/repos/launches.ts launchesOfWeek: live launches of the week by
 * the votes it counts for the week, ties by the earlier launch, then the lower id): its first three
 * with a vote figure above 0. Billboard money, views and follows play no part.
 *
 * The ranking is frozen as the week's snapshot (award_snapshots: the canonical text of
 * domain/award-statement.ts and its SHA-256), and each award gets a statement signed with the current
 * Ed25519 award key (award-keys.ts). Idempotent: replaces the week's awards and snapshot in one
 * transaction. A week that has not ended yet (relative to `now`) is not decided: nothing is written
 * and [] is returned.
 */
export async function computeAwards(
  db: Kysely<DB>,
  weekMonday: string,
  opts: { now?: Date } = {},
): Promise<AwardWinner[]> {
  const monday = mondayOf(weekMonday);
  const now = opts.now ?? new Date();
  const b = weekBounds(monday);
  if (now.toISOString() < b.to) return [];
  const run = async (trx: Kysely<DB>) => {
    const ranking = (await launchesOfWeek(trx, monday, now, MAX_SNAPSHOT)).items;
    const slugs = ranking.map((r) => r.listing.slug);
    const ids = new Map<string, number>();
    for (let i = 0; i < slugs.length; i += 500) {
      const rows = await trx
        .selectFrom('listings')
        .select(['id', 'slug'])
        .where('slug', 'in', slugs.slice(i, i + 500))
        .execute();
      for (const r of rows) ids.set(r.slug, r.id);
    }
    const entries: SnapshotEntry[] = ranking.map((r, i) => ({
      rank: r.rank ?? i + 1,
      listing_id: ids.get(r.listing.slug) ?? 0,
      slug: r.listing.slug,
      votes: r.votes ?? 0,
    }));
    const winners = ranking
      .map((r, i) => ({ entry: entries[i], name: r.listing.name }))
      .filter((w) => w.entry.votes > 0)
      .slice(0, AWARD_RANKS.length)
      .map((w, i) => ({ ...w, rank: i + 1 }));
    await trx.deleteFrom('awards').where('kind', '=', AWARD_KIND).where('week', '=', monday).execute();
    await trx.deleteFrom('award_snapshots').where('kind', '=', AWARD_KIND).where('week', '=', monday).execute();
    if (winners.length) {
      const createdAt = now.toISOString();
      const canonical = snapshotCanonical(AWARD_KIND, monday, entries);
      const hash = sha256Hex(canonical);
      await trx
        .insertInto('award_snapshots')
        .values({ kind: AWARD_KIND, week: monday, hash, canonical, created_at: createdAt })
        .execute();
      const key = await signingKey(trx, now);
      await trx
        .insertInto('awards')
        .values(
          winners.map((w) => {
            const text = statementText({
              award: AWARD_KIND,
              title: awardTitle(w.rank),
              week: monday,
              iso_week: isoWeekLabel(monday),
              rank: w.rank,
              listing: { id: w.entry.listing_id, slug: w.entry.slug, name: w.name },
              votes: w.entry.votes,
              snapshot_sha256: hash,
              issued_at: createdAt,
              kid: key.kid,
            });
            const bytes = Buffer.from(text, 'utf8');
            return {
              kind: AWARD_KIND,
              week: monday,
              rank: w.rank,
              listing_id: w.entry.listing_id,
              votes: w.entry.votes,
              created_at: createdAt,
              statement: bytes.toString('base64url'),
              signature: signBytes(key, bytes),
              kid: key.kid,
            };
          }),
        )
        .execute();
    }
    return winners.map((w) => ({ listing_id: w.entry.listing_id, rank: w.rank, votes: w.entry.votes }));
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** The most launches a week's snapshot lists. */
const MAX_SNAPSHOT = 100_000;

/**
 * Decides every ended launch week that has live launches but no signed awards yet (for the worker that
 * runs after a week ends, and after downtime; awards decided before awards were signed are decided
 * again from the week's ranking as it stands, and signed). Returns the Mondays decided.
 */
export async function computeMissingAwards(db: Kysely<DB>, now = new Date()): Promise<string[]> {
  const current = mondayOf(now);
  const weeks = await db
    .selectFrom('listings as l')
    .select('l.launch_week')
    .distinct()
    .where('l.status', '=', 'live')
    .where('l.launch_week', 'is not', null)
    .where('l.launch_week', '<', current)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('awards as a')
            .select('a.id')
            .where('a.kind', '=', AWARD_KIND)
            .where('a.statement', 'is not', null)
            .whereRef('a.week', '=', 'l.launch_week'),
        ),
      ),
    )
    .orderBy('l.launch_week')
    .execute();
  const done: string[] = [];
  for (const w of weeks) {
    const winners = await computeAwards(db, w.launch_week as string, { now });
    if (winners.length) done.push(w.launch_week as string);
  }
  return done;
}

export type AwardItem = {
  week: string;
  week_end: string;
  iso_week: string;
  rank: number;
  title: string;
  kind: typeof AWARD_KIND;
  votes: number;
  listing: ListingSummary;
};

/** Launch of the Week awards of live listings, newest week first then rank; optionally one listing's. */
export async function listAwardItems(
  db: Kysely<DB>,
  listingId: number | null,
  limit: number,
  offset: number,
): Promise<{ items: AwardItem[]; total: number }> {
  let q = summaryQuery(db)
    .innerJoin('awards as a', 'a.listing_id', 'l.id')
    .select(['a.week', 'a.rank', 'a.votes'])
    .where('a.kind', '=', AWARD_KIND)
    .where('l.status', '=', 'live');
  let c = db
    .selectFrom('awards as a')
    .innerJoin('listings as l', 'l.id', 'a.listing_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('a.kind', '=', AWARD_KIND)
    .where('l.status', '=', 'live');
  if (listingId !== null) {
    q = q.where('a.listing_id', '=', listingId);
    c = c.where('a.listing_id', '=', listingId);
  }
  const rows = await q.orderBy('a.week', 'desc').orderBy('a.rank', 'asc').limit(limit).offset(offset).execute();
  const total = num((await c.executeTakeFirstOrThrow()).n);
  return {
    items: rows.map((r) => ({
      week: r.week,
      week_end: addDays(r.week, 6),
      iso_week: isoWeekLabel(r.week),
      rank: num(r.rank),
      title: awardTitle(num(r.rank)),
      kind: AWARD_KIND,
      votes: num(r.votes),
      listing: toSummary(r as unknown as SummaryRow),
    })),
    total,
  };
}

/** A listing's awards (newest first), for badges. */
export async function awardsOfListing(
  db: Kysely<DB>,
  listingId: number,
): Promise<Array<{ week: string; rank: number; votes: number }>> {
  const rows = await db
    .selectFrom('awards')
    .select(['week', 'rank', 'votes'])
    .where('listing_id', '=', listingId)
    .where('kind', '=', AWARD_KIND)
    .orderBy('week', 'desc')
    .execute();
  return rows.map((r) => ({ week: r.week, rank: num(r.rank), votes: num(r.votes) }));
}
