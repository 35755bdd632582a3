// get_listing's hot path: the materialised public profile (migration 080).
//
// A read is one primary-key-sized row: the cached profile text, the rev it was built from, the
// listing's current profile_rev and its three live counters. When the two revs agree the response is
// that text with the counters spliced in; no JSON is parsed or built. When they differ (something
// the profile shows changed, or the listing was never read) the profile is built by the one-statement
// query (repos/listings.ts), served, and written back in the background, guarded by the rev it was
// built from (a write landing meanwhile leaves the cache stale, never wrong).
//
//   SQLite: the read uses its own read-only connection to the database file, so it never waits for
//     (nor sees the uncommitted rows of) a transaction on the main connection. Its page cache is
//     small; the operating system's file cache holds the rest.
//   PostgreSQL: reads that arrive together (in one turn of the event loop, or while earlier batches
//     are in flight) are answered by ONE named prepared statement, `WHERE slug = ANY($1)`: under load
//     a round trip serves many requests.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/connect.ts';
import { publicProfile } from '../store/repos/listings.ts';
import { baseText, storeProfiles } from '../store/repos/profile-cache.ts';
import type { AppDeps } from '../app.ts';

export interface ProfileHit {
  id: number;
  /** The profile_rev the text was built from; undefined when it was just built (it may be newer). */
  rev: number | undefined;
  /** The profile as JSON text without the live counters (an object: it ends with `}`). */
  base: string;
  votes: number;
  followers: number;
  views: number;
}

interface Row {
  id: number;
  rev: number;
  cache_rev: number | null;
  cache: string | null;
  votes: number;
  followers: number;
  views: number;
}

/**
 * PostgreSQL: batches in flight at once. Requests that arrive meanwhile wait for the next batch,
 * so under load each round trip answers more of them (and PostgreSQL, on the same cores, parses and
 * plans fewer statements); two keep the connection busy while one batch's rows are being handled.
 */
const MAX_BATCHES_IN_FLIGHT = 2;

const SELECT = 'SELECT l.id, l.slug, l.profile_rev AS rev, p.rev AS cache_rev, p.body AS cache, l.votes_count AS votes, l.followers_count AS followers, l.views_count AS views FROM listings l LEFT JOIN listing_profiles p ON p.listing_id = l.id';

/** A weak ETag for the whole text, when the hit came from the stored profile: the rev and the counters name it. */
export function etagOf(hit: ProfileHit, pendingViews = 0): string | undefined {
  return hit.rev === undefined ? undefined : `W/"p${hit.id}.${hit.rev}.${hit.votes}.${hit.followers}.${hit.views + pendingViews}"`;
}

/** The whole profile text: the base with the counters appended (`views` may include views not yet written). */
export function withCounters(hit: ProfileHit, pendingViews = 0): string {
  return `${hit.base.slice(0, -1)},"votes":${hit.votes},"followers":${hit.followers},"views":${hit.views + pendingViews}}`;
}

export class ProfileReader {
  readonly #store: Store;
  #sqlite: DatabaseSync | undefined;
  #bySlug: StatementSync | undefined;
  /** PostgreSQL: slugs asked for in this turn of the event loop, answered by one statement. */
  #batch: Map<string, Array<{ resolve: (r: Row | undefined) => void; reject: (e: unknown) => void }>> | undefined;
  #inFlight = 0;
  /** Profiles built on a miss, written back together. */
  #writes: Array<{ id: number; rev: number; body: string }> = [];
  #writing: Promise<void> | undefined;
  #closed = false;
  #begin: StatementSync | undefined;
  #commit: StatementSync | undefined;
  #inTurn = false;
  #endScheduled = false;
  #writesAtBegin = 0;
  #endTurn = () => {
    this.#inTurn = false;
    this.#endScheduled = false;
    if (this.#sqlite?.isTransaction) this.#commit!.run();
  };

  constructor(store: Store) {
    this.#store = store;
  }

