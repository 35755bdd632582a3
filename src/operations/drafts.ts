import { z } from 'zod';
import { defineOperation } from './define.ts';
import { userOf } from './context.ts';
import { COMPLETENESS_FORMULA } from '../drafting/extract/completeness.ts';
import { draftSummary, draftView, listOwnDrafts } from '../store/repos/drafts.ts';
import {
  applyDraftUpdate,
  createDraft,
  getOwnDraft,
  inviteCofounder as sendInvite,
  submitDraftAsListing,
  type DraftPatch,
} from '../services/drafting.ts';
import {
  Email,
  Faq,
  JsonObject,
  MilestoneInput,
  Paged,
  Pagination,
  Socials,
  Uuid,
  offsetOf,
  paged,
} from './schemas.ts';
import { PROFILE_FIELDS, STORY_KEYS } from '../domain/vocabulary.ts';

export const FIELD_STATES = ['ai', 'not_found', 'edited', 'manual', 'override', 'deleted'] as const;

const Str500 = z.string().max(500).nullable().optional();
const StrList = z.array(z.string().max(200)).max(20).nullable().optional();
export const ProfileFieldsInput = z.strictObject({
  name: Str500,
  tagline: Str500,
  short_description: Str500,
  stage: Str500,
  pricing_model: Str500,
  pricing_summary: Str500,
  country: Str500,
  city: Str500,
  founded_year: Str500,
  contact_email: Str500,
  demo_video_url: Str500,
  logo_url: Str500,
  description: z.string().max(20000).nullable().optional(),
  categories: StrList,
  tags: StrList,
  features: StrList,
  usps: StrList,
  keywords: StrList,
});
const FieldName = z.enum(PROFILE_FIELDS);
/** update_draft's `regenerate`: at most this many fields a request (spec 4.4). */
export const MAX_REGENERATE = 5;
const DraftId = z.object({ id: Uuid.describe('Draft id (uuid).') });

const DRAFT_SHAPE_DOC =
  'A draft has `id`, `url`, `status` — `crawling` (the site is being read), `drafting` (the profile is being written), `ready`, or `failed` with `error` {reason, message}; reasons: unreachable, timeout, robots_disallowed (robots.txt forbids reading), not_html, too_large, http_error, address_not_public, too_many_redirects, no_content, internal — then `progress` {stage: queued|robots|home|discover|pages|drafting|done|failed, pages_read, pages_planned} for a progress bar, `fields` (each of the 18 profile fields as {value, state, evidence: [{quote, url}]}; states: ai (drafted from the quoted evidence), not_found (the site does not state it; left blank on purpose), edited (the user changed the AI value), manual (the user typed a value the AI had not found), override (locked against AI redrafts), deleted (removed by the user)), faqs, founders, company_socials, founder_socials, story, milestones, competitor ({url, name, tagline, pricing_model, features, shared_features, only_theirs, only_ours, compared_at} or {url, error}), seo, `completeness` (0–100; ' +
  COMPLETENESS_FORMULA +
  '), `missing` (the profile fields still without a value), `not_found_on_website` (fields the site did not state), `listing_id` once submitted (else null), created_at and updated_at.';

export const submitListing = defineOperation({
  name: 'submit_listing',
  method: 'POST',
  path: '/drafts',
  access: 'listings:write',
  tags: ['Drafts'],
  summary: 'Start a listing from a website URL',
  description: `Starts drafting a listing from the product's public website. Answers 201 at once with a draft in status \`crawling\`; the service reads the site (respecting robots.txt) and drafts the profile in about a minute, quoting evidence from the site for every value and leaving blank whatever the site does not state. Poll get_draft every few seconds while the status is crawling or drafting. Nothing is published and nothing is charged. \`url\` must be an http or https address with a host (a bare domain such as example.com is read as https://example.com); other schemes, addresses with a user name or password, hosts that are no domain name (\`not-a-url\`, \`intranet\`) and addresses that are plainly not public (localhost, private IP addresses) are refused with 400; a name that resolves to a non-public address ends in status \`failed\` (address_not_public). A site that cannot be read ends in \`failed\` with the reason, never hangs: drafting has a total time limit. ${DRAFT_SHAPE_DOC}`,
  body: z.strictObject({ url: z.string().min(1).max(2048).describe("The product's public website (http or https).") }),
  response: JsonObject,
  status: 201,
  idempotencyKey: true,
  paginated: false,
  openWorld: true,
  handler: async (ctx, input) => createDraft(ctx, input.url),
});

export const listMyDrafts = defineOperation({
  name: 'list_my_drafts',
  method: 'GET',
  path: '/drafts',
  access: 'account:read',
  tags: ['Drafts'],
  summary: "The caller's drafts",
  description:
    "The caller's drafts, newest first. Each item: id, url, name (null until known), status (crawling, drafting, ready or failed), progress {stage, pages_read, pages_planned}, error, completeness (0–100), missing, listing_id (null until submitted), created_at, updated_at. Read one in full with get_draft.",
  query: z.object({ ...Pagination }),
  response: Paged(JsonObject),
  status: 200,
  idempotencyKey: false,
  paginated: true,
  handler: async (ctx, input) => {
    const { items, total } = await listOwnDrafts(ctx.db, userOf(ctx).userId, {
      limit: input.per_page,
      offset: offsetOf(input),
    });
    return paged(items.map(draftSummary), total, input);
  },
});

export const getDraft = defineOperation({
  name: 'get_draft',
  method: 'GET',
  path: '/drafts/{id}',
  access: 'account:read',
  tags: ['Drafts'],
  summary: 'One draft',
  description: `One of the caller's drafts. ${DRAFT_SHAPE_DOC}`,
  params: DraftId,
  response: JsonObject,
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => draftView(await getOwnDraft(ctx, input.id)),
});

