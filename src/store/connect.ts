// Opens the database: SQLite (node:sqlite, WAL, the embedded default) or PostgreSQL (pg) when a URL is given.
// Engine differences that repositories would otherwise see are absorbed here:
//   - timestamps are ISO-8601 UTC strings on both engines (timestamptz is parsed to ISO text),
//   - int8/numeric come back as JS numbers, booleans are written as 1/0 on SQLite,
//   - JSON is stored as text on both engines (see store/json.ts).
import { createRequire } from 'node:module';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type { DB } from './types.ts';
import { openSqlite } from './sqlite.ts';
import { registerPool } from './prepared.ts';

export { openSqlite, openSqliteReader } from './sqlite.ts';

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
}

// pg is loaded when a PostgreSQL store is opened: an SQLite server does not carry it.
const require = createRequire(import.meta.url);
let pgModule: typeof pg | undefined;
function loadPg(): typeof pg {
  if (pgModule) return pgModule;
  const m = require('pg') as typeof pg;
  m.types.setTypeParser(20, (v) => Number(v)); // int8 (count(*))
  m.types.setTypeParser(1700, (v) => Number(v)); // numeric
  m.types.setTypeParser(1184, (v) => new Date(v).toISOString()); // timestamptz
  m.types.setTypeParser(1114, (v) => new Date(v + 'Z').toISOString()); // timestamp
  m.types.setTypeParser(1082, (v) => v); // date stays YYYY-MM-DD
  return (pgModule = m);
}

export function openPostgres(url: string, max = 10): Kysely<DB> {
  return openPostgresPool(url, max).db;
}

function openPostgresPool(url: string, max = 10): { db: Kysely<DB>; pool: pg.Pool } {
  const pg = loadPg();
  // Named (prepared) statements get one generic plan. The app names only statements whose plan does not
  // depend on their values, all run through store/prepared.ts (get_listing's batch, a search's summaries,
  // the search feed's poll); with the default (auto) PostgreSQL kept planning get_listing's batch for each
  // execution's array, ~150 µs per batch. Kysely's own queries are unnamed and planned per execution as before.
  const pool = new pg.Pool({ connectionString: url, max, options: '-c plan_cache_mode=force_generic_plan' });
  // An idle client whose connection drops (a restart, a terminated backend) emits 'error' on the pool;
  // without a listener that would crash the process. The pool discards the client and reconnects on demand.
  pool.on('error', (err) => { process.emitWarning(`PostgreSQL idle client error: ${err.message}`); });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  registerPool(db, pool);
  return { db, pool };
}

export function connect(opts: { databaseUrl?: string; sqliteFile: string }): Store {
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const { db, pool } = openPostgresPool(opts.databaseUrl);
    return { db, engine: 'postgres', close: () => db.destroy(), pgPool: pool };
  }
  const { db, adapter } = openSqlite(opts.sqliteFile);
  return { db, engine: 'sqlite', close: () => db.destroy(), sqliteFile: opts.sqliteFile, sqliteWrites: () => adapter.writes };
}
