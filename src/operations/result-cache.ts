// Results of public reads shared by every anonymous caller for a moment (an operation's `cacheMs`,
// at most 1 s): on launch day the same category, week and leaderboard pages are asked for hundreds of
// times a second, and each answer is the same for everyone. A hit is the JSON text as it was sent the
// first time (REST sends it as it is, with its ETag); nothing personal is ever kept: only results for
// anonymous callers are stored, and a signed-in caller (who may just have written) always reads afresh.
//
// Freshness: an entry is served for at most `cacheMs` after it was read, so a change shows to everyone
// within that time; several instances each keep their own, with the same bound. Concurrent misses for
// the same key share one read.
//
// Read ahead: the first caller of a kept key past half its time reads it again, while every other caller
// is still served the kept result until the new one lands. A key asked for all the time is so read about
// twice per `cacheMs` and never expires under its callers: no one waits on its read but the one who
// makes it (before, every caller that came during the read after expiry waited for it: p99 of 200–300 ms
// for a category under load on PostgreSQL).
import { RawJson } from './raw-json.ts';
import { cacheCounts } from '../ops/cache-stats.ts';

/**
 * Keys asked for once, remembered for a moment: what a cache keeps only from a key's second ask
 * (this cache's results, the shared pages of web/page-cache.ts).
 */
export class AskedBefore {
  readonly #at = new Map<string, number>();
  /** True when `key` was asked for within `ttlMs` before now (it is then forgotten); else remembers now. */
  again(key: string, ttlMs: number, now: number): boolean {
    const at = this.#at.get(key);
    if (at !== undefined && now - at < ttlMs) {
      this.#at.delete(key);
      return true;
    }
    this.#at.set(key, now);
    return false;
  }
  /**
   * Remembers `key` as asked for at `at` (unless it was asked for later): a key whose kept entry has just
   * run out is as good as asked for once, so the next ask within the time keeps it again at once.
   */
  note(key: string, at: number): void {
    const was = this.#at.get(key);
    if (was === undefined || was < at) this.#at.set(key, at);
  }
  /** Forgets what was asked for `ttlMs` ago or more. */
  sweep(ttlMs: number, now: number): void {
    for (const [k, at] of this.#at) if (now - at >= ttlMs) this.#at.delete(k);
  }
}

interface Entry {
  at: number;
  /** Served until `at + ttl`; dropped by the next sweep after it. */
  ttl: number;
  value: Promise<RawJson>;
  bytes: number;
  /** Another caller waits for this read too: its result is written as text before anyone gets the value. */
  shared: boolean;
  /** A caller is reading this key again (read ahead, past half its time). */
  refreshing?: boolean;
}

/** Past this share of its time, a kept result is read again by the next caller (the others are served it meanwhile). */
const READ_AHEAD_AT = 0.5;

export class ResultCache {
  readonly #entries = new Map<string, Entry>();
  /** Keys asked for once within their time, not kept. */
  readonly #asked = new AskedBefore();
  #sweptAt = 0;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes = 32 * 1024 * 1024) {
    this.#maxBytes = maxBytes;
  }

