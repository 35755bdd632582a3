/**
 * The rules-based drafter: `extractProfile(pages)` turns crawled pages into a Draft in which every
 * value carries evidence quoted verbatim from the site, and anything the site does not state is
 * left `not_found`. No rule invents a value; as a last safety net every value is re-checked with
 * `verifyEvidence` and dropped if a quote is not on the pages.
 */
import { siteHostsOf, type Ctx } from './context.ts';
import { extractEmail, extractFounded, extractLocation, extractSocials } from './company.ts';
import { extractCategories, extractFaqs, extractFeatures, extractFounders, extractKeywords, extractMilestones, extractStage, extractTags } from './content.ts';
import { haystackOf, locateQuote, verifyEvidence } from './evidence.ts';
import { extractIdentity, extractName } from './identity.ts';
import { extractDemoVideo, extractLogo } from './media.ts';
import { parsePage, type ParsedPage } from './page.ts';
import { extractPricing } from './pricing.ts';
import { LIST_FIELDS, notFound, PROFILE_FIELDS, type Draft, type FieldDraft, type ProfileField, type ProfileFields, type SourcePage } from './types.ts';

export * from './types.ts';
export { verifyEvidence, verifyItems, normalizeForMatch, locateQuote } from './evidence.ts';

export interface ExtractOptions {
  /** Category names offered by the directory; `categories` is only filled from these. */
  categoryNames?: readonly string[];
  /** URL of the home page; defaults to the page with source 'home', else the first page. */
  homeUrl?: string;
}

/** Parse the pages, find the home page and drop template/placeholder pages. */
export function preparePages(pages: readonly SourcePage[], homeUrl?: string): { trusted: ParsedPage[]; ignored: Draft['ignored_pages'] } {
  if (pages.length === 0) throw new Error('extractProfile needs at least the home page');
  let homeIndex = homeUrl ? pages.findIndex((p) => p.url === homeUrl) : pages.findIndex((p) => p.source === 'home');
  if (homeIndex < 0) homeIndex = 0;
  const ordered = [pages[homeIndex], ...pages.filter((_, i) => i !== homeIndex)];
  const parsed = ordered.map((p, i) => parsePage(p, i, i === 0));
  const ignored: Draft['ignored_pages'] = [];
  const trusted: ParsedPage[] = [];
  for (const p of parsed) {
    if (p.placeholderSignals.length > 0) ignored.push({ url: p.url, signals: p.placeholderSignals });
    else trusted.push(p);
  }
  return { trusted, ignored };
}

export function extractProfile(pages: readonly SourcePage[], opts: ExtractOptions = {}): Draft {
  const { trusted, ignored } = preparePages(pages, opts.homeUrl);
  const home = trusted[0];
  const ctx: Ctx = { pages: trusted, home, name: null, nameAliases: [], siteHosts: siteHostsOf(home), categoryNames: opts.categoryNames ?? [] };

  const { field: name, aliases } = extractName(ctx);
  ctx.name = typeof name.value === 'string' ? name.value : null;
  ctx.nameAliases = aliases;
  const identity = extractIdentity(ctx);
  const pricing = extractPricing(ctx);
  const location = extractLocation(ctx);
  const { features, usps } = extractFeatures(ctx);
  const socials = extractSocials(ctx);

  const fields: ProfileFields = {
    name,
    tagline: identity.tagline,
    short_description: identity.short_description,
    description: identity.description,
    stage: extractStage(ctx),
    categories: extractCategories(ctx),
    tags: extractTags(ctx),
    pricing_model: pricing.pricing_model,
    pricing_summary: pricing.pricing_summary,
    country: location.country,
    city: location.city,
    founded_year: extractFounded(ctx),
    features,
    usps,
    keywords: extractKeywords(ctx),
    contact_email: extractEmail(ctx),
    demo_video_url: extractDemoVideo(ctx),
    logo_url: extractLogo(ctx),
  } as ProfileFields;

  // Safety net: every value must be backed by quotes that are really on the (trusted) pages.
  const hay = trusted.map((p) => p.haystack);
  for (const f of PROFILE_FIELDS) {
    const d = fields[f];
    if (d.state !== 'ai') continue;
    const checked = verifyEvidence(d.value, d.evidence, hay);
    if (checked.state !== 'ai') {
      fields[f] = notFound();
      continue;
    }
    // keep the item indexes of list evidence; each quote names the page it is on
    fields[f] = { value: d.value, state: 'ai', evidence: d.evidence.map((e) => ({ ...e, url: locateQuote(e.quote, e.url, hay) ?? e.url })) };
    if (LIST_FIELDS.has(f) && (!Array.isArray(d.value) || d.value.length === 0)) fields[f] = notFound();
  }
  const faqs = extractFaqs(ctx).filter((q) => verifyEvidence(q.question, q.evidence, hay).state === 'ai');
  const founders = extractFounders(ctx).filter((fd) => verifyEvidence(fd.name, fd.evidence, hay).state === 'ai');
  const milestones = extractMilestones(ctx).filter((m) => verifyEvidence(m.title, m.evidence, hay).state === 'ai');
  const soc: Draft['socials'] = {};
  const socEv: Draft['socials_evidence'] = {};
  for (const [k, v] of Object.entries(socials.socials) as Array<[keyof Draft['socials'], string]>) {
    const e = socials.evidence[k] ?? [];
    if (verifyEvidence(v, e, hay).state === 'ai') {
      soc[k] = v;
      socEv[k] = e;
    }
  }
  return { fields, faqs, founders, socials: soc, socials_evidence: socEv, milestones, ignored_pages: ignored };
}

// ---------------------------------------------------------------------------------------------
// Completeness

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

type DraftLike = { fields: Partial<Record<ProfileField, { value: unknown } | undefined>> } | Partial<Record<ProfileField, { value: unknown } | undefined>>;

function fieldsOf(draft: DraftLike): Partial<Record<ProfileField, { value: unknown } | undefined>> {
  return 'fields' in draft && draft.fields && typeof draft.fields === 'object' ? (draft.fields as Partial<Record<ProfileField, { value: unknown }>>) : (draft as Partial<Record<ProfileField, { value: unknown }>>);
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
  return { percent: Math.round((100 * wf) / wt), filled, total: PROFILE_FIELDS.length, weighted_filled: wf, weighted_total: wt, formula: COMPLETENESS_FORMULA };
}

/** Names of the profile fields with no value, in spec order. */
export function missing(draft: DraftLike): ProfileField[] {
  const fields = fieldsOf(draft);
  return PROFILE_FIELDS.filter((f) => !hasValue(fields[f]));
}

export type { FieldDraft };
export { haystackOf };
