import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notFound } from './errors.ts';
import { Country, JsonObject, Paged, Pagination, Slug, offsetOf, paged } from './schemas.ts';
import { founderBySlug, listFounderItems } from '../store/repos/founders.ts';

const COMPANY_TEXT =
  "A company is a listing summary `{slug, name, url, tagline, logo_url, votes, primary_category: {slug, name}, status, launch_week, launched_at}` plus `role` (the founder's title) and `primary_founder` (listed first on the listing).";

export const listFounders = defineOperation({
  name: 'list_founders',
  method: 'GET',
  path: '/founders',
  access: 'public',
  tags: ['Founders'],
  summary: 'Founders behind live listings',
  description:
    'Founders behind at least one live listing, by name, optionally filtered by name (`q`, a case-insensitive part of the name) and `country` (two letters).\n\n' +
    `Returns \`{items: [{slug, name, title, country, avatar_url, bio_excerpt, companies: [company]}], page, per_page, total, has_more}\`. ${COMPANY_TEXT}`,
  query: z.object({ q: z.string().max(120).optional(), country: Country.optional(), ...Pagination }),
  response: Paged(JsonObject),
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
  path: '/founders/{slug}',
  access: 'public',
  tags: ['Founders'],
  summary: 'One founder',
  description:
    'A founder behind at least one live listing: bio, socials, their companies listed on the service (live listings) and their published stories (the founder stories of those listings whose story section is unlocked).\n\n' +
    `Returns \`{slug, name, title, bio, country, avatar_url, socials: {platform: link}, companies: [company], stories: [{listing, title?, story?, why_started?, problem?, journey?, challenges?, achievements?, lessons?, whats_next?, updated_at}]}\`. ${COMPANY_TEXT} An unknown slug, or a founder with no live listing, answers 404.`,
  params: z.object({ slug: Slug }),
  response: JsonObject,
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => (await founderBySlug(ctx.db, input.slug)) ?? notFound('founder', input.slug),
});
