// Rate limits for every route (a route opts out with `config: { rateLimit: false }`): a fixed window of
// RATE_LIMIT_WINDOW_MS per client, the principal when signed in, else the IP. Over the limit: 429 with
// the error body and Retry-After; every limited response carries RateLimit-Limit / -Remaining / -Reset
// (seconds), as the IETF RateLimit header draft names them.
//
// Three separate budgets, each with its own counter per client: the API (REST, MCP, OAuth), the
// website's pages and forms, and badge images. A badge embedded on a maker's busy homepage, or a visitor
// browsing many pages, never uses up the same client's API budget, and the other way round.
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

/** Which budget a route counts against. */
export type Budget = 'api' | 'page' | 'badge';

/** The budget of a route, by its path: /api, /mcp, /oauth and /.well-known are the API; /badges are images. */
export function budgetOf(url: string): Budget {
  if (/^\/(?:api|mcp|oauth|\.well-known)(?:\/|$)/.test(url)) return 'api';
  if (/^\/badges(?:\/|$)/.test(url)) return 'badge';
  return 'page';
}

export interface RateLimitOptions {
  /** Requests per window per client, for each budget. */
  max: Record<Budget, number>;
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
  const { windowMs, keyOf } = opts;
  const hooks = {} as Record<Budget, onRequestHookHandler>;
  const stores: MemoryStore[] = [];
  for (const budget of ['api', 'page', 'badge'] as const)
    hooks[budget] = limiter(opts, budget, opts.max[budget], windowMs, keyOf, stores);
  if (stores.length)
    app.addHook('onClose', (_app, done) => {
      for (const s of stores) s.close();
      done();
    });

  // A route-level hook, appended after the route's own: a route that resolves its caller itself (/mcp)
  // is then limited per account too. Routes registered with `config: { rateLimit: false }` get none.
  app.addHook('onRoute', (route) => {
    if ((route.config as { rateLimit?: boolean } | undefined)?.rateLimit === false) return;
    const hook = hooks[budgetOf(route.url)];
    const own = route.onRequest;
    route.onRequest = own === undefined ? [hook] : [...(Array.isArray(own) ? own : [own]), hook];
  });
}

function limiter(
  opts: RateLimitOptions,
  budget: Budget,
  max: number,
  windowMs: number,
  keyOf: (req: FastifyRequest) => string,
  stores: MemoryStore[],
): onRequestHookHandler {
  const what = budget === 'api' ? 'API requests' : budget === 'page' ? 'page views' : 'badge images';
  const message = `Too many ${what}: the limit is ${max} per ${formatWindow(windowMs)}. Retry after the time in the Retry-After header.`;
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

  if (!opts.redis) {
    const store = new MemoryStore(windowMs);
    stores.push(store);
    return (req, reply, done) => {
      const now = Date.now();
      const e = store.hit(keyOf(req), now);
      done(apply(reply, e.count, e.resetAt - now));
    };
  }

  const redis = opts.redis;
  const prefix = `${opts.prefix ?? 'launchlist-rl:'}${budget}:`;
  return (req, reply, done) => {
    redisHit(redis, prefix + keyOf(req), windowMs).then(
      ([count, ttl]) => done(apply(reply, count, ttl)),
      (err: unknown) => {
        req.log.warn({ err }, 'rate limit store unavailable; request let through');
        done();
      },
    );
  };
}

function formatWindow(ms: number): string {
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'hour' : `${ms / 3_600_000} hours`;
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} minutes`;
  if (ms % 1000 === 0) return ms === 1000 ? 'second' : `${ms / 1000} seconds`;
  return `${ms} ms`;
}
