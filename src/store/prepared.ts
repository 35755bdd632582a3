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

/** True for the Kysely instance of a PostgreSQL store (not a transaction): prepared() and BatchedRead run on it. */
export function hasPool(db: Kysely<DB>): boolean {
  return pools.has(db);
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

const batchedReads = new WeakMap<Kysely<DB>, Map<string, BatchedRead<never, { i: number }>>>();

/**
 * The BatchedRead named `name` on `db`'s pool: made on first use, then the same one for every caller, so
 * the calls that arrive together share its batches. A name stands for one statement (`text`, `values`).
 */
export function batchedRead<A, R extends { i: number }>(
  db: Kysely<DB>,
  name: string,
  text: string,
  values: (args: readonly A[]) => unknown[],
): BatchedRead<A, R> {
  let byName = batchedReads.get(db);
  if (!byName) batchedReads.set(db, (byName = new Map()));
  let b = byName.get(name) as BatchedRead<A, R> | undefined;
  if (!b) {
    b = new BatchedRead<A, R>(db, name, text, values);
    byName.set(name, b as unknown as BatchedRead<never, { i: number }>);
  }
  return b;
}

/**
 * The FROM item of a batched read keyed by one text per call: `q(i, k)`, the call's index and its key,
 * from the batch's keys sent as one JSON array ($1; keyArgs() makes it).
 */
export const BATCH_KEYS = `(SELECT (e.ord - 1)::integer AS i, e.v AS k FROM jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS e(v, ord)) q`;
/** The values of a batched read over BATCH_KEYS. */
export const keyArgs = (keys: readonly string[]): unknown[] => [JSON.stringify(keys)];

/**
 * hotRead() for a read by one text key that many requests make at once: a cached statement on an SQLite
 * connection made here (`sqlite`, the key as its one ?), on a PostgreSQL pool the BatchedRead `name`
 * (`batch`, over BATCH_KEYS: each row carries `i`), or undefined for anything else (a transaction), whose
 * caller then builds the query with Kysely.
 */
export async function hotKeyRead<R>(
  db: Kysely<DB>,
  q: { name: string; sqlite: string; batch: string },
  key: string,
): Promise<R[] | undefined> {
  const direct = sqliteAdapterOf(db);
  if (direct) return direct.prepare(q.sqlite).all([key]) as R[];
  if (hasPool(db)) return batchedRead<string, R & { i: number }>(db, q.name, q.batch, keyArgs).read(key);
  return undefined;
}

/** Batches of one statement in flight at once: what arrives meanwhile waits for the next batch. */
const BATCHES_IN_FLIGHT = 2;

/**
 * PostgreSQL: one read that many requests make at once (a signed-in page's session), sent as ONE named
 * prepared statement for every call that arrived in the same turn of the event loop, or while earlier
 * batches were in flight (at most BATCHES_IN_FLIGHT): under load a round trip, and the statement's cost on
 * the server and in the driver, serves many requests. `text` gets `values(args)` for the batch's arguments
 * in order and answers rows carrying `i`, the index of the argument each belongs to.
 */
class BatchedRead<A, R extends { i: number }> {
  readonly #db: Kysely<DB>;
  readonly #name: string;
  readonly #text: string;
  readonly #values: (args: readonly A[]) => unknown[];
  #batch: Array<{ arg: A; resolve: (rows: R[]) => void; reject: (e: unknown) => void }> | undefined;
  #inFlight = 0;
  constructor(db: Kysely<DB>, name: string, text: string, values: (args: readonly A[]) => unknown[]) {
    this.#db = db;
    this.#name = name;
    this.#text = text;
    this.#values = values;
  }
  /** The rows of this argument. */
  read(arg: A): Promise<R[]> {
    return new Promise((resolve, reject) => {
      if (!this.#batch) {
        this.#batch = [];
        if (this.#inFlight < BATCHES_IN_FLIGHT) setImmediate(() => this.#run());
      }
      this.#batch.push({ arg, resolve, reject });
    });
  }
  #run(): void {
    const batch = this.#batch;
    if (!batch) return;
    this.#batch = undefined;
    this.#inFlight++;
    prepared<R>(this.#db, this.#name, this.#text, this.#values(batch.map((b) => b.arg)))
      .then(
        (rows) => {
          const each: R[][] = batch.map(() => []);
          for (const r of rows) each[Number(r.i)]?.push(r);
          batch.forEach((b, i) => b.resolve(each[i]));
        },
        (e: unknown) => {
          for (const b of batch) b.reject(e);
        },
      )
      .finally(() => {
        this.#inFlight--;
        if (this.#batch && this.#inFlight < BATCHES_IN_FLIGHT) this.#run(); // what queued meanwhile
      });
  }
}
