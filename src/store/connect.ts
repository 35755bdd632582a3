// Opens the database: SQLite (node:sqlite, WAL, the embedded default) or PostgreSQL (pg) when a URL is given.
// Engine differences that repositories would otherwise see are absorbed here:
//   - timestamps are ISO-8601 UTC strings on both engines (timestamptz is parsed to ISO text),
//   - int8/numeric come back as JS numbers, booleans are written as 1/0 on SQLite,
//   - JSON is stored as text on both engines (see store/json.ts).
import { DatabaseSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import type { DB } from './types.ts';

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

pg.types.setTypeParser(20, (v) => Number(v)); // int8 (count(*))
pg.types.setTypeParser(1700, (v) => Number(v)); // numeric
pg.types.setTypeParser(1184, (v) => new Date(v).toISOString()); // timestamptz
pg.types.setTypeParser(1114, (v) => new Date(v + 'Z').toISOString()); // timestamp
pg.types.setTypeParser(1082, (v) => v); // date stays YYYY-MM-DD

function toSqliteParam(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString();
  return v;
}

/** Adapts node:sqlite's DatabaseSync to the shape Kysely's SqliteDialect expects, with a statement cache. */
class NodeSqlite implements SqliteDatabase {
  readonly raw: DatabaseSync;
  /** Statements run that may write (read by services/profiles.ts to end its read snapshot). */
  writes = 0;
  #cache = new Map<string, SqliteStatement>();
  constructor(raw: DatabaseSync) {
    this.raw = raw;
  }
  close(): void {
    this.#cache.clear();
    this.raw.close();
  }
  prepare(sql: string): SqliteStatement {
    const hit = this.#cache.get(sql);
    if (hit) return hit;
    const stmt = this.raw.prepare(sql);
    const reader = stmt.columns().length > 0;
    const writes = !/^\s*(select|pragma|explain)\b/i.test(sql); // with … select counts as a write: harmless
    const wrapped: SqliteStatement = {
      reader,
      all: (p) => {
        if (writes) this.writes++;
        return stmt.all(...(p.map(toSqliteParam) as never[]));
      },
      run: (p) => {
        if (writes) this.writes++;
        return stmt.run(...(p.map(toSqliteParam) as never[]));
      },
      iterate: (p) => stmt.iterate(...(p.map(toSqliteParam) as never[])) as IterableIterator<unknown>,
    };
    if (this.#cache.size > 1000) this.#cache.clear();
    this.#cache.set(sql, wrapped);
    return wrapped;
  }
}

export function openSqlite(file: string): { db: Kysely<DB>; raw: DatabaseSync; adapter: NodeSqlite } {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const raw = new DatabaseSync(file);
  raw.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA cache_size = -8000; PRAGMA temp_store = MEMORY;');
  const adapter = new NodeSqlite(raw);
  return { db: new Kysely<DB>({ dialect: new SqliteDialect({ database: adapter }) }), raw, adapter };
}

/** A read-only connection to an SQLite database file (search threads): it never writes, so it never waits for the writer. */
export function openSqliteReader(file: string, cacheKb = 4_000): Kysely<DB> {
  const raw = new DatabaseSync(file, { readOnly: true });
  raw.exec(`PRAGMA busy_timeout = 5000; PRAGMA cache_size = -${cacheKb}; PRAGMA temp_store = MEMORY;`);
  return new Kysely<DB>({ dialect: new SqliteDialect({ database: new NodeSqlite(raw) }) });
}

export function openPostgres(url: string, max = 10): Kysely<DB> {
  return openPostgresPool(url, max).db;
}

function openPostgresPool(url: string, max = 10): { db: Kysely<DB>; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client whose connection drops (a restart, a terminated backend) emits 'error' on the pool;
  // without a listener that would crash the process. The pool discards the client and reconnects on demand.
  pool.on('error', (err) => { process.emitWarning(`PostgreSQL idle client error: ${err.message}`); });
  return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), pool };
}

export function connect(opts: { databaseUrl?: string; sqliteFile: string }): Store {
  if (opts.databaseUrl && /^postgres(ql)?:\/\//.test(opts.databaseUrl)) {
    const { db, pool } = openPostgresPool(opts.databaseUrl);
    return { db, engine: 'postgres', close: () => db.destroy(), pgPool: pool };
  }
  const { db, adapter } = openSqlite(opts.sqliteFile);
  return { db, engine: 'sqlite', close: () => db.destroy(), sqliteFile: opts.sqliteFile, sqliteWrites: () => adapter.writes };
}
