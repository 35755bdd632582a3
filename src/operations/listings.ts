import { z } from 'zod';
import { defineOperation } from './define.ts';
import { ApiError, invalid, notFound } from './errors.ts';
import { Country, ListingSummary, Paged, Pagination, Slug, offsetOf, paged } from './schemas.ts';
import { FactValue, ListingProfile } from './profile.ts';
import { EXAMPLE_PROFILE, EXAMPLE_SUMMARY } from './examples.ts';

/** A search result: a summary with its views and followers. */
const SearchItem = ListingSummary.extend({
  views: z.number().int().describe('Page views, all time.'),
  followers: z.number().int(),
});

const AlternativesResult = z.strictObject({
  listing: ListingSummary.describe('The listing asked about.'),
  items: z
    .array(
      ListingSummary.extend({ approved: z.boolean().describe('Approved by the listing owner (those come first).') }),
    )
    .describe('At most 10.'),
});

const ComparisonResult = z.strictObject({
  a: ListingSummary,
  b: ListingSummary,
  attributes: z
    .array(
      z.strictObject({
        key: z.string().describe('pricing_model, stage, founded_year … or a category attribute key.'),
        label: z.string().describe('The row heading.'),
        a: FactValue.nullable().describe('What listing a states, or null when it does not state it.'),
        b: FactValue.nullable().describe('What listing b states, or null.'),
      }),
    )
    .describe('Core facts first, then the attributes of both primary categories.'),
});
import {
  SEARCH_SORTS,
  SearchInputError,
  searchListings as runSearch,
  type SearchInput,
} from '../store/search/index.ts';
import { toSummary } from '../store/repos/summary.ts';
import { alternativesOf, compareListings as compareRepo } from '../store/repos/listings.ts';
import { etagOf, withCounters } from '../store/profile-reader.ts';
import { RawJson } from './raw-json.ts';

export const SORTS = SEARCH_SORTS;

