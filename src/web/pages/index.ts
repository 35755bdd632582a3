// The public website: server-rendered pages for browsing and voting. Data comes from the same
// operations the API serves (read as an anonymous caller); votes and follows are cast here only.
//
//   registerSitePages(app, deps)   pages, the vote/follow form posts, /assets/*, /robots.txt and /sitemap.xml
//   wantsHtml(req), sendNotFoundPage(deps, req, reply)   the HTML 404 (used by app.ts)
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { ASSETS } from './shared.ts';
import { siteErrorHandler } from './errors.ts';
import { registerBrowsePages } from './browse.ts';
import { registerListingPages } from './listing.ts';
import { registerContentPages } from './content.ts';
import { registerCrawlerRoutes } from './crawlers.ts';
import { registerTrophyPages } from './trophies.ts';
import { PageCache, sharedPage } from '../page-cache.ts';
import { slotRenderers } from './slots.ts';
import type { Shared } from './shared.ts';

export { wantsHtml, sendNotFoundPage, siteErrorHandler } from './errors.ts';

export async function registerSitePages(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get('/assets/:file', { config: { rateLimit: false } }, async (req, reply) => {
    const a = ASSETS[(req.params as { file: string }).file];
    if (!a) return reply.callNotFound();
    const versioned = (req.query as Record<string, unknown>)?.v === a.version;
    reply.header('Cache-Control', versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    reply.header('X-Content-Type-Options', 'nosniff');
    return reply.type(a.type).send(a.body);
  });
  // Browsers ask for /favicon.ico on every page, including those outside the site's layout.
  app.get('/favicon.ico', { config: { rateLimit: false } }, async (_req, reply) =>
    reply
      .header('Cache-Control', 'public, max-age=86400')
      .type(ASSETS['favicon.svg'].type)
      .send(ASSETS['favicon.svg'].body),
  );
  registerCrawlerRoutes(app, deps);
  // Public pages are shared by their visitors for a moment, with the personal parts filled per request.
  const cache = new PageCache(slotRenderers);
  const shared: Shared = (handler, opts) => sharedPage(deps, cache, handler, opts);
  // The pages live in their own scope so that their errors render as HTML pages, not API JSON.
  await app.register(async (site) => {
    site.setErrorHandler((err: FastifyError, req, reply) => siteErrorHandler(deps, err, req, reply));
    registerBrowsePages(site, deps, shared);
    registerListingPages(site, deps, shared);
    registerContentPages(site, deps, shared);
    registerTrophyPages(site, deps, shared);
  });
}
