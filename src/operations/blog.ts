import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notFound } from './errors.ts';
import { Paged, Pagination, Slug, Timestamp, offsetOf, paged } from './schemas.ts';
import { FaqItem } from './profile.ts';
import { listPublishedPosts, publishedPostBySlug } from '../store/repos/content.ts';

const BlogListItem = z.strictObject({
  slug: z.string().describe('The post is /blog/{slug} (get_blog_post).'),
  title: z.string(),
  excerpt: z.string().describe('A sentence or two about the post.'),
  author: z.string().describe("The author's name."),
  tags: z.array(z.string()),
  published_at: Timestamp.describe('When it was published.'),
  reading_minutes: z.number().int().describe('Reading time in minutes (220 words a minute, at least 1).'),
});

const BlogPost = BlogListItem.extend({
  body_markdown: z.string().describe('The full text, in Markdown.'),
  faqs: z.array(FaqItem).describe('Questions and answers shown under the post.'),
});

const EXAMPLE_POST = {
  slug: 'how-to-launch-on-launchlist',
  title: 'How to launch on Launchlist',
  excerpt: 'From submitting your website to launch week, step by step.',
  author: 'The Launchlist team',
  tags: ['guides', 'makers'],
  published_at: '2026-11-02T08:00:00.000Z',
  reading_minutes: 4,
};

export const listBlogPosts = defineOperation({
  name: 'list_blog_posts',
  method: 'GET',
  cacheMs: 1000,
  path: '/blog',
  access: 'public',
  tags: ['Blog'],
  summary: 'Published blog posts',
  description: [
    [
      'Published posts, newest first; with `q`, only those whose title, excerpt or text contains it',
      '(case-insensitive).',
    ].join(' '),
    [
      'Returns `{items: [{slug, title, excerpt, author, tags, published_at, reading_minutes}], page,',
      'per_page, total, has_more}`. Read one with get_blog_post.',
    ].join(' '),
  ].join('\n\n'),
  query: z.object({ q: z.string().max(200).optional(), ...Pagination }),
  response: Paged(BlogListItem),
  examples: { response: { items: [EXAMPLE_POST], page: 1, per_page: 20, total: 1, has_more: false } },
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
  cacheMs: 1000,
  path: '/blog/{slug}',
  access: 'public',
  tags: ['Blog'],
  summary: 'One blog post',
  description: [
    'One published post with its full Markdown text and FAQs: `{slug, title, excerpt, author, tags,',
    'published_at, reading_minutes, body_markdown, faqs: [{question, answer}]}`. An unknown or',
    'unpublished post answers 404.',
  ].join(' '),
  params: z.object({ slug: Slug }),
  response: BlogPost,
  examples: {
    response: {
      ...EXAMPLE_POST,
      body_markdown: '## Submit your website\n\nPaste its address; we draft the profile from what it says.',
      faqs: [
        { question: 'Is launching free?', answer: 'Yes: a free listing goes live once our badge is on its homepage.' },
      ],
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) =>
    (await publishedPostBySlug(ctx.db, input.slug, ctx.now())) ?? notFound('blog post', input.slug),
});