  /**
   * The cached text for `key` when younger than `ttlMs`, else `read()`'s result. A result is kept (as
   * JSON text) only for a key asked for a second time within `ttlMs`: a key asked for once (a listing
   * page's alternatives, one visitor's search) is read and handed over as it is, never written as text
   * unless its caller wants text (REST), and takes no room. Concurrent callers of one key share one read
   * either way.
   */
  async get(key: string, ttlMs: number, read: () => Promise<unknown>, now = Date.now()): Promise<RawJson> {
    const hit = this.#entries.get(key);
    if (hit && now - hit.at < ttlMs) {
      // Most recently used last: the oldest entries are the first evicted.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      // kept and settled (bytes counted), past half its time, and no one reading it yet: this caller does
      if (hit.bytes > 0 && !hit.refreshing && now - hit.at >= ttlMs * READ_AHEAD_AT) {
        cacheCounts.shared_result.miss++;
        return this.#readAhead(key, hit, ttlMs, read, now);
      }
      cacheCounts.shared_result.hit++;
      hit.shared = true;
      return hit.value;
    }
    cacheCounts.shared_result.miss++;
    if (hit) this.#expire(key, hit);
    const keep = this.#admit(key, ttlMs, now);
    const entry: Entry = {
      at: now,
      ttl: ttlMs,
      bytes: 0,
      shared: false,
      value: read().then((v) => {
        if (!keep) {
          // not kept: whoever joined meanwhile shares it, so it is written as text before the value goes out
          if (this.#entries.get(key) === entry) this.#entries.delete(key);
          return v instanceof RawJson ? v : entry.shared ? asRaw(v, entry.at) : RawJson.of(v);
        }
        const raw = v instanceof RawJson ? v : asRaw(v, entry.at);
        this.#keep(key, entry, raw, entry);
        return raw;
      }),
    };
    this.#entries.set(key, entry);
    entry.value.catch(() => {
      if (this.#entries.get(key) === entry) this.#drop(key, entry); // a failure is not kept
    });
    return entry.value;
  }

  /**
   * Reads a kept key again for one caller; the result replaces the kept one when it lands (if that is still
   * the one kept). A failed read leaves the kept result to its time, and the next caller tries again.
   */
  #readAhead(key: string, old: Entry, ttlMs: number, read: () => Promise<unknown>, now: number): Promise<RawJson> {
    old.refreshing = true;
    const value = read().then(
      (v) => {
        const raw = v instanceof RawJson ? v : asRaw(v, now);
        this.#keep(key, entry, raw, old);
        return raw;
      },
      (err: unknown) => {
        old.refreshing = false;
        throw err;
      },
    );
    const entry: Entry = { at: now, ttl: ttlMs, bytes: 0, shared: true, value };
    return value;
  }

  /**
   * Counts a read result's room on its entry and keeps it in `key`'s place, if `holder` (the entry itself,
   * or the one it is to replace) still holds that place; the least recently used go past the byte bound.
   */
  #keep(key: string, entry: Entry, raw: RawJson, holder: Entry): void {
    entry.bytes = raw.text.length + key.length + 64;
    if (this.#entries.get(key) !== holder) return;
    if (holder !== entry) {
      this.#drop(key, holder);
      this.#entries.set(key, entry);
    }
    this.#bytes += entry.bytes;
    this.#evict();
  }

  /** True when `key` was asked for already within `ttlMs` (it is then kept); else remembers this time. */
  #admit(key: string, ttlMs: number, now: number): boolean {
    if (now - this.#sweptAt >= ttlMs) {
      this.#sweptAt = now;
      this.#asked.sweep(ttlMs, now);
      // An entry past its time is never served again (the next ask reads afresh): it goes now, not when
      // the byte bound pushes it out, so the cache holds about a second of results, not 32 MB of old ones.
      for (const [k, e] of this.#entries) if (now - e.at >= e.ttl) this.#expire(k, e);
    }
    return this.#asked.again(key, ttlMs, now);
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * Drops a result past its time. It was kept because its key was asked for: the key is noted as asked at
   * the time it ran out, so an ask within the time after keeps it again at once (#admit), rather than
   * reading a hot key once to be dropped and again to be kept, twice per time.
   */
  #expire(key: string, e: Entry): void {
    this.#drop(key, e);
    this.#asked.note(key, e.at + e.ttl);
  }

  #drop(key: string, e: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= e.bytes;
  }

  #evict(): void {
    for (const [k, e] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) return;
      this.#drop(k, e);
    }
  }
}

/**
 * The result as JSON text (its ETag hashed when REST first asks), read at `readAt`; the value itself goes
 * to the caller whose read made it.
 */
function asRaw(v: unknown, readAt: number): RawJson {
  const raw = new RawJson(JSON.stringify(v), 'hash', { v });
  raw.readAt = readAt;
  return raw;
}
