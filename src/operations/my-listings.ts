import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notImplemented } from './errors.ts';
import { Faqs, IntId, JsonObject, MilestoneInput, Paged, Pagination, Socials, StoryKeys } from './schemas.ts';

const ListingId = z.object({ listing_id: IntId.describe('Your listing\'s integer id.') });
const Strs = z.array(z.string().max(200)).max(20).nullable().optional();
const S = (max: number) => z.string().max(max).nullable().optional();

const OWN_LISTING_DOC = 'An own listing has `listing_id`, `slug`, `status` (draft, awaiting_badge, scheduled, live …), `plan` (none, free, paid), `launch_week`, `unlocked` (paid sections: story, milestones, media, extra_categories) and everything public.';

export const listMyListings = defineOperation({
  name: 'list_my_listings', method: 'GET', path: '/me/listings', access: 'account:read', tags: ['My listings'],
  summary: "The caller's listings, in any status",
  description: `Every listing owned by the caller, in any status. ${OWN_LISTING_DOC}`,
  query: z.object({ ...Pagination }),
  response: Paged(JsonObject), status: 200, idempotencyKey: false, paginated: true,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const getMyListing = defineOperation({
  name: 'get_my_listing', method: 'GET', path: '/me/listings/{listing_id}', access: 'account:read', tags: ['My listings'],
  summary: 'One of the caller\'s listings',
  description: OWN_LISTING_DOC,
  params: ListingId,
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const updateMyListing = defineOperation({
  name: 'update_my_listing', method: 'PATCH', path: '/me/listings/{listing_id}', access: 'listings:write', tags: ['My listings'],
  summary: 'Edit a listing',
  description: 'Edits publish at once, are kept in the version history, and the site team sees a before/after copy. Send only what changes. `apply_to` (`all` or site keys) also writes the headline, summary and SEO fields changed in this call to the same company\'s listings on other sites; only the fields sent travel.',
  params: ListingId,
  body: z.strictObject({
    fields: z.strictObject({
      tagline: S(200), short_description: S(300), description: S(20000), pricing_model: S(40), pricing_summary: S(300),
      country: S(2), city: S(120), founded_year: z.number().int().min(1800).max(2100).nullable().optional(),
      demo_video_url: S(500), contact_email: S(254), features: Strs, usps: Strs, keywords: Strs,
      headline: S(200), summary: S(20000), seo_title: S(200), seo_description: S(320),
    }).optional(),
    apply_to: z.array(z.string().max(40)).max(60).optional(),
    socials: Socials.optional(),
    faqs: Faqs.optional(),
  }),
  bodyOptional: true,
  response: JsonObject, status: 200, idempotencyKey: true, paginated: false,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const postListingUpdate = defineOperation({
  name: 'post_listing_update', method: 'POST', path: '/me/listings/{listing_id}/updates', access: 'listings:write', tags: ['My listings'],
  summary: "Post a 'what's new' update",
  description: "Publishes an update (title, plain-text body) that feeds the site's latest-updates page. The listing's followers are told.",
  params: ListingId,
  body: z.strictObject({ title: z.string().min(1).max(200), body: z.string().min(1).max(5000) }),
  response: JsonObject, status: 201, idempotencyKey: true, paginated: false,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const addMilestone = defineOperation({
  name: 'add_milestone', method: 'POST', path: '/me/listings/{listing_id}/milestones', access: 'listings:write', tags: ['My listings'],
  summary: 'Add a milestone',
  description: 'Adds a milestone (date, title, optional description and https link). Milestones show publicly on paid listings or when the section is unlocked. At most 50 per listing.',
  params: ListingId,
  body: MilestoneInput,
  response: JsonObject, status: 201, idempotencyKey: true, paginated: false,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const deleteMilestone = defineOperation({
  name: 'delete_milestone', method: 'DELETE', path: '/me/listings/{listing_id}/milestones/{milestone_id}', access: 'listings:write', tags: ['My listings'],
  summary: 'Delete a milestone',
  description: 'Deletes one milestone of the caller\'s listing.',
  params: z.object({ listing_id: IntId, milestone_id: IntId }),
  response: JsonObject, status: 200, idempotencyKey: true, paginated: false,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const setFounderStory = defineOperation({
  name: 'set_founder_story', method: 'PUT', path: '/me/listings/{listing_id}/story', access: 'listings:write', tags: ['My listings'],
  summary: 'Write the founder story',
  description: "Sets the listing's founder story. The text is the caller's own words and is published with the listing (shown publicly where the story section is unlocked).",
  params: ListingId,
  body: z.strictObject(Object.fromEntries(StoryKeys.map((k) => [k, z.string().max(k === 'title' ? 200 : 8000).optional()]))),
  bodyOptional: true,
  response: JsonObject, status: 200, idempotencyKey: true, paginated: false,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const chooseFreeListing = defineOperation({
  name: 'choose_free_listing', method: 'POST', path: '/me/listings/{listing_id}/free', access: 'listings:write', tags: ['My listings'],
  summary: 'Publish on the free plan',
  description: "Chooses the free plan for a submitted listing: it is queued for a launch week some weeks out (the site's free-queue setting) and goes live in that week once the service's badge is on the listing's homepage (see get_badges).",
  params: ListingId,
  response: JsonObject, status: 200, idempotencyKey: true, paginated: false,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});
