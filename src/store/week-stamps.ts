// What an archived launch week shows is the same for as long as neither the 'membership' counter
// (migration 200) nor the week's own counter (migration 240) moved: its page can be kept past the
// shared cache's second (web/page-cache.ts), checked per request by one small read.
import { sql, type Kysely } from 'kysely';
import type { DB } from './types.ts';
import { addWeeks, isMonday, mondayOf } from '../domain/weeks.ts';
import { keptAt } from './membership.ts';
import { BATCH_KEYS, hotKeyRead } from './prepared.ts';

const WEEK_STAMP_SELECT = `SELECT (SELECT n FROM directory_stamps WHERE name = 'membership') AS m,
  (SELECT n FROM week_stamps WHERE week = `;
/** A cached statement on SQLite; on PostgreSQL, the same for a batch of weeks (store/prepared.ts hotKeyRead). */
const WEEK_STAMP = {
  name: 'll_week_stamp_batch',
  sqlite: `${WEEK_STAMP_SELECT}?) AS w`,
  batch: `SELECT q.i, (SELECT n FROM directory_stamps WHERE name = 'membership') AS m,
  (SELECT n FROM week_stamps WHERE week = q.k) AS w FROM ${BATCH_KEYS}`,
};

/**
 * The version of a week's launches, or undefined for a week that is not archived: the current week,
 * the week before it (the triggers count a week from the Monday it ends; a week is read from a week
 * later, so the turn of a week never meets a half-kept counter) and future weeks. `now` is the clock
 * the triggers use (the database's, in UTC).
 */
export async function archivedWeekStamp(db: Kysely<DB>, monday: string, now = new Date()): Promise<string | undefined> {
  if (!isMonday(monday) || monday > addWeeks(mondayOf(now), -2)) return undefined;
  // a hot read: the page of an archived week asks on every request (on PostgreSQL, the pages that ask at
  // the same moment share one statement)
  // (a transaction: the query itself)
  const [row] =
    (await hotKeyRead<{ m: unknown; w: unknown }>(db, WEEK_STAMP, monday)) ??
    (await sql<{ m: unknown; w: unknown }>`${sql.raw(WEEK_STAMP_SELECT)}${monday}) AS w`.execute(db)).rows;
  return `${String(row?.m ?? 0)}:${String(row?.w ?? 0)}`;
}

/**
 * `compute()`'s result for an archived week, computed again only when the week's version moved (the
 * current and last week, and future ones, are computed every time). The result is shared by every
 * caller: they read it, never change it. Pass the database itself, not a transaction.
 */
export async function byArchivedWeek<T>(
  db: Kysely<DB>,
  monday: string,
  key: string,
  compute: () => Promise<T>,
  now = new Date(),
): Promise<T> {
  // the version is read before computing: a change that commits meanwhile moves it past this value
  const stamp = await archivedWeekStamp(db, monday, now);
  return stamp === undefined ? compute() : keptAt(db, `week ${monday} ${key}`, stamp, compute);
}
