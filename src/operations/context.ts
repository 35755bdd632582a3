// What every handler receives: storage, configuration, the caller, and the services it may use.
//
// The services are typed here and built once per server (server.ts). Every type named below comes
// from a module that does not import this one, so the kernel's types sit under the services that use
// them and no import cycle runs through them.
import type { Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { DB } from '../store/types.ts';
import type { Engine } from '../store/connect.ts';
import type { SearchPool } from '../store/search/pool.ts';
import type { ServerSecrets } from '../auth/secrets.ts';
import type { PaymentProvider } from '../payments/types.ts';
import type { ProfileReader } from '../store/profile-reader.ts';
import type { ViewCounter } from '../store/view-counter.ts';
import type { PromoGuard } from '../services/promo-guard.ts';
import type { BadgeCheckOptions, ClaimOptions, DraftingOptions } from '../services/options.ts';
import type { ViesClient } from '../services/vat-check.ts';
import type { Principal, SignedInPrincipal } from './principal.ts';
import type { ResultCache } from './result-cache.ts';

/** Starts queued jobs now instead of at the next poll (the job workers, when this process runs them). */
export interface Waker {
  wake(): void;
}

/** What the job workers report to /metrics (ops/metrics.ts), when metrics are on. */
export interface JobMetrics {
  jobRan(kind: string, outcome: string, seconds: number, payload: unknown): void;
}

/** The long-lived services of one server, shared by every request. */
export interface Services {
  /** The server's secrets (checkout links are signed with one). */
  secrets: ServerSecrets;
  /** get_listing's materialised profiles. */
  profiles: ProfileReader;
  /** The listing view counter (memory buffer, flushed every 30 s). */
  views: ViewCounter;
  /** Wrong promo-code limits. */
  promoGuard: PromoGuard;
  /** The payment provider: Stripe when STRIPE_SECRET_KEY is set, else the built-in test provider. */
  payments: PaymentProvider;
  /** SQLite with SEARCH_THREADS > 0: search_listings in worker threads. */
  searchPool?: SearchPool;
  /** The job workers of this process, when it runs them. */
  workers?: Waker;
  /** Public read results shared by anonymous callers for a moment (operations with cacheMs). */
  results?: ResultCache;
  /** Asks VIES whether a VAT number is registered (services/vat-check.ts). */
  vies: ViesClient;
  /** Job runs counted for /metrics, when metrics are on. */
  jobMetrics?: JobMetrics;
  /** The Redis client, when REDIS_URL is set. */
  redis?: Redis;
  /** Tunables and test hooks. */
  drafting: DraftingOptions;
  claims: ClaimOptions;
  badgeChecks: BadgeCheckOptions;
}

export interface Ctx {
  db: Kysely<DB>;
  engine: Engine;
  config: Config;
  principal: Principal;
  requestId: string;
  services: Services;
  now(): Date;
  /**
   * The caller has just changed something (the website's `ll_fresh`): reads skip what this process holds
   * without asking the database, so the change shows even when it was made through another instance.
   */
  fresh?: boolean;
  /**
   * How long this read's result is shared with other anonymous callers (the operation's `cacheMs`,
   * bounded by SHARED_CACHE_MS; absent when it is not shared): what the handler reads for it may be
   * shared as long.
   */
  sharedMs?: number;
}

export function userOf(ctx: Ctx): SignedInPrincipal {
  if (ctx.principal.kind !== 'user')
    throw new Error('userOf() on an anonymous context: access must be enforced by the kernel');
  return ctx.principal;
}
