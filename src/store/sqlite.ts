// SQLite through node:sqlite, for Kysely: the main read-write connection and read-only ones (search
// threads). Kept apart from connect.ts so that a search thread loads neither pg nor the PostgreSQL setup.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import type { DB } from './types.ts';

function toSqliteParam(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString();
  return v;
}

/** Adapts node:sqlite's DatabaseSync to the shape Kysely's SqliteDialect expects, with a statement cache. */
export class NodeSqlite implements SqliteDatabase {
  readonly raw: DatabaseSync;
  /** The process's read-write connection (openSqlite), through which every write of this process goes; false for read-only ones. */
  readonly writer: boolean;
  /** Statements run that may write (read by store/profile-reader.ts to end its read snapshot). */
  writes = 0;
  #cache = new Map<string, SqliteStatement>();
  #arrays = new Map<string, StatementSync>();
  constructor(raw: DatabaseSync, writer = false) {
    this.raw = raw;
    this.writer = writer;
  }
  /**
   * A cached read statement that returns each row as an array in the select list's order: node:sqlite
   * then builds no property names per row (~0.7 µs a row of 14 columns). Reads only: it is not counted in `writes`.
   */
  arrays(sql: string): StatementSync {
    let stmt = this.#arrays.get(sql);
    if (!stmt) {
      stmt = this.raw.prepare(sql);
      stmt.setReturnArrays(true);
      if (this.#arrays.size > 200) this.#arrays.clear();
      this.#arrays.set(sql, stmt);
    }
    return stmt;
  }
  close(): void {
    this.#cache.clear();
    this.#arrays.clear();
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
  raw.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA cache_size = -8000; PRAGMA temp_store = MEMORY;',
  );
  const adapter = new NodeSqlite(raw, true);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: adapter }) });
  adapters.set(db, adapter);
  return { db, raw, adapter };
}

const adapters = new WeakMap<Kysely<DB>, NodeSqlite>();

/**
 * The connection behind a Kysely handle made here (undefined for a transaction or a PostgreSQL
 * handle): for the few hot reads that run a cached statement directly, without compiling a query.
 */
export function sqliteAdapterOf(db: Kysely<DB>): NodeSqlite | undefined {
  return adapters.get(db);
}

/** A read-only connection to an SQLite database file (search threads): it never writes, so it never waits for the writer. */
export function openSqliteReader(file: string, cacheKb = 4_000): Kysely<DB> {
  const raw = new DatabaseSync(file, { readOnly: true });
  raw.exec(`PRAGMA busy_timeout = 5000; PRAGMA cache_size = -${cacheKb}; PRAGMA temp_store = MEMORY;`);
  const adapter = new NodeSqlite(raw);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: adapter }) });
  adapters.set(db, adapter);
  return db;
}
