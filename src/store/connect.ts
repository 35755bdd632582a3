// Opens the database: SQLite (node:sqlite, WAL, the embedded default) or PostgreSQL (pg) when a URL is given.
// Engine differences that repositories would otherwise see are absorbed here:
//   - timestamps are ISO-8601 UTC strings on both engines (timestamptz is parsed to ISO text),
//   - int8/numeric come back as JS numbers, booleans are written as 1/0 on SQLite,
//   - JSON is stored as text on both engines (see store/json.ts).
import { hash } from 'node:crypto';
import { createRequire } from 'node:module';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { DB } from './types.ts';
import { openSqlite } from './sqlite.ts';
import { registerPool } from './prepared.ts';

export type Engine = 'sqlite' | 'postgres';
export interface Store {
  db: Kysely<DB>;
  engine: Engine;
  close(): Promise<void>;
  /** SQLite: the database file (hot reads open their own read-only connection to it, see repos/profile-cache.ts). */
  sqliteFile?: string;
  /** SQLite: how many statements that may write this process has run on `db` (a change means "read afresh"). */
  sqliteWrites?: () => number;
  /** PostgreSQL: the pool behind `db` (hot reads send named prepared statements on it). */
  pgPool?: pg.Pool;
  /** PostgreSQL: the database's URL (the search index builder, a process of its own, connects with it). */
  pgUrl?: string;
  /**
   * PostgreSQL: how many writes this process has completed that may change what a listing's public
   * profile shows (see countWrites); a change means "what you confirmed earlier may be stale".
   */
  pgWrites?: () => number;
}

// pg is loaded when a PostgreSQL store is opened: an SQLite server does not carry it.
const require = createRequire(import.meta.url);
let pgModule: typeof pg | undefined;
function loadPg(): typeof pg {
  if (pgModule) return pgModule;
  const m = require('pg') as typeof pg;
  m.types.setTypeParser(20, (v) => Number(v)); // int8 (count(*))
  m.types.setTypeParser(1700, (v) => Number(v)); // numeric
  m.types.setTypeParser(1184, timestamptzIso); // timestamptz
  m.types.setTypeParser(1114, (v) => new Date(v + 'Z').toISOString()); // timestamp
  m.types.setTypeParser(1082, (v) => v); // date stays YYYY-MM-DD
  return (pgModule = m);
}

/**
 * A timestamptz as PostgreSQL writes it in UTC ("2026-11-27 20:15:57.139+00") → the ISO string
 * `new Date(v).toISOString()` gives ("2026-11-27T20:15:57.139Z"), by hand: V8 parses that format with
 * its slow legacy parser, and a launch week's ranking reads ~700 of them. Anything else (another
 * offset, a year outside 0000–9999, infinity) goes through Date.
 */
export function timestamptzIso(v: string): string {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/.exec(v);
  if (!m) return new Date(v).toISOString();
  return `${m[1]}T${m[2]}.${((m[3] ?? '') + '000').slice(0, 3)}Z`;
}

/**
 * Tables whose writes never change what get_listing shows: background bookkeeping (jobs, sessions, the
 * mail outbox, idempotency records, OAuth state, sign-in tokens, API keys, badge checks), the view
 * counts (their own epoch: store/view-counter.ts) and the stored profiles themselves (get_listing's
 * write-backs of a text it built, for the rev it was built from). A write to any other table counts.
 */
const NOT_PROFILE_TABLES = new Set([
  'jobs',
  'sessions',
  'mail_outbox',
  'idempotency_keys',
  'oauth_store',
  'email_tokens',
  'api_keys',
  'badge_checks',
  'listing_views',
  'listing_view_totals',
  'listing_profiles',
]);
const WRITE =
  /^\s*(?:(insert\s+into|update|delete\s+from)\s+"?(\w+)"?|(commit|end|rollback|abort)\b|(with|merge|truncate|alter|create|drop|select\s+\*\s+from\s+react_listings?)\b)/i;

/**
 * Counts, on every client of the pool, the statements that completed and may have changed a listing's
 * public profile: an INSERT, UPDATE or DELETE of a table not in NOT_PROFILE_TABLES (whatever its
 * triggers touch: votes and follows reach listings' counters that way), and the COMMIT of a transaction
 * that ran one (its rows become visible to other connections only then; a ROLLBACK forgets it). A WITH, MERGE or DDL counts
 * too, and so does a call of react_listings() (migration 250: votes and follows, in one statement). Reads (SELECT, the named statements of prepared.ts) do not. store/profile-reader.ts serves a
 * profile it confirmed recently only while this count stands still.
 */
