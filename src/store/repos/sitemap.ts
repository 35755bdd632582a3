// What the sitemap lists: the slugs of every public page kind, one narrow query per kind (slugs only),
// within the sitemap protocol's 50,000 URLs.
import type { Kysely } from 'kysely';
import type { DB } from '../types.ts';
import { behindLive } from './founders.ts';
import { publishedPosts } from './content.ts';

/** The sitemap protocol's limit of URLs in one sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;

export interface SitemapSlugs {
  categories: string[];
  weeks: string[];
  posts: string[];
  listings: string[];
  founders: string[];
}

/**
 * Slugs of the public pages, at most `max` in all: categories, launch weeks with live launches
 * (their Mondays, newest first), published blog posts, live listings, then founders of live listings.
 * The smaller kinds come first, so a cap falls on the listings and founders (oldest kept, by id).
 */
export async function sitemapSlugs(db: Kysely<DB>, now: Date, max: number): Promise<SitemapSlugs> {
  let left = max;
  const take = async (read: (limit: number) => Promise<string[]>): Promise<string[]> => {
    if (left <= 0) return [];
    const out = await read(left);
    left -= out.length;
    return out;
  };
  const categories = await take(async (n) =>
    (await db.selectFrom('categories').select('slug').orderBy('id').limit(n).execute()).map((r) => r.slug),
  );
  const weeks = await take(async (n) =>
    (
      await db
        .selectFrom('listings')
        .select('launch_week')
        .distinct()
        .where('status', '=', 'live')
        .where('launch_week', 'is not', null)
        .orderBy('launch_week', 'desc')
        .limit(n)
        .execute()
    ).map((r) => r.launch_week as string),
  );
  const posts = await take(async (n) =>
    (await publishedPosts(db, now).select('b.slug').orderBy('b.id').limit(n).execute()).map((r) => r.slug),
  );
  const listings = await take(async (n) =>
    (await db.selectFrom('listings').select('slug').where('status', '=', 'live').orderBy('id').limit(n).execute()).map(
      (r) => r.slug,
    ),
  );
  const founders = await take(async (n) =>
    (await behindLive(db).select('f.slug').orderBy('f.id').limit(n).execute()).map((r) => r.slug),
  );
  return { categories, weeks, posts, listings, founders };
}
