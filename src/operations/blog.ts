import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notImplemented } from './errors.ts';
import { JsonObject, Paged, Pagination, Slug } from './schemas.ts';

export const listBlogPosts = defineOperation({
  name: 'list_blog_posts', method: 'GET', path: '/blog', access: 'public', tags: ['Blog'],
  summary: 'Published blog posts',
  description: 'Published posts, newest first, or those matching `q`.',
  query: z.object({ q: z.string().max(200).optional(), ...Pagination }),
  response: Paged(JsonObject), status: 200, idempotencyKey: false, paginated: true,
  handler: async () => notImplemented('issue #2'),
});

export const getBlogPost = defineOperation({
  name: 'get_blog_post', method: 'GET', path: '/blog/{slug}', access: 'public', tags: ['Blog'],
  summary: 'One blog post',
  description: 'One published post with its full Markdown text and FAQs.',
  params: z.object({ slug: Slug }),
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  handler: async () => notImplemented('issue #2'),
});
