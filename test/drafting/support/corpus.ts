/**
 * The labelled corpus of real websites (/work/shared/corpus, see its README) and how a draft is
 * scored against the hand labels. Used by the corpus test and by bench/drafting.ts.
 *
 * Matching rules (per field):
 * - name: equal after squashing to letters/digits, or one contains the other.
 * - tagline: ≥ 60 % of the label's content words are in our tagline (or the label quote is).
 * - description: the same test against our description or short_description.
 * - pricing_model: equal, or listed in acceptable_inferences.
 * - pricing_summary: we have one, and it shares a money amount with the label, or both say free.
 * - contact_email: equal (or an address a label note calls acceptable).
 * - country: ISO code of the label value; city: case-insensitive equal; founded_year: equal.
 * - logo_url: same path after resolving both against the page (hosts differ on loopback), or an
 *   acceptable inference; demo_video_url: same video id.
 * - features: a label feature is found when ≥ 70 % of the content words of its quote (or of its
 *   value) occur in one of our feature items.
 * - socials: for networks that are platform keys of ours, the same URL ignoring scheme, "www.",
 *   case and a trailing slash.
 * A value for a field the labels list in `not_stated` is an invention unless acceptable_inferences
 * allows it.
 */
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { crawlSite, type CrawlResult } from '../../../src/drafting/crawler/crawl.ts';
import { RobotsCache } from '../../../src/drafting/crawler/robots.ts';
import { extractProfile, locateQuote, type Draft, type ProfileField } from '../../../src/drafting/extract/index.ts';
import { countryCode } from '../../../src/drafting/extract/places.ts';
import { coverage, squash } from '../../../src/drafting/extract/text.ts';
import { serveStaticSite } from './static-site.ts';
import { buildCategoryModel, type CategoryModel } from '../../../src/drafting/classify.ts';
import { TREE } from '../../../src/store/seed/catalog-tree.ts';

/**
 * The demo category tree (src/store/seed) as the classifier sees it in the service: every
 * category with its name and description, and the seeded live listings (name, tagline, features)
 * filed under each child category.
 */
export function demoCategoryModel(): CategoryModel {
  // as the seeded database holds them (src/store/seed/index.ts): a category's description and its
  // FAQ; a live listing's name, tagline, short description (who it is for), description (the
  // problem it solves) and features
  const cats = TREE.flatMap((p) => [
    { slug: p.slug, name: p.name, description: `${p.description} ${p.faq.join(' ')}`, parent: null },
    ...p.children.map((c) => ({
      slug: c.slug,
      name: c.name,
      description: `${c.description} ${c.faq.join(' ')}`,
      parent: p.slug,
    })),
  ]);
  const listings = TREE.flatMap((p) =>
    p.children.flatMap((c) =>
      c.products.map(([name, tagline, features]) => ({
        categories: [c.slug],
        text: [name, tagline, `${name} helps ${c.audience}`, c.problem, ...features].join('. '),
      })),
    ),
  );
  return buildCategoryModel(cats, listings);
}

/** Category name → slug in the demo tree. */
export const DEMO_CATEGORY_SLUGS: ReadonlyMap<string, string> = new Map(
  TREE.flatMap((p) => [[p.name, p.slug] as const, ...p.children.map((c) => [c.name, c.slug] as const)]),
);
let demoModel: CategoryModel | null = null;

/** ../shared/corpus next to the checkout. */
const SIBLING_CORPUS = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));
/** LAUNCHLIST_CORPUS, else ../shared/corpus next to the checkout, else /work/shared/corpus (a clone made elsewhere, as CI's may be). */
export const CORPUS_DIR =
  process.env.LAUNCHLIST_CORPUS ??
  [SIBLING_CORPUS, '/work/shared/corpus/'].find((d) => existsSync(join(d, 'labels'))) ??
  SIBLING_CORPUS;

export function corpusAvailable(): boolean {
  return existsSync(join(CORPUS_DIR, 'labels')) && existsSync(join(CORPUS_DIR, 'sites'));
}

export async function corpusSites(): Promise<string[]> {
  return (await readdir(join(CORPUS_DIR, 'labels')))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
}

export interface LabelFact {
  value: string | number;
  quote: string;
  page: string;
}

