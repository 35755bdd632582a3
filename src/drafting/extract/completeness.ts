// How complete a draft's profile is (get_draft, list_my_drafts, the draft pages). Its own module, apart
// from the extractors (index.ts re-exports it): the store and the operations need it at start, the
// extractors only when a draft is built.
import { PROFILE_FIELDS, type ProfileField } from './types.ts';

/**
 * Weights of the 18 profile fields for `completeness`. The fields a visitor sees first on a
 * listing (name, tagline, description, categories, logo, pricing model, features) count double.
 */
export const COMPLETENESS_WEIGHTS: Readonly<Record<ProfileField, number>> = {
  name: 2,
  tagline: 2,
  short_description: 1,
  description: 2,
  stage: 1,
  categories: 2,
  tags: 1,
  pricing_model: 2,
  pricing_summary: 1,
  country: 1,
  city: 1,
  founded_year: 1,
  features: 2,
  usps: 1,
  keywords: 1,
  contact_email: 1,
  demo_video_url: 1,
  logo_url: 2,
};

export const COMPLETENESS_FORMULA =
  'percent = round(100 × Σ weight(f) over the 18 profile fields f that have a value ÷ Σ weight(f) over all 18); weight 2 for name, tagline, description, categories, logo_url, pricing_model, features, 1 for the others (total 25). A field has a value when it is a non-empty string or a non-empty list.';

export interface Completeness {
  /** 0..100 */
  percent: number;
  filled: number;
  total: number;
  weighted_filled: number;
  weighted_total: number;
  formula: string;
}

type DraftLike =
  | { fields: Partial<Record<ProfileField, { value: unknown } | undefined>> }
  | Partial<Record<ProfileField, { value: unknown } | undefined>>;

function fieldsOf(draft: DraftLike): Partial<Record<ProfileField, { value: unknown } | undefined>> {
  return 'fields' in draft && draft.fields && typeof draft.fields === 'object'
    ? (draft.fields as Partial<Record<ProfileField, { value: unknown }>>)
    : (draft as Partial<Record<ProfileField, { value: unknown }>>);
}

function hasValue(f: { value: unknown } | undefined): boolean {
  if (!f) return false;
  const v = f.value;
  if (typeof v === 'string') return v.trim().length > 0;
  if (Array.isArray(v)) return v.some((x) => typeof x === 'string' && x.trim().length > 0);
  return false;
}

/** How complete a draft is (see COMPLETENESS_FORMULA). Accepts a Draft or its `fields`. */
export function completeness(draft: DraftLike): Completeness {
  const fields = fieldsOf(draft);
  let filled = 0;
  let wf = 0;
  let wt = 0;
  for (const f of PROFILE_FIELDS) {
    const w = COMPLETENESS_WEIGHTS[f];
    wt += w;
    if (hasValue(fields[f])) {
      filled++;
      wf += w;
    }
  }
  return {
    percent: Math.round((100 * wf) / wt),
    filled,
    total: PROFILE_FIELDS.length,
    weighted_filled: wf,
    weighted_total: wt,
    formula: COMPLETENESS_FORMULA,
  };
}

/** Names of the profile fields with no value, in spec order. */
export function missing(draft: DraftLike): ProfileField[] {
  const fields = fieldsOf(draft);
  return PROFILE_FIELDS.filter((f) => !hasValue(fields[f]));
}