  /** The live listing with this slug, from its cached profile when fresh; undefined when there is none. */
  async get(slug: string): Promise<ProfileHit | undefined> {
    const row = await this.#read(slug);
    if (!row) return undefined;
    if (row.cache !== null && row.cache_rev === row.rev) return { id: row.id, rev: row.rev, base: row.cache, votes: row.votes, followers: row.followers, views: row.views };
    // Stale or never built: build it now (the data read is at least as new as `row.rev`).
    const built = await publicProfile(this.#store.db, this.#store.engine, slug);
    if (!built) return undefined;
    const base = baseText(built.profile);
    this.#queueWrite(built.id, row.rev, base);
    const p = built.profile;
    return { id: built.id, rev: undefined, base, votes: Number(p.votes), followers: Number(p.followers), views: Number(p.views) };
  }

  /** Waits for the background write-backs (tests, shutdown). */
  async settle(): Promise<void> {
    while (this.#writing || this.#writes.length) {
      if (!this.#writing) this.#flushWrites();
      await this.#writing;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.settle().catch(() => {});
    if (this.#sqlite?.isTransaction) this.#commit!.run();
    this.#sqlite?.close();
    this.#sqlite = undefined;
  }

  async #read(slug: string): Promise<Row | undefined> {
    if (this.#store.engine === 'sqlite' && this.#store.sqliteFile) {
      if (!this.#bySlug) {
        this.#sqlite = new DatabaseSync(this.#store.sqliteFile, { readOnly: true });
        this.#sqlite.exec('PRAGMA busy_timeout = 5000; PRAGMA cache_size = -4000;');
        this.#bySlug = this.#sqlite.prepare(`${SELECT} WHERE l.slug = ? AND l.status = 'live'`);
        this.#begin = this.#sqlite.prepare('BEGIN');
        this.#commit = this.#sqlite.prepare('COMMIT');
      }
      // The reads of one event-loop turn share one read transaction (one snapshot, one set of locks),
      // ended before the next turn, and at once when this process has written meanwhile: a write
      // committed before a request arrives, or earlier in the same request, is always seen.
      const writes = this.#store.sqliteWrites?.() ?? 0;
      if (this.#inTurn && writes !== this.#writesAtBegin) {
        if (this.#sqlite!.isTransaction) this.#commit!.run();
        this.#inTurn = false;
      }
      if (!this.#inTurn) {
        this.#begin!.run();
        this.#inTurn = true;
        this.#writesAtBegin = writes;
        if (!this.#endScheduled) {
          this.#endScheduled = true;
          setImmediate(this.#endTurn);
        }
      }
      return this.#bySlug.get(slug) as Row | undefined;
    }
    if (!this.#store.pgPool) throw new Error('ProfileReader needs an SQLite file or a PostgreSQL pool (stores from connect() have one)');
    return new Promise((resolve, reject) => {
      if (!this.#batch) {
        this.#batch = new Map();
        if (this.#inFlight < MAX_BATCHES_IN_FLIGHT) setImmediate(() => this.#runBatch());
      }
      const waiting = this.#batch.get(slug);
      if (waiting) waiting.push({ resolve, reject });
      else this.#batch.set(slug, [{ resolve, reject }]);
    });
  }

  #runBatch(): void {
    const batch = this.#batch;
    if (!batch) return;
    this.#batch = undefined;
    this.#inFlight++;
    const next = () => {
      this.#inFlight--;
      if (this.#batch && this.#inFlight < MAX_BATCHES_IN_FLIGHT) this.#runBatch(); // what queued meanwhile
    };
    const slugs = [...batch.keys()];
    const done = (rows: Array<Row & { slug: string }>) => {
      const bySlug = new Map(rows.map((r) => [r.slug, r]));
      for (const [slug, waiting] of batch) for (const w of waiting) w.resolve(bySlug.get(slug));
    };
    const fail = (e: unknown) => {
      for (const waiting of batch.values()) for (const w of waiting) w.reject(e);
    };
    this.#store.pgPool!.query<Row & { slug: string }>({ name: 'll_profiles_by_slug', text: `${SELECT} WHERE l.slug = ANY($1::text[]) AND l.status = 'live'`, values: [slugs] })
      .then((r) => done(r.rows), fail).finally(next);
  }

  #queueWrite(id: number, rev: number, body: string): void {
    if (this.#closed) return;
    this.#writes.push({ id, rev, body });
    if (!this.#writing) setImmediate(() => this.#flushWrites());
  }

  #flushWrites(): void {
    if (this.#writing || !this.#writes.length) return;
    const writes = this.#writes.splice(0, 500);
    this.#writing = storeProfiles(this.#store.db, writes).catch(() => {
      // An optimisation only: a failed write-back leaves the listing stale, and the next read rebuilds it.
    }).finally(() => {
      this.#writing = undefined;
      if (this.#writes.length) setImmediate(() => this.#flushWrites());
    });
  }
}

/** Wires a ProfileReader into the app: deps.services.profiles, closed with the server. */
export function installProfiles(deps: AppDeps): ProfileReader {
  const profiles = new ProfileReader(deps.store);
  deps.services.profiles = profiles;
  deps.plugins ??= [];
  deps.plugins.push((app: FastifyInstance) => {
    app.addHook('onClose', async () => {
      await profiles.close();
    });
  });
  return profiles;
}
