// Wires the services and route groups into one app. Used by main.ts and by the tests.
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Store } from './store/connect.ts';
import { buildApp, type AppDeps } from './app.ts';
import { installAuth } from './auth/index.ts';
import { registerBadgeRoutes } from './http/badges.ts';
import { attachWorkers } from './jobs/index.ts';
import { registerMcp } from './mcp/server.ts';
import { installViews } from './services/views.ts';
import { installProfiles } from './services/profiles.ts';
import { SearchPool } from './store/search/pool.ts';
import { searchIndex } from './store/search/index.ts';
import { registerSitePages } from './web/pages/index.ts';
import { registerInvitePages } from './web/invites.ts';
import { registerCheckoutPages } from './web/checkout.ts';
import { registerAdminPricesPage } from './web/admin/prices.ts';
import { registerAdminEditPages } from './web/admin/edits.ts';
import { registerAdminOrdersPage } from './web/admin/orders.ts';
import { registerAdminHome } from './web/admin/home.ts';
import { registerClaimPages } from './web/claims.ts';
import { registerMakerPages } from './web/maker/index.ts';

export interface Server {
  app: FastifyInstance;
  deps: AppDeps;
  close(): Promise<void>;
}

export async function createServer(
  config: Config,
  store: Store,
  options: Pick<AppDeps, 'operations'> = {},
): Promise<Server> {
  const deps: AppDeps = { config, store, services: {}, plugins: [], ...options };
  await installAuth(deps); // sessions, API keys, OAuth 2.1 server, idempotency, account pages (issue #3)
  deps.plugins!.push(registerBadgeRoutes); // badge SVG images at /badges/{slug}/{badge}.svg (issue #2)
  deps.plugins!.push(registerMcp); // MCP server at /mcp (issue #4)
  deps.plugins!.push(registerInvitePages); // co-founder invite links from invite_cofounder mails (issue #5)
  deps.plugins!.push(registerSitePages); // public website: browse and vote (issue #6)
  deps.plugins!.push(registerCheckoutPages); // checkout page where the person pays an order, payment providers (orders)
  deps.plugins!.push(registerAdminPricesPage); // admin page where prices are set (orders)
  deps.plugins!.push(registerAdminEditPages); // admin review of listing edits at /admin/edits (my listings)
  deps.plugins!.push(registerAdminOrdersPage); // the team's queue of paid lines to deliver at /admin/orders
  deps.plugins!.push(registerAdminHome); // /admin: what waits for the team, linked from the header for admins
  deps.plugins!.push(registerClaimPages); // email claim links: confirm page (claims)
  deps.plugins!.push(registerMakerPages); // the maker's pages: /submit, /drafts, /my/listings, /claims (signed in)
  if (store.engine === 'sqlite' && store.sqliteFile && config.SEARCH_THREADS > 0) {
    const pool = new SearchPool(store.sqliteFile, config.SEARCH_THREADS); // search_listings off the event loop
    deps.services.searchPool = pool;
    deps.plugins!.push((app) => {
      app.addHook('onClose', async () => {
        await pool.close();
      });
    });
  }
  installProfiles(deps); // get_listing's materialised profiles: read connection / batched reads, write-backs
  installViews(deps); // listing view counter: memory buffer flushed every 30 s and on close (issue #2)
  const app = await buildApp(deps);
  if (config.WORKERS) attachWorkers(app, deps); // durable job workers (issue #5); tests drive them with drainJobs
  return { app, deps, close: () => app.close() };
}

/** Loads the in-memory search index now (in the search threads, or here on PostgreSQL) rather than on the first search. */
export function warmSearchIndex(server: Server): void {
  const { deps, app } = server;
  const pool = deps.services.searchPool as SearchPool | undefined;
  if (pool) pool.warm();
  else
    searchIndex(deps.store.db, deps.store.engine, { file: deps.store.sqliteFile }).catch((err: unknown) =>
      app.log.error({ err }, 'loading the search index failed (the first search tries again)'),
    );
}
