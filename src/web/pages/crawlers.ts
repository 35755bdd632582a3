// For search engines: /robots.txt (every public page may be crawled; personal, admin and one-time
// pages may not) and /sitemap.xml (the public pages that exist, as absolute URLs under PUBLIC_URL).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { SITEMAP_MAX_URLS, sitemapSlugs } from '../../store/repos/sitemap.ts';
import { escapeHtml } from '../layout.ts';

/** Paths crawlers are asked to keep out of: a person's own pages (account, the maker's drafts, listings and claims), admin, payment, sign-in flows and one-time links. */
export const ROBOTS_DISALLOW = [
  '/account',
  '/submit',
  '/drafts',
  '/my/',
  '/claims',
  '/listings/*/claim',
  '/programmes/*/enter',
  '/admin',
  '/checkout',
  '/oauth',
  '/invites',
] as const;

/** Site pages that always exist. */
const FIXED_PAGES = [
  '/',
  '/launches',
  '/categories',
  '/leaderboards/community-weekly',
  '/awards',
  '/hall-of-fame',
  '/trophies',
  '/programmes',
  '/updates',
  '/founders',
  '/blog',
] as const;

function robots(deps: AppDeps): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...ROBOTS_DISALLOW.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${deps.config.publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

async function sitemap(deps: AppDeps): Promise<string> {
  const s = await sitemapSlugs(deps.store.db, new Date(), SITEMAP_MAX_URLS - FIXED_PAGES.length);
  const paths = [
    ...FIXED_PAGES,
    ...s.categories.map((x) => `/categories/${x}`),
    ...s.weeks.map((x) => `/launches/weeks/${x}`),
    ...s.posts.map((x) => `/blog/${x}`),
    ...s.listings.map((x) => `/listings/${x}`),
    ...s.founders.map((x) => `/founders/${x}`),
  ];
  const base = deps.config.publicUrl;
  // XML escaping: the same five characters as HTML's (numeric references are XML too).
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths.map((p) => `<url><loc>${escapeHtml(base + p)}</loc></url>`).join('\n')}\n</urlset>\n`;
}

/** Crawlers read these often: an hour in caches keeps them cheap. */
const send = (reply: FastifyReply, type: string, body: string) =>
  reply.header('Cache-Control', 'public, max-age=3600').type(type).send(body);

export function registerCrawlerRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/robots.txt', async (_req, reply) => send(reply, 'text/plain; charset=utf-8', robots(deps)));
  app.get('/sitemap.xml', async (_req, reply) => send(reply, 'application/xml; charset=utf-8', await sitemap(deps)));
}
