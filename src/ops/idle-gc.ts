// Memory given back when the server goes quiet after a busy spell (IDLE_GC).
//
// Under load V8 keeps the pages its collections free in a pool, for the next allocations, and frees the
// pool only on a collection asked to reduce memory: its memory reducer starts one when the process has
// gone idle. Here it never did: it judges idleness by the allocation rate it measured at its last
// collection, and an idle server collects nothing, so the rate it judges by stays the rate under load
// ("Memory reducer: high alloc" every 8 s, measured with --trace-memory-reducer). The pool then stays
// resident for ever. Measured on a 2-core machine, SQLite, 100,000 listings, after 20 s of searches,
// listing, search and category pages and API reads: RSS 374 MB, of which ~50–70 MB pooled V8 pages;
// one memory-reducing collection took 61 ms and left 229 MB.
//
// So once a second the event loop's utilisation is read (no cost per request). When it has stayed under
// QUIET_UTILISATION for QUIET_TICKS seconds in a row, and the resident memory has grown by GROWTH_BYTES
// or more since the last such collection (or since the start), one memory-reducing collection runs:
// V8's "last resort" collection, which also frees the pool. Only when quiet: a request that arrives
// during it waits for it (~60 ms at 100,000 listings). Then the C heap's free pages are given back too
// (ops/malloc-trim.ts: glibc's malloc_trim, ~15 ms; 340 → 233 MB in the same measure).
//
// No library offers this; the collection function is V8's own `gc`, taken from a new context while the
// --expose-gc flag is on, and the flag is turned off again at once, so nothing else in the process sees
// `gc` and the flags the compile cache was made with stay as they were (node:v8 setFlagsFromString).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { mallocTrim } from './malloc-trim.ts';

/** V8's gc() with the options used here (a full, memory-reducing collection, at once). */
export type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** Seconds of quiet in a row before memory is given back. */
export const QUIET_TICKS = 2;
/** The event loop's busy share under which a second counts as quiet (a health probe or a scrape stays under it). */
export const QUIET_UTILISATION = 0.05;
/** How much the resident memory must have grown since the last collection for another to be worth its pause. */
export const GROWTH_BYTES = 32 * 1024 * 1024;

/** What this process did, for /metrics (ops/metrics.ts): collections run and their pauses. */
export const idleGcCounts = { runs: 0, seconds: 0 };

/** V8's collection function, or undefined where it cannot be had. */
export function exposeGc(): Gc | undefined {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as Gc; // started with --expose-gc
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as Gc) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** The decision, apart from the clock and the process (tested with both faked). */
export class IdleReducer {
  readonly #gc: () => void;
  readonly #rss: () => number;
  #quiet = 0;
  /** The resident memory after the last collection (0 before the first: the start's own garbage counts). */
  #base = 0;
  constructor(gc: () => void, rss: () => number) {
    this.#gc = gc;
    this.#rss = rss;
  }
  /**
   * One second's reading of the event loop's busy share. When it collected: the pause (ms) and the
   * resident memory before and after (bytes); else undefined.
   */
  tick(utilisation: number): { ms: number; rssBefore: number; rssAfter: number } | undefined {
    if (utilisation >= QUIET_UTILISATION) {
      this.#quiet = 0;
      return undefined;
    }
    if (++this.#quiet < QUIET_TICKS) return undefined;
    const rssBefore = this.#rss();
    if (rssBefore - this.#base < GROWTH_BYTES) return undefined;
    const t0 = performance.now();
    this.#gc();
    const ms = performance.now() - t0;
    this.#base = this.#rss();
    this.#quiet = 0;
    idleGcCounts.runs++;
    idleGcCounts.seconds += ms / 1000;
    return { ms, rssBefore, rssAfter: this.#base };
  }
}

/**
 * Starts the once-a-second reading for this process (serve.ts, when IDLE_GC is on). Returns a stop
 * function, or undefined when V8's collection function could not be had.
 */
export function startIdleGc(
  log: (fields: { ms: number; rssBefore: number; rssAfter: number }) => void,
): (() => void) | undefined {
  const gc = exposeGc();
  if (!gc) return undefined;
  const reducer = new IdleReducer(
    () => {
      gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      mallocTrim()?.(); // what the collection freed outside V8's heap (Buffers) is in the C heap
    },
    () => process.memoryUsage.rss(),
  );
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const done = reducer.tick(performance.eventLoopUtilization(last).utilization);
    last = performance.eventLoopUtilization(); // a collection's own pause is not counted as work
    if (done) log({ ...done, ms: Math.round(done.ms) });
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}
