import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notFound } from './errors.ts';
import { JsonObject, Pagination, QueryBool, Slug, offsetOf, paged } from './schemas.ts';
import {
  categoryAndDescendants,
  categoryBySlug,
  categoryDetail,
  categoryTree,
  liveCounts,
  liveListingsInCategories,
} from '../store/repos/categories.ts';

export const listCategories = defineOperation({
  name: 'list_categories',
  method: 'GET',
  path: '/categories',
  access: 'public',
  tags: ['Categories'],
  summary: 'The category tree with live listing counts',
  description:
    "The full category tree (top-level categories with their subcategories), each with its count of live listings (a parent counts its subcategories' listings too, each listing once). `include_empty=false` leaves out categories with no live listings.\n\n" +
    "Returns `{categories: [{slug, name, description, live_listings, subcategories: [{slug, name, description, live_listings}]}], total_categories}` where `total_categories` counts the categories shown (parents and subcategories). Use a category `slug` with get_category or search_listings (`category`), and its `name` in a draft's `categories`.",
  query: z.object({
    include_empty: QueryBool.default(true).describe('Include categories with no live listings (default true).'),
  }),
  response: JsonObject,
  status: 200,
  idempotencyKey: false,
  paginated: false,
  examples: {
    response: {
      categories: [
        {
          slug: 'developer-tools',
          name: 'Developer Tools',
          description: 'Tools that help software teams build, test and ship.',
          live_listings: 21,
          subcategories: [
            {
              slug: 'api-tools',
              name: 'API Tools',
              description: 'Design, mock, test and document APIs.',
              live_listings: 5,
            },
          ],
        },
      ],
      total_categories: 2,
    },
  },
  handler: async (ctx, input) => {
    const categories = await categoryTree(ctx.db, input.include_empty);
    const total = categories.reduce((n, c) => n + 1 + (c.subcategories?.length ?? 0), 0);
    return { categories, total_categories: total };
  },
});

export const getCategory = defineOperation({
  name: 'get_category',
  method: 'GET',
  path: '/categories/{slug}',
  access: 'public',
  tags: ['Categories'],
  summary: 'One category with its live listings',
  description:
    'A category: description, FAQs, parent, subcategories, and a page of its live listings (subcategories included), most voted first (ties: earlier launch first).\n\n' +
    'Returns `{slug, name, description, faqs: [{question, answer}], attributes: [fact keys compared by compare_listings, e.g. open_source, self_hostable, platforms, api, free_tier], parent: {slug, name} | null, subcategories: [{slug, name, live_listings}], live_listings, items: [listing summary], page, per_page, total, has_more}`. ' +
    'A listing summary is `{slug, name, url, tagline, logo_url, votes, primary_category: {slug, name}, status, launch_week, launched_at}`. An unknown slug answers 404.',
  params: z.object({ slug: Slug }),
  query: z.object({ ...Pagination }),
  response: JsonObject,
  status: 200,
  idempotencyKey: false,
  paginated: true,
  handler: async (ctx, input) => {
    const cat = await categoryBySlug(ctx.db, input.slug);
    if (!cat) return notFound('category', input.slug);
    const [ids, counts, parent, subs] = await Promise.all([
      categoryAndDescendants(ctx.db, cat.id),
      liveCounts(ctx.db),
      cat.parent_id === null
        ? Promise.resolve(undefined)
        : ctx.db.selectFrom('categories').select(['slug', 'name']).where('id', '=', cat.parent_id).executeTakeFirst(),
      ctx.db
        .selectFrom('categories')
        .select(['id', 'slug', 'name'])
        .where('parent_id', '=', cat.id)
        .orderBy('position')
        .orderBy('name')
        .execute(),
    ]);
    const page = await liveListingsInCategories(ctx.db, ids, input.per_page, offsetOf(input));
    return {
      ...categoryDetail(cat),
      parent: parent ? { slug: parent.slug, name: parent.name } : null,
      subcategories: subs.map((s) => ({ slug: s.slug, name: s.name, live_listings: counts.direct.get(s.id) ?? 0 })),
      live_listings: page.total,
      ...paged(page.items, page.total, input),
    };
  },
});
