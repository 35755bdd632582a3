/**
 * The rules-based drafter: `extractProfile(pages)` turns crawled pages into a Draft in which every
 * value carries evidence quoted verbatim from the site, and anything the site does not state is
 * left `not_found`. No rule invents a value; as a last safety net every value is re-checked with
 * `verifyEvidence` and dropped if a quote is not on the pages.
 */
import { siteHostsOf, type Ctx } from './context.ts';
import { extractEmail, extractFounded, extractLocation, extractSocials } from './company.ts';
import {
  extractCategories,
  extractFaqs,
  extractFeatures,
  extractFounders,
  extractKeywords,
  extractMilestones,
  extractStage,
  extractTags,
} from './content.ts';
import { locateQuote, verifyEvidence, verifyItems } from './evidence.ts';
import { gateFields } from './gate.ts';
import { classifySite, siteTexts, type CategoryModel } from '../classify.ts';
import { extractIdentity, extractName } from './identity.ts';
import { extractDemoVideo, extractLogo } from './media.ts';
import { parsePage, type ParsedPage } from './page.ts';
import { extractPricing } from './pricing.ts';
import {
  LIST_FIELDS,
  notFound,
  PROFILE_FIELDS,
  type Draft,
  type FieldDraft,
  type ProfileFields,
  type SourcePage,
} from './types.ts';

export * from './types.ts';
export { verifyEvidence, verifyItems, locateQuote } from './evidence.ts';
export { gateFields } from './gate.ts';

export interface ExtractOptions {
  /** Category names offered by the directory; `categories` is only filled from these. */
  categoryNames?: readonly string[];
  /** The classifier trained on the directory's tree and live listings (classify.ts); when given it chooses `categories`. */
  categoryModel?: CategoryModel | null;
  /** URL of the home page; defaults to the page with source 'home', else the first page. */
  homeUrl?: string;
}

/** Parse the pages, find the home page and drop template/placeholder pages. */
export function preparePages(
  pages: readonly SourcePage[],
  homeUrl?: string,
): { trusted: ParsedPage[]; ignored: Draft['ignored_pages'] } {
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
  const ctx: Ctx = {
    pages: trusted,
    home,
    name: null,
    nameAliases: [],
    siteHosts: siteHostsOf(home),
    categoryNames: opts.categoryNames ?? [],
  };

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
    categories: opts.categoryModel
      ? classifiedCategories(opts.categoryModel, trusted, ctx.name)
      : extractCategories(ctx),
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
    // list fields item by item: an item whose quotes are not on the pages is dropped, not the list
    if (LIST_FIELDS.has(f) && Array.isArray(d.value) && d.evidence.some((e) => e.item !== undefined)) {
      const items = d.value.map((v, i) => ({ value: v, evidence: d.evidence.filter((e) => e.item === i) }));
      fields[f] = verifyItems(items, hay).field;
      continue;
    }
    const checked = verifyEvidence(d.value, d.evidence, hay);
    if (checked.state !== 'ai') {
      fields[f] = notFound();
      continue;
    }
    // keep the item indexes of list evidence; each quote names the page it is on
    fields[f] = {
      value: d.value,
      state: 'ai',
      evidence: d.evidence.map((e) => ({ ...e, url: locateQuote(e.quote, e.url, hay) ?? e.url })),
    };
    if (LIST_FIELDS.has(f) && (!Array.isArray(d.value) || d.value.length === 0)) fields[f] = notFound();
  }
  // The evidence gate: every number, amount, email, URL and place in a value must be in its own quotes.
  const gated = gateFields(fields);
  Object.assign(fields, gated.fields);
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

function classifiedCategories(model: CategoryModel, pages: ParsedPage[], name: string | null): FieldDraft {
  const lang = pages[0]?.lang ?? null;
  const c = classifySite(model, siteTexts(pages), {
    name,
    sameLanguage: !model.lang || !lang || lang === model.lang,
  });
  if (c.names.length === 0) return notFound();
  // every category rests on the same site text that decided the primary one
  return {
    value: c.names,
    state: 'ai',
    evidence: c.names.flatMap((_, i) => c.evidence.map((e) => ({ ...e, item: i }))),
  };
}

// Completeness lives in completeness.ts (loaded at start by the draft views, without the extractors).
export { completeness, missing, type Completeness } from './completeness.ts';