export interface Labels {
  name: LabelFact | null;
  tagline: LabelFact | null;
  description: LabelFact | null;
  pricing_model: LabelFact | null;
  pricing_summary: LabelFact | null;
  contact_email: LabelFact | null;
  country: LabelFact | null;
  city: LabelFact | null;
  founded_year: LabelFact | null;
  logo_url: LabelFact | null;
  demo_video_url: LabelFact | null;
  features: LabelFact[];
  socials: Record<string, string>;
  not_stated: string[];
  acceptable_inferences?: Record<string, Array<string | number>>;
  notes?: string[];
  /** slugs of the categories a careful editor would accept as primary, best first; [] when none fits */
  categories_acceptable?: string[];
}

export async function loadLabels(site: string): Promise<Labels> {
  return JSON.parse(await readFile(join(CORPUS_DIR, 'labels', `${site}.json`), 'utf8')) as Labels;
}

export interface DraftedSite {
  site: string;
  origin: string;
  crawl: CrawlResult;
  draft: Draft;
  crawlMs: number;
  extractMs: number;
}

/** Serve a corpus site on loopback, crawl it through the real guarded fetcher, and draft it. */
export async function draftCorpusSite(site: string): Promise<DraftedSite> {
  const server = await serveStaticSite(join(CORPUS_DIR, 'sites', site));
  try {
    const t0 = performance.now();
    const crawl = await crawlSite(`${server.origin}/`, { allowHosts: [server.host], robots: new RobotsCache() });
    const t1 = performance.now();
    demoModel ??= demoCategoryModel();
    const draft = extractProfile(crawl.pages, { categoryModel: demoModel });
    const t2 = performance.now();
    return { site, origin: server.origin, crawl, draft, crawlMs: t1 - t0, extractMs: t2 - t1 };
  } finally {
    await server.close();
  }
}

// ---------------------------------------------------------------------------------------------

export const SCORED_FIELDS = [
  'name',
  'tagline',
  'description',
  'pricing_model',
  'pricing_summary',
  'contact_email',
  'country',
  'city',
  'founded_year',
  'logo_url',
  'demo_video_url',
] as const;
export type ScoredField = (typeof SCORED_FIELDS)[number];

export interface FieldScore {
  /** The labels state a value. */
  labelled: boolean;
  /** We produced a value. */
  produced: boolean;
  /** Our value matches the label (or an acceptable inference). */
  correct: boolean;
  /** We produced a value for a field the labels say is not stated (and it is not acceptable). */
  invented: boolean;
}

export interface SiteScore {
  site: string;
  fields: Record<ScoredField, FieldScore>;
  features: { labelled: number; found: number; produced: number; matched: number; missed: string[] };
  socials: { labelled: number; found: number; produced: number; correct: number; wrong: string[] };
  /** Evidence quotes not found on the crawled pages (must be empty). */
  unverifiedQuotes: string[];
  /** Values in not_stated fields that are not acceptable inferences (must be empty). */
  inventions: string[];
  /** Primary category: ours (slug), the acceptable ones, and whether ours is acceptable (null when the labels accept none). */
  category: { primary: string | null; acceptable: string[]; ok: boolean | null };
}

function str(v: unknown): string {
  return v === null || v === undefined ? '' : String(v);
}

function urlKey(u: string): string {
  return u
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
}

function videoId(u: string): string {
  const m =
    /(?:youtube(?:-nocookie)?\.com\/(?:embed\/|watch\?v=|v\/|shorts\/)|youtu\.be\/)([\w-]{6,})/.exec(u) ??
    /vimeo\.com\/(?:video\/)?(\d+)/.exec(u) ??
    /wistia\.(?:com|net)\/(?:embed\/)?(?:medias|iframe)\/(\w+)/.exec(u) ??
    /loom\.com\/(?:share|embed)\/(\w+)/.exec(u) ??
    /^(\w{6,})\b/.exec(u);
  return m ? m[1].toLowerCase() : u.toLowerCase();
}

function pathOf(u: string, base: string): string {
  try {
    return decodeURIComponent(new URL(u, base).pathname).toLowerCase();
  } catch {
    return u.toLowerCase();
  }
}

function acceptable(labels: Labels, field: string): string[] {
  return (labels.acceptable_inferences?.[field] ?? []).map((v) => String(v));
}

function acceptableEmails(labels: Labels): string[] {
  const out: string[] = [];
  for (const n of labels.notes ?? [])
    if (/acceptable/i.test(n))
      out.push(...(n.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? []).map((e) => e.toLowerCase()));
  return out;
}

