import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notFound } from './errors.ts';
import { Country, ListingSummary, Paged, Pagination, Slug, Timestamp, offsetOf, paged } from './schemas.ts';
import { SocialLinks } from './profile.ts';
import { EXAMPLE_SUMMARY } from './examples.ts';
import { founderBySlug, listFounderItems } from '../store/repos/founders.ts';
import { STORY_KEYS, STORY_SECTIONS, type StoryKey } from '../domain/vocabulary.ts';

/** A live listing the founder is behind. */
const Company = ListingSummary.extend({
  role: z.string().nullable().describe("The founder's title (e.g. CEO), or null."),
  primary_founder: z.boolean().describe("Listed first among the listing's founders."),
});

const founderShape = {
  slug: z.string().describe('The founder page is /founders/{slug}.'),
  name: z.string(),
  title: z.string().nullable().describe('Their title, e.g. CEO, or null.'),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2 code, or null.'),
  avatar_url: z.string().nullable().describe('Picture URL, or null.'),
};

const FounderListItem = z.strictObject({
  ...founderShape,
  bio_excerpt: z.string().nullable().describe('The first 200 characters or so of the bio (on one line), or null.'),
  companies: z.array(Company).describe('Their live listings, most voted first.'),
});

/** A story section: present only when the story has it written (never empty, never null). */
const storySection = (key: StoryKey) =>
  z
    .string()
    .optional()
    .describe(`${STORY_SECTIONS.find(([k]) => k === key)?.[1] ?? 'The title'} (present when written).`);

// Object.fromEntries() types its keys as string: the cast gives them back their names (STORY_KEYS).
const storySections = Object.fromEntries(STORY_KEYS.map((k) => [k, storySection(k)])) as Record<
  StoryKey,
  ReturnType<typeof storySection>
>;

const FounderStory = z.strictObject({
  listing: ListingSummary.describe('The listing the story is about.'),
  ...storySections,
  updated_at: Timestamp.describe('When the story was last changed.'),
});

const FounderDetail = z.strictObject({
  ...founderShape,
  bio: z.string().nullable().describe('Their bio (plain text), or null.'),
  socials: SocialLinks,
  companies: z.array(Company).describe('Their live listings, most voted first.'),
  stories: z
    .array(FounderStory)
    .describe(
      'Founder stories of their live listings whose story section is unlocked (sections left blank are absent).',
    ),
});

const EXAMPLE_COMPANY = { ...EXAMPLE_SUMMARY, role: 'CEO', primary_founder: true };

const COMPANY_TEXT = [
  'A company is a listing summary `{slug, name, url, tagline, logo_url, votes, primary_category: {slug, name},',
  "status, launch_week, launched_at}` plus `role` (the founder's title) and `primary_founder` (listed first on",
  'the listing).',
].join(' ');

export const listFounders = defineOperation({
  name: 'list_founders',
  method: 'GET',
  cacheMs: 1000,
  path: '/founders',
  access: 'public',
  tags: ['Founders'],
  summary: 'Founders behind live listings',
  description: [
    [
      'Founders behind at least one live listing, by name, optionally filtered by name (`q`, a',
      'case-insensitive part of the name) and `country` (two letters).',
    ].join(' '),
    [
      'Returns `{items: [{slug, name, title, country, avatar_url, bio_excerpt, companies: [company]}],',
      `page, per_page, total, has_more}\`. ${COMPANY_TEXT}`,
    ].join(' '),
  ].join('\n\n'),
  query: z.object({ q: z.string().max(120).optional(), country: Country.optional(), ...Pagination }),
  response: Paged(FounderListItem),
  examples: {
    response: {
      items: [
        {
          slug: 'ada-lovelace',
          name: 'Ada Lovelace',
          title: 'CEO',
          country: 'DE',
          avatar_url: null,
          bio_excerpt: 'Built analytics for ten years before starting Funnelry.',
          companies: [EXAMPLE_COMPANY],
        },
      ],
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
    const { items, total } = await listFounderItems(
      ctx.db,
      { q: input.q, country: input.country },
      input.per_page,
      offsetOf(input),
    );
    return paged(items, total, input);
  },
});

export const getFounder = defineOperation({
  name: 'get_founder',
  method: 'GET',
  cacheMs: 1000,
  path: '/founders/{slug}',
  access: 'public',
  tags: ['Founders'],
  summary: 'One founder',
  description: [
    [
      'A founder behind at least one live listing: bio, socials, their companies listed on the service',
      '(live listings) and their published stories (the founder stories of those listings whose story',
      'section is unlocked).',
    ].join(' '),
    [
      'Returns `{slug, name, title, bio, country, avatar_url, socials: {platform: link}, companies:',
      '[company], stories: [{listing, title?, story?, why_started?, problem?, journey?, challenges?,',
      `achievements?, lessons?, whats_next?, updated_at}]}\`. ${COMPANY_TEXT} An unknown slug, or a founder`,
      'with no live listing, answers 404.',
    ].join(' '),
  ].join('\n\n'),
  params: z.object({ slug: Slug }),
  response: FounderDetail,
  examples: {
    response: {
      slug: 'ada-lovelace',
      name: 'Ada Lovelace',
      title: 'CEO',
      bio: 'Built analytics for ten years before starting Funnelry.',
      country: 'DE',
      avatar_url: null,
      socials: { linkedin: 'https://www.linkedin.com/in/ada' },
      companies: [EXAMPLE_COMPANY],
      stories: [
        {
          listing: EXAMPLE_SUMMARY,
          title: 'From spreadsheets to plain words',
          why_started: 'Our own analytics were unreadable.',
          updated_at: '2026-11-20T10:00:00.000Z',
        },
      ],
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => (await founderBySlug(ctx.db, input.slug)) ?? notFound('founder', input.slug),
});
