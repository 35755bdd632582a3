// Builds one server: the services (typed, once), the kernel's and adapters' dependencies, the app with
// every route group, and the job workers. Used by serve.ts and by the tests.
import type { FastifyInstance } from 'fastify';
import { buildApp, type RouteGroup } from './app.ts';
import { createAuth } from './auth/index.ts';
import { registerOAuthRoutes } from './auth/oauth/routes.ts';
import type { Config } from './config.ts';
import type { AppDeps } from './deps.ts';
import { registerBadgeRoutes } from './http/badges.ts';
import { registerAwardKeyRoutes } from './http/award-keys.ts';
import { attachWorkers } from './jobs/index.ts';
import { registerMcp } from './mcp/server.ts';
import type { Services } from './operations/context.ts';
import type { Operation } from './operations/define.ts';
import { createIdempotencyRunner } from './operations/idempotency.ts';
import { operations } from './operations/index.ts';
import { ResultCache } from './operations/result-cache.ts';
import { paymentProvider } from './payments/index.ts';
import { ProfileReader } from './store/profile-reader.ts';
import { PromoGuard } from './services/promo-guard.ts';
import { ViewCounter } from './store/view-counter.ts';
import { ViesClient } from './services/vat-check.ts';
import type { Store } from './store/connect.ts';
import { connectRedis } from './store/redis.ts';
import { searchIndex } from './store/search/index.ts';
import { SearchPool } from './store/search/pool.ts';
import { CheckpointThread } from './store/checkpoints.ts';
import { sqliteAdapterOf } from './store/sqlite.ts';
import { registerAdminEditPages } from './web/admin/edits.ts';
import { registerAdminHome } from './web/admin/home.ts';
import { registerAdminOrdersPage } from './web/admin/orders.ts';
import { registerAdminPricesPage } from './web/admin/prices.ts';
import { registerAdminProgrammePages } from './web/admin/programmes.ts';
import { registerAdminVotesPage } from './web/admin/votes.ts';
import { registerCheckoutPages } from './web/checkout.ts';
import { registerClaimPages } from './web/claims.ts';
import { registerWebAuth } from './web/index.ts';
import { registerInvitePages } from './web/invites.ts';
import { registerMakerPages } from './web/maker/index.ts';
import { registerSitePages } from './web/pages/index.ts';

export interface Server {
  app: FastifyInstance;
  deps: AppDeps;
  close(): Promise<void>;
}

/** The route groups after the API, in order. */
const ROUTES: readonly RouteGroup[] = [
  registerOAuthRoutes, // OAuth 2.1 endpoints and metadata
  registerWebAuth, // sign-up, sign-in, account pages, OAuth consent
  registerBadgeRoutes, // badge SVG images at /badges/{slug}/{badge}.svg
  registerAwardKeyRoutes, // the award keys (JWKS) at /.well-known/award-keys.json
  registerMcp, // MCP server at /mcp
  registerInvitePages, // co-founder invite links from invite_cofounder mails
  registerSitePages, // the public website: browse and vote
  registerCheckoutPages, // the checkout page where the person pays an order
  registerAdminPricesPage, // /admin/prices
  registerAdminEditPages, // /admin/edits: listing edits to review
  registerAdminOrdersPage, // /admin/orders: paid lines to deliver
  registerAdminProgrammePages, // /admin/programmes: programmes, jury places, award signing keys
  registerAdminVotesPage, // /admin/votes: vote patterns to review
  registerAdminHome, // /admin
  registerClaimPages, // email claim links
  registerMakerPages, // the maker's pages: /submit, /drafts, /my/listings, /claims (signed in)
];

export async function createServer(
  config: Config,
  store: Store,
  options: { operations?: readonly Operation[] } = {},
): Promise<Server> {
  const redis = config.REDIS_URL ? await connectRedis(config.REDIS_URL, config.REDIS_KEY_PREFIX) : undefined;
  const { auth, verifyAccessToken } = await createAuth(config, store.db, redis);
  const views = new ViewCounter(store.db, store.engine, {
    onError: (err) => app.log.error({ err }, 'could not write listing views (kept for the next try)'),
  });
  const profiles = new ProfileReader(store, {
    textCacheBytes: config.PROFILE_CACHE_MB * 1024 * 1024,
    freshMs: config.PROFILE_FRESH_MS,
    viewsEpoch: () => views.epoch,
  });
  const searchPool =
    store.engine === 'sqlite' && store.sqliteFile && config.SEARCH_THREADS > 0
      ? new SearchPool(store.sqliteFile, config.SEARCH_THREADS) // search_listings off the event loop
      : undefined;
  // SQLite: the write-ahead log is copied into the database file by a thread, not by the commits here
  const writer = store.sqliteFile && store.sqliteFile !== ':memory:' ? sqliteAdapterOf(store.db)?.raw : undefined;
  const checkpoints = writer && store.sqliteFile ? new CheckpointThread(store.sqliteFile, writer) : undefined;
  const services: Services = {
    secrets: auth.secrets,
    profiles,
    views,
    promoGuard: new PromoGuard(redis),
    payments: paymentProvider(config),
    searchPool,
    results: new ResultCache(),
    vies: new ViesClient({ url: config.VIES_URL, timeoutMs: config.VIES_TIMEOUT_MS, redis }),
    redis,
    drafting: {},
    claims: {},
    badgeChecks: {},
  };
  const deps: AppDeps = {
    config,
    store,
    services,
    idempotency: createIdempotencyRunner(store.db),
    auth,
    verifyAccessToken,
    redis,
    operations: options.operations ?? operations,
  };
  const app = await buildApp(deps, ROUTES);
  views.start();
  app.addHook('onClose', async () => {
    try {
      await views.stop(); // the views still in memory are written
    } catch (err) {
      app.log.error({ err }, 'could not write the last listing views');
    }
    await profiles.close();
    await searchPool?.close();
    await checkpoints?.close();
    redis?.disconnect();
  });
  if (config.WORKERS) services.workers = attachWorkers(app, deps); // tests drive the jobs with drainJobs
  return { app, deps, close: () => app.close() };
}

/** Loads the in-memory search index now (in the search threads, or here on PostgreSQL) rather than on the first search. */
export function warmSearchIndex(server: Server): void {
  const { deps, app } = server;
  const pool = deps.services.searchPool;
  if (pool) pool.warm();
  else
    searchIndex(deps.store.db, deps.store.engine, { file: deps.store.sqliteFile, pgUrl: deps.store.pgUrl }).catch(
      (err: unknown) => app.log.error({ err }, 'loading the search index failed (the first search tries again)'),
    );
}
