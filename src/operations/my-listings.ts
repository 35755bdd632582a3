// The maker's own listings (spec 4.5): read in any status, edited, given updates, milestones and a
// founder story, and published free. Every own-listing answer is the public profile (operations/
// profile.ts) with all its sections plus the fields only the owner sees (OwnListing below).
import { z } from 'zod';
import { defineOperation } from './define.ts';
import { userOf } from './context.ts';
import {
  Faqs,
  IntId,
  ListingSummary,
  MilestoneInput,
  Paged,
  Pagination,
  Socials,
  Timestamp,
  offsetOf,
  paged,
} from './schemas.ts';
import { MilestoneItem, StoryView, paidSectionsShape, profileShape } from './profile.ts';
import { EXAMPLE_PROFILE, EXAMPLE_SUMMARY } from './examples.ts';
import { LISTING_PLANS, STORY_KEYS } from '../domain/vocabulary.ts';
import { listOwnListings } from '../store/repos/my-listings.ts';
import {
  EDITABLE_FIELDS,
  TRAVELLING_FIELDS,
  addMilestone as addMilestoneFor,
  deleteMilestone as deleteMilestoneOf,
  postListingUpdate as postUpdate,
  setFounderStory as setStory,
  updateMyListing as updateOwn,
  type ListingPatch,
} from '../services/listing-edits.ts';
import { getMyListing as getOwn } from '../services/own-listing.ts';
import { chooseFreeListing as chooseFree } from '../services/publishing.ts';

const ListingId = z.object({ listing_id: IntId.describe("Your listing's integer id.") });
const Strs = z.array(z.string().max(200)).max(20).nullable().optional();
const S = (max: number) => z.string().max(max).nullable().optional();

// ------------------------------------------------------------------ results

const ownerOnly = {
  listing_id: z.number().int().describe("Your listing's integer id (the my-listings operations take it)."),
  plan: z.enum(LISTING_PLANS).describe('none (not published yet), free (badge on the homepage), paid.'),
  unlocked: z
    .array(z.string())
    .describe(
      'Paid extras unlocked for the public: story, milestones and media (a paid launch), ' +
        'featured (the Featured badge).',
    ),
  verified: z.boolean().describe('Ownership proved (not the same as paid).'),
  badge_seen_at: Timestamp.nullable().describe('When our badge was first found on its homepage, or null.'),
  created_at: Timestamp,
  updated_at: Timestamp,
  public_url: z.string().describe('The listing page (public once live).'),
};

/** A listing in list_my_listings: its summary (any status) and what only the owner sees. */
const OwnListingItem = ListingSummary.extend(ownerOnly);

/** get_my_listing: the public profile, every paid section present, and what only the owner sees. */
const OwnListing = z.strictObject({
  ...profileShape,
  story: paidSectionsShape.story.describe(
    'The founder story, or null when it has none (always present for the owner).',
  ),
  milestones: paidSectionsShape.milestones.describe('Newest first (always present for the owner).'),
  media: paidSectionsShape.media.describe('Screenshots and videos (always present for the owner).'),
  ...ownerOnly,
  badges: z.strictObject({
    api: z.string().describe('get_badges: the ready-to-paste badge HTML.'),
    page: z.string().describe('The badge page on the website.'),
  }),
  last_badge_check: z
    .strictObject({
      checked_at: Timestamp,
      found: z.boolean(),
      detail: z.string().nullable().describe('What the check saw, in plain words.'),
    })
    .nullable()
    .describe('The latest reading of its homepage for our badge, or null (never read).'),
  next_steps: z.array(z.string()).describe('What to do next, in plain words, for its status.'),
});

const UpdatedListing = OwnListing.extend({
  changed_fields: z.array(z.enum(EDITABLE_FIELDS)).describe('What this call changed (empty: nothing).'),
  version_id: z.number().int().nullable().describe('The version-history entry, null when nothing changed.'),
  applied_to: z
    .array(z.string())
    .describe('Site keys that received the travelling fields (empty when none of them changed).'),
  applied_fields: z.array(z.enum(TRAVELLING_FIELDS)).describe('The travelling fields copied to those sites.'),
});

