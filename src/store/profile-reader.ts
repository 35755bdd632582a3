// get_listing's hot path: the materialised public profile (migration 080).
//
// A read is one primary-key-sized row: the cached profile text, the rev it was built from, the
// listing's current profile_rev and its three live counters (views from listing_view_totals). When
// the two revs agree the response is that text with the counters spliced in; no JSON is parsed or
// built. When they differ (something the profile shows changed, or the listing was never read) the
// profile is built by the one-statement query (repos/listings.ts), served, and written back in the
// background, guarded by the rev it was built from (a write landing meanwhile leaves the cache stale,
// never wrong).
//
//   SQLite: the read uses its own read-only connection to the database file, so it never waits for
//     (nor sees the uncommitted rows of) a transaction on the main connection. Its page cache is
//     small; the operating system's file cache holds the rest.
//   PostgreSQL: reads that arrive together (in one turn of the event loop, or while earlier batches
//     are in flight) are answered by ONE named prepared statement over the batch's slugs: under load
//     a round trip serves many requests. The texts of recently read listings are also kept here
//     (TextCache, PROFILE_CACHE_MB): the statement is told which rev of each listing this process
//     holds and sends the stored text only for the others, so a text is never served for a rev it was
//     not built from; for a listing held here the read skips the ~2 KB row. A held listing's view
//     total is also kept, for VIEWS_TTL_MS and only until this process's view counter next writes (its
//     epoch changes): views counted here are exact, those another instance writes show within
//     VIEWS_TTL_MS of its write. The id, rev and other counters come from the database on every read,
//     but for one case: a listing whose text, rev and counters a batch confirmed less than
//     PROFILE_FRESH_MS ago is answered here without a round trip, as long as this process has
//     completed no write that could change a profile since that batch was sent (Store.pgWrites counts
//     them: store/connect.ts). A write made through this process shows at once; one made by another
//     instance (or by hand) within PROFILE_FRESH_MS, well inside the max-age=30 the response carries.
//     Under load a listing read many times a second costs one round trip a second instead of one per
//     batch; at 100,000 listings PostgreSQL's share of a read was ~8 µs of CPU, on the same cores.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { Store } from './connect.ts';
import { publicProfile } from './repos/listings.ts';
import { baseText, storeProfiles } from './repos/profile-cache.ts';
import { prepared } from './prepared.ts';
import { cacheCounts } from '../ops/cache-stats.ts';

export interface ProfileHit {
  id: number;
  /** The profile_rev the text was built from; undefined when it was just built (it may be newer). */
  rev: number | undefined;
  /** The profile as JSON text without the live counters (an object: it ends with `}`). */
  base: string;
  votes: number;
  followers: number;
  views: number;
  /** vote_integrity (listing_vote_totals, migration 190): weighted sum, discounted votes, by_reason as JSON text. */
  counted: number;
  discounted: number;
  byReason: string;
}

interface Row {
  id: number;
  rev: number;
  cache_rev: number | null;
  cache: string | null;
  votes: number;
  followers: number;
  views: number;
  counted: number;
  discounted: number;
  byReason: string;
}

/**
 * PostgreSQL: batches in flight at once. Requests that arrive meanwhile wait for the next batch,
 * so under load each round trip answers more of them (and PostgreSQL, on the same cores, parses and
 * plans fewer statements); two keep the connection busy while one batch's rows are being handled.
 */
const MAX_BATCHES_IN_FLIGHT = 2;

/**
 * SQLite: one listing by slug, with its stored text and the rev that text was built from. Read as an
 * array in Row's key order (SqliteRow): node:sqlite then builds no property names per row, ~2 µs of
 * the ~8 µs a read costs at 100,000 listings.
 */
const SQLITE_BY_SLUG =
  "SELECT l.id, l.profile_rev, p.rev, p.body, l.votes_count, l.followers_count, v.views, t.weighted, t.discounted, t.by_reason FROM listings l JOIN listing_view_totals v ON v.listing_id = l.id LEFT JOIN listing_profiles p ON p.listing_id = l.id LEFT JOIN listing_vote_totals t ON t.listing_id = l.id WHERE l.slug = ? AND l.status = 'live'";
type SqliteRow = [
  id: number,
  rev: number,
  cache_rev: number | null,
  cache: string | null,
  votes: number,
  followers: number,
  views: number,
  weighted: number | null,
  discounted: number | null,
  by_reason: string | null,
];

/**
 * PostgreSQL: the batch of slugs with, for each, the listing id and rev whose text this process holds
 * (0 and -1 when none) and whether it holds a fresh view total for it. `body` is the stored text built
 * from the listing's current rev, sent only when this process does not hold that rev (CASE runs the
 * sub-select only then); NULL otherwise, or when no text is stored for the current rev (the profile is
 * then rebuilt, as on SQLite). `views` likewise, unless the total held is fresh.
 */
