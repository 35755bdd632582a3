import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notFound } from './errors.ts';
import { JsonObject, Paged, Pagination, Slug, offsetOf, paged } from './schemas.ts';
import { listPublishedPosts, publishedPostBySlug } from '../store/repos/content.ts';

export const listBlogPosts = defineOperation({
  name: 'list_blog_posts',
  method: 'GET',
  path: '/blog',
  access: 'public',
  tags: ['Blog'],
  summary: 'Published blog posts',
  description:
    'Published posts, newest first; with `q`, only those whose title, excerpt or text contains it (case-insensitive).\n\n' +
    'Returns `{items: [{slug, title, excerpt, author, tags, published_at, reading_minutes}], page, per_page, total, has_more}`. Read one with get_blog_post.',
  query: z.object({ q: z.string().max(200).optional(), ...Pagination }),
  response: Paged(JsonObject),
  status: 200,
  idempotencyKey: false,
  paginated: true,
  handler: async (ctx, input) => {
    const { items, total } = await listPublishedPosts(ctx.db, ctx.now(), input.q, input.per_page, offsetOf(input));
    return paged(items, total, input);
  },
});

export const getBlogPost = defineOperation({
  name: 'get_blog_post',
  method: 'GET',
  path: '/blog/{slug}',
  access: 'public',
  tags: ['Blog'],
  summary: 'One blog post',
  description:
    'One published post with its full Markdown text and FAQs: `{slug, title, excerpt, author, tags, published_at, reading_minutes, body_markdown, faqs: [{question, answer}]}`. An unknown or unpublished post answers 404.',
  params: z.object({ slug: Slug }),
  response: JsonObject,
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) =>
    (await publishedPostBySlug(ctx.db, input.slug, ctx.now())) ?? notFound('blog post', input.slug),
});
