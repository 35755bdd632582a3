// Figures that depend only on which listings are live in which category (the category tree's counts, a
// category's total), kept until that membership changes; and the leaderboards' totals, kept until
// membership or the 'boards' counter (migration 230) moves. A trigger moves the 'membership' counter on
// every such change (migration 200); a read compares one small row with the counter its figures were
// computed at, and counts again only when it moved. So the counts are exact at every moment, on every
// instance (the counter is in the database), and a read costs one primary-key lookup while nothing
// changed, whatever the size of the directory. Votes and views change order, not membership: they
// never move it.
import type { Kysely } from 'kysely';
import type { DB } from './types.ts';
import { cacheCounts } from '../ops/cache-stats.ts';

interface Kept {
  stamp: string;
  value: Promise<unknown>;
}

const kept = new WeakMap<Kysely<DB>, Map<string, Kept>>();
/** At most this many values per database (one per category and page shape, and per archived launch week, in practice). */
const MAX_KEPT = 1000;

/** The membership counter as it is now. */
export async function membershipStamp(db: Kysely<DB>): Promise<string> {
  return stampOf(db, ['membership']);
}

/** The named counters as they are now, joined ('membership', or 'membership' and 'boards': migration 230). */
async function stampOf(db: Kysely<DB>, names: readonly string[]): Promise<string> {
  const rows = await db.selectFrom('directory_stamps').select(['name', 'n']).where('name', 'in', names).execute();
  return names.map((n) => String(rows.find((r) => r.name === n)?.n ?? 0)).join(':');
}

/**
 * `compute()`'s value for `key`, computed again only when the membership counter has moved since it
 * was last computed. Pass the database itself, not a transaction (a transaction may hold changes
 * others do not see yet).
 */
export function byMembership<T>(db: Kysely<DB>, key: string, compute: () => Promise<T>): Promise<T> {
  return byStamps(db, ['membership'], key, compute);
}

/**
 * The same, for a figure that also depends on which listings have counted votes, a Domain Rating or a
 * revenue figure (the leaderboards' totals): computed again when 'membership' or 'boards' moved.
 */
export function byBoards<T>(db: Kysely<DB>, key: string, compute: () => Promise<T>): Promise<T> {
  return byStamps(db, ['membership', 'boards'], key, compute);
}

async function byStamps<T>(
  db: Kysely<DB>,
  names: readonly string[],
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  // The counter is read before counting: a change that commits meanwhile moves it past this value.
  const stamp = await stampOf(db, names);
  return keptAt(db, `${names.join('+')} ${key}`, stamp, compute, cacheCounts.membership);
}

/**
 * The value kept for `key` in `db` when it was computed at `stamp`, else `compute()`'s, kept with it (a
 * failure is not kept). The stamp must be read before computing. Shared by every caller: they read the
 * value, never change it.
 */
export function keptAt<T>(
  db: Kysely<DB>,
  key: string,
  stamp: string,
  compute: () => Promise<T>,
  counts?: { hit: number; miss: number },
): Promise<T> {
  let m = kept.get(db);
  if (!m) kept.set(db, (m = new Map()));
  const hit = m.get(key);
  if (hit && hit.stamp === stamp) {
    if (counts) counts.hit++;
    return hit.value as Promise<T>;
  }
  if (counts) counts.miss++;
  const value = compute();
  const entry = { stamp, value };
  m.delete(key);
  m.set(key, entry);
  if (m.size > MAX_KEPT) m.delete(m.keys().next().value!);
  value.catch(() => {
    if (m.get(key) === entry) m.delete(key); // a failure is not kept
  });
  return value;
}