export const updateDraft = defineOperation({
  name: 'update_draft',
  method: 'PATCH',
  path: '/drafts/{id}',
  access: 'listings:write',
  tags: ['Drafts'],
  summary: 'Edit a draft',
  description: [
    'Edits a draft; send only what changes (an empty body changes nothing). Returns the updated draft.',
    "Field states: a value typed in `fields` marks the field as the user's own — `edited` where the AI had a value, `manual` where the AI found nothing (a locked field stays `override`); `null` (or an empty string / empty list) removes the value (`deleted`); `lock_fields` locks fields against AI redrafts (`override`; the value is kept and regenerate refuses them with 409 until they are restored); `regenerate` (at most 5) has the AI redraft those fields from the evidence pages already read, in seconds — only when the draft is `ready` (else 409); `restore` returns fields to the AI's original value and evidence (`ai`, or `not_found` when the AI had none) and unlocks them. A field may appear in only one of fields, regenerate and restore, and in only one of lock_fields, regenerate and restore (a value may be typed and locked at once); otherwise 400 naming both lists.",
    'Rules: country is a two-letter ISO 3166-1 code; contact_email a valid email; demo_video_url an https link to a video site (YouTube, Vimeo, Loom, Wistia, Vidyard, Dailymotion…); founded_year a four-digit year 1800–2100; logo_url an http(s) link; categories are names or slugs from list_categories (the first is primary; stored by name).',
    'faqs, founders and milestones replace the whole list; company_socials and founder_socials replace the whole map (platform keys: linkedin, x, facebook, instagram, tiktok, youtube, threads, pinterest, github, reddit, medium, website, custom, productlaunch; values http(s) links; an empty value drops the platform); story and seo change only the keys sent (an empty string clears a key); competitor_url is read through our crawler (public sites only, robots.txt respected) and compared with this draft — the result is in `competitor`, or {url, error} when it cannot be read; an empty string clears it.',
    "User fields may be edited while the draft is still crawling or drafting: the AI's result never overwrites them. If the draft was already submitted, its listing is updated in the same step and submit_draft need not be called again.",
  ].join(' '),
  params: DraftId,
  body: z.strictObject({
    fields: ProfileFieldsInput.optional(),
    lock_fields: z.array(FieldName).max(20).optional(),
    regenerate: z.array(FieldName).max(MAX_REGENERATE).optional(),
    restore: z.array(FieldName).max(20).optional(),
    faqs: z.array(Faq).max(10).optional(),
    company_socials: Socials.optional(),
    founder_socials: Socials.optional(),
    founders: z
      .array(
        z.strictObject({
          name: z.string().min(1).max(160),
          title: z.string().max(160).optional(),
          bio: z.string().max(3000).optional(),
        }),
      )
      .max(6)
      .optional(),
    story: z.strictObject(Object.fromEntries(STORY_KEYS.map((k) => [k, z.string().max(8000).optional()]))).optional(),
    milestones: z.array(MilestoneInput).max(50).optional(),
    competitor_url: z.string().max(2048).optional().describe("A competitor's site to read and compare; empty clears."),
    seo: z.strictObject({ title: z.string().max(70).optional(), meta: z.string().max(170).optional() }).optional(),
  }),
  bodyOptional: true,
  response: JsonObject,
  status: 200,
  idempotencyKey: true,
  paginated: false,
  openWorld: true,
  handler: async (ctx, input) => {
    const { id, ...body } = input;
    return applyDraftUpdate(ctx, id, body as DraftPatch);
  },
});

export const inviteCofounder = defineOperation({
  name: 'invite_cofounder',
  method: 'POST',
  path: '/drafts/{id}/invites',
  access: 'listings:write',
  tags: ['Drafts'],
  summary: 'Invite a co-founder to add their profile',
  description:
    'Emails a co-founder an invitation (with a personal link) to add their founder profile to the draft. At most 10 invites per draft: the 11th address is refused with 400 validation_failed. Inviting an address again sends a fresh link and does not count twice. Returns 201 with the invite: {id, draft_id, email, created_at, resent, status (queued, sent or send_failed)}.',
  params: DraftId,
  body: z.strictObject({ email: Email }),
  response: JsonObject,
  status: 201,
  idempotencyKey: true,
  paginated: false,
  openWorld: true,
  handler: async (ctx, input) => sendInvite(ctx, input.id, input.email),
});

export const submitDraft = defineOperation({
  name: 'submit_draft',
  method: 'POST',
  path: '/drafts/{id}/submit',
  access: 'listings:write',
  tags: ['Drafts'],
  summary: 'Save a draft as a listing (not yet published)',
  description:
    "Saves a ready (or failed, then filled in by hand) draft as the caller's listing (status `draft`, plan `none`, not public yet) and returns {listing_id, slug, status, draft_id, created}. The listing takes the draft's fields, its first category as primary category, founders, FAQs, socials, story, milestones and SEO texts; fields the website did not state are listed in the listing's not_found_on_website. Running it again after edits updates the same listing (created: false) with the draft's profile fields; the sections (founders, FAQs, socials, story, milestones, SEO) are left as they are, since every update_draft after the first submit already wrote them and the listing's own operations (add_milestone, set_founder_story …) may have changed them since. 409 while the draft is still crawling or drafting, or when it has no name. 400 naming `fields.categories` when it names no category we have: every listing has one primary category (set one with update_draft; list_categories has them). A draft whose site could not be read (failed) can be submitted once the maker has typed at least its name with update_draft. Publish it next with choose_free_listing or a paid `launch` order (create_checkout).",
  params: DraftId,
  response: JsonObject,
  status: 200,
  idempotencyKey: true,
  paginated: false,
  handler: async (ctx, input) => submitDraftAsListing(ctx, input.id),
});
