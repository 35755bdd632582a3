import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notImplemented } from './errors.ts';
import { Country, JsonObject, ListingSummary, Paged, Pagination, Slug } from './schemas.ts';

export const SORTS = ['relevance', 'newest', 'votes', 'trending', 'most_viewed', 'most_followed'] as const;

export const searchListings = defineOperation({
  name: 'search_listings', method: 'GET', path: '/listings', access: 'public', tags: ['Listings'],
  summary: 'Search live listings (full-text, typo-tolerant)',
  description: 'Full-text, typo-tolerant search over live listings (name, tagline, description, keywords). An empty `q` browses. Filters combine with AND; `category` includes its subcategories; `domain` finds the listing of a website whatever its scheme, `www.` or trailing slash. `status=upcoming` lists listings scheduled for a future launch week. Returns a page of listing summaries.',
  query: z.object({
    q: z.string().max(200).optional().describe('Search words; empty means browse.'),
    category: Slug.optional().describe('Category slug; includes subcategories.'),
    stage: z.string().max(40).optional().describe('Business stage slug, e.g. idea, mvp, launched, growing.'),
    country: Country.optional(),
    pricing_model: z.string().max(40).optional().describe('e.g. Free, Freemium, Subscription.'),
    domain: z.string().max(253).optional().describe('Finds the listing of a website.'),
    status: z.enum(['live', 'upcoming']).default('live'),
    sort: z.enum(SORTS).default('relevance'),
    ...Pagination,
  }),
  response: Paged(ListingSummary), status: 200, idempotencyKey: false, paginated: true,
  handler: async () => notImplemented('issue #2'),
});

export const getListing = defineOperation({
  name: 'get_listing', method: 'GET', path: '/listings/{slug}', access: 'public', tags: ['Listings'],
  summary: 'Full public profile of a live listing',
  description: 'The full public profile of one live listing: description, features, pricing, categories, founders, FAQs, socials, latest updates, community rating (genuine reviews only), Domain Rating with trend, links, and `not_found_on_website` (facts the company\'s own site did not state, left blank on purpose). The paid-only sections `story`, `milestones` and `media` appear only when the listing has them unlocked.',
  params: z.object({ slug: Slug }),
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  handler: async () => notImplemented('issue #2'),
});

export const getAlternatives = defineOperation({
  name: 'get_alternatives', method: 'GET', path: '/listings/{slug}/alternatives', access: 'public', tags: ['Listings'],
  summary: 'Alternatives to a listing',
  description: 'Alternatives to a live listing: those the owner approved come first (marked `approved: true`), then other live listings in the same primary category, most voted first.',
  params: z.object({ slug: Slug }),
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  handler: async () => notImplemented('issue #2'),
});

export const compareListings = defineOperation({
  name: 'compare_listings', method: 'GET', path: '/compare', access: 'public', tags: ['Listings'],
  summary: 'Compare two live listings side by side',
  description: 'A side-by-side comparison of two live listings on their category attributes. An empty cell (null) means the fact is on neither listing.',
  query: z.object({ a: Slug.describe('First listing slug.'), b: Slug.describe('Second listing slug.') }),
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  handler: async () => notImplemented('issue #2'),
});

export const getBadges = defineOperation({
  name: 'get_badges', method: 'GET', path: '/listings/{slug}/badges', access: 'public', tags: ['Badges'],
  summary: 'Embeddable badges of a listing',
  description: 'Badges the listing may show (Listed on, Launched on, Featured, Verified, Launch of the Week #1–#3 …) with ready-to-paste HTML embed code and SVG image URLs in the chosen style, plus the URLs of every other shape, mode and size. A free listing goes live once a badge is on its homepage.',
  params: z.object({ slug: Slug }),
  query: z.object({
    shape: z.enum(['standard', 'outline', 'pill', 'banner', 'square']).default('standard'),
    mode: z.enum(['light', 'dark', 'auto']).default('auto'),
    size: z.enum(['s', 'm', 'l']).default('m'),
  }),
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  handler: async () => notImplemented('issue #2'),
});
