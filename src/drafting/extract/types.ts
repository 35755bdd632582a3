import { PROFILE_FIELDS, type ProfileField } from '../../domain/vocabulary.ts';
export { PROFILE_FIELDS, type ProfileField };
/** Shapes of a drafted profile: every value carries evidence quoted from the crawled site. */

/** The 18 profile fields of a draft, in spec order. */

/** Fields whose value is a list of strings; all others are a single string. */
export const LIST_FIELDS: ReadonlySet<ProfileField> = new Set<ProfileField>([
  'categories',
  'tags',
  'features',
  'usps',
  'keywords',
]);

export const PRICING_MODELS = ['Open source', 'Free', 'Freemium', 'Subscription', 'Usage-based', 'One-time'] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];

export const SOCIAL_PLATFORMS = [
  'linkedin',
  'x',
  'facebook',
  'instagram',
  'tiktok',
  'youtube',
  'threads',
  'pinterest',
  'github',
  'reddit',
  'medium',
  'website',
  'custom',
  'productlaunch',
] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

/** A verbatim quote (whitespace-normalised) from a crawled page's visible text or markup. */
export interface Evidence {
  quote: string;
  url: string;
  /** For list fields: index of the item this quote supports. */
  item?: number;
}

export type FieldState = 'ai' | 'not_found';

export interface FieldDraft<V = string | string[]> {
  value: V | null;
  state: FieldState;
  evidence: Evidence[];
}

export interface FaqDraft {
  question: string;
  answer: string;
  evidence: Evidence[];
}

export interface FounderDraft {
  name: string;
  title: string | null;
  bio: string | null;
  evidence: Evidence[];
}

export interface MilestoneDraft {
  /** YYYY-MM-DD */
  date: string;
  title: string;
  description: string | null;
  url: string | null;
  evidence: Evidence[];
}

export type ProfileFields = { [K in ProfileField]: FieldDraft };

export interface Draft {
  fields: ProfileFields;
  faqs: FaqDraft[];
  founders: FounderDraft[];
  /** platform → profile URL */
  socials: Partial<Record<SocialPlatform, string>>;
  /** platform → where the link was found */
  socials_evidence: Partial<Record<SocialPlatform, Evidence[]>>;
  milestones: MilestoneDraft[];
  /** Pages that were read but ignored as template leftovers / placeholders, with the signals seen. */
  ignored_pages: Array<{ url: string; signals: string[] }>;
}

/** A page as handed to the drafter (a crawled page; `text` and `title` are recomputed when absent). */
export interface SourcePage {
  url: string;
  html: string;
  title?: string;
  text?: string;
  source?: 'home' | 'link' | 'sitemap';
  linkedFromHome?: boolean;
}

export function notFound<V = string | string[]>(): FieldDraft<V> {
  return { value: null, state: 'not_found', evidence: [] };
}

export function found<V = string | string[]>(value: V, evidence: Evidence[]): FieldDraft<V> {
  return { value, state: 'ai', evidence };
}
