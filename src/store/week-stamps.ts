// What an archived launch week shows is the same for as long as neither the 'membership' counter
// (migration 200) nor the week's own counter (migration 240) moved: its page can be kept past the
// shared cache's second (web/page-cache.ts), checked per request by one small read.
import { sql, type Kysely } from 'kysely';
import type { DB } from './types.ts';
import type { Store } from './connect.ts';
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

/** How long a week's version, once read, answers this process's later asks (see weekStamps). */
export const STAMP_REUSE_MS = 250;
/** At most this many weeks' versions are held (week names come from URLs). */
const MAX_HELD = 1000;

/**
 * archivedWeekStamp() for the pages of a launch week (web/pages/browse.ts), which ask on every request:
 * a version read is reused for STAMP_REUSE_MS, as long as this process has completed no write meanwhile
 * (Store.sqliteWrites / pgWrites, counted before the read is sent). A change made through this process
 * is read at once; one made by another instance (or by hand) shows within STAMP_REUSE_MS, well inside
 * the shared pages' second (web/page-cache.ts). The person who made it skips the kept page anyway.
 * Measured at 100,000 listings on SQLite: the read and its date checks were ~15 % of a kept week page.
 */
export function weekStamps(store: Store): (monday: string) => Promise<string | undefined> {
  const writes = store.sqliteWrites ?? store.pgWrites ?? (() => 0);
  const held = new Map<string, { at: number; writes: number; stamp: Promise<string | undefined> }>();
  return (monday) => {
    const now = Date.now();
    const w = writes();
    const h = held.get(monday);
    if (h && h.writes === w && now - h.at < STAMP_REUSE_MS && now >= h.at) return h.stamp;
    const entry = { at: now, writes: w, stamp: archivedWeekStamp(store.db, monday, new Date(now)) };
    if (held.size >= MAX_HELD) held.clear();
    held.set(monday, entry);
    entry.stamp.catch(() => {
      if (held.get(monday) === entry) held.delete(monday); // a failure is not reused
    });
    return entry.stamp;
  };
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
