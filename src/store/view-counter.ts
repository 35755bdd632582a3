// Listing views, counted without slowing reads: get_listing only bumps a number in memory; the
// buffer is written every 30 s (and on shutdown) into listing_view_totals(listing_id, views) and
// listing_views(listing_id, day), FLUSH_CHUNK listings per transaction in id order, pausing
// FLUSH_PAUSE_MS between transactions. A transaction is two statements whatever its listings: the
// totals and the daily rows, each taking the chunk as one array (PostgreSQL: unnest; SQLite:
// json_each). One UPDATE per distinct count, the earlier way, made a flush of 20,000 listings on
// PostgreSQL ~5,000 statements and ~1.7 s of CPU on a 2-core machine, in the middle of whatever load
// was running. On SQLite a transaction runs without yielding: one for 20,000 listings held every
// request for ~60 ms (~0.5 s when the totals were in the wide listings rows); one of 100 takes under
// a millisecond. PostgreSQL's run on another connection, so its chunks are larger.
// A read shows the database's count plus pending(): exact on SQLite;
// on PostgreSQL a read running on another connection while a flush transaction commits may be off by
// that listing's views in it for that moment.
import type { Kysely } from 'kysely';
import { addViews } from './dialect.ts';
import type { DB } from './types.ts';
import type { Engine } from './connect.ts';

export const VIEWS_FLUSH_MS = 30_000;
/** Listings written per transaction of a flush (SQLite: under a millisecond of its time, during which nothing else runs). */
export const FLUSH_CHUNK: Readonly<Record<Engine, number>> = { sqlite: 100, postgres: 1000 };
/** Pause between a flush's transactions, so that requests keep most of the event loop meanwhile. */
export const FLUSH_PAUSE_MS = 5;

export interface ViewCounterOptions {
  /** Flush interval while started (default 30 s: a listing viewed many times in that span costs one row write, not one per 5 s). */
  intervalMs?: number;
  now?: () => Date;
  /** Told about a failed flush (the counts are kept and retried). */
  onError?: (err: unknown) => void;
}

export class ViewCounter {
  readonly #db: Kysely<DB>;
  readonly #engine: Engine;
  readonly #intervalMs: number;
  readonly #now: () => Date;
  readonly #onError: (err: unknown) => void;
  /** "YYYY-MM-DD" → listingId → views not yet written. */
  #buffer = new Map<string, Map<number, number>>();
  /** listingId → views not yet written (all days), so pending() is O(1). */
  #totals = new Map<number, number>();
  /** listingId → views of the flush under way whose transaction has not committed yet. */
  #inFlight = new Map<number, number>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;
  #epoch = 0;

  constructor(db: Kysely<DB>, engine: Engine, opts: ViewCounterOptions = {}) {
    this.#db = db;
    this.#engine = engine;
    this.#intervalMs = opts.intervalMs ?? VIEWS_FLUSH_MS;
    this.#now = opts.now ?? (() => new Date());
    this.#onError = opts.onError ?? (() => {});
  }

  /** Counts one view of a listing (memory only). */
  record(listingId: number, n = 1): void {
    this.#addTo(this.#today(), listingId, n);
    this.#totals.set(listingId, (this.#totals.get(listingId) ?? 0) + n);
  }

  #day = '';
  #dayUntil = 0;
  /** Today's date (UTC), recomputed at most once a second: record() is on get_listing's hot path. */
  #today(): string {
    const now = this.#now();
    const ms = now.getTime();
    if (ms >= this.#dayUntil || ms < this.#dayUntil - 1000) {
      this.#day = now.toISOString().slice(0, 10);
      this.#dayUntil = Math.min(ms + 1000, Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
    }
    return this.#day;
  }

  /** Bumped by every transaction of views this process commits: a view total read before it may be short of them. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Views of a listing not in the database yet (waiting in memory, or in a flush that has not committed). */
  pending(listingId: number): number {
    return (this.#totals.get(listingId) ?? 0) + (this.#inFlight.get(listingId) ?? 0);
  }

  /** Writes every buffered view now. Concurrent calls share one write. */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#buffer.size === 0) return;
    const batch = this.#buffer;
    this.#inFlight = this.#totals;
    this.#buffer = new Map();
    this.#totals = new Map();
    this.#flushing = this.#write(batch).finally(() => {
      this.#flushing = undefined;
      this.#inFlight = new Map();
    });
    return this.#flushing;
  }

  #addTo(day: string, listingId: number, n: number): void {
    let counts = this.#buffer.get(day);
    if (!counts) this.#buffer.set(day, (counts = new Map()));
    counts.set(listingId, (counts.get(listingId) ?? 0) + n);
  }

  async #write(batch: Map<string, Map<number, number>>): Promise<void> {
    const byListing = new Map<number, Array<[day: string, count: number]>>();
    for (const [day, counts] of batch) {
      for (const [listingId, count] of counts) {
        const days = byListing.get(listingId);
        if (days) days.push([day, count]);
        else byListing.set(listingId, [[day, count]]);
      }
    }
    const ids = [...byListing.keys()].sort((a, b) => a - b); // neighbouring rows share pages
    const size = FLUSH_CHUNK[this.#engine];
    for (let i = 0; i < ids.length; i += size) {
      const chunk = ids.slice(i, i + size);
      try {
        await this.#writeChunk(chunk, byListing);
      } catch (err) {
        // This chunk and the ones after it were not written: they wait for the next flush.
        for (const id of ids.slice(i)) {
          for (const [day, count] of byListing.get(id)!) this.#addTo(day, id, count);
          this.#totals.set(id, (this.#totals.get(id) ?? 0) + this.#inFlight.get(id)!);
          this.#inFlight.delete(id);
        }
        throw err;
      }
      this.#epoch++;
      for (const id of chunk) this.#inFlight.delete(id);
      if (i + size < ids.length) await new Promise((resolve) => setTimeout(resolve, FLUSH_PAUSE_MS)); // requests go first
    }
  }

  /**
   * One transaction: the views of these listings (at most FLUSH_CHUNK) into their totals and daily
   * rows. Listings deleted since they were viewed are skipped: their totals went with them, and the
   * daily rows are joined to listings.
   */
  async #writeChunk(ids: number[], byListing: Map<number, Array<[day: string, count: number]>>): Promise<void> {
    const totals: number[] = [];
    const days: Array<[id: number, day: string, count: number]> = [];
    for (const id of ids) {
      let total = 0;
      for (const [day, count] of byListing.get(id)!) {
        total += count;
        days.push([id, day, count]);
      }
      totals.push(total);
    }
    const engine = this.#engine;
    await this.#db.transaction().execute((trx) =>
      addViews(
        trx,
        engine,
        ids.map((id, k) => [id, totals[k]] as const),
        days,
      ),
    );
  }

  /** Flushes every intervalMs until stop(). */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.flush().catch(this.#onError);
    }, this.#intervalMs);
    this.#timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
