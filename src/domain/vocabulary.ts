// The words the whole service shares: profile fields, list fields, story sections, the slug rule.
// One source each; schemas, repositories, the drafter and the pages import them from here.

/** The 18 profile fields a draft drafts and a listing shows, in the order forms show them. */
export const PROFILE_FIELDS = [
  'name',
  'tagline',
  'short_description',
  'description',
  'stage',
  'categories',
  'tags',
  'pricing_model',
  'pricing_summary',
  'country',
  'city',
  'founded_year',
  'features',
  'usps',
  'keywords',
  'contact_email',
  'demo_video_url',
  'logo_url',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

/**
 * The state of a draft's profile field: ai (drafted from the quoted evidence), not_found (the site
 * does not state it; left blank on purpose), edited (the user changed the AI value), manual (the user
 * typed a value the AI had not found), override (locked against AI redrafts), deleted (removed by the
 * user).
 */
export const FIELD_STATES = ['ai', 'not_found', 'edited', 'manual', 'override', 'deleted'] as const;
export type FieldState = (typeof FIELD_STATES)[number];

/** A draft's status: crawling (the site is being read) → drafting (the profile is being written) → ready, or failed. */
export const DRAFT_STATUSES = ['crawling', 'drafting', 'ready', 'failed'] as const;
export type DraftStatus = (typeof DRAFT_STATUSES)[number];

/** A draft's progress stage, for a progress bar: queued → robots → home → discover → pages → drafting → done, or failed. */
export const DRAFT_STAGES = ['queued', 'robots', 'home', 'discover', 'pages', 'drafting', 'done', 'failed'] as const;
export type DraftStage = (typeof DRAFT_STAGES)[number];

/**
 * Why reading a site failed (a failed draft's `error.reason`, a competitor that could not be read): the
 * guarded fetcher's refusals and failures, robots.txt, and the drafting job's own.
 */
export const DRAFT_FAILURE_REASONS = [
  'unreachable',
  'timeout',
  'robots_disallowed',
  'not_html',
  'too_large',
  'http_error',
  'address_not_public',
  'too_many_redirects',
  'bad_redirect',
  'invalid_url',
  'scheme_not_allowed',
  'credentials_not_allowed',
  'no_content',
  'internal',
] as const;
export type DraftFailureReason = (typeof DRAFT_FAILURE_REASONS)[number];

/** Profile fields whose value is a list of strings (the others hold one string). */
export const LIST_FIELDS = [
  'categories',
  'tags',
  'features',
  'usps',
  'keywords',
] as const satisfies readonly ProfileField[];
export type ListField = (typeof LIST_FIELDS)[number];

/**
 * The list fields a listing keeps in its own columns (JSON arrays); categories and tags live in
 * tables of their own.
 */
export const LISTING_LIST_FIELDS = ['features', 'usps', 'keywords'] as const satisfies readonly ListField[];

export function isListField(f: ProfileField): f is ListField {
  return (LIST_FIELDS as readonly string[]).includes(f);
}

/** The founder-story sections, in reading order (as set_founder_story takes them). */
export const STORY_KEYS = [
  'title',
  'story',
  'why_started',
  'problem',
  'journey',
  'challenges',
  'achievements',
  'lessons',
  'whats_next',
] as const;
export type StoryKey = (typeof STORY_KEYS)[number];

/** The story's text sections (all but the title) with their headings, in reading order. */
export const STORY_SECTIONS: ReadonlyArray<readonly [Exclude<StoryKey, 'title'>, string]> = [
  ['story', 'The story'],
  ['why_started', 'Why it started'],
  ['problem', 'The problem'],
  ['journey', 'The journey'],
  ['challenges', 'Challenges'],
  ['achievements', 'Achievements'],
  ['lessons', 'Lessons learned'],
  ['whats_next', 'What comes next'],
];

/** A slug: lower-case letters, digits and hyphens, starting with a letter or digit, at most 220 characters. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,219}$/;
export const SLUG_RULE = 'must match ^[a-z0-9][a-z0-9-]{0,219}$ (lower-case letters, digits and hyphens)';
export const isSlug = (s: string): boolean => SLUG_PATTERN.test(s);

/** A listing's lifecycle: draft (saved, not public) → awaiting_badge (free plan) → scheduled → live. */
export const LISTING_STATUSES = ['draft', 'awaiting_badge', 'scheduled', 'live'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

/** How a listing is published: none yet, the free plan (badge on the homepage), or paid. */
export const LISTING_PLANS = ['none', 'free', 'paid'] as const;
export type ListingPlan = (typeof LISTING_PLANS)[number];
