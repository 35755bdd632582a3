// Launch weeks, launch sections and leaderboards.
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../types.ts';
import type { Engine } from '../connect.ts';
import {
  SUMMARY_SELECT,
  summaryQuery,
  toSummary,
  viewsOrderFrom,
  summariesByIds,
  type ListingSummary,
  type SummaryRow,
} from './summary.ts';
import { hoursSince, nullsLast, num } from './sql-helpers.ts';
import { dayBounds, mondayOf } from '../../domain/weeks.ts';
import {
  TRENDING_HALF_LIFE_HOURS,
  TRENDING_WINDOW_DAYS,
  roundScore,
  trendOf,
  type Trend,
} from '../../domain/ranking.ts';
import { formatCents } from '../../domain/money.ts';
import { byBoards } from '../membership.ts';
import { sqliteAdapterOf } from '../sqlite.ts';
import { LISTING_STATUSES, type ListingStatus } from '../../domain/vocabulary.ts';
import { inIndexOrder, trendingKey } from '../dialect.ts';

/**
 * Counted (weighted) votes cast in one launch week per listing, as a joinable subquery `wv(listing_id, n)`:
 * the maintained sums of listing_week_votes (store/repos/votes.ts recountVotes), read by key, never
 * the votes themselves.
 */
function weekVotes(db: Kysely<DB>, monday: string) {
  return db
    .selectFrom('listing_week_votes')
    .select(['listing_week_votes.listing_id', 'listing_week_votes.weighted as n'])
    .where('listing_week_votes.week', '=', monday)
    .where('listing_week_votes.weighted', '>', 0)
    .as('wv');
}

/**
 * A week's ranking order, on a query of listings `l`: the votes cast that week (`votes`: by default
 * those of `weekVotes` `wv` joined to it), then the earlier launch (a launch without a time last), then
 * the lower id.
 */
function inWeekOrder<D, T extends keyof D, O>(
  qb: SelectQueryBuilder<D, T, O>,
  votes: RawBuilder<unknown> = sql`coalesce(wv.n, 0)`,
): SelectQueryBuilder<D, T, O> {
  return qb
    .orderBy(votes, 'desc')
    .orderBy(nullsLast(sql`l.launched_at`))
    .orderBy(sql`l.launched_at`, 'asc')
    .orderBy(sql`l.id`, 'asc');
}

const listingCount = (db: Kysely<DB>) =>
  db.selectFrom('listings as l').select((eb) => eb.fn.countAll<number>().as('n'));

/** How many listings `l` match what `apply` adds to the count's query. */
async function countListings(
  db: Kysely<DB>,
  apply: (q: ReturnType<typeof listingCount>) => ReturnType<typeof listingCount>,
): Promise<number> {
  return num((await apply(listingCount(db)).executeTakeFirstOrThrow()).n);
}

/** Counted votes for display: the weighted sum, 2 decimals. */
export const counted = (v: unknown): number => Math.round(num(v) * 100) / 100;

/**
 * A week's launch: its rank and counted votes. `votes` is the weighted sum (domain/vote-weight.ts) the
 * week is ranked by, the figure the awards read; rank and votes are null for a future week and during
 * the fair first hours (FAIR_START_HOURS).
 */
export type WeekLaunch = { rank: number | null; listing: ListingSummary; votes: number | null };

/**
 * A week's launches. Current or past week: live listings whose launch week it is, ranked by votes cast
 * in that week (Monday 00:00 to next Monday 00:00 UTC), ties by the earlier launch then id.
 * Future week: listings scheduled for it (scheduled or awaiting_badge), by name, without ranks.
 */
