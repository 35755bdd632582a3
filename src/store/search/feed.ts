// Fills the in-memory search index (memory-index.ts) from the listings table and keeps it current
// through the change feed of migration 090. One index per database handle: on SQLite the handle of a
// search thread (pool.ts), or the main one where no thread is used; on PostgreSQL the main one.
//
//   load  every listing: in a process of its own (builder.ts, handing over a file: segment-file.ts)
//         when the database is an SQLite file or a PostgreSQL URL is given, else here in slices of
//         LOAD_SLICE (the event loop is free between slices). The feed's position is read first, so
//         whatever changes during the load is read again afterwards. (On PostgreSQL at 100,000 listings
//         the load here held the event loop for slices of ~100 ms and the build's end: a server's first
//         answers waited ~0.3–0.5 s for it.)
//   sync  before each search: the listings changed and deleted since the last position. A search
//         never sees the index older than the database was when it arrived. On PostgreSQL that is a
//         round trip; searches arriving while one is under way share the next one.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import type { DB } from '../types.ts';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSegmentFile } from './segment-file.ts';
import {
  INDEX_COLUMNS,
  MemorySearchIndex,
  normalise,
  SegmentBuilder,
  type IndexRow,
  type Segment,
} from './memory-index.ts';
import { prepared } from '../prepared.ts';
import { sqliteAdapterOf } from '../sqlite.ts';

const LOAD_SLICE = 5000;

interface State {
  index: MemorySearchIndex;
  /** SQLite: the last search_version rev applied. PostgreSQL: the xmin of the snapshot last read. */
  position: string;
  running?: Promise<void>;
  queued?: Promise<void>;
  /**
   * SQLite, on the process's read-write connection: its write count when the position was last read
   * in this turn of the event loop (undefined once the turn ends). See sync().
   */
  turnWrites?: number;
}

const states = new WeakMap<Kysely<DB>, Promise<State>>();

/** The index of the listings behind `db`, current as of this call (loaded on first use). */
export async function searchIndex(
  db: Kysely<DB>,
  engine: Engine,
  opts: { file?: string; pgUrl?: string } = {},
): Promise<MemorySearchIndex> {
  let loading = states.get(db);
  if (!loading) {
    const source = engine === 'sqlite' ? opts.file : opts.pgUrl;
    loading = source ? loadInThread(db, engine, source) : load(db, engine);
    states.set(db, loading);
    loading.catch(() => states.delete(db)); // a failed load is tried again by the next search
    return (await loading).index;
  }
  const state = await loading;
  await sync(db, engine, state);
  return state.index;
}

/** Forgets the index of `db` (tests; the next search loads it again). */
export function forgetSearchIndex(db: Kysely<DB>): void {
  states.delete(db);
}

const columns = (engine: Engine) => sql.raw(INDEX_COLUMNS[engine]);

async function load(db: Kysely<DB>, engine: Engine): Promise<State> {
  const { builder, position } = await readAll(db, engine);
  const state: State = { index: new MemorySearchIndex(engine, builder.finish()), position };
  await sync(db, engine, state);
  return state;
}

/**
 * Every listing into a segment builder, the feed's position read first (whatever changes meanwhile is
 * read again by the feed), in slices of LOAD_SLICE with the event loop free between them; `eachSlice`
 * runs after each (the builder process checks that its server is still there). Used here and by the
 * builder process on PostgreSQL.
 */