export const searchListings = defineOperation({
  name: 'search_listings',
  method: 'GET',
  cacheMs: 1000,
  path: '/listings',
  access: 'public',
  tags: ['Listings'],
  summary: 'Search live listings (full-text, typo-tolerant)',
  description: [
    'Full-text, typo-tolerant search over live listings (name, tagline, description, keywords). An empty `q` browses.',
    'Every word of `q` must match (AND). Words are matched whole, without accents and case; a word the index does not hold is corrected to the nearest indexed words: one typo allowed in words of 5 to 7 letters, two in words of 8 or more, none in shorter words, the longer of the typed and the indexed word counting (so a 5-letter word typed with a letter dropped is still found). The last word also matches longer words it starts (the user may still be typing).',
    "Filters combine with AND: `category` includes its subcategories (an unknown category slug is a 400); `country` and `pricing_model` ignore case; `domain` finds the listing of a website whatever its scheme, `www.`, trailing slash or path (a subdomain finds its parent site's listing). `status=upcoming` lists listings scheduled for a future launch week.",
    'Sorts: `relevance` (best match first; most voted first when browsing), `newest` (launch time), `votes` (all-time community votes), `trending` (time-decayed votes: each vote counts 0.5^(age in hours / 48), votes of the last 14 days), `most_viewed`, `most_followed`; ties go to more votes, then the earlier listing.',
    'Returns a page of listing summaries, each with `views` and `followers` besides the summary fields.',
  ].join(' '),
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
  response: Paged(SearchItem),
  examples: {
    response: {
      items: [{ ...EXAMPLE_SUMMARY, views: 2210, followers: 31 }],
      page: 1,
      per_page: 20,
      total: 1,
      has_more: false,
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: true,
  handler: async (ctx, input) => {
    try {
      const pool = ctx.services.searchPool; // SQLite: search threads (store/search/pool.ts)
      const search = pool ? (i: SearchInput) => pool.search(i) : (i: SearchInput) => runSearch(ctx.db, ctx.engine, i);
      const result = await search({
        q: input.q,
        category: input.category,
        stage: input.stage,
        country: input.country,
        pricing_model: input.pricing_model,
        domain: input.domain,
        status: input.status,
        sort: input.sort,
        limit: input.per_page,
        offset: offsetOf(input),
        now: ctx.now(),
      });
      const items = result.rows.map((r) => ({
        ...toSummary(r),
        views: Number(r.views_count),
        followers: Number(r.followers_count),
      }));
      return paged(items, result.total, input);
    } catch (e) {
      if (e instanceof SearchInputError) return invalid(`query.${e.field}`, e.message);
      throw e;
    }
  },
});

export const getListing = defineOperation({
  name: 'get_listing',
  method: 'GET',
  path: '/listings/{slug}',
  access: 'public',
  tags: ['Listings'],
  summary: 'Full public profile of a live listing',
  description: [
    'The full public profile of one live listing (404 for any other status).',
    'Fields: slug, name, url, domain, tagline, short_description, description, headline, summary, logo_url, status, launch_week, launched_at, stage, country, city, founded_year, contact_email,',
    '`pricing` {model, summary}, features, usps, keywords, tags, `categories` [{slug, name, primary, parent}] (primary first), `founders` [{slug, name, title, avatar_url, country, socials}], faqs, socials,',
    '`latest_updates` (the 5 newest: id, title, body, created_at), `community_rating` {average, count} from genuine reviews only (average null when there are none),',
    '`domain_rating` {value, as_of, trend {direction up|down|flat|new, change_30d, change_90d}, history [{date, rating}]} (a third-party SEO metric), `links` {website, demo_video, source_code?}, `facts` (category attributes the listing states),',
    "`not_found_on_website` (facts the company's own site did not state, left blank on purpose), verified, `awards` (Launch of the Week wins), seo, votes, followers, views, updated_at.",
    'The paid-only sections `story`, `milestones` and `media` are present only when the listing has them unlocked (absent otherwise). Each read counts as a view.',
  ].join(' '),
  params: z.object({ slug: Slug }),
  response: ListingProfile,
  examples: { response: EXAMPLE_PROFILE },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => {
    // The materialised profile (store/profile-reader.ts); the live counters are spliced in per request.
    const hit = await ctx.services.profiles.get(input.slug, { confirm: ctx.fresh });
    if (!hit) return notFound('listing', input.slug);
    const { views } = ctx.services;
    views.record(hit.id);
    const pending = views.pending(hit.id);
    return new RawJson(withCounters(hit, pending), etagOf(hit, pending));
  },
});

export const getAlternatives = defineOperation({
  name: 'get_alternatives',
  method: 'GET',
  cacheMs: 1000,
  path: '/listings/{slug}/alternatives',
  access: 'public',
  tags: ['Listings'],
  summary: 'Alternatives to a listing',
  description:
    "Alternatives to a live listing, at most 10: those the owner approved come first, in the owner's order (marked `approved: true`), then other live listings in the same primary category, most voted first (`approved: false`). Never the listing itself. Returns {listing: summary, items: [summary + approved]}.",
  params: z.object({ slug: Slug }),
  response: AlternativesResult,
  examples: {
    response: {
      listing: EXAMPLE_SUMMARY,
      items: [{ ...EXAMPLE_SUMMARY, slug: 'chartwise', name: 'Chartwise', approved: true }],
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => {
    // a category's most voted are shared as long as this read's result is (not at all for a signed-in or fresh caller)
    const out = await alternativesOf(ctx.db, input.slug, undefined, ctx.sharedMs ?? 0);
    if (!out) return notFound('listing', input.slug);
    return out;
  },
});

export const compareListings = defineOperation({
  name: 'compare_listings',
  method: 'GET',
  cacheMs: 1000,
  path: '/compare',
  access: 'public',
  tags: ['Listings'],
  summary: 'Compare two live listings side by side',
  description:
    'A side-by-side comparison of two live listings: {a: summary, b: summary, attributes: [{key, label, a, b}]}. Rows are core facts (pricing model, pricing, stage, founded, country, city, Domain Rating) then the attributes of both primary categories. An empty cell (null) means that listing does not state the fact; a row where both cells are null is a fact on neither listing. A slug that is not a live listing is a 400 naming `query.a` or `query.b` (the spec declares 404 only for identifiers in the path).',
  query: z.object({ a: Slug.describe('First listing slug.'), b: Slug.describe('Second listing slug.') }),
  response: ComparisonResult,
  examples: {
    response: {
      a: EXAMPLE_SUMMARY,
      b: { ...EXAMPLE_SUMMARY, slug: 'chartwise', name: 'Chartwise' },
      attributes: [
        { key: 'pricing_model', label: 'Pricing model', a: 'Freemium', b: 'Subscription' },
        { key: 'founded_year', label: 'Founded', a: 2024, b: null },
      ],
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => {
    const out = await compareRepo(ctx.db, input.a, input.b);
    if ('missing' in out) {
      const slug = input[out.missing];
      // 400, not 404: the spec declares 404 only for operations with an identifier in the path (7).
      throw new ApiError('validation_failed', `query.${out.missing}: no live listing ${JSON.stringify(slug)} exists.`, [
        { path: `query.${out.missing}`, message: `no live listing ${JSON.stringify(slug)}` },
      ]);
    }
    return out;
  },
});