const PostedUpdate = z.strictObject({
  id: z.number().int().describe('Update id.'),
  listing_id: z.number().int(),
  title: z.string(),
  body: z.string().describe('Plain text.'),
  created_at: Timestamp,
  followers_notified: z.number().int().describe('Followers mailed (the messages queued; the poster is not mailed).'),
});

const SavedStory = StoryView.extend({
  listing_id: z.number().int(),
  updated_at: Timestamp,
  shown_publicly: z.boolean().describe('The story section is unlocked: the public sees it.'),
});

// ------------------------------------------------------------------ examples

const EXAMPLE_BADGES = {
  api: 'https://launchlist.example/api/v1/listings/funnelry/badges',
  page: 'https://launchlist.example/listings/funnelry/badges',
};

const { vote_integrity: _publicOnly, ...EXAMPLE_OWN_PROFILE } = EXAMPLE_PROFILE;

const EXAMPLE_OWN: z.input<typeof OwnListing> = {
  listing_id: 512,
  ...EXAMPLE_OWN_PROFILE,
  story: {
    title: 'Why we built Funnelry',
    story: null,
    why_started: 'Our own analytics were unreadable.',
    problem: null,
    journey: null,
    challenges: null,
    achievements: null,
    lessons: null,
    whats_next: null,
    updated_at: '2026-11-20T10:00:00.000Z',
  },
  milestones: [
    { id: 7, date: '2026-03-02', title: 'Public beta', description: null, url: 'https://funnelry.example/blog/beta' },
  ],
  media: [{ type: 'image', url: 'https://funnelry.example/media/dashboard.png', alt: 'Funnelry dashboard' }],
  plan: 'paid',
  unlocked: ['story', 'milestones', 'media'],
  badge_seen_at: null,
  created_at: '2026-11-02T08:00:00.000Z',
  public_url: 'https://launchlist.example/listings/funnelry',
  badges: EXAMPLE_BADGES,
  last_badge_check: null,
  next_steps: [
    'The listing is live at https://launchlist.example/listings/funnelry. Tell your followers what is new with post_listing_update; votes come from people on the site.',
  ],
};

const EXAMPLE_FREE: z.input<typeof OwnListing> = {
  ...EXAMPLE_OWN,
  status: 'awaiting_badge',
  plan: 'free',
  launch_week: '2026-12-21',
  launched_at: null,
  unlocked: [],
  verified: false,
  awards: [],
  votes: 0,
  followers: 0,
  views: 0,
  last_badge_check: null,
  next_steps: [
    'Put a Launchlist badge on your homepage https://funnelry.example: get the ready-to-paste HTML from get_badges (GET https://launchlist.example/api/v1/listings/funnelry/badges) or the badge page https://launchlist.example/listings/funnelry/badges. Any of its badges, or a plain link to https://launchlist.example/listings/funnelry, counts.',
    'We read your homepage about every 15 minutes. Once the badge is there the listing is scheduled and goes live in the week of 2026-12-21 (Monday 00:00 UTC); if that week has already started, it goes live at once. Keep the badge up.',
  ],
};

export const LIFECYCLE_DOC = [
  'Listing statuses: `draft` (saved by submit_draft, plan `none`, not public) → choose_free_listing →',
  '`awaiting_badge` (plan `free`, queued for launch week W: the Monday `free_queue_weeks` weeks after the',
  'current week; shown as upcoming; it goes live only once a Launchlist badge or a link to its listing page is',
  'on its homepage) → badge found → `scheduled` (cleared to go live in its launch week; also where a paid',
  'launch for a future week lands) → the launch week starts → `live` (public, searchable, open to votes from',
  'people on the site; `launched_at` set). The service reads the homepage of every awaiting_badge listing about',
  'every 15 minutes (robots.txt respected); a badge found while week W is already running makes the listing',
  'live at once, and a badge found only after week W has ended moves the launch to the current week. A paid',
  'launch (create_checkout with product `launch`, then payment) goes live at once or in the chosen week.',
].join(' ');

