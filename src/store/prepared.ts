// PostgreSQL: named prepared statements on the pool behind a Kysely instance. Kept apart from
// connect.ts so that the modules using it (search, which also runs in SQLite search threads) do not load pg.
import type { Compilable, Kysely } from 'kysely';
import type pg from 'pg';
import type { DB } from './types.ts';
import { sqliteAdapterOf } from './sqlite.ts';

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

/**
 * A hot read with a fixed text, run the cheapest way `db` allows: a cached statement on an SQLite
 * connection made here, a named prepared statement on a PostgreSQL pool, or undefined for anything else
 * (a transaction), whose caller then builds the query with Kysely. `sqlite` takes ? placeholders,
 * `postgres` $1, $2 …; both get `values` in order.
 */
export async function hotRead<R>(
  db: Kysely<DB>,
  q: { name: string; sqlite: string; postgres: string },
  values: unknown[],
): Promise<R[] | undefined> {
  const direct = sqliteAdapterOf(db);
  if (direct) return direct.prepare(q.sqlite).all(values) as R[];
  const pool = pools.get(db);
  if (pool) return (await pool.query({ name: q.name, text: q.postgres, values })).rows as R[];
  return undefined;
}

const compiledOf = new WeakMap<Kysely<DB>, Map<string, { sql: string; from: Array<number | { v: unknown }> }>>();

/**
 * hotRead() for a query written with Kysely (its rows typed as the query's): `build(args)` is compiled once per database, with stand-ins
 * for `args`, and later calls run that text with their own values in the stand-ins' places (the query's
 * other parameters, constants in it, are kept). `build` must give the same shape whatever the args (no
 * branch on them, no list whose length depends on them). Undefined where hotRead() has no fast path.
 */
export async function hotQuery<R>(
  db: Kysely<DB>,
  name: string,
  build: (args: readonly string[]) => Compilable<R>,
  args: readonly unknown[],
): Promise<R[] | undefined> {
  const direct = sqliteAdapterOf(db);
  const pool = direct ? undefined : pools.get(db);
  if (!direct && !pool) return undefined;
  let byName = compiledOf.get(db);
  if (!byName) compiledOf.set(db, (byName = new Map()));
  let c = byName.get(name);
  if (!c) {
    const standIns = args.map((_, i) => `\u0000hot-arg-${i}\u0000`);
    const compiled = build(standIns).compile();
    const from = compiled.parameters.map((p) => {
      const i = standIns.indexOf(p as string);
      return i >= 0 ? i : { v: p };
    });
    byName.set(name, (c = { sql: compiled.sql, from }));
  }
  const values = c.from.map((f) => (typeof f === 'number' ? args[f] : f.v));
  if (direct) return direct.prepare(c.sql).all(values) as R[];
  return (await pool!.query({ name, text: c.sql, values })).rows as R[];
}
