// Site content: blog posts, interview questions, products (prices from the database) and site counts.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../types.ts';
import { fromJson } from '../json.ts';
import { icontains, num } from './sql-helpers.ts';
import { byMembership } from '../membership.ts';

// ---------------------------------------------------------------- blog

export type BlogListItem = {
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  tags: string[];
  published_at: string;
  reading_minutes: number;
};

export function readingMinutes(markdown: string): number {
  const words = markdown.split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.round(words / 220));
}

/** `blog_posts as b` narrowed to the published posts: published_at set and not in the future. */
export function publishedPosts(db: Kysely<DB>, now: Date) {
  return db
    .selectFrom('blog_posts as b')
    .where('b.published_at', 'is not', null)
    .where('b.published_at', '<=', now.toISOString());
}

/** Published posts, newest first; `q` matches title, excerpt or body. */
export async function listPublishedPosts(
  db: Kysely<DB>,
  now: Date,
  q: string | undefined,
  limit: number,
  offset: number,
): Promise<{ items: BlogListItem[]; total: number }> {
  let base = publishedPosts(db, now);
  const term = q?.trim();
  if (term)
    base = base.where((eb) =>
      eb.or([
        icontains(sql.ref('b.title'), term),
        icontains(sql.ref('b.excerpt'), term),
        icontains(sql.ref('b.body_md'), term),
      ]),
    );
  const rows = await base
    .select(['b.slug', 'b.title', 'b.excerpt', 'b.author', 'b.tags', 'b.published_at', 'b.body_md'])
    .orderBy('b.published_at', 'desc')
    .orderBy('b.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const total = num((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    items: rows.map((r) => ({
      slug: r.slug,
      title: r.title,
      excerpt: r.excerpt,
      author: r.author,
      tags: fromJson<string[]>(r.tags, []),
      published_at: r.published_at as string,
      reading_minutes: readingMinutes(r.body_md),
    })),
    total,
  };
}

export type BlogPost = BlogListItem & { body_markdown: string; faqs: Array<{ question: string; answer: string }> };

export async function publishedPostBySlug(db: Kysely<DB>, slug: string, now: Date): Promise<BlogPost | undefined> {
  const r = await publishedPosts(db, now).selectAll('b').where('b.slug', '=', slug).executeTakeFirst();
  if (!r) return undefined;
  return {
    slug: r.slug,
    title: r.title,
    excerpt: r.excerpt,
    author: r.author,
    tags: fromJson<string[]>(r.tags, []),
    published_at: r.published_at as string,
    reading_minutes: readingMinutes(r.body_md),
    body_markdown: r.body_md,
    faqs: fromJson(r.faqs, []),
  };
}

// ---------------------------------------------------------------- interview questions

export async function activeInterviewQuestions(
  db: Kysely<DB>,
): Promise<Array<{ id: number; position: number; question: string }>> {
  const rows = await db
    .selectFrom('interview_questions')
    .select(['id', 'position', 'text', 'active'])
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.filter((r) => Boolean(r.active)).map((r) => ({ id: r.id, position: num(r.position), question: r.text }));
}

// ---------------------------------------------------------------- products

export type ProductRow = {
  code: string;
  name: string;
  description: string;
  price_cents: number;
  needs_listing: boolean;
  options: Record<string, unknown>;
  position: number;
};

/** Active products in display order, prices as stored (USD cents, excluding VAT). */
export async function activeProducts(db: Kysely<DB>): Promise<ProductRow[]> {
  const rows = await db.selectFrom('products').selectAll().orderBy('position').orderBy('code').execute();
  return rows
    .filter((r) => Boolean(r.active))
    .map((r) => ({
      code: r.code,
      name: r.name,
      description: r.description,
      price_cents: num(r.price_cents),
      needs_listing: Boolean(r.needs_listing),
      options: fromJson<Record<string, unknown>>(r.options, {}),
      position: num(r.position),
    }));
}

// ---------------------------------------------------------------- site

export async function siteCounts(
  db: Kysely<DB>,
): Promise<{ live_listings: number; upcoming_listings: number; categories: number; founders: number }> {
  // Listings by status and the categories: counted again only when a listing's status or the tree changed
  // (store/membership.ts), not over the whole directory on every read.
  const directory = byMembership(db, 'site counts', async () => {
    const [live, upcoming, cats] = await Promise.all([
      db
        .selectFrom('listings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'live')
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('listings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', 'in', ['scheduled', 'awaiting_badge'])
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('categories')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { live: num(live.n), upcoming: num(upcoming.n), cats: num(cats.n) };
  });
  const [{ live, upcoming, cats }, founders] = await Promise.all([
    directory,
    db
      .selectFrom('founders as f')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('listing_founders as lf')
            .innerJoin('listings as l', 'l.id', 'lf.listing_id')
            .select('lf.listing_id')
            .whereRef('lf.founder_id', '=', 'f.id')
            .where('l.status', '=', 'live'),
        ),
      )
      .executeTakeFirstOrThrow(),
  ]);
  return {
    live_listings: live,
    upcoming_listings: upcoming,
    categories: cats,
    founders: num(founders.n),
  };
}
