import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notImplemented } from './errors.ts';
import { JsonObject, Pagination, QueryBool, Slug } from './schemas.ts';

export const listCategories = defineOperation({
  name: 'list_categories', method: 'GET', path: '/categories', access: 'public', tags: ['Categories'],
  summary: 'The category tree with live listing counts',
  description: 'The full category tree (top-level categories with their subcategories), each with its count of live listings (a parent counts its subcategories\' listings too). `include_empty=false` leaves out categories with no live listings.',
  query: z.object({ include_empty: QueryBool.default(true).describe('Include categories with no live listings (default true).') }),
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  handler: async () => notImplemented('issue #2'),
});

export const getCategory = defineOperation({
  name: 'get_category', method: 'GET', path: '/categories/{slug}', access: 'public', tags: ['Categories'],
  summary: 'One category with its live listings',
  description: 'A category: description, FAQs, parent, subcategories, and a page of its live listings (subcategories included), most voted first.',
  params: z.object({ slug: Slug }),
  query: z.object({ ...Pagination }),
  response: JsonObject, status: 200, idempotencyKey: false, paginated: true,
  handler: async () => notImplemented('issue #2'),
});