function matches(
  field: ScoredField,
  ours: string | string[] | null,
  label: LabelFact | null,
  labels: Labels,
  d: DraftedSite,
): boolean {
  if (ours === null || ours === undefined) return false;
  const o = Array.isArray(ours) ? ours.join(' ') : ours;
  const acc = acceptable(labels, field);
  const base = `${d.origin}/`;
  switch (field) {
    case 'name': {
      if (!label) return false;
      const a = squash(o);
      const b = squash(str(label.value));
      return a === b || (a.length > 2 && b.includes(a)) || (b.length > 2 && a.includes(b));
    }
    case 'tagline':
      if (!label) return false;
      return coverage(str(label.value), o) >= 0.6 || coverage(label.quote, o) >= 0.8;
    case 'description': {
      if (!label) return false;
      const alt = [o, str(d.draft.fields.short_description.value)];
      return alt.some((x) => coverage(str(label.value), x) >= 0.6 || coverage(label.quote, x) >= 0.8);
    }
    case 'pricing_model':
      return (label !== null && o === str(label.value)) || acc.some((a) => a === o || a.startsWith(`${o} `));
    case 'pricing_summary': {
      if (!label) return false;
      const money = (s: string): string[] =>
        (s.match(/\d[\d,.]*/g) ?? []).map((x) => x.replace(/[,.]00$/, '').replace(/,/g, ''));
      const lm = new Set(money(str(label.value)));
      if (money(o).some((x) => lm.has(x) && Number(x) > 0)) return true;
      return /\bfree\b/i.test(o) && /\bfree\b/i.test(str(label.value));
    }
    case 'contact_email':
      return (
        (label !== null && o.toLowerCase() === str(label.value).toLowerCase()) ||
        acceptableEmails(labels).includes(o.toLowerCase())
      );
    case 'country': {
      const want = label ? (countryCode(str(label.value)) ?? str(label.value)) : null;
      return (
        (want !== null && o.toUpperCase() === want.toUpperCase()) ||
        acc.some((a) => (countryCode(a) ?? a).toUpperCase() === o.toUpperCase())
      );
    }
    case 'city':
      return (
        (label !== null && o.toLowerCase() === str(label.value).toLowerCase()) ||
        acc.some((a) => a.toLowerCase() === o.toLowerCase())
      );
    case 'founded_year':
      return (label !== null && o === str(label.value)) || acc.includes(o);
    case 'logo_url': {
      const labelPage = label ? new URL(label.page, base).href : base;
      const mine = pathOf(o, base);
      if (label && mine === pathOf(str(label.value), labelPage)) return true;
      return acc.some((a) => mine === pathOf(a.split(/\s+/)[0], base) || urlKey(o) === urlKey(a.split(/\s+/)[0]));
    }
    case 'demo_video_url':
      return (label !== null && videoId(o) === videoId(str(label.value))) || acc.some((a) => videoId(o) === videoId(a));
  }
}

export function scoreSite(d: DraftedSite, labels: Labels): SiteScore {
  const fields = {} as Record<ScoredField, FieldScore>;
  const inventions: string[] = [];
  for (const f of SCORED_FIELDS) {
    const label = labels[f] as LabelFact | null;
    const ours = d.draft.fields[f as ProfileField].value;
    const produced = ours !== null && ours !== undefined;
    const correct = produced && matches(f, ours, label, labels, d);
    const invented = produced && labels.not_stated.includes(f) && !correct;
    if (invented) inventions.push(`${f} = ${JSON.stringify(ours)}`);
    fields[f] = { labelled: label !== null, produced, correct, invented };
  }
  // features
  const ours = (d.draft.fields.features.value as string[] | null) ?? [];
  const missed: string[] = [];
  let foundCount = 0;
  const matchedOurs = new Set<number>();
  for (const lf of labels.features ?? []) {
    const idx = ours.findIndex((x) => coverage(lf.quote, x) >= 0.7 || coverage(str(lf.value), x) >= 0.7);
    if (idx >= 0) {
      foundCount++;
      matchedOurs.add(idx);
    } else missed.push(str(lf.value));
  }
  // socials
  const ourSocials = d.draft.socials as Record<string, string>;
  let sLabelled = 0;
  let sFound = 0;
  const wrong: string[] = [];
  for (const [net, href] of Object.entries(labels.socials ?? {})) {
    if (
      ![
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
      ].includes(net)
    )
      continue;
    sLabelled++;
    if (ourSocials[net] && urlKey(ourSocials[net]) === urlKey(href)) sFound++;
    else if (ourSocials[net]) wrong.push(`${net}: ${ourSocials[net]} (label ${href})`);
  }
  const producedSocials = Object.keys(ourSocials).filter((k) => k !== 'website' && k !== 'custom');
  // evidence
  const unverifiedQuotes: string[] = [];
  const pages = d.crawl.pages;
  const check = (what: string, evs: Array<{ quote: string; url: string }>): void => {
    for (const e of evs)
      if (!locateQuote(e.quote, e.url, pages) || locateQuote(e.quote, e.url, pages) !== e.url)
        unverifiedQuotes.push(`${what}: ${e.quote}`);
  };
  for (const [k, v] of Object.entries(d.draft.fields)) {
    if (v.state === 'ai' && v.evidence.length === 0) unverifiedQuotes.push(`${k}: no evidence`);
    check(k, v.evidence);
  }
  for (const [k, e] of Object.entries(d.draft.socials_evidence)) check(`socials.${k}`, e ?? []);
  for (const q of d.draft.faqs) check('faq', q.evidence);
  for (const f of d.draft.founders) check('founder', f.evidence);
  for (const m of d.draft.milestones) check('milestone', m.evidence);
  return {
    site: d.site,
    fields,
    features: {
      labelled: labels.features?.length ?? 0,
      found: foundCount,
      produced: ours.length,
      matched: matchedOurs.size,
      missed,
    },
    socials: { labelled: sLabelled, found: sFound, produced: producedSocials.length, correct: sFound, wrong },
    unverifiedQuotes,
    inventions,
    category: categoryScore(d, labels),
  };
}

