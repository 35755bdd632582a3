import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notImplemented } from './errors.ts';
import { Email, Faq, JsonObject, MilestoneInput, Paged, Pagination, Socials, StoryKeys, Uuid } from './schemas.ts';

export const DRAFT_FIELDS = ['name', 'tagline', 'short_description', 'description', 'stage', 'categories', 'tags', 'pricing_model', 'pricing_summary', 'country', 'city', 'founded_year', 'features', 'usps', 'keywords', 'contact_email', 'demo_video_url', 'logo_url'] as const;
export const LIST_FIELDS = ['categories', 'tags', 'features', 'usps', 'keywords'] as const;
export const FIELD_STATES = ['ai', 'not_found', 'edited', 'manual', 'override', 'deleted'] as const;
export type DraftField = (typeof DRAFT_FIELDS)[number];

const Str500 = z.string().max(500).nullable().optional();
const StrList = z.array(z.string().max(200)).max(20).nullable().optional();
export const DraftFieldsInput = z.strictObject({
  name: Str500, tagline: Str500, short_description: Str500, stage: Str500, pricing_model: Str500, pricing_summary: Str500,
  country: Str500, city: Str500, founded_year: Str500, contact_email: Str500, demo_video_url: Str500, logo_url: Str500,
  description: z.string().max(20000).nullable().optional(),
  categories: StrList, tags: StrList, features: StrList, usps: StrList, keywords: StrList,
});
const FieldName = z.enum(DRAFT_FIELDS);
const DraftId = z.object({ id: Uuid.describe('Draft id (uuid).') });

const DRAFT_SHAPE_DOC = 'A draft has `id`, `url`, `status` (`crawling`, `drafting`, `ready`, or `failed` with `error` naming why: unreachable, robots_disallowed, not_html, too_large…), `progress` {stage, pages_read, pages_planned}, `fields` (each profile field: {value, state, evidence: [{quote, url}]}; states ai, not_found, edited, manual, override, deleted), faqs, founders, company_socials, founder_socials, story, milestones, competitor, seo, `completeness` (0–100) and `missing` (fields still without a value), and `listing_id` once submitted.';

export const submitListing = defineOperation({
  name: 'submit_listing', method: 'POST', path: '/drafts', access: 'listings:write', tags: ['Drafts'],
  summary: 'Start a listing from a website URL',
  description: `Starts drafting a listing from the product's public website. Answers 201 at once with a draft in status \`crawling\`; the service reads the site (respecting robots.txt) and drafts the profile in about a minute, quoting evidence from the site for every value and leaving blank whatever the site does not state. Poll get_draft every few seconds while the status is crawling or drafting. Nothing is published and nothing is charged. ${DRAFT_SHAPE_DOC}`,
  body: z.strictObject({ url: z.string().min(1).max(2048).describe("The product's public website (http or https).") }),
  response: JsonObject, status: 201, idempotencyKey: true, paginated: false, openWorld: true,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const listMyDrafts = defineOperation({
  name: 'list_my_drafts', method: 'GET', path: '/drafts', access: 'account:read', tags: ['Drafts'],
  summary: "The caller's drafts",
  description: "The caller's drafts, newest first, with status and completeness.",
  query: z.object({ ...Pagination }),
  response: Paged(JsonObject), status: 200, idempotencyKey: false, paginated: true,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const getDraft = defineOperation({
  name: 'get_draft', method: 'GET', path: '/drafts/{id}', access: 'account:read', tags: ['Drafts'],
  summary: 'One draft',
  description: `One of the caller's drafts. ${DRAFT_SHAPE_DOC}`,
  params: DraftId,
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const updateDraft = defineOperation({
  name: 'update_draft', method: 'PATCH', path: '/drafts/{id}', access: 'listings:write', tags: ['Drafts'],
  summary: 'Edit a draft',
  description: 'Edits a draft; send only what changes. A value typed in `fields` marks the field as the user\'s own (`edited`, or `manual` where the AI found nothing); `null` removes it (`deleted`); `lock_fields` protects fields against AI redrafts (`override`); `regenerate` asks the AI to redraft fields from the website evidence; `restore` returns fields to the AI\'s original value. Lists (faqs, founders, milestones) replace the whole list. If the draft was already submitted, its listing is updated too. Returns the updated draft.',
  params: DraftId,
  body: z.strictObject({
    fields: DraftFieldsInput.optional(),
    lock_fields: z.array(FieldName).max(20).optional(),
    regenerate: z.array(FieldName).max(5).optional(),
    restore: z.array(FieldName).max(20).optional(),
    faqs: z.array(Faq).max(10).optional(),
    company_socials: Socials.optional(),
    founder_socials: Socials.optional(),
    founders: z.array(z.strictObject({ name: z.string().min(1).max(160), title: z.string().max(160).optional(), bio: z.string().max(3000).optional() })).max(6).optional(),
    story: z.strictObject(Object.fromEntries(StoryKeys.map((k) => [k, z.string().max(8000).optional()]))).optional(),
    milestones: z.array(MilestoneInput).max(50).optional(),
    competitor_url: z.string().max(2048).optional().describe("A competitor's site to read and compare; empty clears."),
    seo: z.strictObject({ title: z.string().max(70).optional(), meta: z.string().max(170).optional() }).optional(),
  }),
  bodyOptional: true,
  response: JsonObject, status: 200, idempotencyKey: true, paginated: false,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const inviteCofounder = defineOperation({
  name: 'invite_cofounder', method: 'POST', path: '/drafts/{id}/invites', access: 'listings:write', tags: ['Drafts'],
  summary: 'Invite a co-founder to add their profile',
  description: 'Emails a co-founder an invitation to add their profile to the draft. At most 10 invites per draft.',
  params: DraftId,
  body: z.strictObject({ email: Email }),
  response: JsonObject, status: 201, idempotencyKey: true, paginated: false, openWorld: true,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});

export const submitDraft = defineOperation({
  name: 'submit_draft', method: 'POST', path: '/drafts/{id}/submit', access: 'listings:write', tags: ['Drafts'],
  summary: 'Save a draft as a listing (not yet published)',
  description: 'Saves a ready draft as the caller\'s listing, not yet published, and returns its `listing_id`. Running it again after edits updates the same listing. Publish it next with choose_free_listing or a paid `launch` order (create_checkout).',
  params: DraftId,
  response: JsonObject, status: 200, idempotencyKey: true, paginated: false,
  pending: 'issue #5',
  handler: async () => notImplemented('issue #5'),
});
