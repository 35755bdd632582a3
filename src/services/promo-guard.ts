// Wrong promo codes per user (quote_order, create_checkout): an attempt limiter, and a block that
// also stops right codes while it lasts, so codes cannot be guessed.
import type { Redis } from 'ioredis';
import { AttemptLimiter } from '../auth/rate-limit.ts';

/** Wrong promo codes: this many per user per window; the next wrong one is answered 429. */
export const PROMO_TRIES = 5;
export const PROMO_WINDOW_MS = 15 * 60_000;

/**
 * Wrong promo codes per user: an attempt limiter, plus a block that also stops right codes while it
 * lasts. Both in Redis when the server has REDIS_URL (every instance sees the same count and block),
 * else in this process; a Redis error falls back to this process's own.
 */
export class PromoGuard {
  readonly limiter: AttemptLimiter;
  readonly #redis: Redis | undefined;
  #blockedUntil = new Map<string, number>();
  constructor(redis?: Redis) {
    this.#redis = redis;
    this.limiter = new AttemptLimiter(PROMO_TRIES, PROMO_WINDOW_MS, { redis, name: 'promo' });
  }
  /** Seconds to wait while blocked, else 0. */
  async retryAfter(key: string, now = Date.now()): Promise<number> {
    if (this.#redis) {
      const ms = await this.#redis.pttl(PROMO_BLOCK + key).catch(() => undefined);
      if (ms !== undefined && ms > 0) return Math.max(1, Math.ceil(ms / 1000));
    }
    const until = this.#blockedUntil.get(key);
    if (!until) return 0;
    if (until <= now) {
      this.#blockedUntil.delete(key);
      return 0;
    }
    return Math.max(1, Math.ceil((until - now) / 1000));
  }
  /** Counts a wrong code; returns the seconds to wait when this one went over the limit, else 0. */
  async fail(key: string, now = Date.now()): Promise<number> {
    const wait = await this.limiter.hit(key, now);
    if (wait) {
      this.#blockedUntil.set(key, now + wait * 1000);
      await this.#redis?.set(PROMO_BLOCK + key, '1', 'PX', wait * 1000).catch(() => {});
    }
    return wait;
  }
}
const PROMO_BLOCK = 'launchlist-promo-block:';
