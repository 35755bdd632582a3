// Where SQLite and PostgreSQL differ in the SQL we write, in one place: row locks, and the bulk
// statements that take a whole array as one parameter. Repositories and services call these and
// never branch on the engine themselves.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Engine } from './connect.ts';
import type { DB } from './types.ts';
import { TRENDING_HALF_LIFE_HOURS } from '../domain/ranking.ts';

/**
 * Locks the selected rows for the rest of the transaction (`… FOR UPDATE`) on PostgreSQL. SQLite has
 * no row locks and needs none: its write transactions run one at a time. Use with Kysely's $call:
 * `trx.selectFrom('orders').selectAll().where(…).$call(lockRows(engine))`.
 */
export function lockRows(engine: Engine, lock = true): <Q extends { forUpdate(): Q }>(q: Q) => Q {
  return (q) => (lock && engine === 'postgres' ? q.forUpdate() : q);
}

/**
 * The locking clause of a subquery that picks one row for one of several concurrent claimers (the
 * job queue): PostgreSQL locks it and skips rows another transaction holds; SQLite, one writer at a
 * time, needs none.
 */
export function skipLocked(engine: Engine): RawBuilder<unknown> {
  return engine === 'postgres' ? sql`FOR UPDATE SKIP LOCKED` : sql``;
}

/**
 * Adds counts to listing_view_totals and listing_views in two statements, whatever the number of
 * listings: the rows travel as arrays (`unnest` on PostgreSQL, `json_each` over one JSON text on
 * SQLite). A listing deleted meanwhile is skipped.
 */
export async function addViews(
  trx: Transaction<DB> | Kysely<DB>,
  engine: Engine,
  totals: ReadonlyArray<readonly [id: number, n: number]>,
  days: ReadonlyArray<readonly [id: number, day: string, n: number]>,
): Promise<void> {
  if (engine === 'postgres') {
    await sql`UPDATE listing_view_totals t SET views = t.views + u.n
      FROM unnest(${totals.map((t) => t[0])}::int[], ${totals.map((t) => t[1])}::int[]) AS u(id, n) WHERE t.listing_id = u.id`.execute(
      trx,
    );
    await sql`INSERT INTO listing_views (listing_id, day, count)
      SELECT u.id, u.day, u.n FROM unnest(${days.map((d) => d[0])}::int[], ${days.map((d) => d[1])}::text[], ${days.map((d) => d[2])}::int[]) AS u(id, day, n)
      JOIN listings l ON l.id = u.id
      ON CONFLICT (listing_id, day) DO UPDATE SET count = listing_views.count + excluded.count`.execute(trx);
    return;
  }
  await sql`UPDATE listing_view_totals SET views = views + u.n
    FROM (SELECT value ->> 0 AS id, value ->> 1 AS n FROM json_each(${JSON.stringify(totals)})) AS u
    WHERE listing_view_totals.listing_id = u.id`.execute(trx);
  // "WHERE true": SQLite's parser needs it between a SELECT's join and ON CONFLICT.
  await sql`INSERT INTO listing_views (listing_id, day, count)
    SELECT u.id, u.day, u.n FROM (SELECT value ->> 0 AS id, value ->> 1 AS day, value ->> 2 AS n FROM json_each(${JSON.stringify(days)})) AS u
    JOIN listings l ON l.id = u.id WHERE true
    ON CONFLICT (listing_id, day) DO UPDATE SET count = listing_views.count + excluded.count`.execute(trx);
}

/**
 * `first` read through its index `index`, each row joined to `then` on `on`: the FROM of a ranked read
 * that stops after a page (rows come in the index's order), or of a count that starts from a short range
 * of that index. SQLite is told (INDEXED BY, and CROSS JOIN, which keeps `first` the outer loop): its
 * planner would rather read another index and sort or visit every row it finds. PostgreSQL chooses
 * such plans (an index scan, an incremental sort) by itself.
 */
export function inIndexOrder(
  engine: Engine,
  first: RawBuilder<unknown>,
  index: string,
  then: RawBuilder<unknown>,
  on: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return engine === 'sqlite'
    ? sql`${first} INDEXED BY ${sql.raw(index)} CROSS JOIN ${then} ON ${on}`
    : sql`${first} JOIN ${then} ON ${on}`;
}

/**
 * SQLite: the trending key (migration 260) over `listing_vote_totals AS tv`, exactly as its index holds
 * it (without the alias): julianday() counts days, and a half-life of 48 hours is 2 days.
 */
export const TRENDING_KEY_SQLITE = `(CASE WHEN tv.trend > 0 THEN log2(tv.trend) + (julianday(tv.last_vote_at) - 2440587.5) / ${TRENDING_HALF_LIFE_HOURS / 24} END)`;

/**
 * A listing's trending key, log2(trend) + hours of its last vote / 48, over `listing_vote_totals AS tv`:
 * it orders listings as their decayed score does at any moment, and an index holds it (migration 260).
 */
export function trendingKey(engine: Engine): RawBuilder<number> {
  return engine === 'postgres' ? sql<number>`trending_key(tv.trend, tv.last_vote_at)` : sql.raw(TRENDING_KEY_SQLITE);
}