const PG_BATCH = `SELECT l.id, l.slug, l.profile_rev AS rev, l.votes_count AS votes, l.followers_count AS followers,
    t.weighted, t.discounted, t.by_reason,
    CASE WHEN k.views_held AND k.id = l.id THEN NULL
      ELSE coalesce((SELECT v.views FROM listing_view_totals v WHERE v.listing_id = l.id), 0) END AS views,
    CASE WHEN k.id = l.id AND k.rev = l.profile_rev THEN NULL
      ELSE (SELECT p.body FROM listing_profiles p WHERE p.listing_id = l.id AND p.rev = l.profile_rev) END AS body
  FROM unnest($1::text[], $2::int[], $3::int[], $4::boolean[]) AS k(slug, id, rev, views_held)
  JOIN listings l ON l.slug = k.slug
  LEFT JOIN listing_vote_totals t ON t.listing_id = l.id
  WHERE l.status = 'live'`;

/** `views` is NULL when this process holds a fresh total for that listing (the batch said so). */
interface PgRow {
  id: number;
  slug: string;
  rev: number;
  votes: number;
  followers: number;
  views: number | null;
  body: string | null;
  weighted: number | null;
  discounted: number | null;
  by_reason: string | null;
}

/** The integrity counters of a row of listing_vote_totals (none: a listing without votes). */
function integrityOf(weighted: unknown, discounted: unknown, byReason: string | null) {
  return {
    counted: weighted === null || weighted === undefined ? 0 : Math.round(Number(weighted) * 100) / 100,
    discounted: discounted === null || discounted === undefined ? 0 : Number(discounted),
    byReason: byReason ?? '{}',
  };
}

/** How long a held listing's view total is used without asking the database (see the header). */
export const VIEWS_TTL_MS = 10_000;

/** How long a held profile the database confirmed is served without asking it again (see the header). */
export const PROFILE_FRESH_MS = 1_000;

/**
 * What TextCache holds for a listing: its text and, once read, its view total and when it was read;
 * once a batch confirmed the text as the listing's current rev, its counters, when that batch was sent
 * and the process's write count then (confirmedAt, writes).
 */
export interface HeldText {
  id: number;
  rev: number;
  text: string;
  views?: number;
  viewsAt?: number;
  viewsEpoch?: number;
  votes?: number;
  followers?: number;
  integrity?: { counted: number; discounted: number; byReason: string };
  confirmedAt?: number;
  writes?: number;
}

/**
 * Profile texts by slug, with the listing id and rev each was built from, at most `budget` bytes
 * (counted as the text's length plus a fixed overhead); the oldest entries leave first.
 */