function countWrites(pool: pg.Pool): () => number {
  let writes = 0;
  const dirty = new WeakSet<object>(); // clients in a transaction that wrote
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === 'string' ? first : first?.text;
      const m = text ? WRITE.exec(text) : null;
      if (!m) return query(...args);
      const ends = m[3]?.toLowerCase();
      const counts = ends
        ? (ends === 'commit' || ends === 'end') && dirty.has(client)
        : m[1]
          ? !NOT_PROFILE_TABLES.has(m[2].toLowerCase())
          : true;
      if (ends) dirty.delete(client);
      else if (counts) dirty.add(client);
      if (!counts) return query(...args);
      const last = args[args.length - 1];
      if (typeof last === 'function') {
        args[args.length - 1] = (err: unknown, res: unknown) => {
          writes++;
          (last as (e: unknown, r: unknown) => void)(err, res);
        };
        return query(...args);
      }
      const out = query(...args) as Promise<unknown> | undefined;
      // Counted when it ends, whether it succeeded or not (a failed statement may have been a COMMIT).
      return out && typeof out.then === 'function'
        ? out.finally(() => {
            writes++;
          })
        : out;
    };
  });
  return () => writes;
}

/** At most this many statement texts are named (prepared) on each connection. */
const MAX_NAMED = 400;
/** A single statement that reads or writes rows, with parameters: what may be prepared and run again. */
const PREPARABLE = /^\s*(?:select|insert|update|delete|with)\b/i;

/**
 * Sends a statement the app runs again (the same text, with parameters) as a named prepared statement:
 * PostgreSQL then parses, analyses and plans it once per connection, not on every call. Under the page
 * loads the parse and bind of Kysely's unnamed statements cost 0.3–3 ms each on the server (a category's
 * read is a dozen of them), which is what the pool's connections waited on.
 *
 * A text is named from its second use (a one-off, such as an IN list of an unusual length, never is), and
 * at most MAX_NAMED texts are, so each connection holds a bounded number of them. The plans are the same
 * as before: every statement is planned generically here (plan_cache_mode below), named or not.
 */
function nameRepeated(pool: pg.Pool): void {
  const named = new Map<string, string>();
  let seen = new Set<string>();
  const nameOf = (text: string): string | undefined => {
    const name = named.get(text);
    if (name !== undefined || named.size >= MAX_NAMED) return name;
    if (!PREPARABLE.test(text) || text.includes(';')) return undefined;
    if (!seen.has(text)) {
      if (seen.size >= 10_000) seen = new Set(); // forget the one-offs now and then
      seen.add(text);
      return undefined;
    }
    seen.delete(text);
    const made = `ll_s_${hash('sha1', text, 'base64url')}`;
    named.set(text, made);
    return made;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && args.length === 2) {
        const name = nameOf(text);
        if (name !== undefined) return query({ name, text, values });
      }
      return query(...args);
    };
  });
}

function openPostgresPool(url: string, max = 10): { db: Kysely<DB>; pool: pg.Pool; writes: () => number } {
  const pg = loadPg();
  // Named (prepared) statements get one generic plan, and so do unnamed ones: store/prepared.ts names the
  // hot reads, and nameRepeated() every other statement the app runs again. With the default (auto)
  // PostgreSQL kept planning get_listing's batch for each execution's array, ~150 µs per batch.
  // No parallel workers: the service's statements are small reads of a page (or kept counts), and a worker
  // costs milliseconds to start, which the server's other connections wait on under load (the all-time
  // leaderboard's page at 100,000 listings: 12 ms with one worker, 1.6 ms without).
  const pool = new pg.Pool({
    connectionString: url,
    max,
    options: '-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0',
  });
  // An idle client whose connection drops (a restart, a terminated backend) emits 'error' on the pool;
  // without a listener that would crash the process. The pool discards the client and reconnects on demand.
  pool.on('error', (err) => {
    process.emitWarning(`PostgreSQL idle client error: ${err.message}`);
  });
  nameRepeated(pool); // first: countWrites() then sees the statement as the app sent it
  const writes = countWrites(pool);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  registerPool(db, pool);
  return { db, pool, writes };
}

export function connect(opts: { databaseUrl?: string; sqliteFile: string }): Store {
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const { db, pool, writes } = openPostgresPool(opts.databaseUrl);
    return {
      db,
      engine: 'postgres',
      close: () => db.destroy(),
      pgPool: pool,
      pgWrites: writes,
      pgUrl: opts.databaseUrl,
    };
  }
  const { db, adapter } = openSqlite(opts.sqliteFile);
  return {
    db,
    engine: 'sqlite',
    close: () => db.destroy(),
    sqliteFile: opts.sqliteFile,
    sqliteWrites: () => adapter.writes,
  };
}