const OWN_LISTING_DOC = [
  'An own listing: `listing_id`, `slug`, `status` (draft, awaiting_badge, scheduled, live; see below), `plan`',
  '(none, free, paid), `launch_week` (Monday YYYY-MM-DD or null), `launched_at`, `unlocked` (paid sections',
  'unlocked for the public: story, milestones, media, extra_categories), `verified` (ownership proved; not the',
  'same as paid), `badge_seen_at` (when our badge was first found on the homepage), `created_at`, `updated_at`,',
  '`public_url` (the listing page), `badges` {api: get_badges URL, page: the badge page}, `last_badge_check`',
  '{checked_at, found, detail} or null, `next_steps` (what to do next, in plain words), and everything public —',
  'the same profile get_listing returns (name, url, tagline, description, pricing, categories, founders, faqs,',
  'socials, latest_updates, domain_rating …) — where `story`, `milestones` and `media` are ALWAYS present for',
  'the owner; `unlocked` tells whether the public sees them.',
  LIFECYCLE_DOC,
].join(' ');

export const listMyListings = defineOperation({
  name: 'list_my_listings',
  method: 'GET',
  path: '/me/listings',
  access: 'account:read',
  tags: ['My listings'],
  summary: "The caller's listings, in any status",
  description: [
    'Every listing owned by the caller, in any status, newest first. Each item is a listing summary (slug, name,',
    'url, tagline, logo_url, votes, primary_category, status, launch_week, launched_at) plus listing_id, plan,',
    'unlocked, verified, badge_seen_at, created_at, updated_at and public_url; read one in full with',
    'get_my_listing.',
    LIFECYCLE_DOC,
  ].join(' '),
  query: z.object({ ...Pagination }),
  response: Paged(OwnListingItem),
  examples: {
    response: {
      items: [
        {
          listing_id: 512,
          ...EXAMPLE_SUMMARY,
          plan: 'paid',
          unlocked: ['story', 'milestones', 'media'],
          verified: true,
          badge_seen_at: null,
          created_at: '2026-11-02T08:00:00.000Z',
          updated_at: '2026-11-20T10:00:00.000Z',
          public_url: 'https://launchlist.example/listings/funnelry',
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
    const { items, total } = await listOwnListings(ctx.db, userOf(ctx).userId, {
      limit: input.per_page,
      offset: offsetOf(input),
    });
    return paged(
      items.map((i) => ({ ...i, public_url: `${ctx.config.publicUrl}/listings/${i.slug}` })),
      total,
      input,
    );
  },
});

export const getMyListing = defineOperation({
  name: 'get_my_listing',
  method: 'GET',
  path: '/me/listings/{listing_id}',
  access: 'account:read',
  tags: ['My listings'],
  summary: "One of the caller's listings",
  description: [
    "One of the caller's listings, in any status (404 when it does not exist or belongs to someone else).",
    OWN_LISTING_DOC,
  ].join(' '),
  params: ListingId,
  response: OwnListing,
  examples: { response: EXAMPLE_OWN },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => getOwn(ctx, input.listing_id),
});

export const updateMyListing = defineOperation({
  name: 'update_my_listing',
  method: 'PATCH',
  path: '/me/listings/{listing_id}',
  access: 'listings:write',
  tags: ['My listings'],
  summary: 'Edit a listing',
  description: [
    'Edits publish at once (in any status), are kept in the version history, and the site team sees a',
    'before/after copy. Send only what changes; an empty body (or values equal to the current ones) changes',
    'nothing and writes no version. Rules: text is trimmed and an empty string or null clears a field; `country`',
    'is a two-letter ISO 3166-1 code (stored upper-case); `contact_email` a valid email; `demo_video_url` an',
    'https link to a video site (YouTube, Vimeo, Loom, Wistia, Vidyard, Dailymotion…); `founded_year` an integer',
    '1800–2100; features, usps and keywords replace the list (items trimmed, blanks and duplicates dropped);',
    '`socials` replaces every link (platform keys as in update_draft; values http(s) links; an empty value drops',
    'the platform); `faqs` replaces every FAQ (question and answer must not be empty). `apply_to` (`all` or site',
    'keys, see get_site_info) also writes the headline, summary and SEO fields (headline, summary, seo_title,',
    "seo_description) changed in this call to the same company's listings on those sites; only the fields sent",
    'travel; `all` means every other site; an unknown key is a 400 naming it. Default: this listing only. Returns',
    'the own listing (as get_my_listing) plus `changed_fields` (what changed), `version_id` (the version-history',
    'entry, null when nothing changed), `applied_to` (the site keys that received travelling fields; empty when',
    'none of them changed) and `applied_fields`.',
  ].join(' '),
  params: ListingId,
  body: z.strictObject({
    fields: z
      .strictObject({
        tagline: S(200),
        short_description: S(300),
        description: S(20000),
        pricing_model: S(40),
        pricing_summary: S(300),
        country: S(2),
        city: S(120),
        founded_year: z.number().int().min(1800).max(2100).nullable().optional(),
        demo_video_url: S(500),
        contact_email: S(254),
        features: Strs,
        usps: Strs,
        keywords: Strs,
        headline: S(200),
        summary: S(20000),
        seo_title: S(200),
        seo_description: S(320),
      })
      .optional(),
    apply_to: z.array(z.string().max(40)).max(60).optional(),
    socials: Socials.optional(),
    faqs: Faqs.optional(),
  }),
  bodyOptional: true,
  response: UpdatedListing,
  examples: {
    request: { fields: { headline: 'Analytics you can ask' }, apply_to: ['all'] },
    response: {
      ...EXAMPLE_OWN,
      headline: 'Analytics you can ask',
      changed_fields: ['headline'],
      version_id: 88,
      applied_to: ['launchlist-de'],
      applied_fields: ['headline'],
    },
  },
  status: 200,
  idempotencyKey: true,
  paginated: false,
  handler: async (ctx, input) => {
    const { listing_id, ...body } = input;
    return updateOwn(ctx, listing_id, body as ListingPatch);
  },
});

export const postListingUpdate = defineOperation({
  name: 'post_listing_update',
  method: 'POST',
  path: '/me/listings/{listing_id}/updates',
  access: 'listings:write',
  tags: ['My listings'],
  summary: "Post a 'what's new' update",
  description: [
    "Publishes an update (title, plain-text body; neither may be empty) that feeds the site's latest-updates page",
    "and the listing's `latest_updates` (get_listing shows the 5 newest). The listing's followers are told by",
    'email, one message each (the poster is not mailed about their own update): the messages are queued with the',
    'update, in the same commit, and sent in the background, so `followers_notified` counts the messages queued.',
    'Returns 201 with {id, listing_id, title, body, created_at, followers_notified}.',
  ].join(' '),
  params: ListingId,
  body: z.strictObject({ title: z.string().min(1).max(200), body: z.string().min(1).max(5000) }),
  response: PostedUpdate,
  examples: {
    request: { title: 'Retention cohorts', body: 'Cohorts by signup week, in plain words.' },
    response: {
      id: 13,
      listing_id: 512,
      title: 'Retention cohorts',
      body: 'Cohorts by signup week, in plain words.',
      created_at: '2026-11-21T09:00:00.000Z',
      followers_notified: 31,
    },
  },
  status: 201,
  idempotencyKey: true,
  paginated: false,
  handler: async (ctx, input) => postUpdate(ctx, input.listing_id, { title: input.title, body: input.body }),
});

export const addMilestone = defineOperation({
  name: 'add_milestone',
  method: 'POST',
  path: '/me/listings/{listing_id}/milestones',
  access: 'listings:write',
  tags: ['My listings'],
  summary: 'Add a milestone',
  description: [
    'Adds a milestone: `date` (YYYY-MM-DD, a real date), `title` (max 200, not empty), optional `description`',
    '(max 2000) and `url` (https only, max 500). Milestones show publicly on paid listings or when the section is',
    'unlocked (`unlocked` contains milestones); the owner always sees them in get_my_listing. At most 50 per',
    'listing: the 51st is refused with 400. Returns 201 with {id, date, title, description, url}.',
  ].join(' '),
  params: ListingId,
  body: MilestoneInput,
  response: MilestoneItem,
  examples: {
    request: { date: '2026-11-16', title: 'Launched on Launchlist' },
    response: { id: 8, date: '2026-11-16', title: 'Launched on Launchlist', description: null, url: null },
  },
  status: 201,
  idempotencyKey: true,
  paginated: false,
  handler: async (ctx, input) => {
    const { listing_id, ...m } = input;
    return addMilestoneFor(ctx, listing_id, m);
  },
});

export const deleteMilestone = defineOperation({
  name: 'delete_milestone',
  method: 'DELETE',
  path: '/me/listings/{listing_id}/milestones/{milestone_id}',
  access: 'listings:write',
  tags: ['My listings'],
  summary: 'Delete a milestone',
  description: [
    "Deletes one milestone of the caller's listing and returns {deleted: true, id}. 404 when the listing is not",
    "the caller's or has no milestone with that id.",
  ].join(' '),
  params: z.object({ listing_id: IntId, milestone_id: IntId }),
  response: z.strictObject({
    deleted: z.literal(true),
    id: z.number().int().describe('The milestone deleted.'),
  }),
  examples: { response: { deleted: true, id: 8 } },
  status: 200,
  idempotencyKey: true,
  paginated: false,
  handler: async (ctx, input) => deleteMilestoneOf(ctx, input.listing_id, input.milestone_id),
});

export const setFounderStory = defineOperation({
  name: 'set_founder_story',
  method: 'PUT',
  path: '/me/listings/{listing_id}/story',
  access: 'listings:write',
  tags: ['My listings'],
  summary: 'Write the founder story',
  description: [
    "Sets the listing's founder story. PUT replaces the whole story with the body: keys not sent (or sent empty)",
    'become null, and an empty body clears the story. Keys: title (max 200), story, why_started, problem,',
    "journey, challenges, achievements, lessons, whats_next (each max 8000). The text is the caller's own words",
    'and is published with the listing (shown publicly where the story section is unlocked; the owner always sees',
    'it in get_my_listing). Returns {listing_id, title, story, why_started, problem, journey, challenges,',
    'achievements, lessons, whats_next, updated_at, shown_publicly}.',
  ].join(' '),
  params: ListingId,
  body: z.strictObject(
    Object.fromEntries(
      STORY_KEYS.map((k) => [
        k,
        z
          .string()
          .max(k === 'title' ? 200 : 8000)
          .optional(),
      ]),
    ),
  ),
  bodyOptional: true,
  response: SavedStory,
  examples: {
    request: { title: 'Why we built Funnelry', why_started: 'Our own analytics were unreadable.' },
    response: {
      listing_id: 512,
      title: 'Why we built Funnelry',
      story: null,
      why_started: 'Our own analytics were unreadable.',
      problem: null,
      journey: null,
      challenges: null,
      achievements: null,
      lessons: null,
      whats_next: null,
      updated_at: '2026-11-21T09:30:00.000Z',
      shown_publicly: true,
    },
  },
  status: 200,
  idempotencyKey: true,
  paginated: false,
  handler: async (ctx, input) => {
    const { listing_id, ...story } = input;
    return setStory(ctx, listing_id, story as Record<string, string | undefined>);
  },
});

export const chooseFreeListing = defineOperation({
  name: 'choose_free_listing',
  method: 'POST',
  path: '/me/listings/{listing_id}/free',
  access: 'listings:write',
  tags: ['My listings'],
  summary: 'Publish on the free plan',
  description: [
    'Chooses the free plan for a submitted listing (status draft): it is queued for launch week W, the Monday',
    "`free_queue_weeks` weeks after the current week (the site's free-queue setting), with status awaiting_badge,",
    "and goes live in that week once the service's badge (get_badges) or a link to its listing page is on the",
    "listing's homepage. Returns the own listing (as get_my_listing) with plan free, launch_week W and",
    '`next_steps` saying exactly what to do. Calling it again returns the same listing unchanged (same week, no',
    'second place in the queue). 409 when the listing is on a paid plan, or is not in status draft, or when another',
    "person's listing of the same website was published first (one website, one listing): the error names it in",
    '`existing_listing` with how to claim it (claim_listing).',
    LIFECYCLE_DOC,
  ].join(' '),
  params: ListingId,
  response: OwnListing,
  examples: { response: EXAMPLE_FREE },
  status: 200,
  idempotencyKey: true,
  paginated: false,
  handler: async (ctx, input) => chooseFree(ctx, input.listing_id),
});