export class TextCache {
  readonly #budget: number;
  #entries = new Map<string, HeldText>();
  #bytes = 0;
  constructor(budgetBytes: number) {
    this.#budget = budgetBytes;
  }
  get(slug: string): HeldText | undefined {
    return this.#entries.get(slug);
  }
  set(slug: string, id: number, rev: number, text: string): void {
    if (this.#budget <= 0) return;
    this.delete(slug);
    this.#entries.set(slug, { id, rev, text });
    this.#bytes += text.length + ENTRY_OVERHEAD;
    for (const [k, e] of this.#entries) {
      if (this.#bytes <= this.#budget) break;
      this.#entries.delete(k);
      this.#bytes -= e.text.length + ENTRY_OVERHEAD;
    }
  }
  delete(slug: string): void {
    const e = this.#entries.get(slug);
    if (!e) return;
    this.#entries.delete(slug);
    this.#bytes -= e.text.length + ENTRY_OVERHEAD;
  }
  get size(): number {
    return this.#entries.size;
  }
  get bytes(): number {
    return this.#bytes;
  }
}
/** A TextCache entry's bytes besides its text: the key, the entry object and the Map slot. */
const ENTRY_OVERHEAD = 120;

/** A weak ETag for the whole text, when the hit came from the stored profile: the rev and the counters name it. */
export function etagOf(hit: ProfileHit, pendingViews = 0): string | undefined {
  return hit.rev === undefined
    ? undefined
    : `W/"p${hit.id}.${hit.rev}.${hit.votes}.${hit.counted}.${hit.discounted}.${hit.followers}.${hit.views + pendingViews}"`;
}

/** The whole profile text: the base with the counters appended (`views` may include views not yet written). */
export function withCounters(hit: ProfileHit, pendingViews = 0): string {
  return `${hit.base.slice(0, -1)},"votes":${hit.votes},"vote_integrity":{"counted":${hit.counted},"discounted":${hit.discounted},"by_reason":${hit.byReason}},"followers":${hit.followers},"views":${hit.views + pendingViews}}`;
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
  /** PostgreSQL: the texts this process holds (empty on SQLite, whose reads are local). */
  readonly #texts: TextCache;
  /** The view counter's write epoch (ViewCounter.epoch): a held view total is good only within one. */
  readonly #viewsEpoch: () => number;
  readonly #viewsTtlMs: number;
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

  /** PostgreSQL: PROFILE_FRESH_MS, or 0 to ask the database on every read. */
  readonly #freshMs: number;

  constructor(
    store: Store,
    opts: { textCacheBytes?: number; viewsEpoch?: () => number; viewsTtlMs?: number; freshMs?: number } = {},
  ) {
    this.#store = store;
    this.#freshMs = store.pgWrites ? (opts.freshMs ?? PROFILE_FRESH_MS) : 0;
    this.#texts = new TextCache(store.engine === 'postgres' ? (opts.textCacheBytes ?? 0) : 0);
    this.#viewsEpoch = opts.viewsEpoch ?? (() => 0);
    this.#viewsTtlMs = opts.viewsTtlMs ?? VIEWS_TTL_MS;
  }

  /**
   * The live listing with this slug, from its cached profile when fresh; undefined when there is none.
   * `confirm`: ask the database even when this process confirmed the listing less than PROFILE_FRESH_MS
   * ago (a person who has just changed something, possibly through another instance, reads their change).
   */
  async get(slug: string, opts: { confirm?: boolean } = {}): Promise<ProfileHit | undefined> {
    const row = (opts.confirm ? undefined : this.#confirmed(slug)) ?? (await this.#read(slug));
    if (!row) return undefined;
    if (row.cache !== null && row.cache_rev === row.rev) {
      cacheCounts.profile_stored.hit++;
      return {
        id: row.id,
        rev: row.rev,
        base: row.cache,
        votes: row.votes,
        followers: row.followers,
        views: row.views,
        counted: row.counted,
        discounted: row.discounted,
        byReason: row.byReason,
      };
    }
    cacheCounts.profile_stored.miss++;
    // Stale or never built: build it now (the data read is at least as new as `row.rev`).
    const built = await publicProfile(this.#store.db, this.#store.engine, slug);
    if (!built) return undefined;
    const base = baseText(built.profile);
    this.#queueWrite(built.id, row.rev, base);
    const p = built.profile;
    return {
      id: built.id,
      rev: undefined,
      base,
      votes: Number(p.votes),
      followers: Number(p.followers),
      views: Number(p.views),
      counted: row.counted,
      discounted: row.discounted,
      byReason: row.byReason,
    };
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

  /**
   * PostgreSQL: the held row of a listing a batch confirmed less than freshMs ago, when this process
   * has completed no counted write since that batch was sent and the held view total is fresh too.
   */
  #confirmed(slug: string): Row | undefined {
    if (!this.#freshMs) return undefined;
    const h = this.#texts.get(slug);
    const now = Date.now();
    if (
      h?.confirmedAt === undefined ||
      h.views === undefined ||
      now - h.confirmedAt >= this.#freshMs ||
      h.writes !== this.#store.pgWrites!() ||
      h.viewsEpoch !== this.#viewsEpoch() ||
      now - h.viewsAt! >= this.#viewsTtlMs
    ) {
      cacheCounts.profile_fresh.miss++;
      return undefined;
    }
    cacheCounts.profile_fresh.hit++;
    return {
      id: h.id,
      rev: h.rev,
      cache_rev: h.rev,
      cache: h.text,
      votes: h.votes!,
      followers: h.followers!,
      views: h.views,
      ...h.integrity!,
    };
  }

  async #read(slug: string): Promise<Row | undefined> {
    if (this.#store.engine === 'sqlite' && this.#store.sqliteFile) {
      if (!this.#bySlug) {
        this.#sqlite = new DatabaseSync(this.#store.sqliteFile, { readOnly: true });
        this.#sqlite.exec('PRAGMA busy_timeout = 5000; PRAGMA cache_size = -4000;');
        this.#bySlug = this.#sqlite.prepare(SQLITE_BY_SLUG);
        this.#bySlug.setReturnArrays(true);
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
      const r = this.#bySlug.get(slug) as unknown as SqliteRow | undefined;
      return (
        r && {
          id: r[0],
          rev: r[1],
          cache_rev: r[2],
          cache: r[3],
          votes: r[4],
          followers: r[5],
          views: r[6],
          ...integrityOf(r[7], r[8], r[9]),
        }
      );
    }
    if (!this.#store.pgPool)
      throw new Error('ProfileReader needs an SQLite file or a PostgreSQL pool (stores from connect() have one)');
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
    const sentAt = Date.now();
    const epoch = this.#viewsEpoch();
    const writes = this.#store.pgWrites?.();
    // What this process holds for each slug, as it was when the batch was sent (a later batch may
    // evict or replace an entry before this one's answer arrives).
    const held = slugs.map((slug) => this.#texts.get(slug));
    const freshViews = held.map(
      (h) => h?.views !== undefined && h.viewsEpoch === epoch && sentAt - h.viewsAt! < this.#viewsTtlMs,
    );
    const done = (rows: PgRow[]) => {
      const heldBySlug = new Map(slugs.map((slug, i) => [slug, held[i]]));
      const sameEpoch = this.#viewsEpoch() === epoch; // no write of this process's views landed meanwhile
      // No counted write of this process completed meanwhile: the rows are as new as any it made.
      const confirm =
        this.#freshMs > 0 && this.#store.pgWrites!() === writes ? { at: sentAt, writes: writes! } : undefined;
      const bySlug = new Map<string, Row>();
      for (const r of rows)
        bySlug.set(
          r.slug,
          this.#fromPg(r, heldBySlug.get(r.slug), sameEpoch ? { epoch, at: sentAt } : undefined, confirm),
        );
      for (const [slug, waiting] of batch) for (const w of waiting) w.resolve(bySlug.get(slug));
    };
    const fail = (e: unknown) => {
      for (const waiting of batch.values()) for (const w of waiting) w.reject(e);
    };
    prepared<PgRow>(this.#store.db, 'll_profiles_batch', PG_BATCH, [
      slugs,
      held.map((h) => h?.id ?? 0),
      held.map((h) => h?.rev ?? -1),
      freshViews,
    ])
      .then(done, fail)
      .finally(next);
  }

  /**
   * A batch row as the read path's Row: the text sent, or the one held here when it is the current
   * rev's; the view total sent, or the one held. A total sent is kept with the text when `keepViews`
   * says no write of this process's views landed while the batch was out (it could be on either side).
   * `confirm`: no counted write landed either, so the held entry may answer alone until it is
   * PROFILE_FRESH_MS old (#confirmed).
   */
  #fromPg(
    r: PgRow,
    held: HeldText | undefined,
    keepViews: { epoch: number; at: number } | undefined,
    confirm?: { at: number; writes: number },
  ): Row {
    const mine = held !== undefined && held.id === r.id;
    // NULL only for a listing this process holds a fresh total for (the statement's CASE).
    const counters = {
      votes: r.votes,
      followers: r.followers,
      views: r.views ?? held!.views!,
      ...integrityOf(r.weighted, r.discounted, r.by_reason),
    };
    let row: Row;
    if (r.body !== null) {
      cacheCounts.profile_text.miss++;
      this.#texts.set(r.slug, r.id, r.rev, r.body);
      row = { id: r.id, rev: r.rev, cache_rev: r.rev, cache: r.body, ...counters };
    } else if (mine && held.rev === r.rev) {
      cacheCounts.profile_text.hit++;
      row = { id: r.id, rev: r.rev, cache_rev: r.rev, cache: held.text, ...counters };
    } else {
      return { id: r.id, rev: r.rev, cache_rev: null, cache: null, ...counters }; // no text for this rev yet: rebuilt by get()
    }
    const entry = this.#texts.get(r.slug);
    if (!entry || entry.id !== r.id || entry.rev !== r.rev) return row;
    if (r.views !== null && keepViews)
      Object.assign(entry, { views: r.views, viewsAt: keepViews.at, viewsEpoch: keepViews.epoch });
    if (confirm)
      Object.assign(entry, {
        votes: r.votes,
        followers: r.followers,
        integrity: { counted: counters.counted, discounted: counters.discounted, byReason: counters.byReason },
        confirmedAt: confirm.at,
        writes: confirm.writes,
      });
    return row;
  }

  #queueWrite(id: number, rev: number, body: string): void {
    if (this.#closed) return;
    this.#writes.push({ id, rev, body });
    if (!this.#writing) setImmediate(() => this.#flushWrites());
  }

  #flushWrites(): void {
    if (this.#writing || !this.#writes.length) return;
    const writes = this.#writes.splice(0, 500);
    this.#writing = storeProfiles(this.#store.db, writes)
      .catch(() => {
        // An optimisation only: a failed write-back leaves the listing stale, and the next read rebuilds it.
      })
      .finally(() => {
        this.#writing = undefined;
        if (this.#writes.length) setImmediate(() => this.#flushWrites());
      });
  }
}