export async function launchesOfWeek(
  db: Kysely<DB>,
  monday: string,
  now: Date,
  limit: number,
  opts: { hideCounts?: boolean } = {},
): Promise<{ items: WeekLaunch[]; total: number }> {
  const future = monday > mondayOf(now);
  // A future week (listings scheduled for it), or the fair first hours (no vote figure decides the
  // order): by name, a stable order that is no ranking, without ranks or counts.
  if (future) return byName(db, monday, ['scheduled', 'awaiting_badge'], limit);
  if (opts.hideCounts) return byName(db, monday, ['live'], limit);
  const { ranked, total } = await weekRanking(db, monday, limit);
  const summaries = await summariesByIds(
    db,
    ranked.map((r) => r.id),
  );
  return {
    items: ranked
      .flatMap((r) => {
        const listing = summaries.get(r.id);
        return listing ? [{ listing, votes: counted(r.votes) }] : [];
      })
      .map((x, i) => ({ rank: i + 1, ...x })),
    total,
  };
}

const LIVE_OF_WEEK =
  "SELECT id, launched_at FROM listings WHERE status = 'live' AND launch_week = ? ORDER BY launched_at, id";
const SUMS_OF_WEEK = 'SELECT listing_id, weighted FROM listing_week_votes WHERE week = ? AND weighted > 0';

/**
 * The first `limit` of a week's live launches, ranked by the votes cast that week (ties: the earlier
 * launch, a launch without a time last, then the lower id), and how many there are. No listing row
 * is read: only the (status, launch_week, launched_at, id) index and the week's vote sums.
 *
 * SQLite, in process: two index range scans as cached statements returning arrays, merged here (the
 * launches come in launch order and the sort by votes is stable): a join was one lookup per launch and
 * a sort, ~4 ms for a week of ~700 launches at 100,000 listings, against ~1 ms. PostgreSQL: the same
 * ranking in one statement, so ~700 rows do not cross the network to be sorted here, each launch's sum
 * read by key; the total comes with it (a window count, taken before the LIMIT).
 */
async function weekRanking(
  db: Kysely<DB>,
  monday: string,
  limit: number,
): Promise<{ ranked: Array<{ id: number; votes: number }>; total: number }> {
  const direct = sqliteAdapterOf(db);
  if (!direct) {
    // Each launch's sum is looked up by key (listing_id, week): joined to the week's sums instead, the
    // generic plan read every listing's sum for the week (votes cast that week on any listing, ~7,000 rows
    // at 10,000 listings and ten times that at 100,000) to keep ~50: 4.1 → 0.6 ms at 10,000.
    const votes = sql<number>`coalesce((SELECT wv.weighted FROM listing_week_votes wv
      WHERE wv.listing_id = l.id AND wv.week = ${monday} AND wv.weighted > 0), 0)`;
    const rows = await db
      .selectFrom('listings as l')
      .select(['l.id', votes.as('votes'), sql<number>`count(*) over ()`.as('total')])
      .where('l.status', '=', 'live')
      .where('l.launch_week', '=', monday)
      .$call((q) => inWeekOrder(q, sql`votes`))
      .limit(limit)
      .execute();
    // every caller asks for at least one launch: no row means the week has none
    return { ranked: rows.map((r) => ({ id: Number(r.id), votes: num(r.votes) })), total: num(rows[0]?.total ?? 0) };
  }
  const live = direct.arrays(LIVE_OF_WEEK).all(monday) as unknown as Array<[number, string | null]>;
  const votesOf = new Map<number, number>();
  for (const [id, weighted] of direct.arrays(SUMS_OF_WEEK).all(monday) as unknown as Array<[number, unknown]>)
    votesOf.set(Number(id), num(weighted));
  // launch order with a launch without a time last (SQLite sorts NULL first), then most votes first
  const ranked = [...live.filter((l) => l[1] !== null), ...live.filter((l) => l[1] === null)]
    .map(([id]) => ({ id: Number(id), votes: votesOf.get(Number(id)) ?? 0 }))
    .sort((a, b) => b.votes - a.votes)
    .slice(0, limit);
  return { ranked, total: live.length };
}

/** A week's listings in the given statuses by name (then id), unranked, and how many there are. */
async function byName(
  db: Kysely<DB>,
  monday: string,
  statuses: ListingStatus[],
  limit: number,
): Promise<{ items: WeekLaunch[]; total: number }> {
  const rows = await summaryQuery(db)
    .where('l.launch_week', '=', monday)
    .where('l.status', 'in', statuses)
    .orderBy('l.name')
    .orderBy('l.id')
    .limit(limit)
    .execute();
  const total = await countListings(db, (q) => q.where('l.launch_week', '=', monday).where('l.status', 'in', statuses));
  return {
    items: rows.map((r) => ({ rank: null, listing: toSummary(r as SummaryRow), votes: null })),
    total,
  };
}

