// Results of public reads shared by every anonymous caller for a moment (an operation's `cacheMs`,
// at most 1 s): on launch day the same category, week and leaderboard pages are asked for hundreds of
// times a second, and each answer is the same for everyone. A hit is the JSON text as it was sent the
// first time (REST sends it as it is, with its ETag); nothing personal is ever kept: only results for
// anonymous callers are stored, and a signed-in caller (who may just have written) always reads afresh.
//
// Freshness: an entry is served for at most `cacheMs` after it was read, so a change shows to everyone
// within that time; several instances each keep their own, with the same bound. Concurrent misses for
// the same key share one read.
import { RawJson } from './raw-json.ts';
import { cacheCounts } from '../ops/cache-stats.ts';

interface Entry {
  at: number;
  value: Promise<RawJson>;
  bytes: number;
}

export class ResultCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes = 32 * 1024 * 1024) {
    this.#maxBytes = maxBytes;
  }

  /** The cached text for `key` when younger than `ttlMs`, else `read()`'s result, stored as JSON text. */
  async get(key: string, ttlMs: number, read: () => Promise<unknown>, now = Date.now()): Promise<RawJson> {
    const hit = this.#entries.get(key);
    if (hit && now - hit.at < ttlMs) {
      cacheCounts.shared_result.hit++;
      // Most recently used last: the oldest entries are the first evicted.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.value;
    }
    cacheCounts.shared_result.miss++;
    if (hit) this.#drop(key, hit);
    const entry: Entry = {
      at: now,
      bytes: 0,
      value: read().then((v) => {
        const raw = v instanceof RawJson ? v : asRaw(v);
        entry.bytes = raw.text.length + key.length + 64;
        if (this.#entries.get(key) === entry) {
          this.#bytes += entry.bytes;
          this.#evict();
        }
        return raw;
      }),
    };
    this.#entries.set(key, entry);
    entry.value.catch(() => {
      if (this.#entries.get(key) === entry) this.#drop(key, entry); // a failure is not kept
    });
    return entry.value;
  }

  get size(): number {
    return this.#entries.size;
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

/** The result as JSON text (its ETag hashed when REST first asks); the value itself goes to the caller whose read made it. */
function asRaw(v: unknown): RawJson {
  return new RawJson(JSON.stringify(v), 'hash', { v });
}