function categoryScore(d: DraftedSite, labels: Labels): SiteScore['category'] {
  const names = (d.draft.fields.categories.value as string[] | null) ?? [];
  const primary = names.length ? (DEMO_CATEGORY_SLUGS.get(names[0]) ?? names[0]) : null;
  const acceptable = labels.categories_acceptable ?? [];
  return { primary, acceptable, ok: acceptable.length ? primary !== null && acceptable.includes(primary) : null };
}

export interface Table {
  rows: Array<{
    field: string;
    labelled: number;
    found: number;
    produced: number;
    correct: number;
    recall: number | null;
    precision: number | null;
  }>;
}

/** Per-field recall (found / labelled) and precision (correct / produced, over labelled or not_stated facts). */
export function summarize(scores: SiteScore[]): Table {
  const rows: Table['rows'] = [];
  for (const f of SCORED_FIELDS) {
    let labelled = 0;
    let found = 0;
    let produced = 0;
    let correct = 0;
    for (const s of scores) {
      const x = s.fields[f];
      if (x.labelled) labelled++;
      if (x.labelled && x.correct) found++;
      if (x.produced) {
        produced++;
        if (x.correct) correct++;
      }
    }
    rows.push({
      field: f,
      labelled,
      found,
      produced,
      correct,
      recall: labelled ? found / labelled : null,
      precision: produced ? correct / produced : null,
    });
  }
  const fl = scores.reduce((a, s) => a + s.features.labelled, 0);
  const ff = scores.reduce((a, s) => a + s.features.found, 0);
  const fp = scores.reduce((a, s) => a + s.features.produced, 0);
  const fm = scores.reduce((a, s) => a + s.features.matched, 0);
  rows.push({
    field: 'features (items)',
    labelled: fl,
    found: ff,
    produced: fp,
    correct: fm,
    recall: fl ? ff / fl : null,
    precision: fp ? fm / fp : null,
  });
  const sl = scores.reduce((a, s) => a + s.socials.labelled, 0);
  const sf = scores.reduce((a, s) => a + s.socials.found, 0);
  const sp = scores.reduce((a, s) => a + s.socials.produced, 0);
  rows.push({
    field: 'socials (links)',
    labelled: sl,
    found: sf,
    produced: sp,
    correct: sf,
    recall: sl ? sf / sl : null,
    precision: sp ? sf / sp : null,
  });
  return { rows };
}

export function formatTable(t: Table): string {
  const pct = (x: number | null): string => (x === null ? '   –' : `${Math.round(x * 100)}%`.padStart(4));
  const lines = ['field               labelled found recall | produced correct precision'];
  for (const r of t.rows) {
    lines.push(
      `${r.field.padEnd(20)}${String(r.labelled).padStart(8)}${String(r.found).padStart(6)}  ${pct(r.recall)} | ${String(r.produced).padStart(8)}${String(r.correct).padStart(8)}      ${pct(r.precision)}`,
    );
  }
  return lines.join('\n');
}