export const LAUNCH_SECTIONS = [
  'today',
  'this-week',
  'trending',
  'most-voted',
  'recent',
  'most-viewed',
  'most-followed',
  'upcoming',
] as const;
export type LaunchSection = (typeof LAUNCH_SECTIONS)[number];

export type SectionItem = ListingSummary & {
  rank?: number;
  views: number;
  followers: number;
  week_votes?: number;
  trending_score?: number;
};

const RANKED: ReadonlySet<LaunchSection> = new Set([
  'today',
  'this-week',
  'trending',
  'most-voted',
  'most-viewed',
  'most-followed',
]);

export async function launchSection(
  db: Kysely<DB>,
  engine: Engine,
  section: LaunchSection,
  now: Date,
  limit: number,
  offset: number,
  opts: { hideCounts?: boolean } = {},
): Promise<{ items: SectionItem[]; total: number }> {
  const base = () =>
    summaryQuery(db)
      .innerJoin('listing_view_totals as vt', 'vt.listing_id', 'l.id')
      .select(['vt.views as views_count', 'l.followers_count']);
  const countOf = (apply: Parameters<typeof countListings>[1]) => countListings(db, apply);
  const thisMonday = mondayOf(now);
  const hidden = opts.hideCounts === true && (section === 'this-week' || section === 'today');
  const finish = (rows: Array<Record<string, unknown>>, extra?: (r: Record<string, unknown>) => Partial<SectionItem>) =>
    rows.map((r, i) => ({
      ...(RANKED.has(section) && !hidden ? { rank: offset + i + 1 } : {}),
      ...toSummary(r as unknown as SummaryRow),
      views: num(r.views_count),
      followers: num(r.followers_count),
      ...(extra ? extra(r) : {}),
    }));

  switch (section) {
    case 'today': {
      const d = dayBounds(now);
      const rows = await base()
        .where('l.status', '=', 'live')
        .where('l.launched_at', '>=', d.from)
        .where('l.launched_at', '<', d.to)
        .leftJoin('listing_vote_totals as tv', 'tv.listing_id', 'l.id')
        // Fair first hours: by name (no vote order), else by counted votes.
        .orderBy(hidden ? sql`l.name` : sql`coalesce(tv.weighted, 0)`, hidden ? 'asc' : 'desc')
        .orderBy('l.launched_at', 'asc')
        .orderBy('l.id', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
      const total = await countOf((q) =>
        q.where('l.status', '=', 'live').where('l.launched_at', '>=', d.from).where('l.launched_at', '<', d.to),
      );
      return { items: finish(rows), total };
    }
    case 'this-week': {
      if (hidden) {
        // Fair first hours: no ranks, no week votes, a stable order that is no ranking (by name).
        const rows = await base()
          .where('l.status', '=', 'live')
          .where('l.launch_week', '=', thisMonday)
          .orderBy('l.name')
          .orderBy('l.id')
          .limit(limit)
          .offset(offset)
          .execute();
        const total = await countOf((q) => q.where('l.status', '=', 'live').where('l.launch_week', '=', thisMonday));
        return { items: finish(rows), total };
      }
      const rows = await base()
        .leftJoin(weekVotes(db, thisMonday), (j) => j.onRef('wv.listing_id', '=', 'l.id'))
        .select(sql<number>`coalesce(wv.n, 0)`.as('week_votes'))
        .where('l.status', '=', 'live')
        .where('l.launch_week', '=', thisMonday)
        .$call(inWeekOrder)
        .limit(limit)
        .offset(offset)
        .execute();
      const total = await countOf((q) => q.where('l.status', '=', 'live').where('l.launch_week', '=', thisMonday));
      return { items: finish(rows, (r) => ({ week_votes: counted(r.week_votes) })), total };
    }
    case 'trending': {
      // The maintained score as of each listing's last vote, decayed to now: no vote is read. Read in
      // the order of the trending key's index (migration 260, store/dialect.ts trendingKey), which orders
      // listings as their score does now: the first rows, not every listing voted on in the window.
      const cutoff = new Date(now.getTime() - TRENDING_WINDOW_DAYS * 86_400_000).toISOString();
      const age = hoursSince(engine, sql`tv.last_vote_at`, now.toISOString());
      const score =
        engine === 'postgres'
          ? sql<number>`(tv.trend * power(0.5::float8, greatest(${age}, 0.0::float8) / ${sql.lit(TRENDING_HALF_LIFE_HOURS)}::float8))`
          : sql<number>`(tv.trend * power(0.5, max(${age}, 0.0) / ${sql.lit(TRENDING_HALF_LIFE_HOURS)}))`;
      const from = inIndexOrder(
        engine,
        sql`listing_vote_totals AS tv`,
        'listing_vote_totals_trending',
        sql`listings AS l`,
        sql`l.id = tv.listing_id`,
      );
      const inWindow = sql`tv.last_vote_at >= ${cutoff} AND tv.trend > 0`;
      const rows = (
        await sql<Record<string, unknown>>`SELECT ${sql.raw(SUMMARY_SELECT.join(', '))}, vt.views AS views_count,
          l.followers_count, ${score} AS score
        FROM ${from} JOIN listing_view_totals AS vt ON vt.listing_id = l.id
          LEFT JOIN categories AS pc ON pc.id = l.primary_category_id
        WHERE l.status = 'live' AND ${inWindow}
        ORDER BY ${trendingKey(engine)} DESC, tv.weighted DESC, ${nullsLast(sql`l.launched_at`)}, l.launched_at ASC, l.id ASC
        LIMIT ${limit} OFFSET ${offset}`.execute(db)
      ).rows;
      return {
        items: finish(rows, (r) => ({ trending_score: roundScore(Number(r.score)) })),
        total: await liveAmong(db, engine, sql`listing_vote_totals AS tv`, sql`tv.listing_id`, inWindow),
      };
    }
    case 'most-voted': {
      const rows = await base()
        .leftJoin('listing_vote_totals as tv', 'tv.listing_id', 'l.id')
        .where('l.status', '=', 'live')
        .orderBy(sql`coalesce(tv.weighted, 0)`, 'desc')
        .orderBy(nullsLast(sql`l.launched_at`))
        .orderBy('l.launched_at', 'asc')
        .orderBy('l.id', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
      return { items: finish(rows), total: await countOf((q) => q.where('l.status', '=', 'live')) };
    }
    case 'recent': {
      const rows = await base()
        .where('l.status', '=', 'live')
        .where('l.launched_at', 'is not', null)
        .orderBy('l.launched_at', 'desc')
        .orderBy('l.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      return {
        items: finish(rows),
        total: await countOf((q) => q.where('l.status', '=', 'live').where('l.launched_at', 'is not', null)),
      };
    }
    case 'most-viewed': {
      // Read in the order of the views index (viewsOrderFrom): SQLite's planner would sort every live
      // listing instead (~30 ms at 100,000).
      const rows = (
        await sql<
          Record<string, unknown>
        >`SELECT ${sql.raw(SUMMARY_SELECT.join(', '))}, vt.views AS views_count, l.followers_count
        FROM ${viewsOrderFrom(engine)} LEFT JOIN categories AS pc ON pc.id = l.primary_category_id
        WHERE l.status = 'live' ORDER BY vt.views DESC, l.id ASC LIMIT ${limit} OFFSET ${offset}`.execute(db)
      ).rows;
      return { items: finish(rows), total: await countOf((q) => q.where('l.status', '=', 'live')) };
    }
    case 'most-followed': {
      const rows = await base()
        .where('l.status', '=', 'live')
        .orderBy('l.followers_count', 'desc')
        .orderBy('l.id', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
      return { items: finish(rows), total: await countOf((q) => q.where('l.status', '=', 'live')) };
    }
    case 'upcoming': {
      const rows = await base()
        .where('l.status', 'in', ['scheduled', 'awaiting_badge'])
        .where('l.launch_week', '>', thisMonday)
        .orderBy('l.launch_week', 'asc')
        .orderBy('l.name', 'asc')
        .orderBy('l.id', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
      const total = await countOf((q) =>
        q.where('l.status', 'in', ['scheduled', 'awaiting_badge']).where('l.launch_week', '>', thisMonday),
      );
      return { items: finish(rows), total };
    }
  }
}

// ---------------------------------------------------------------- leaderboards

export const BOARDS = ['community-weekly', 'community-all-time', 'billboard', 'domain-rating', 'revenue'] as const;
export type Board = (typeof BOARDS)[number];

/** What each board ranks by: the `name` of its items' metric. */
export const BOARD_METRICS = ['votes', 'amount_cents', 'domain_rating', 'monthly_revenue_cents'] as const;
export type BoardMetricName = (typeof BOARD_METRICS)[number];

/** The domain-rating board's `metric.source`: the number is not a Launchlist ranking. */
export const DOMAIN_RATING_SOURCE = 'third-party SEO metric';

export type BoardInfo = {
  key: Board;
  name: string;
  description: string;
  paid: boolean;
  notice?: string;
  metric: BoardMetricName;
};

export const BOARD_INFO: Record<Board, BoardInfo> = {
  'community-weekly': {
    key: 'community-weekly',
    name: 'Community — weekly',
    description:
      'Live listings ranked by the counted (weighted) community votes cast during one launch week (Monday to Sunday, UTC); see /how-ranking-works.',
    paid: false,
    metric: 'votes',
  },
  'community-all-time': {
    key: 'community-all-time',
    name: 'Community — all time',
    description: 'Live listings ranked by all counted (weighted) community votes ever cast; see /how-ranking-works.',
    paid: false,
    metric: 'votes',
  },
  billboard: {
    key: 'billboard',
    name: 'Billboard',
    description:
      'A PAID ranking: live listings ordered by the money their makers contributed to the billboard. It says nothing about quality or community support.',
    paid: true,
    notice: 'Paid placement: ranked by money contributed, not by votes.',
    metric: 'amount_cents',
  },
  'domain-rating': {
    key: 'domain-rating',
    name: 'Domain Rating',
    description:
      'Live listings ranked by the latest Domain Rating of their website, a third-party SEO metric (0–100), with its trend since the previous reading.',
    paid: false,
    metric: 'domain_rating',
  },
  revenue: {
    key: 'revenue',
    name: 'Revenue',
    description: 'Live listings ranked by their latest reported monthly revenue (USD cents).',
    paid: false,
    metric: 'monthly_revenue_cents',
  },
};

/** An item's metric, by board (`name` is the board's metric). */
export type BoardMetric =
  | { name: 'votes'; value: number; votes: number }
  | { name: 'amount_cents'; value: number; amount_cents: number; amount: string; paid: true }
  | {
      name: 'domain_rating';
      value: number;
      domain_rating: number;
      as_of: string | null;
      previous: number | null;
      previous_date: string | null;
      change: number | null;
      trend: Trend;
      source: typeof DOMAIN_RATING_SOURCE;
    }
  | {
      name: 'monthly_revenue_cents';
      value: number;
      monthly_revenue_cents: number;
      amount: string;
      month: string | null;
      verified: boolean;
    };

/** A ranked listing; billboard items carry `paid: true` (a PAID ranking). */
export type BoardItem = { rank: number; listing: ListingSummary; metric: BoardMetric; paid?: true };

export async function leaderboard(
  db: Kysely<DB>,
  engine: Engine,
  board: Board,
  week: string | null,
  limit: number,
  offset: number,
): Promise<{ items: BoardItem[]; total: number }> {
  switch (board) {
    case 'community-weekly': {
      // Read in the order of the week's sums index (week, weighted, listing_id): the first rows, not every
      // listing voted on that week sorted.
      const monday = mondayOf(week as string);
      const from = inIndexOrder(
        engine,
        sql`listing_week_votes AS wv`,
        'listing_week_votes_week',
        sql`listings AS l`,
        sql`l.id = wv.listing_id`,
      );
      const inWeek = sql`wv.week = ${monday} AND wv.weighted > 0`;
      const rows = (
        await sql<SummaryRow & { n: number }>`SELECT ${sql.raw(SUMMARY_SELECT.join(', '))}, wv.weighted AS n
        FROM ${from} LEFT JOIN categories AS pc ON pc.id = l.primary_category_id
        WHERE l.status = 'live' AND ${inWeek}
        ORDER BY wv.weighted DESC, ${nullsLast(sql`l.launched_at`)}, l.launched_at ASC, l.id ASC
        LIMIT ${limit} OFFSET ${offset}`.execute(db)
      ).rows;
      return {
        items: rows.map((r, i) => ({
          rank: offset + i + 1,
          listing: toSummary(r),
          metric: { name: 'votes', value: counted(r.n), votes: counted(r.n) },
        })),
        total: await liveAmong(db, engine, sql`listing_week_votes AS wv`, sql`wv.listing_id`, inWeek),
      };
    }
    case 'community-all-time': {
      const rows = await summaryQuery(db)
        .innerJoin('listing_vote_totals as tv', 'tv.listing_id', 'l.id')
        .select('tv.weighted')
        .where('l.status', '=', 'live')
        .where('tv.weighted', '>', 0)
        .orderBy('tv.weighted', 'desc')
        .orderBy(nullsLast(sql`l.launched_at`))
        .orderBy('l.launched_at', 'asc')
        .orderBy('l.id', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
      // counted again only when a listing went live or not, or got its first counted vote (store/membership.ts)
      const total = await byBoards(db, 'community-all-time total', async () =>
        num(
          (
            await db
              .selectFrom('listings as l')
              .innerJoin('listing_vote_totals as tv', 'tv.listing_id', 'l.id')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('l.status', '=', 'live')
              .where('tv.weighted', '>', 0)
              .executeTakeFirstOrThrow()
          ).n,
        ),
      );
      return {
        items: rows.map((r, i) => ({
          rank: offset + i + 1,
          listing: toSummary(r as SummaryRow),
          metric: { name: 'votes', value: counted(r.weighted), votes: counted(r.weighted) },
        })),
        total,
      };
    }
    case 'billboard': {
      const sums = db
        .selectFrom('billboard_contributions as bc')
        .select([
          'bc.listing_id',
          sql<number>`sum(bc.amount_cents)`.as('amount'),
          sql<string>`max(bc.created_at)`.as('last_at'),
        ])
        .groupBy('bc.listing_id')
        .as('bb');
      const rows = await summaryQuery(db)
        .innerJoin(sums, (j) => j.onRef('bb.listing_id', '=', 'l.id'))
        .select(['bb.amount', 'bb.last_at'])
        .where('l.status', '=', 'live')
        .where('bb.amount', '>', 0)
        .orderBy('bb.amount', 'desc')
        .orderBy('bb.last_at', 'asc')
        .orderBy('l.id', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
      // The listings the board lists, counted from the same per-listing sums, each looked up by its key: a
      // count of the contributions joined to the listings was planned (generically) as a hash of every live
      // listing, ~50 ms at 100,000 listings for a board of a dozen.
      const total = num(
        (
          await db
            .selectFrom(sums)
            .innerJoin('listings as l', 'l.id', 'bb.listing_id')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('l.status', '=', 'live')
            .where('bb.amount', '>', 0)
            .executeTakeFirstOrThrow()
        ).n,
      );
      return {
        items: rows.map((r, i) => ({
          rank: offset + i + 1,
          paid: true as const,
          listing: toSummary(r as SummaryRow),
          metric: {
            name: 'amount_cents',
            value: num(r.amount),
            amount_cents: num(r.amount),
            amount: formatCents(num(r.amount)),
            paid: true,
          },
        })),
        total,
      };
    }
    case 'domain-rating': {
      const rows = await summaryQuery(db)
        .select('l.domain_rating')
        .where('l.status', '=', 'live')
        .where('l.domain_rating', 'is not', null)
        .orderBy('l.domain_rating', 'desc')
        .orderBy('l.id', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
      const total = await byBoards(db, 'domain-rating total', () =>
        countListings(db, (q) => q.where('l.status', '=', 'live').where('l.domain_rating', 'is not', null)),
      );
      const history = rows.length
        ? await db
            .selectFrom('domain_ratings')
            .select(['listing_id', 'date', 'rating'])
            .where(
              'listing_id',
              'in',
              rows.map((r) => r.id),
            )
            .orderBy('date', 'desc')
            .execute()
        : [];
      const byListing = new Map<number, Array<{ date: string; rating: number }>>();
      for (const h of history)
        byListing.set(h.listing_id, [...(byListing.get(h.listing_id) ?? []), { date: h.date, rating: num(h.rating) }]);
      return {
        items: rows.map((r, i) => {
          const value = num(r.domain_rating);
          const hist = byListing.get(r.id) ?? [];
          const latest = hist[0];
          const prev = hist[1] ?? null; // the reading before the latest one
          return {
            rank: offset + i + 1,
            listing: toSummary(r as SummaryRow),
            metric: {
              name: 'domain_rating',
              value,
              domain_rating: value,
              as_of: latest?.date ?? null,
              previous: prev ? prev.rating : null,
              previous_date: prev ? prev.date : null,
              change: prev ? value - prev.rating : null,
              trend: trendOf(value, prev?.rating),
              source: DOMAIN_RATING_SOURCE,
            },
          };
        }),
        total,
      };
    }
    case 'revenue': {
      const rows = await summaryQuery(db)
        .select('l.revenue_cents')
        .where('l.status', '=', 'live')
        .where('l.revenue_cents', '>', 0)
        .orderBy('l.revenue_cents', 'desc')
        .orderBy('l.id', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
      const total = await byBoards(db, 'revenue total', () =>
        countListings(db, (q) => q.where('l.status', '=', 'live').where('l.revenue_cents', '>', 0)),
      );
      const figures = rows.length
        ? await db
            .selectFrom('revenue_figures')
            .select(['listing_id', 'month', 'verified'])
            .where(
              'listing_id',
              'in',
              rows.map((r) => r.id),
            )
            .orderBy('month', 'desc')
            .execute()
        : [];
      const latest = new Map<number, { month: string; verified: boolean }>();
      for (const f of figures)
        if (!latest.has(f.listing_id)) latest.set(f.listing_id, { month: f.month, verified: Boolean(f.verified) });
      return {
        items: rows.map((r, i) => {
          const v = num(r.revenue_cents);
          const f = latest.get(r.id);
          return {
            rank: offset + i + 1,
            listing: toSummary(r as SummaryRow),
            metric: {
              name: 'monthly_revenue_cents',
              value: v,
              monthly_revenue_cents: v,
              amount: formatCents(v),
              month: f?.month ?? null,
              verified: f?.verified ?? false,
            },
          };
        }),
        total,
      };
    }
  }
}

/**
 * How many live listings have a row of `table` matching `where` (the rows of the trending window, or of
 * a week's sums): the rows counted in their index without visiting them, less those whose listing is
 * not live (found from the listings that are not live, a few). Only live listings can be voted on, so a
 * listing with recent votes that is not live any more is rare.
 */
async function liveAmong(
  db: Kysely<DB>,
  engine: Engine,
  table: RawBuilder<unknown>,
  listingId: RawBuilder<unknown>,
  where: RawBuilder<unknown>,
): Promise<number> {
  const all = await sql<{ n: number }>`SELECT count(*) AS n FROM ${table} WHERE ${where}`.execute(db);
  const notLive = LISTING_STATUSES.filter((s) => s !== 'live');
  const from = inIndexOrder(engine, sql`listings AS l`, 'listings_status_votes', table, sql`${listingId} = l.id`);
  const hidden = await sql<{ n: number }>`SELECT count(*) AS n FROM ${from}
    WHERE l.status IN (${sql.join(notLive)}) AND ${where}`.execute(db);
  return num(all.rows[0]?.n) - num(hidden.rows[0]?.n);
}
