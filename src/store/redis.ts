// The Redis client of a server, when REDIS_URL is set: the counters every instance must share live
// there (the API's rate limits, sign-in attempts, wrong promo codes). ioredis is loaded only then.
import type { Redis } from 'ioredis';

/**
 * The shared Redis client. `keyPrefix` (REDIS_KEY_PREFIX) goes before every key this service writes,
 * scripts' keys included, so several deployments (or test runs) can share one Redis without counting
 * each other's attempts.
 */
export async function connectRedis(url: string, keyPrefix = ''): Promise<Redis> {
  return new (await import('ioredis')).Redis(url, {
    connectTimeout: 1000,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    keyPrefix,
  });
}

// KEYS[1] the client's counter; ARGV[1] the window in ms. Returns {count, ms until reset}.
const REDIS_HIT = `local c = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

type RedisWithHit = Redis & { launchlistRateHit?: (key: string, windowMs: string) => Promise<[number, number]> };

/** Counts one hit on a fixed-window counter in Redis (one atomic script, EVALSHA after the first call): [count, ms until the window resets]. */
export async function redisHit(redis: Redis, key: string, windowMs: number): Promise<[number, number]> {
  const r = redis as RedisWithHit;
  if (!r.launchlistRateHit) r.defineCommand('launchlistRateHit', { numberOfKeys: 1, lua: REDIS_HIT });
  const [count, ttl] = await r.launchlistRateHit!(key, String(windowMs));
  return [Number(count), Number(ttl)];
}
