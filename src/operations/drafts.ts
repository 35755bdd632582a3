// The maker's drafts (spec 4.4): a listing drafted from the product's website, edited, then saved as
// the maker's listing. Every draft operation answers with the one draft shape (DraftView below) built
// by store/repos/drafts.ts draftView(), or its short form in list_my_drafts.
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
  DateString,
  Email,
  Faq,
  ListingStatus,
  MilestoneInput,
  Paged,
  Pagination,
  Socials,
  Timestamp,
  Uuid,
  offsetOf,
  paged,
} from './schemas.ts';
import { SocialLinks } from './profile.ts';
import {
  DRAFT_FAILURE_REASONS,
  DRAFT_STAGES,
  DRAFT_STATUSES,
  FIELD_STATES,
  PROFILE_FIELDS,
  STORY_KEYS,
} from '../domain/vocabulary.ts';

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

// ------------------------------------------------------------------ the draft, as every draft operation answers it

/** One schema under each key (Object.fromEntries loses the keys' types: the cast gives them back). */
function shapeOf<K extends string, S extends z.ZodType>(keys: readonly K[], schema: S): { [P in K]: S } {
  return Object.fromEntries(keys.map((k) => [k, schema])) as { [P in K]: S };
}

// Evidence and a field are repeated under each of the 18 fields: they are described once, on `fields`
// (the JSON Schema inlines them 18 times), and on the FAQs, founders and milestones that carry quotes.
const Evidence = z.strictObject({ quote: z.string(), url: z.string(), item: z.number().int().optional() });
const EVIDENCE_DOC = [
  'Quotes [{quote, url, item?}]: words taken verbatim from a page of the site (url);',
  'item, on list fields, is the index of the item the quote supports.',
].join(' ');

const DraftField = z.strictObject({
  value: z.union([z.string(), z.array(z.string())]).nullable(),
  state: z.enum(FIELD_STATES),
  evidence: z.array(Evidence),
});
const FIELDS_DOC = [
  'Each of the 18 profile fields as {value, state, evidence}.',
  '`value`: text, or a list of strings for categories, tags, features, usps and keywords; null when empty.',
  '`state`: ai (drafted from the quoted evidence), not_found (the site does not state it; left blank on purpose),',
  'edited (the user changed the AI value), manual (the user typed a value the AI had not found),',
  'override (locked against AI redrafts), deleted (removed by the user).',
  `\`evidence\`: what the value was drafted from (empty for the user's own values). ${EVIDENCE_DOC}`,
].join(' ');

const DraftError = z
  .strictObject({
    reason: z
      .enum(DRAFT_FAILURE_REASONS)
      .describe('Machine-readable: robots_disallowed means robots.txt forbids reading the site.'),
    message: z.string().describe('What went wrong, in plain words.'),
  })
  .describe('Why reading the site failed.');

const DraftProgress = z
  .strictObject({
    stage: z
      .enum(DRAFT_STAGES)
      .nullable()
      .describe('queued → robots → home → discover → pages → drafting → done (or failed).'),
    pages_read: z.number().int(),
    pages_planned: z.number().int().describe('Pages the crawl means to read (0 until known).'),
  })
  .describe('For a progress bar.');

const DraftStatus = z
  .enum(DRAFT_STATUSES)
  .describe(
    'crawling (the site is being read), drafting (the profile is being written), ready, or failed (see `error`).',
  );

const Competitor = z
  .union([
    z.strictObject({
      url: z.string().describe("The competitor's homepage, as read."),
      name: z.string().nullable(),
      tagline: z.string().nullable(),
      pricing_model: z.string().nullable(),
      features: z.array(z.string()).describe('Its features, as its site states them.'),
      shared_features: z.array(z.string()).describe('Its features this draft has too.'),
      only_theirs: z.array(z.string()).describe('Its features this draft does not list.'),
      only_ours: z.array(z.string()).describe("This draft's features it does not list."),
      compared_at: Timestamp,
    }),
    z.strictObject({ url: z.string().describe('The address given.'), error: DraftError }),
  ])
  .nullable()
  .describe(
    "The competitor read and compared (update_draft's competitor_url), {url, error} when it could not be read, " +
      'or null.',
  );

