// Fixed-window attempt counters: sign-in attempts (per IP + email, per IP, per email) and wrong promo
// codes (services/promo-guard.ts). In memory by default; in Redis when the server has REDIS_URL, so every
// instance counts into the same window (the API's own limits share that client, http/rate-limit.ts).
// A Redis error falls back to this process's own counter for that attempt: a limiter that is down
// must neither lock people out nor stop counting.
import type { Redis } from 'ioredis';
import { redisHit } from '../store/redis.ts';

interface Hit {
  count: number;
  resetAt: number;
}

/** DECR only a count that exists and is above zero (a key made by DECR would have no expiry). */
const FORGIVE =
  "local n = tonumber(redis.call('GET', KEYS[1]) or '0') if n > 0 then return redis.call('DECR', KEYS[1]) end return 0";

export class AttemptLimiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly #redis: Redis | undefined;
  readonly #prefix: string;
  #hits = new Map<string, Hit>();
  /** `name` keeps each limiter's Redis keys apart (launchlist-al:<name>:<key>). */
  constructor(limit: number, windowMs: number, opts: { redis?: Redis; name?: string } = {}) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.#redis = opts.redis;
    this.#prefix = `launchlist-al:${opts.name ?? 'attempts'}:`;
  }

  /** Counts one attempt; returns the seconds to wait when over the limit, else 0. `now` is the in-memory clock (Redis keeps its own). */
  async hit(key: string, now = Date.now()): Promise<number> {
    if (this.#redis) {
      try {
        const [count, ttl] = await redisHit(this.#redis, this.#prefix + key, this.windowMs);
        return this.#wait(count, ttl);
      } catch {
        // counted here instead (below)
      }
    }
    return this.hitHere(key, now);
  }

  /** Forgets the attempts of `key` (a successful sign-in). */
  async reset(key: string): Promise<void> {
    this.#hits.delete(key);
    if (this.#redis) await this.#redis.del(this.#prefix + key).catch(() => {});
  }

  /**
   * Takes one attempt of `key` back (a sign-in that succeeded, for a per-network count: many people
   * signing in rightly from one office address must not pause it). Never below zero; the window stays.
   */
  async forgive(key: string): Promise<void> {
    const e = this.#hits.get(key);
    if (e && e.count > 0) e.count--;
    if (this.#redis) await this.#redis.eval(FORGIVE, 1, this.#prefix + key).catch(() => {});
  }

  /** This process's own counter. */
  hitHere(key: string, now = Date.now()): number {
    if (this.#hits.size > 50_000) for (const [k, v] of this.#hits) if (v.resetAt <= now) this.#hits.delete(k);
    let e = this.#hits.get(key);
    if (!e || e.resetAt <= now) {
      e = { count: 0, resetAt: now + this.windowMs };
      this.#hits.set(key, e);
    }
    e.count++;
    return this.#wait(e.count, e.resetAt - now);
  }

  #wait(count: number, msLeft: number): number {
    return count > this.limit ? Math.max(1, Math.ceil(msLeft / 1000)) : 0;
  }
}
