// Rate limits for every route (a route opts out with `config: { rateLimit: false }`): a fixed window of
// RATE_LIMIT_WINDOW_MS per client, the principal when signed in, else the IP. Over the limit: 429 with
// the error body and Retry-After; every limited response carries RateLimit-Limit / -Remaining / -Reset
// (seconds), as the IETF RateLimit header draft names them.
//
// Counters live in memory, or in Redis when REDIS_URL is set (one atomic INCR + PEXPIRE script per
// request, so every instance shares them). A Redis error lets the request through (logged): a rate
// limiter must not take the API down with it.
//
// This replaced @fastify/rate-limit: on get_listing it cost ~15% of the throughput (an async hook,
// closures and header bookkeeping per request); this one is a synchronous Map lookup on the default store.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiError } from '../operations/errors.ts';
import { redisHit } from '../store/redis.ts';

export interface RateLimitOptions {
  max: number;
  windowMs: number;
  /** The client's key: `u:<user id>` when signed in, else `ip:<address>`. */
  keyOf: (req: FastifyRequest) => string;
  redis?: Redis;
  prefix?: string;
}

interface Hit {
  count: number;
  resetAt: number;
}

/** The in-memory store: one entry per client per window, swept once a window. */
class MemoryStore {
  readonly #windowMs: number;
  #entries = new Map<string, Hit>();
  #timer: NodeJS.Timeout;
  constructor(windowMs: number) {
    this.#windowMs = windowMs;
    this.#timer = setInterval(() => this.#sweep(Date.now()), Math.max(1000, windowMs));
    this.#timer.unref();
  }
  hit(key: string, now: number): Hit {
    let e = this.#entries.get(key);
    if (!e || e.resetAt <= now) {
      e = { count: 0, resetAt: now + this.#windowMs };
      this.#entries.set(key, e);
    }
    e.count++;
    return e;
  }
  close(): void {
    clearInterval(this.#timer);
  }
  #sweep(now: number): void {
    for (const [k, e] of this.#entries) if (e.resetAt <= now) this.#entries.delete(k);
  }
}

export function registerRateLimit(app: FastifyInstance, opts: RateLimitOptions): void {
  const { max, windowMs, keyOf } = opts;
  const message = `Too many requests: the limit is ${max} per ${formatWindow(windowMs)}. Retry after the time in the Retry-After header.`;
  const limitHeader = String(max);

  const apply = (reply: FastifyReply, count: number, resetMs: number): ApiError | undefined => {
    const resetS = Math.max(0, Math.ceil(resetMs / 1000));
    reply.header('ratelimit-limit', limitHeader);
    reply.header('ratelimit-remaining', String(Math.max(0, max - count)));
    reply.header('ratelimit-reset', String(resetS));
    if (count <= max) return undefined;
    reply.header('retry-after', String(Math.max(1, resetS)));
    return new ApiError('rate_limited', message);
  };

  // A route-level hook, appended after the route's own: a route that resolves its caller itself (/mcp)
  // is then limited per account too. Routes registered with `config: { rateLimit: false }` get none.
  const attach = (hook: onRequestHookHandler) => {
    app.addHook('onRoute', (route) => {
      if ((route.config as { rateLimit?: boolean } | undefined)?.rateLimit === false) return;
      const own = route.onRequest;
      route.onRequest = own === undefined ? [hook] : [...(Array.isArray(own) ? own : [own]), hook];
    });
  };

  if (!opts.redis) {
    const store = new MemoryStore(windowMs);
    app.addHook('onClose', (_app, done) => {
      store.close();
      done();
    });
    attach((req, reply, done) => {
      const now = Date.now();
      const e = store.hit(keyOf(req), now);
      done(apply(reply, e.count, e.resetAt - now));
    });
    return;
  }

  const redis = opts.redis;
  const prefix = opts.prefix ?? 'launchlist-rl:';
  attach((req, reply, done) => {
    redisHit(redis, prefix + keyOf(req), windowMs).then(
      ([count, ttl]) => done(apply(reply, count, ttl)),
      (err: unknown) => {
        req.log.warn({ err }, 'rate limit store unavailable; request let through');
        done();
      },
    );
  });
}

function formatWindow(ms: number): string {
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'hour' : `${ms / 3_600_000} hours`;
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} minutes`;
  if (ms % 1000 === 0) return ms === 1000 ? 'second' : `${ms / 1000} seconds`;
  return `${ms} ms`;
}
