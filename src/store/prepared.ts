// PostgreSQL: named prepared statements on the pool behind a Kysely instance. Kept apart from
// connect.ts so that the modules using it (search, which also runs in SQLite search threads) do not load pg.
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { DB } from './types.ts';

/** The pool behind each PostgreSQL Kysely instance (connect.ts registers it). */
const pools = new WeakMap<Kysely<DB>, pg.Pool>();

export function registerPool(db: Kysely<DB>, pool: pg.Pool): void {
  pools.set(db, pool);
}

/**
 * Runs a named prepared statement on the pool behind `db`: parsed and planned once per connection
 * (a generic plan: connect.ts sets plan_cache_mode), where Kysely's queries are parsed and planned on
 * every execution. For hot, fixed-shape statements (a search's summaries, the search feed's poll),
 * whose planning was ~0.1 ms of a ~0.2 ms statement. `db` must not be a transaction: it runs on the pool.
 */
export async function prepared<R>(db: Kysely<DB>, name: string, text: string, values: unknown[]): Promise<R[]> {
  const pool = pools.get(db);
  if (!pool) throw new Error(`prepared(${name}): not the Kysely instance of a PostgreSQL store`);
  return (await pool.query({ name, text, values })).rows as R[];
}

/** prepared(), each row an array in the select list's order: pg then builds no object per row. */
export async function preparedArrays<R extends unknown[]>(
  db: Kysely<DB>,
  name: string,
  text: string,
  values: unknown[],
): Promise<R[]> {
  const pool = pools.get(db);
  if (!pool) throw new Error(`preparedArrays(${name}): not the Kysely instance of a PostgreSQL store`);
  return (await pool.query({ name, text, values, rowMode: 'array' })).rows as R[];
}
