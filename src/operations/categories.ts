import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notFound } from './errors.ts';
import { CategoryRef, ListingSummary, Paged, Pagination, QueryBool, Slug, offsetOf, paged } from './schemas.ts';
import { FaqItem } from './profile.ts';
import { EXAMPLE_SUMMARY } from './examples.ts';
import { categoriesNow, categoryDetail, categoryTree, liveListingsInCategory } from '../store/repos/categories.ts';

const Subcategory = z.strictObject({
  slug: z.string().describe('Category slug (get_category, search_listings `category`).'),
  name: z.string().describe("Category name (as a draft's `categories` name it)."),
  description: z.string().describe('What belongs in it.'),
  live_listings: z.number().int().describe('Live listings in it.'),
});

const CategoryTree = z.strictObject({
  categories: z
    .array(
      Subcategory.extend({
        live_listings: z.number().int().describe('Live listings in it or its subcategories (each listing once).'),
        subcategories: z.array(Subcategory).describe('Its subcategories, in display order.'),
      }),
    )
    .describe('Top-level categories, in display order.'),
  total_categories: z.number().int().describe('The categories shown (parents and subcategories).'),
});

const CategoryDetail = z.strictObject({
  slug: z.string().describe('Category slug.'),
  name: z.string().describe('Category name.'),
  description: z.string().describe('What belongs in it.'),
  faqs: z.array(FaqItem).describe('Questions and answers about the category.'),
  attributes: z
    .array(z.string())
    .describe('Fact keys compared by compare_listings, e.g. open_source, self_hostable, platforms, api, free_tier.'),
  parent: CategoryRef.nullable().describe('The parent category, or null for a top-level category.'),
  subcategories: z
    .array(CategoryRef.extend({ live_listings: z.number().int().describe('Live listings in it.') }))
    .describe('Its subcategories, in display order.'),
  live_listings: z.number().int().describe('Live listings in it and its subcategories (the same as `total`).'),
  ...Paged(ListingSummary).shape,
  items: z.array(ListingSummary).describe('This page of its live listings, most voted first.'),
});

export const listCategories = defineOperation({
  name: 'list_categories',
  method: 'GET',
  cacheMs: 1000,
  path: '/categories',
  access: 'public',
  tags: ['Categories'],
  summary: 'The category tree with live listing counts',
  description: [
    [
      'The full category tree (top-level categories with their subcategories), each with its count of live',
      "listings (a parent counts its subcategories' listings too, each listing once). `include_empty=false`",
      'leaves out categories with no live listings.',
    ].join(' '),
    [
      'Returns `{categories: [{slug, name, description, live_listings, subcategories: [{slug, name,',
      'description, live_listings}]}], total_categories}` where `total_categories` counts the categories',
      'shown (parents and subcategories). Use a category `slug` with get_category or search_listings',
      "(`category`), and its `name` in a draft's `categories`.",
    ].join(' '),
  ].join('\n\n'),
  query: z.object({
    include_empty: QueryBool.default(true).describe('Include categories with no live listings (default true).'),
  }),
  response: CategoryTree,
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
    const total = categories.reduce((n, c) => n + 1 + c.subcategories.length, 0);
    return { categories, total_categories: total };
  },
});

export const getCategory = defineOperation({
  name: 'get_category',
  method: 'GET',
  cacheMs: 1000,
  path: '/categories/{slug}',
  access: 'public',
  tags: ['Categories'],
  summary: 'One category with its live listings',
  description: [
    [
      'A category: description, FAQs, parent, subcategories, and a page of its live listings (subcategories',
      'included), most voted first (ties: earlier launch first).',
    ].join(' '),
    [
      'Returns `{slug, name, description, faqs: [{question, answer}], attributes: [fact keys compared by',
      'compare_listings, e.g. open_source, self_hostable, platforms, api, free_tier], parent: {slug, name}',
      '| null, subcategories: [{slug, name, live_listings}], live_listings, items: [listing summary], page,',
      'per_page, total, has_more}`. A listing summary is `{slug, name, url, tagline, logo_url, votes,',
      'primary_category: {slug, name}, status, launch_week, launched_at}`. An unknown slug answers 404.',
    ].join(' '),
  ].join('\n\n'),
  params: z.object({ slug: Slug }),
  query: z.object({ ...Pagination }),
  response: CategoryDetail,
  examples: {
    response: {
      slug: 'analytics',
      name: 'Analytics',
      description: 'Product, web and business analytics.',
      faqs: [{ question: 'What counts as analytics?', answer: 'Tools that measure how a product or site is used.' }],
      attributes: ['open_source', 'self_hostable', 'api', 'free_tier'],
      parent: { slug: 'data', name: 'Data' },
      subcategories: [{ slug: 'product-analytics', name: 'Product Analytics', live_listings: 4 }],
      live_listings: 12,
      items: [EXAMPLE_SUMMARY],
      page: 1,
      per_page: 20,
      total: 12,
      has_more: false,
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: true,
  handler: async (ctx, input) => {
    const tree = await categoriesNow(ctx.db);
    const cat = tree.bySlug.get(input.slug);
    if (!cat) return notFound('category', input.slug);
    const parent = cat.parent_id === null ? undefined : tree.byId.get(cat.parent_id);
    const page = await liveListingsInCategory(ctx.db, tree, cat.id, input.per_page, offsetOf(input));
    return {
      ...categoryDetail(cat),
      parent: parent ? { slug: parent.slug, name: parent.name } : null,
      subcategories: (tree.children.get(cat.id) ?? []).map((s) => ({
        slug: s.slug,
        name: s.name,
        live_listings: tree.counts.direct.get(s.id) ?? 0,
      })),
      live_listings: page.total,
      ...paged(page.items, page.total, input),
    };
  },
});