const DraftView = z.strictObject({
  id: z.string().describe('Draft id (uuid).'),
  url: z.string().describe("The product's website, as read."),
  status: DraftStatus,
  progress: DraftProgress,
  error: DraftError.nullable().describe('Why reading the site failed (status failed), else null.'),
  fields: z.strictObject(shapeOf(PROFILE_FIELDS, DraftField)).describe(FIELDS_DOC),
  faqs: z.array(
    z.strictObject({
      question: z.string(),
      answer: z.string(),
      evidence: z.array(Evidence).optional().describe(`On FAQs drafted from the site. ${EVIDENCE_DOC}`),
    }),
  ),
  founders: z
    .array(
      z.strictObject({
        name: z.string(),
        title: z.string().optional().describe('Role, when known.'),
        bio: z.string().optional(),
        evidence: z.array(Evidence).optional().describe(`On founders drafted from the site. ${EVIDENCE_DOC}`),
      }),
    )
    .describe('The first is the primary founder.'),
  company_socials: SocialLinks.describe(`The company's profiles. ${SocialLinks.description}`),
  founder_socials: SocialLinks.describe(`The founders' profiles. ${SocialLinks.description}`),
  story: z
    .strictObject(shapeOf(STORY_KEYS, z.string().optional()))
    .describe('The founder story: the sections that have text (title, story, why_started … whats_next).'),
  milestones: z.array(
    z.strictObject({
      id: z.number().int().describe("Its position, 1-based (a draft's milestones are not saved records yet)."),
      date: DateString,
      title: z.string(),
      description: z.string().optional(),
      url: z.string().optional(),
      evidence: z.array(Evidence).optional().describe(`On milestones drafted from the site. ${EVIDENCE_DOC}`),
    }),
  ),
  competitor: Competitor,
  seo: z
    .strictObject({
      title: z.string().optional().describe('Title for search engines.'),
      meta: z.string().optional().describe('Meta description for search engines.'),
    })
    .describe('Search-engine texts, where written.'),
  completeness: z.number().int().describe(`0–100: ${COMPLETENESS_FORMULA}`),
  missing: z.array(FieldName).describe('The profile fields still without a value, in form order.'),
  not_found_on_website: z
    .array(FieldName)
    .describe('Fields the site did not state (and still without a value); empty until the draft is ready.'),
  listing_id: z.number().int().nullable().describe('The listing it was saved as (submit_draft), else null.'),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** A draft in list_my_drafts: the draft without its fields and sections, with its name. */
const DraftSummary = DraftView.pick({
  id: true,
  url: true,
  status: true,
  progress: true,
  error: true,
  completeness: true,
  missing: true,
  listing_id: true,
  created_at: true,
  updated_at: true,
}).extend({ name: z.string().nullable().describe('The product name, null until known.') });

const Invite = z.strictObject({
  id: z.number().int().describe('Invite id.'),
  email: z.string().describe('The address invited (as first typed, for a resent invite).'),
  created_at: Timestamp.describe('When the address was first invited.'),
  resent: z.boolean().describe('True when the address was invited before: a fresh link, still one invite.'),
  draft_id: z.string(),
  status: z
    .enum(['queued', 'sent', 'send_failed'])
    .describe('The invite mail: sent, queued (no mail server configured: kept in the outbox), or send_failed.'),
});

const SubmittedDraft = z.strictObject({
  listing_id: z.number().int().describe('The listing (get_my_listing takes it).'),
  slug: z.string().describe("The listing's slug: its page is /listings/{slug} once live."),
  status: ListingStatus,
  draft_id: z.string(),
  created: z
    .boolean()
    .describe(
      "True when this call created the listing; false when the draft went to a listing that exists (the maker's own).",
    ),
  version_id: z
    .number()
    .int()
    .nullable()
    .describe(
      "The listing edit this call made (a version in the listing's history, reviewed by the site team), or null when it changed nothing of an existing listing or created one.",
    ),
  changed_fields: z
    .array(FieldName)
    .describe('The profile fields this call changed on an existing listing (empty when it created one).'),
  kept_fields: z
    .array(FieldName)
    .describe(
      "The profile fields where the listing keeps a value other than the draft's: edits made on the listing since (update_my_listing) are not replaced. To replace one, send the field in update_draft.",
    ),
});

// ------------------------------------------------------------------ examples

const field = (
  value: string | string[] | null,
  evidence: Array<{ quote: string; url: string; item?: number }> = [],
  state: (typeof FIELD_STATES)[number] = value === null ? 'not_found' : 'ai',
) => ({ value, state, evidence });
const HOME = 'https://funnelry.example/';
const PRICING = 'https://funnelry.example/pricing';

const EXAMPLE_DRAFT: z.input<typeof DraftView> = {
  id: '3f2a9c4e-1b7d-4e8a-9c0f-5d6e7f8a9b0c',
  url: 'https://funnelry.example/',
  status: 'ready',
  progress: { stage: 'done', pages_read: 6, pages_planned: 6 },
  error: null,
  fields: {
    name: field('Funnelry', [{ quote: 'Funnelry', url: HOME }]),
    tagline: field('Product analytics that answers questions in plain words', [
      { quote: 'Product analytics that answers questions in plain words', url: HOME },
    ]),
    short_description: field('Ask how your product is used and get a chart back.', [
      { quote: 'Ask how your product is used and get a chart back.', url: HOME },
    ]),
    description: field('Funnelry turns product events into answers: funnels, retention and paths.', [
      { quote: 'Funnelry turns product events into answers', url: HOME },
    ]),
    stage: field(null),
    categories: field(['Analytics'], [], 'edited'),
    tags: field(['analytics', 'funnels'], [{ quote: 'funnels, retention and paths', url: HOME, item: 1 }]),
    pricing_model: field('Freemium', [{ quote: 'Free up to 10,000 events a month', url: PRICING }]),
    pricing_summary: field('Free up to 10,000 events a month; Team $49/month', [
      { quote: 'Free up to 10,000 events a month', url: PRICING },
      { quote: 'Team $49/month', url: PRICING },
    ]),
    country: field('DE', [], 'manual'),
    city: field(null),
    founded_year: field(null),
    features: field(
      ['Funnels in plain words', 'Retention cohorts'],
      [
        { quote: 'Funnels in plain words', url: HOME, item: 0 },
        { quote: 'Retention cohorts', url: HOME, item: 1 },
      ],
    ),
    usps: field(['No SQL needed'], [{ quote: 'No SQL needed', url: HOME, item: 0 }]),
    keywords: field(['product analytics'], [{ quote: 'product analytics', url: HOME, item: 0 }]),
    contact_email: field('hello@funnelry.example', [{ quote: 'hello@funnelry.example', url: HOME }]),
    demo_video_url: field(null),
    logo_url: field('https://funnelry.example/logo.svg', [{ quote: '/logo.svg', url: HOME }]),
  },
  faqs: [
    {
      question: 'Is there a free plan?',
      answer: 'Yes, up to 10,000 events a month.',
      evidence: [{ quote: 'Free up to 10,000 events a month', url: PRICING }],
    },
  ],
  founders: [{ name: 'Ada Lovelace', title: 'CEO' }],
  company_socials: { x: 'https://x.com/funnelry' },
  founder_socials: { linkedin: 'https://www.linkedin.com/in/ada' },
  story: { title: 'Why we built Funnelry', why_started: 'Our own analytics were unreadable.' },
  milestones: [{ id: 1, date: '2026-03-02', title: 'Public beta' }],
  competitor: null,
  seo: {},
  completeness: 84,
  missing: ['stage', 'city', 'founded_year', 'demo_video_url'],
  not_found_on_website: ['stage', 'city', 'founded_year', 'demo_video_url'],
  listing_id: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:01:04.000Z',
};

const EXAMPLE_CRAWLING: z.input<typeof DraftView> = {
  ...EXAMPLE_DRAFT,
  status: 'crawling',
  progress: { stage: 'queued', pages_read: 0, pages_planned: 0 },
  fields: {
    name: field(null),
    tagline: field(null),
    short_description: field(null),
    description: field(null),
    stage: field(null),
    categories: field(null),
    tags: field(null),
    pricing_model: field(null),
    pricing_summary: field(null),
    country: field(null),
    city: field(null),
    founded_year: field(null),
    features: field(null),
    usps: field(null),
    keywords: field(null),
    contact_email: field(null),
    demo_video_url: field(null),
    logo_url: field(null),
  },
  faqs: [],
  founders: [],
  company_socials: {},
  founder_socials: {},
  story: {},
  milestones: [],
  completeness: 0,
  missing: [...PROFILE_FIELDS],
  not_found_on_website: [],
  updated_at: EXAMPLE_DRAFT.created_at,
};

const DRAFT_SHAPE_DOC = [
  'A draft has `id`, `url`, `status` — `crawling` (the site is being read), `drafting` (the profile is being',
  'written), `ready`, or `failed` with `error` {reason, message}; reasons: unreachable, timeout,',
  'robots_disallowed (robots.txt forbids reading), not_html, too_large, http_error, address_not_public,',
  'too_many_redirects, no_content, internal — then `progress` {stage:',
  'queued|robots|home|discover|pages|drafting|done|failed, pages_read, pages_planned} for a progress bar,',
  '`fields` (each of the 18 profile fields as {value, state, evidence: [{quote, url}]}; states: ai (drafted',
  'from the quoted evidence), not_found (the site does not state it; left blank on purpose), edited (the user',
  'changed the AI value), manual (the user typed a value the AI had not found), override (locked against AI',
  'redrafts), deleted (removed by the user)), faqs, founders, company_socials, founder_socials, story,',
  'milestones, competitor ({url, name, tagline, pricing_model, features, shared_features, only_theirs,',
  `only_ours, compared_at} or {url, error}), seo, \`completeness\` (0–100; ${COMPLETENESS_FORMULA}),`,
  '`missing` (the profile fields still without a value), `not_found_on_website` (fields the site did not',
  'state), `listing_id` once submitted (else null), created_at and updated_at.',
].join(' ');

export const submitListing = defineOperation({
  name: 'submit_listing',
  method: 'POST',
  path: '/drafts',
  access: 'listings:write',
  tags: ['Drafts'],
  summary: 'Start a listing from a website URL',
  description: [
    "Starts drafting a listing from the product's public website. Answers 201 at once with a draft in status",
    '`crawling`; the service reads the site (respecting robots.txt) and drafts the profile in about a minute,',
    'quoting evidence from the site for every value and leaving blank whatever the site does not state. Poll',
    'get_draft every few seconds while the status is crawling or drafting. Nothing is published and nothing is',
    'charged. `url` must be an http or https address with a host (a bare domain such as example.com is read as',
    'https://example.com); other schemes, addresses with a user name or password, hosts that are no domain name',
    '(`not-a-url`, `intranet`) and addresses that are plainly not public (localhost, private IP addresses) are',
    'refused with 400; a name that resolves to a non-public address ends in status `failed` (address_not_public).',
    'A site that cannot be read ends in `failed` with the reason, never hangs: drafting has a total time limit.',
    "One website has one listing: a website another person's public listing already lists (same registrable",
    'domain, port and path: https://www.example.com/ and https://app.example.com are example.com, while',
    'alice.github.io and bob.github.io are two sites) is refused with 409 conflict naming it in',
    '`existing_listing` {slug, name, url, page_url, claim: {operation: claim_listing, slug, page_url}}; if the',
    'product is yours, claim that listing instead. A website the caller has listed already is accepted: the',
    'draft goes to their listing when submitted (see submit_draft).',
    DRAFT_SHAPE_DOC,
  ].join(' '),
  body: z.strictObject({ url: z.string().min(1).max(2048).describe("The product's public website (http or https).") }),
  response: DraftView,
  examples: { request: { url: 'https://funnelry.example' }, response: EXAMPLE_CRAWLING },
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
  description: [
    "The caller's drafts, newest first. Each item: id, url, name (null until known), status (crawling, drafting,",
    'ready or failed), progress {stage, pages_read, pages_planned}, error, completeness (0–100), missing,',
    'listing_id (null until submitted), created_at, updated_at. Read one in full with get_draft.',
  ].join(' '),
  query: z.object({ ...Pagination }),
  response: Paged(DraftSummary),
  examples: {
    response: {
      items: [
        {
          id: EXAMPLE_DRAFT.id,
          url: EXAMPLE_DRAFT.url,
          name: 'Funnelry',
          status: EXAMPLE_DRAFT.status,
          progress: EXAMPLE_DRAFT.progress,
          error: null,
          completeness: EXAMPLE_DRAFT.completeness,
          missing: EXAMPLE_DRAFT.missing,
          listing_id: null,
          created_at: EXAMPLE_DRAFT.created_at,
          updated_at: EXAMPLE_DRAFT.updated_at,
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
  description: ["One of the caller's drafts.", DRAFT_SHAPE_DOC].join(' '),
  params: DraftId,
  response: DraftView,
  examples: { response: EXAMPLE_DRAFT },
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
    'Edits a draft; send only what changes (an empty body changes nothing). Returns the updated draft. Field',
    "states: a value typed in `fields` marks the field as the user's own — `edited` where the AI had a value,",
    '`manual` where the AI found nothing (a locked field stays `override`); `null` (or an empty string / empty',
    'list) removes the value (`deleted`); `lock_fields` locks fields against AI redrafts (`override`; the value',
    'is kept and regenerate refuses them with 409 until they are restored); `regenerate` (at most 5) has the AI',
    'redraft those fields from the evidence pages already read, in seconds — only when the draft is `ready` (else',
    "409); `restore` returns fields to the AI's original value and evidence (`ai`, or `not_found` when the AI had",
    'none) and unlocks them. A field may appear in only one of fields, regenerate and restore, and in only one of',
    'lock_fields, regenerate and restore (a value may be typed and locked at once); otherwise 400 naming both',
    'lists. Rules: country is a two-letter ISO 3166-1 code; contact_email a valid email; demo_video_url an https',
    'link to a video site (YouTube, Vimeo, Loom, Wistia, Vidyard, Dailymotion…); founded_year a four-digit year',
    '1800–2100; logo_url an http(s) link; categories are names or slugs from list_categories (the first is',
    'primary; stored by name). faqs, founders and milestones replace the whole list; company_socials and',
    'founder_socials replace the whole map (platform keys: linkedin, x, facebook, instagram, tiktok, youtube,',
    'threads, pinterest, github, reddit, medium, website, custom, productlaunch; values http(s) links; an empty',
    'value drops the platform); story and seo change only the keys sent (an empty string clears a key);',
    'competitor_url is read through our crawler (public sites only, robots.txt respected) and compared with this',
    'draft — the result is in `competitor`, or {url, error} when it cannot be read; an empty string clears it.',
    "User fields may be edited while the draft is still crawling or drafting: the AI's result never overwrites",
    'them. If the draft was already submitted, its listing is updated in the same step and submit_draft need not',
    'be called again: what this call changed (and only that) reaches the listing as an edit by its owner, kept in',
    "the listing's version history and reviewed by the site team like update_my_listing's; sending a field",
    'replaces the value the listing shows, even one edited on the listing since. A listing a claim moved to',
    'another account is no longer written.',
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
  response: DraftView,
  examples: {
    request: { fields: { country: 'DE', city: null }, lock_fields: ['name'] },
    response: {
      ...EXAMPLE_DRAFT,
      fields: {
        ...EXAMPLE_DRAFT.fields,
        name: { ...EXAMPLE_DRAFT.fields.name, state: 'override' },
        city: field(null, [], 'deleted'),
      },
      missing: ['stage', 'city', 'founded_year', 'demo_video_url'],
    },
  },
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
  description: [
    'Emails a co-founder an invitation (with a personal link) to add their founder profile to the draft. At most',
    '10 invites per draft: the 11th address is refused with 400 validation_failed. Inviting an address again',
    'sends a fresh link and does not count twice. Returns 201 with the invite: {id, draft_id, email, created_at,',
    'resent, status (queued, sent or send_failed)}.',
  ].join(' '),
  params: DraftId,
  body: z.strictObject({ email: Email }),
  response: Invite,
  examples: {
    request: { email: 'grace@funnelry.example' },
    response: {
      id: 41,
      email: 'grace@funnelry.example',
      created_at: '2026-11-20T10:05:00.000Z',
      resent: false,
      draft_id: EXAMPLE_DRAFT.id,
      status: 'sent',
    },
  },
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
  description: [
    "Saves a ready (or failed, then filled in by hand) draft as the caller's listing (status `draft`, plan",
    '`none`, not public yet) and returns {listing_id, slug, status, draft_id, created}. The listing takes the',
    "draft's fields, its first category as primary category, founders, FAQs, socials, story, milestones and SEO",
    "texts; fields the website did not state are listed in the listing's not_found_on_website. A draft never",
    'silently overwrites a listing. Running it again proposes only what changed in the draft since it last',
    'reached the listing; since every update_draft after the first submit reaches the listing at once, that is',
    "nothing: the listing's own later edits (update_my_listing) are kept and named in `kept_fields`, and the",
    "sections (founders, FAQs, socials, story, milestones, SEO) are left as they are. To replace a listing's value",
    "with the draft's, send that field in update_draft. One website has one listing (same registrable domain,",
    'port and path; www. and subdomains count as the site, a site under a hosting suffix such as github.io does',
    "not): when the caller already has a listing of the draft's website, the draft goes to it (created: false)",
    'as an edit: the fields the maker set by hand in the draft (edited, manual, deleted, override) and those the',
    "listing has empty; the AI's other values do not replace what it shows. Every change to an existing listing",
    'is an edit by its owner: kept in its version history (`version_id`, `changed_fields`) and reviewed by the',
    "site team, like update_my_listing's. 409 conflict when another person's listing of the website is public",
    '(live, scheduled or awaiting its badge): the error names it in `existing_listing` {slug, name, url,',
    'page_url, claim} — claim it with claim_listing if the product is yours. A listing that is not public',
    '(saved, never published) blocks nothing. 409 while the draft is still crawling or drafting, or when it has no name. 400',
    'naming `fields.categories` when it names no category we have: every listing has one primary category (set',
    'one with update_draft; list_categories has them). A draft whose site could not be read (failed) can be',
    'submitted once the maker has typed at least its name with update_draft. Publish it next with',
    'choose_free_listing or a paid `launch` order (create_checkout).',
  ].join(' '),
  params: DraftId,
  response: SubmittedDraft,
  examples: {
    response: {
      listing_id: 512,
      slug: 'funnelry',
      status: 'draft',
      draft_id: EXAMPLE_DRAFT.id,
      created: true,
      version_id: null,
      changed_fields: [],
      kept_fields: [],
    },
  },
  status: 200,
  idempotencyKey: true,
  paginated: false,
  handler: async (ctx, input) => submitDraftAsListing(ctx, input.id),
});
