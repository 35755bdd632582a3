// Launch of the Week awards: decided from community votes only, when a week has ended.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../types.ts';
import { AWARD_KIND, awardTitle, pickAwardWinners } from '../../domain/ranking.ts';
import { isoWeekLabel, mondayOf, weekBounds, addDays } from '../../domain/weeks.ts';
import { summaryQuery, toSummary, type ListingSummary, type SummaryRow } from './summary.ts';
import { num } from './sql-helpers.ts';

export type AwardWinner = { listing_id: number; rank: number; votes: number };

/**
 * Decides Launch of the Week #1–#3 for the week starting `weekMonday` (any date snaps to its Monday):
 * among that week's live launches (launch_week = the week, status live), by votes cast during the
 * week (Monday 00:00 to next Monday 00:00 UTC), ties broken by the earlier launched_at, then the lower
 * id; a listing needs at least one vote. Billboard money, views and follows play no part.
 * Idempotent: replaces the week's awards in one transaction. A week that has not ended yet
 * (relative to `now`) is not decided: nothing is written and [] is returned.
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
    const rows = await trx
      .selectFrom('listings as l')
      .leftJoin(
        trx
          .selectFrom('votes')
          .select((eb) => ['votes.listing_id', eb.fn.countAll<number>().as('n')])
          .where('votes.created_at', '>=', b.from)
          .where('votes.created_at', '<', b.to)
          .groupBy('votes.listing_id')
          .as('wv'),
        (j) => j.onRef('wv.listing_id', '=', 'l.id'),
      )
      .select(['l.id', 'l.launched_at', sql<number>`coalesce(wv.n, 0)`.as('votes')])
      .where('l.launch_week', '=', monday)
      .where('l.status', '=', 'live')
      .execute();
    const winners = pickAwardWinners(rows.map((r) => ({ id: r.id, launched_at: r.launched_at, votes: num(r.votes) })));
    await trx.deleteFrom('awards').where('kind', '=', AWARD_KIND).where('week', '=', monday).execute();
    if (winners.length) {
      const createdAt = now.toISOString();
      await trx
        .insertInto('awards')
        .values(
          winners.map((w) => ({
            kind: AWARD_KIND,
            week: monday,
            rank: w.rank,
            listing_id: w.id,
            votes: w.votes,
            created_at: createdAt,
          })),
        )
        .execute();
    }
    return winners.map((w) => ({ listing_id: w.id, rank: w.rank, votes: w.votes }));
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/**
 * Decides every ended launch week that has live launches but no awards yet (for the worker that
 * runs after a week ends, and after downtime). Returns the Mondays decided.
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
