// The Redis client of a server, when REDIS_URL is set: the counters every instance must share live
// there (the API's rate limits, sign-in attempts, wrong promo codes).
import type { Redis } from 'ioredis';
import type { AppDeps } from '../app.ts';

/**
 * The one Redis client of these deps, made on first need when REDIS_URL is set (ioredis is loaded only
 * then): the counters every instance must share live there. Also in services.redis for handlers.
 */
export async function redisOf(deps: AppDeps): Promise<Redis | undefined> {
  if (!deps.redis && deps.config.REDIS_URL) {
    deps.redis = new (await import('ioredis')).Redis(deps.config.REDIS_URL, {
      connectTimeout: 1000,
      maxRetriesPerRequest: 1,
      lazyConnect: false,
    });
    // A Redis that is down shows in each command's error (the limiters fall back to counting here, the
    // API's limit lets requests through, /readyz reports it); the client's own error events say nothing more.
    deps.redis.on('error', () => {});
    deps.services.redis = deps.redis;
  }
  return deps.redis;
}
