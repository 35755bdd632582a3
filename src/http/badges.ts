// Badge images: GET /badges/{slug}/{badge}.svg?shape=&mode=&size= → image/svg+xml.
// Errors are the API's JSON error body: 404 for an unknown listing or a badge it may not show,
// 400 for a bad shape, mode or size.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../operations/errors.ts';
import { BadgeQuery, availableBadges, badgeListing } from '../operations/badges.ts';
import { isBadgeKind, renderBadgeSvg } from '../domain/badges.ts';
import { parseOrThrow } from '../operations/validation.ts';
import { isSlug } from '../domain/vocabulary.ts';

const FILE = /^([a-z0-9_]{1,40})\.svg$/;

export async function registerBadgeRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get('/badges/:slug/:file', async (req, reply) => {
    const { slug, file } = req.params as { slug: string; file: string };
    const style = parseOrThrow(BadgeQuery, req.query ?? {}, 'query');
    const m = FILE.exec(file);
    if (!isSlug(slug) || !m)
      throw new ApiError(
        'not_found',
        `No badge image ${JSON.stringify(`/badges/${slug}/${file}`)}: use /badges/{slug}/{badge}.svg with a badge key from get_badges.`,
      );
    const kind = m[1];
    const listing = await badgeListing(deps.store.db, slug);
    if (!listing) throw new ApiError('not_found', `No listing ${JSON.stringify(slug)} exists or it is not visible.`);
    if (!isBadgeKind(kind) || !(await availableBadges(deps.store.db, listing)).some((b) => b.kind === kind)) {
      throw new ApiError(
        'not_found',
        `Listing ${JSON.stringify(slug)} has no badge ${JSON.stringify(kind)}; get_badges lists the badges it may show.`,
      );
    }
    const svg = renderBadgeSvg({ kind, ...style, listingName: listing.summary.name });
    const etag = `W/"${createHash('sha1').update(svg).digest('base64url')}"`;
    reply
      .header('Cache-Control', 'public, max-age=3600')
      .header('ETag', etag)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.code(200).type('image/svg+xml; charset=utf-8').send(svg);
  });
}