export async function readAll(
  db: Kysely<DB>,
  engine: Engine,
  eachSlice?: () => void,
): Promise<{ builder: SegmentBuilder; position: string }> {
  const position = await readPosition(db, engine);
  const builder = new SegmentBuilder(engine);
  for (let last = 0; ; ) {
    const rows = (
      await sql<IndexRow>`SELECT ${columns(engine)} FROM listings WHERE id > ${last} ORDER BY id LIMIT ${LOAD_SLICE}`.execute(
        db,
      )
    ).rows;
    for (const r of rows) builder.add(normalise(r));
    eachSlice?.();
    if (rows.length < LOAD_SLICE) break;
    last = Number(rows[rows.length - 1].id);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { builder, position };
}

/** Builder processes at work: stopped when this process exits (a build takes seconds of a core at 100,000 listings), their files removed. */
const builders = new Map<ChildProcess, string>();
let stopBuildersAtExit = false;

/** `source`: the SQLite file, or the PostgreSQL URL (handed over in the environment, not on the command line). */
async function loadInThread(db: Kysely<DB>, engine: Engine, source: string): Promise<State> {
  const dir = mkdtempSync(join(tmpdir(), 'launchlist-index-'));
  const out = join(dir, 'segment');
  let loaded: { segment: Segment; position: string };
  try {
    const reply = await new Promise<{ done?: true; error?: string }>((resolve, reject) => {
      const child = fork(
        fileURLToPath(new URL('./builder.ts', import.meta.url)),
        [engine === 'sqlite' ? source : '', out, String(process.pid)],
        {
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
          ...(engine === 'postgres' ? { env: { ...process.env, LAUNCHLIST_INDEX_DATABASE_URL: source } } : {}),
        },
      );
      builders.set(child, dir);
      child.once('exit', () => builders.delete(child));
      if (!stopBuildersAtExit) {
        stopBuildersAtExit = true;
        process.once('exit', () => {
          for (const [c, d] of builders) {
            c.kill();
            rmSync(d, { recursive: true, force: true });
          }
        });
      }
      child.once('message', (msg) => resolve(msg as { done?: true; error?: string }));
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the search index builder exited with code ${code}`)));
    });
    if (!reply.done) throw new Error(`building the search index failed: ${reply.error}`);
    loaded = readSegmentFile(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const state: State = { index: new MemorySearchIndex(engine, loaded.segment), position: loaded.position };
  await sync(db, engine, state);
  return state;
}

const DONE = Promise.resolve();
const SQLITE_POSITION = 'SELECT rev FROM search_version WHERE id = 1';

async function readPosition(db: Kysely<DB>, engine: Engine): Promise<string> {
  if (engine === 'sqlite') {
    const direct = sqliteAdapterOf(db); // a cached statement, not a compiled query: this runs before searches
    const rows = direct
      ? (direct.prepare(SQLITE_POSITION).all([]) as Array<{ rev: number }>)
      : (await sql<{ rev: number }>`${sql.raw(SQLITE_POSITION)}`.execute(db)).rows;
    return String(rows[0]?.rev ?? 0);
  }
  return (await sql<{ xmin: string }>`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`.execute(db)).rows[0]
    .xmin;
}

/**
 * Applies the changes since the state's position; concurrent calls share a read that starts after they arrive.
 *
 * SQLite, on the process's read-write connection (the main thread's index): the position is read at
 * most once per turn of the event loop while no statement of this process has written since. Every
 * write of this process goes through that connection and is seen at once; another process's commit is
 * seen by the searches of the next turn, and the requests a turn serves were read from their sockets
 * when it began. A search thread's connection never writes, so there the position is read every time.
 */
function sync(db: Kysely<DB>, engine: Engine, state: State): Promise<void> {
  const writer = engine === 'sqlite' ? sqliteAdapterOf(db) : undefined;
  if (writer?.writer && !state.running && state.turnWrites === writer.writes) return DONE;
  if (!state.running) {
    state.running = applyChanges(db, engine, state).finally(() => {
      state.running = undefined;
    });
    return state.running;
  }
  // The read under way may have started before this search arrived: wait for the next one.
  state.queued ??= state.running.then(() => {
    state.queued = undefined;
    return sync(db, engine, state);
  });
  return state.queued;
}

/** PostgreSQL: the feed's poll, a prepared statement (it runs before every search). */
const PG_FEED = `SELECT x.xmin, l.id, l.status, l.votes_count, l.name, l.tagline, l.description, l.keywords::text AS keywords,
      l.slug, l.url, l.logo_url, l.launch_week, l.launched_at, l.primary_category_id, l.followers_count, NULL::integer AS deleted
    FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin) AS x
    LEFT JOIN listings AS l ON l.search_xid >= $1::bigint
  UNION ALL
  SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, d.listing_id FROM search_deletions AS d WHERE d.xid >= $1::bigint`;

async function applyChanges(db: Kysely<DB>, engine: Engine, state: State): Promise<void> {
  let rows: IndexRow[];
  let deleted: number[];
  if (engine === 'sqlite') {
    const writer = sqliteAdapterOf(db);
    const writesBefore = writer?.writes ?? 0; // before the read: a write landing after it is read again next time
    const rev = await readPosition(db, engine);
    if (writer?.writer) {
      if (state.turnWrites === undefined)
        setImmediate(() => {
          state.turnWrites = undefined;
        });
      state.turnWrites = writesBefore;
    }
    if (rev === state.position) return;
    rows = (
      await sql<IndexRow>`SELECT ${columns(engine)} FROM listings WHERE search_rev > ${Number(state.position)}`.execute(
        db,
      )
    ).rows;
    deleted = (
      await sql<{
        listing_id: number;
      }>`SELECT listing_id FROM search_deletions WHERE rev > ${Number(state.position)}`.execute(db)
    ).rows.map((r) => Number(r.listing_id));
    state.position = rev;
  } else {
    // One statement, so one snapshot: its xmin, the listings changed and the deletions.
    const result = await prepared<IndexRow & { xmin: string | null; deleted: number | null }>(
      db,
      'll_search_feed',
      PG_FEED,
      [state.position],
    );
    rows = [];
    deleted = [];
    let xmin: string | null = null;
    for (const r of result) {
      if (r.xmin !== null) xmin = r.xmin;
      if (r.deleted !== null) deleted.push(Number(r.deleted));
      else if (r.id !== null) rows.push(r);
    }
    if (xmin !== null) state.position = xmin;
  }
  for (const r of rows) state.index.upsert(normalise(r));
  for (const id of deleted) state.index.remove(id);
  state.index.compactIfWorthIt();
}
