// The draft workflow: crawl → extract (rules, always) → optional LLM → store, as a durable job; and
// the edits of spec 4.4 (update_draft, regenerate, restore, competitor, invites, submit).
//
// Draft status: crawling → drafting → ready, or failed with error {reason, message}.
// Progress stages: queued → robots → home → discover → pages → drafting → done (or failed).
import { FIELD_RULES, httpUrl } from '../domain/profile-rules.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../store/types.ts';
import type { Ctx, Waker } from '../operations/context.ts';
import type { Drafter, DraftingOptions } from './options.ts';
import { userOf } from '../operations/context.ts';
import { ApiError, conflict, notFound, type ErrorDetail } from '../operations/errors.ts';
import { validationError } from '../operations/errors.ts';
import { enqueue, type JobContext, type JobDeps } from '../jobs/queue.ts';
import { checkUrl, FetchRefused } from '../drafting/crawler/guarded-fetch.ts';
import { isIpLiteral } from '../drafting/crawler/ip.ts';
import { normaliseDomain } from '../domain/urls.ts';
import type { CrawlError, CrawledPage, CrawlOptions } from '../drafting/crawler/crawl.ts';
import type { Draft as ProfileDraft, SourcePage } from '../drafting/extract/types.ts';
import type { LanguageModel } from 'ai';
import type { CategoryModel } from '../drafting/classify.ts';
import { sendMail } from '../mail/index.ts';
import { submitToListing, syncDraftEdit } from './draft-listing.ts';
import { refuseListedSite } from './same-site.ts';
import {
  draftView,
  emptyField,
  findDraft,
  findOwnDraft,
  hasValue,
  insertDraft,
  matchCategories,
  updateDraft,
  type Competitor,
  type Draft,
  type DraftError,
  type DraftView,
  type FieldValue,
  type StoredField,
  type StoredFields,
  type StoredPage,
  type SyncSections,
} from '../store/repos/drafts.ts';
import { PROFILE_FIELDS, isListField, type ProfileField } from '../domain/vocabulary.ts';

export const DRAFT_BUILD = 'draft.build';

// The crawler, the rules extractors and the LLM step are loaded by the first draft built or
// competitor read, not at start: ~30 modules, ~100 ms of a cold start (type stripping and compiling).
const crawler = () => import('../drafting/crawler/crawl.ts');
const llm = () => import('../drafting/llm.ts');

function optionsOf(services: { drafting: DraftingOptions }): DraftingOptions {
  return services.drafting;
}

const llmModels = new Map<string, Promise<LanguageModel>>();
/** The LLM configured by LLM_BASE_URL + LLM_MODEL (+ LLM_API_KEY), or null when none is. */
async function llmModelOf(
  config: JobDeps['config'],
  services: { drafting: DraftingOptions },
): Promise<LanguageModel | null> {
  const injected = optionsOf(services).llmModel;
  if (injected !== undefined) return injected;
  if (!config.LLM_BASE_URL || !config.LLM_MODEL) return null;
  const key = `${config.LLM_BASE_URL}|${config.LLM_MODEL}|${config.LLM_API_KEY ?? ''}`;
  let m = llmModels.get(key);
  if (!m) {
    const settings = { baseURL: config.LLM_BASE_URL, model: config.LLM_MODEL, apiKey: config.LLM_API_KEY };
    m = llm().then(({ createLlmModel }) => createLlmModel(settings));
    llmModels.set(key, m);
  }
  return m;
}

/**
 * The production drafter: drafting/draft.ts draftPages (the rules, then the configured model's verified
 * proposals for tagline, description, categories and features, then the evidence gate).
 */
export const defaultDrafter: Drafter = async (pages, opts) => {
  const model = await llmModelOf(opts.config, opts.services);
  const { LLM_FIELDS } = await llm();
  const { draftPages } = await import('../drafting/draft.ts');
  const fields = opts.fields ? LLM_FIELDS.filter((f) => opts.fields!.includes(f)) : undefined;
  const { draft } = await draftPages(pages, {
    categoryNames: opts.categoryNames,
    categoryModel: opts.categoryModel,
    signal: opts.signal,
    llm: model ? { model, fields, timeoutMs: 45_000 } : null,
  });
  return draft;
};

function drafterOf(deps: { services: { drafting: DraftingOptions } }): Drafter {
  return optionsOf(deps.services).drafter ?? defaultDrafter;
}

// ---------------------------------------------------------------------------------------------
// Pages kept with the draft (bounded), so regenerate and evidence checks need no recrawl

const MAX_STORED_HTML = 256 * 1024;
const MAX_STORED_TEXT = 64 * 1024;

/** Drops what never carries evidence (comments, script and style bodies except JSON-LD, SVG internals) and caps the size. */
export function slimHtml(html: string): string {
  const slim = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/(<script\b(?![^>]*application\/ld\+json)[^>]*>)[\s\S]*?(<\/script\s*>)/gi, '$1$2')
    .replace(/(<style\b[^>]*>)[\s\S]*?(<\/style\s*>)/gi, '$1$2')
    .replace(/(<svg\b[^>]*>)[\s\S]*?(<\/svg\s*>)/gi, '$1$2');
  return slim.length > MAX_STORED_HTML ? slim.slice(0, MAX_STORED_HTML) : slim;
}

export function storedPagesOf(pages: readonly CrawledPage[]): StoredPage[] {
  return pages.map((p) => ({
    url: p.url,
    title: p.title,
    text: p.text.slice(0, MAX_STORED_TEXT),
    html: slimHtml(p.html),
  }));
}

function sourcePagesOf(pages: readonly StoredPage[]): SourcePage[] {
  return pages.map((p, i) => ({
    url: p.url,
    html: p.html ?? '',
    title: p.title,
    text: p.text,
    source: i === 0 ? 'home' : 'link',
    linkedFromHome: true,
  }));
}

/** The categories classifier, trained on the directory's tree and live listings; null when it cannot be read. */
async function categoryModel(db: JobDeps['store']['db']): Promise<CategoryModel | null> {
  return (await import('../drafting/category-model.ts')).categoryModelOf(db).catch(() => null);
}

async function categoryNames(db: JobDeps['store']['db']): Promise<string[]> {
  return (await db.selectFrom('categories').select('name').orderBy('position').orderBy('id').execute()).map(
    (r) => r.name,
  );
}

// ---------------------------------------------------------------------------------------------
// Merging an AI draft into a stored draft (user work is never overwritten)

const USER_STATES = new Set(['edited', 'manual', 'override', 'deleted']);

function aiField(profile: ProfileDraft, f: ProfileField): { value: FieldValue; evidence: StoredField['evidence'] } {
  const fd = profile.fields[f];
  if (fd?.state !== 'ai' || !hasValue(fd.value as FieldValue)) return { value: null, evidence: [] };
  return {
    value: fd.value as FieldValue,
    evidence: fd.evidence.map((e) => ({
      quote: e.quote,
      url: e.url,
      ...(e.item !== undefined ? { item: e.item } : {}),
    })),
  };
}

/** The AI's value for `f` replaces what is shown, unless the user has made the field their own. */
export function mergeAiField(
  cur: StoredField,
  ai: { value: FieldValue; evidence: StoredField['evidence'] },
  opts: { force?: boolean } = {},
): StoredField {
  const next: StoredField = { ...cur, ai_value: ai.value, ai_evidence: ai.evidence };
  if (opts.force || !USER_STATES.has(cur.state)) {
    next.value = ai.value;
    next.evidence = ai.evidence;
    next.state = hasValue(ai.value) ? 'ai' : 'not_found';
  } else if (cur.state === 'edited' || cur.state === 'manual') {
    next.state = hasValue(ai.value) ? 'edited' : 'manual';
  }
  return next;
}

export function mergeAiDraft(
  cur: Draft,
  profile: ProfileDraft,
): Pick<Draft, 'fields' | 'faqs' | 'founders' | 'company_socials' | 'milestones'> {
  const fields = { ...cur.fields } as StoredFields;
  for (const f of PROFILE_FIELDS) fields[f] = mergeAiField(cur.fields[f], aiField(profile, f));
  // Lists the user already wrote are theirs; the AI fills only empty ones.
  return {
    fields,
    faqs: cur.faqs.length
      ? cur.faqs
      : profile.faqs.map((q) => ({ question: q.question, answer: q.answer, evidence: q.evidence })),
    founders: cur.founders.length
      ? cur.founders
      : profile.founders.map((p) => ({
          name: p.name,
          ...(p.title ? { title: p.title } : {}),
          ...(p.bio ? { bio: p.bio } : {}),
          evidence: p.evidence,
        })),
    company_socials: Object.keys(cur.company_socials).length
      ? cur.company_socials
      : (Object.fromEntries(Object.entries(profile.socials).filter(([, v]) => typeof v === 'string')) as Record<
          string,
          string
        >),
    milestones: cur.milestones.length
      ? cur.milestones
      : profile.milestones.map((m) => ({
          date: m.date,
          title: m.title,
          ...(m.description ? { description: m.description } : {}),
          ...(m.url ? { url: m.url } : {}),
          evidence: m.evidence,
        })),
  };
}

// ---------------------------------------------------------------------------------------------
// The draft.build job

export const REASON_TEXT: Record<string, string> = {
  unreachable: 'The site could not be reached.',
  timeout: 'The site did not answer in time.',
  robots_disallowed: "The site's robots.txt does not allow us to read it.",
  not_html: 'The address does not serve an HTML web page.',
  too_large: 'The page is larger than we read.',
  http_error: 'The site answered with an HTTP error.',
  address_not_public: 'The address is not on the public internet.',
  too_many_redirects: 'The site redirects too many times.',
  bad_redirect: 'The site redirects to an invalid address.',
  invalid_url: 'The address is not a valid URL.',
  scheme_not_allowed: 'Only http and https addresses are read.',
  credentials_not_allowed: 'Addresses with a user name or password are not read.',
  no_content: 'No readable page was found.',
  internal: 'Drafting failed on our side.',
};

export function draftErrorOf(e: CrawlError, timedOut: boolean): DraftError {
  const reason = timedOut || e.reason === 'aborted' ? 'timeout' : e.reason;
  const lead = REASON_TEXT[reason] ?? 'The site could not be read.';
  return {
    reason,
    message: `${lead} ${reason === 'timeout' && timedOut ? 'Drafting has a total time limit.' : e.message}`.trim(),
  };
}

/** The draft.build job's work (its handler: jobs/drafts.ts): crawl, draft, store the result on the draft. */
export async function runDraftBuild(ctx: JobContext<{ draftId: string }>): Promise<void> {
  const { deps } = ctx;
  const db = deps.store.db;
  const id = ctx.job.payload.draftId;
  const d = await findDraft(db, id);
  if (!d || d.status === 'ready' || d.status === 'failed') return; // nothing left to do
  const opts = optionsOf(deps.services);
  const totalTimeMs = opts.totalTimeMs ?? 90_000;
  const cap = AbortSignal.timeout(totalTimeMs);
  const signal = AbortSignal.any([ctx.signal, cap]);
  const now = () => ctx.now().toISOString();

  // Progress: written as pages are read, one write at a time, only while the draft is crawling.
  await updateDraft(db, id, {
    status: 'crawling',
    stage: 'robots',
    pages_read: 0,
    pages_planned: 0,
    error: null,
    updated_at: now(),
  });
  let chain: Promise<unknown> = Promise.resolve();
  let last = '';
  const onProgress: CrawlOptions['onProgress'] = (stage, read, planned) => {
    const key = `${stage}:${read}:${planned}`;
    if (key === last) return;
    last = key;
    chain = chain
      .then(() =>
        db
          .updateTable('drafts')
          .set({ stage, pages_read: read, pages_planned: planned, updated_at: now() })
          .where('id', '=', id)
          .where('status', '=', 'crawling')
          .execute(),
      )
      .catch(() => {});
  };

  const fail = async (error: DraftError) => {
    await chain;
    await ctx.complete(async (trx) => {
      await updateDraft(trx, id, { status: 'failed', stage: 'failed', error, updated_at: now() });
    });
  };

  let pages: CrawledPage[];
  const { crawlSite, CrawlError } = await crawler();
  try {
    const crawlOpts = opts.crawl ?? {};
    const res = await crawlSite(d.url, {
      ...crawlOpts,
      allowHosts: deps.config.FETCH_ALLOW_HOSTS,
      totalTimeMs: Math.min(crawlOpts.totalTimeMs ?? 45_000, Math.max(1000, totalTimeMs - 5000)),
      signal,
      onProgress,
    });
    pages = res.pages;
  } catch (e) {
    if (ctx.signal.aborted) throw e; // lease lost or worker stopping: the queue deals with it
    if (e instanceof CrawlError) return fail(draftErrorOf(e, cap.aborted));
    throw e; // unexpected: retried by the queue
  }
  await chain;
  if (!pages.length) return fail({ reason: 'no_content', message: REASON_TEXT.no_content });

  await updateDraft(db, id, {
    status: 'drafting',
    stage: 'drafting',
    pages_read: pages.length,
    pages_planned: pages.length,
    updated_at: now(),
  });
  const stored = storedPagesOf(pages);
  let profile: ProfileDraft;
  try {
    profile = await drafterOf(deps)(sourcePagesOf(stored), {
      categoryNames: await categoryNames(db),
      categoryModel: await categoryModel(db),
      signal,
      config: deps.config,
      services: deps.services,
    });
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    if (cap.aborted)
      return fail({
        reason: 'timeout',
        message: `${REASON_TEXT.timeout} Drafting has a total time limit of ${Math.round(totalTimeMs / 1000)} s.`,
      });
    throw e;
  }
  if (cap.aborted)
    return fail({
      reason: 'timeout',
      message: `${REASON_TEXT.timeout} Drafting has a total time limit of ${Math.round(totalTimeMs / 1000)} s.`,
    });

  await ctx.complete(async (trx) => {
    const cur = await findDraft(trx, id, { engine: deps.store.engine, lock: true });
    if (!cur) return;
    const merged = mergeAiDraft(cur, profile);
    // Categories the AI proposes are kept only when they are in our tree.
    const cats = merged.fields.categories;
    if (cats.state === 'ai' && Array.isArray(cats.value)) {
      const { matched } = await matchCategories(trx, cats.value);
      const names = matched.map((m) => m.name);
      merged.fields.categories = names.length
        ? { ...cats, value: names, ai_value: names }
        : { ...cats, value: null, ai_value: null, evidence: [], ai_evidence: [], state: 'not_found' };
    }
    await updateDraft(trx, id, {
      ...merged,
      status: 'ready',
      stage: 'done',
      pages: stored,
      pages_read: pages.length,
      pages_planned: pages.length,
      error: null,
      updated_at: now(),
    });
  });
}

// ---------------------------------------------------------------------------------------------
// submit_listing

/** Accepts "https://example.com", "http://…" and a bare "example.com" (read as https). */
export function normaliseSubmittedUrl(raw: string, allowHosts: readonly string[]): string {
  const s = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `https://${s.replace(/^\/\//, '')}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw validationError([{ path: 'body.url', message: 'must be a website address such as https://example.com' }]);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw validationError([{ path: 'body.url', message: `must be an http or https address, not ${u.protocol}` }]);
  if (!u.hostname)
    throw validationError([{ path: 'body.url', message: 'must name a host, such as https://example.com' }]);
  if (u.href.length > 2048) throw validationError([{ path: 'body.url', message: 'must be at most 2048 characters' }]);
  try {
    checkUrl(u.href, allowHosts);
  } catch (e) {
    if (e instanceof FetchRefused)
      throw validationError([{ path: 'body.url', message: `${e.message}; give the product's public website` }]);
    throw e;
  }
  // A public website is named by a domain (example.com) or a public IP address: "not-a-url" would be
  // read as https://not-a-url/, a name no public site has (a FETCH_ALLOW_HOSTS entry is exempt).
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const allowed = allowHosts.some((e) => e.trim().toLowerCase().replace(/:\d+$/, '') === host);
  if (!allowed && !isIpLiteral(host) && normaliseDomain(u.href) === null) {
    throw validationError([
      {
        path: 'body.url',
        message: `must be a website address such as https://example.com: ${JSON.stringify(u.hostname)} is not a domain name`,
      },
    ]);
  }
  u.hash = '';
  return u.href;
}

function wake(services: { workers?: Waker }): void {
  services.workers?.wake();
}

export async function createDraft(ctx: Ctx, rawUrl: string): Promise<DraftView> {
  const user = userOf(ctx);
  const url = normaliseSubmittedUrl(rawUrl, ctx.config.FETCH_ALLOW_HOSTS);
  // A website another person has listed is refused before it is read (services/same-site.ts).
  await refuseListedSite(ctx.db, ctx.config, url, user.userId);
  const now = ctx.now();
  const d = await ctx.db.transaction().execute(async (trx) => {
    const d = await insertDraft(trx, { userId: user.userId, url, now: now.toISOString() });
    await enqueue(trx, DRAFT_BUILD, { draftId: d.id }, { now });
    return d;
  });
  wake(ctx.services);
  return draftView(d);
}

export async function getOwnDraft(ctx: Ctx, id: string): Promise<Draft> {
  const d = await findOwnDraft(ctx.db, id, userOf(ctx).userId);
  if (!d) return notFound('draft', id);
  return d;
}

// ---------------------------------------------------------------------------------------------
// update_draft

export interface DraftPatch {
  fields?: Partial<Record<ProfileField, string | string[] | null | undefined>>;
  lock_fields?: ProfileField[];
  regenerate?: ProfileField[];
  restore?: ProfileField[];
  faqs?: Array<{ question: string; answer: string }>;
  company_socials?: Record<string, string | undefined>;
  founder_socials?: Record<string, string | undefined>;
  founders?: Array<{ name: string; title?: string; bio?: string }>;
  story?: Record<string, string | undefined>;
  milestones?: Array<{ date: string; title: string; description?: string; url?: string }>;
  competitor_url?: string;
  seo?: { title?: string; meta?: string };
}

const isHttpUrl = (s: string, httpsOnly = false): boolean => httpUrl(s, httpsOnly) !== null;

/** Checks and normalises one typed value; returns the value to store or pushes an error. */
function checkFieldValue(f: ProfileField, v: string | string[], errors: ErrorDetail[]): FieldValue {
  const path = `body.fields.${f}`;
  if (isListField(f)) {
    if (!Array.isArray(v)) {
      errors.push({ path, message: 'must be an array of strings' });
      return null;
    }
    const seen = new Set<string>();
    const out: string[] = [];
    for (const item of v) {
      const t = item.trim();
      if (!t || seen.has(t.toLowerCase())) continue;
      seen.add(t.toLowerCase());
      out.push(t);
    }
    return out.length ? out : null;
  }
  if (typeof v !== 'string') {
    errors.push({ path, message: 'must be a string' });
    return null;
  }
  const t = v.trim();
  if (!t) return null;
  switch (f) {
    case 'country':
    case 'contact_email':
    case 'demo_video_url': {
      const r = FIELD_RULES[f](t);
      if (!r.ok) {
        errors.push({ path, message: r.message });
        return null;
      }
      return r.value;
    }
    case 'founded_year': {
      const y = Number(t);
      if (!/^\d{4}$/.test(t) || y < 1800 || y > 2100) {
        errors.push({ path, message: 'must be a four-digit year from 1800 to 2100, e.g. "2021"' });
        return null;
      }
      return t;
    }
    case 'logo_url':
      if (!isHttpUrl(t)) {
        errors.push({ path, message: 'must be an http or https link to an image' });
        return null;
      }
      return t;
    default:
      return t;
  }
}

function checkSocials(
  which: 'company_socials' | 'founder_socials',
  map: Record<string, string | undefined>,
  errors: ErrorDetail[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) {
    if (v === undefined) continue;
    const t = v.trim();
    if (!t) continue; // an empty link removes the platform
    if (!isHttpUrl(t)) {
      errors.push({ path: `body.${which}.${k}`, message: 'must be an http or https link' });
      continue;
    }
    out[k] = t;
  }
  return out;
}

/** The same field in two lists of one request is ambiguous: refuse, naming both. */
function checkOverlaps(body: DraftPatch, errors: ErrorDetail[]): void {
  const lists: Array<[string, readonly string[]]> = [
    ['fields', Object.keys(body.fields ?? {}).filter((k) => (body.fields as Record<string, unknown>)[k] !== undefined)],
    ['lock_fields', body.lock_fields ?? []],
    ['regenerate', body.regenerate ?? []],
    ['restore', body.restore ?? []],
  ];
  for (let i = 0; i < lists.length; i++) {
    for (let j = i + 1; j < lists.length; j++) {
      const [a, av] = lists[i];
      const [b, bv] = lists[j];
      if (a === 'fields' && b === 'lock_fields') continue; // typing a value and locking it is one wish
      for (const f of av)
        if (bv.includes(f))
          errors.push({
            path: `body.${b}`,
            message: `"${f}" is both in ${a} and in ${b}; send each field in only one of fields, lock_fields, regenerate and restore`,
          });
    }
  }
}

export async function applyDraftUpdate(ctx: Ctx, id: string, body: DraftPatch): Promise<DraftView> {
  const user = userOf(ctx);
  const draft = await findOwnDraft(ctx.db, id, user.userId);
  if (!draft) return notFound('draft', id);
  const errors: ErrorDetail[] = [];
  checkOverlaps(body, errors);

  const typed: Partial<Record<ProfileField, FieldValue>> = {};
  for (const f of PROFILE_FIELDS) {
    const v = body.fields?.[f];
    if (v === undefined) continue;
    typed[f] = v === null ? null : checkFieldValue(f, v, errors);
  }
  if (typed.categories) {
    const values = typed.categories as string[];
    const { matched, unknown } = await matchCategories(ctx.db, values);
    for (const u of unknown)
      errors.push({
        path: `body.fields.categories.${values.indexOf(u)}`,
        message: `"${u}" is not a category: use a name or slug from list_categories`,
      });
    typed.categories = matched.length ? matched.map((m) => m.name) : null;
  }
  const companySocials = body.company_socials
    ? checkSocials('company_socials', body.company_socials, errors)
    : undefined;
  const founderSocials = body.founder_socials
    ? checkSocials('founder_socials', body.founder_socials, errors)
    : undefined;
  const competitorUrl = body.competitor_url?.trim();
  if (competitorUrl && !isHttpUrl(competitorUrl))
    errors.push({
      path: 'body.competitor_url',
      message: "must be an http or https address of the competitor's website (or empty to clear)",
    });
  if (errors.length) throw validationError(errors);

  // Regenerate needs the evidence of a finished crawl, and never touches locked fields.
  const regen = body.regenerate ?? [];
  if (regen.length) {
    if (draft.status !== 'ready')
      conflict(
        `The draft is ${draft.status}; fields can be regenerated once its status is ready${draft.status === 'failed' ? ' (this draft failed: start a new one)' : ''}.`,
      );
    const locked = regen.filter((f) => draft.fields[f].state === 'override' && !(body.restore ?? []).includes(f));
    if (locked.length)
      conflict(
        `${locked.join(', ')} ${locked.length > 1 ? 'are' : 'is'} locked against AI redrafts (override); send the field in restore first to unlock it.`,
      );
  }
  let regenerated: ProfileDraft | undefined;
  if (regen.length)
    regenerated = await drafterOf(ctx)(sourcePagesOf(draft.pages), {
      categoryNames: await categoryNames(ctx.db),
      categoryModel: await categoryModel(ctx.db),
      fields: regen,
      config: ctx.config,
      services: ctx.services,
    });

  let competitor: Competitor | null | undefined;
  if (body.competitor_url !== undefined)
    competitor = competitorUrl ? await compareCompetitor(ctx, competitorUrl, draft) : null;

  const now = ctx.now().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    const cur = await findOwnDraft(trx, id, user.userId, { engine: ctx.engine, lock: true });
    if (!cur) return notFound('draft', id);
    const fields = { ...cur.fields } as StoredFields;
    const changed = new Set<ProfileField>();
    for (const f of body.restore ?? []) {
      const s = fields[f];
      fields[f] = {
        ...s,
        value: s.ai_value,
        evidence: s.ai_evidence,
        state: hasValue(s.ai_value) ? 'ai' : 'not_found',
      };
      changed.add(f);
    }
    for (const f of PROFILE_FIELDS) {
      if (!(f in typed)) continue;
      const v = typed[f] ?? null;
      const s = fields[f] ?? emptyField();
      if (v === null) fields[f] = { ...s, value: null, evidence: [], state: 'deleted' };
      else
        fields[f] = {
          ...s,
          value: v,
          evidence: [],
          state: s.state === 'override' ? 'override' : hasValue(s.ai_value) ? 'edited' : 'manual',
        };
      changed.add(f);
    }
    for (const f of body.lock_fields ?? []) fields[f] = { ...fields[f], state: 'override' };
    if (regenerated) {
      const cats = regenerated.fields.categories;
      for (const f of regen) {
        let ai = aiField(regenerated, f);
        if (f === 'categories' && Array.isArray(ai.value) && cats) {
          const names = (await matchCategories(trx, ai.value)).matched.map((m) => m.name);
          ai = names.length ? { value: names, evidence: ai.evidence } : { value: null, evidence: [] };
        }
        fields[f] = mergeAiField(fields[f], ai, { force: true });
        changed.add(f);
      }
    }
    const patch: Partial<Draft> = { fields, updated_at: now };
    const sections: SyncSections = { fields: [...changed] };
    if (body.faqs) {
      patch.faqs = body.faqs.map((q) => ({ question: q.question.trim(), answer: q.answer.trim() }));
      sections.faqs = true;
    }
    if (body.founders) {
      patch.founders = body.founders.map((p) => ({
        name: p.name.trim(),
        ...(p.title ? { title: p.title.trim() } : {}),
        ...(p.bio ? { bio: p.bio.trim() } : {}),
      }));
      sections.founders = true;
    }
    if (companySocials) {
      patch.company_socials = companySocials;
      sections.socials = true;
    }
    if (founderSocials) {
      patch.founder_socials = founderSocials;
      sections.founders = true;
    }
    if (body.milestones) {
      patch.milestones = body.milestones.map((m) => ({ ...m }));
      sections.milestones = true;
    }
    if (body.story) {
      const story = { ...cur.story };
      for (const [k, v] of Object.entries(body.story)) {
        if (v === undefined) continue;
        if (v.trim()) story[k] = v;
        else delete story[k];
      }
      patch.story = story;
      sections.story = true;
    }
    if (body.seo) {
      const seo = { ...cur.seo };
      for (const k of ['title', 'meta'] as const) {
        const v = body.seo[k];
        if (v === undefined) continue;
        if (v.trim()) seo[k] = v.trim();
        else delete seo[k];
      }
      patch.seo = seo;
      sections.seo = true;
    }
    if (competitor !== undefined) patch.competitor = competitor;
    await updateDraft(trx, id, patch);
    const after = { ...cur, ...patch } as Draft;
    await syncDraftEdit(trx, ctx.engine, after, now, sections);
    return draftView(after);
  });
}

// ---------------------------------------------------------------------------------------------
// competitor_url: read through the crawler (guarded fetcher, robots.txt) and compared

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

export async function compareCompetitor(
  ctx: { config: Ctx['config']; services: { drafting: DraftingOptions }; db: Ctx['db'] },
  url: string,
  draft: Draft,
): Promise<Competitor> {
  const opts = optionsOf(ctx.services);
  const timeMs = opts.competitorTimeMs ?? 12_000;
  const { crawlSite, CrawlError } = await crawler();
  try {
    const res = await crawlSite(url, {
      ...(opts.crawl ?? {}),
      allowHosts: ctx.config.FETCH_ALLOW_HOSTS,
      maxPages: 3,
      totalTimeMs: timeMs,
      pageTimeoutMs: Math.min(8000, timeMs),
      useSitemap: false,
    });
    const profile = await drafterOf(ctx)(sourcePagesOf(storedPagesOf(res.pages)), {
      categoryNames: [],
      fields: ['name', 'tagline', 'pricing_model', 'features'],
      signal: AbortSignal.timeout(timeMs),
      config: ctx.config,
      services: ctx.services,
    });
    const v = (f: ProfileField) => aiField(profile, f).value;
    const theirs = (Array.isArray(v('features')) ? v('features') : []) as string[];
    const ours = (Array.isArray(draft.fields.features.value) ? draft.fields.features.value : []) as string[];
    const oursN = new Map(ours.map((x) => [norm(x), x]));
    const theirsN = new Map(theirs.map((x) => [norm(x), x]));
    return {
      url: res.homeUrl,
      name: (v('name') as string | null) ?? null,
      tagline: (v('tagline') as string | null) ?? null,
      pricing_model: (v('pricing_model') as string | null) ?? null,
      features: theirs,
      shared_features: theirs.filter((x) => oursN.has(norm(x))),
      only_theirs: theirs.filter((x) => !oursN.has(norm(x))),
      only_ours: ours.filter((x) => !theirsN.has(norm(x))),
      compared_at: new Date().toISOString(),
    };
  } catch (e) {
    if (e instanceof CrawlError) return { url, error: draftErrorOf(e, false) };
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// invite_cofounder

export const MAX_INVITES = 10;
/** The invite mail: sent, queued in the outbox (no mail server configured), or send_failed. */
export type InviteStatus = 'queued' | 'sent' | 'send_failed';

export async function inviteCofounder(
  ctx: Ctx,
  id: string,
  rawEmail: string,
): Promise<{ id: number; email: string; created_at: string; resent: boolean; draft_id: string; status: InviteStatus }> {
  const user = userOf(ctx);
  const email = rawEmail.trim();
  const token = randomBytes(24).toString('base64url');
  const tokenHash = createHash('sha256').update(token).digest('hex');
  const now = ctx.now().toISOString();
  const { invite, draft } = await ctx.db.transaction().execute(async (trx) => {
    const draft = await findOwnDraft(trx, id, user.userId, { engine: ctx.engine, lock: true });
    if (!draft) return notFound('draft', id);
    const existing = await trx
      .selectFrom('draft_invites')
      .select(['id', 'email', 'created_at'])
      .where('draft_id', '=', id)
      .execute();
    const same = existing.find((r) => r.email.toLowerCase() === email.toLowerCase());
    if (same) {
      // Inviting the same address again sends a fresh link; it is still one invite.
      await trx.updateTable('draft_invites').set({ token_hash: tokenHash }).where('id', '=', same.id).execute();
      return { invite: { id: same.id, email: same.email, created_at: same.created_at, resent: true }, draft };
    }
    if (existing.length >= MAX_INVITES) {
      throw validationError([
        {
          path: 'body.email',
          message: `a draft can have at most ${MAX_INVITES} invites; this draft already has ${existing.length}`,
        },
      ]);
    }
    const row = await trx
      .insertInto('draft_invites')
      .values({ draft_id: id, email, created_at: now, token_hash: tokenHash, accepted_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { invite: { id: row.id, email, created_at: now, resent: false }, draft };
  });
  const product = (typeof draft.fields.name.value === 'string' && draft.fields.name.value) || hostOf(draft.url);
  const link = `${ctx.config.publicUrl}/invites/${token}`;
  const mail = await sendMail(
    { db: ctx.db, config: ctx.config },
    {
      to: email,
      subject: `${user.name || user.email} invited you to add your profile to ${product} on Launchlist`,
      text: [
        `Hello,`,
        ``,
        `${user.name || user.email} (${user.email}) is listing ${product} (${draft.url}) on Launchlist and invited you as a co-founder.`,
        `Open this link to add your founder profile (name, title, bio and links):`,
        ``,
        link,
        ``,
        `If you do not know this person or product, ignore this email; nothing happens without you.`,
      ].join('\n'),
    },
  );
  return { ...invite, draft_id: id, status: mail.sent ? 'sent' : mail.error ? 'send_failed' : 'queued' };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

// ---------------------------------------------------------------------------------------------
// submit_draft

export async function submitDraftAsListing(ctx: Ctx, id: string) {
  const user = userOf(ctx);
  const now = ctx.now().toISOString();
  return ctx.db.transaction().execute(async (trx: Transaction<DB>) => {
    const d = await findOwnDraft(trx, id, user.userId, { engine: ctx.engine, lock: true });
    if (!d) return notFound('draft', id);
    // A draft whose site could not be read (failed) can still be submitted once the maker has typed
    // the profile themselves: a site behind a login or a robots.txt ban must not lock them out.
    if (d.status !== 'ready' && d.status !== 'failed') {
      throw new ApiError(
        'conflict',
        `The draft cannot be submitted yet: it is still ${d.status}; poll get_draft until the status is ready.`,
      );
    }
    if (!hasValue(d.fields.name.value)) {
      const failed =
        d.status === 'failed'
          ? ` Reading the site failed (${d.error?.reason ?? 'unknown'}), so type the profile yourself:`
          : '';
      throw new ApiError(
        'conflict',
        `The draft has no name.${failed} set fields.name (and the rest) with update_draft, then submit again.`,
      );
    }
    // Every listing has one primary category (spec 2): the draft must name a category we have.
    const cats = d.fields.categories.value;
    const { matched } = await matchCategories(trx, Array.isArray(cats) ? cats.map(String) : []);
    if (!matched.length) {
      throw validationError([
        {
          path: 'fields.categories',
          message:
            'a listing needs a primary category: set fields.categories with update_draft to a category slug or name from list_categories, then submit again',
        },
      ]);
    }
    // The listing-edit path for a listing that exists, the duplicate check for one that would be made.
    const saved = await submitToListing(trx, { engine: ctx.engine, config: ctx.config }, d, now, matched);
    return { ...saved, draft_id: id };
  });
}

// ---------------------------------------------------------------------------------------------
// accepting a co-founder invite (the link in the invite mail): the invited person adds their own
// profile to the draft's founders, and to the listing when the draft was already submitted.

export const MAX_FOUNDERS = 6;
export type InviteLookup = {
  id: number;
  email: string;
  draft_id: string;
  product: string;
  accepted_at: string | null;
  founders: number;
};

const inviteTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function findInvite(db: Ctx['db'], token: string): Promise<InviteLookup | undefined> {
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(token)) return undefined;
  const row = await db
    .selectFrom('draft_invites')
    .select(['id', 'email', 'draft_id', 'accepted_at'])
    .where('token_hash', '=', inviteTokenHash(token))
    .executeTakeFirst();
  if (!row) return undefined;
  const draft = await findDraft(db, row.draft_id);
  if (!draft) return undefined;
  const name = draft.fields.name?.value;
  return { ...row, product: typeof name === 'string' && name ? name : draft.url, founders: draft.founders.length };
}

export async function acceptInvite(
  deps: { db: Ctx['db']; engine: Ctx['engine'] },
  token: string,
  profile: { name: string; title?: string; bio?: string },
  now = new Date(),
): Promise<{ draft_id: string; listing_id: number | null }> {
  const errors: ErrorDetail[] = [];
  const name = profile.name.trim();
  if (!name || name.length > 160) errors.push({ path: 'name', message: 'is required, at most 160 characters' });
  if ((profile.title ?? '').length > 160) errors.push({ path: 'title', message: 'must be at most 160 characters' });
  if ((profile.bio ?? '').length > 3000) errors.push({ path: 'bio', message: 'must be at most 3000 characters' });
  if (errors.length) throw validationError(errors);
  return deps.db.transaction().execute(async (trx) => {
    const invite = await trx
      .selectFrom('draft_invites')
      .select(['id', 'draft_id', 'accepted_at'])
      .where('token_hash', '=', inviteTokenHash(token))
      .executeTakeFirst();
    if (!invite) return notFound('invite', 'link');
    if (invite.accepted_at) conflict('This invite was already used to add a profile.');
    const cur = await findDraft(trx, invite.draft_id, { engine: deps.engine, lock: true });
    if (!cur) return notFound('invite', 'link');
    if (cur.founders.length >= MAX_FOUNDERS)
      conflict(
        `This listing already has ${MAX_FOUNDERS} founders, the most it can show. Ask the person who invited you to make room.`,
      );
    const at = now.toISOString();
    const founders = [
      ...cur.founders,
      {
        name,
        ...(profile.title?.trim() ? { title: profile.title.trim() } : {}),
        ...(profile.bio?.trim() ? { bio: profile.bio.trim() } : {}),
      },
    ];
    await updateDraft(trx, cur.id, { founders, updated_at: at });
    await trx.updateTable('draft_invites').set({ accepted_at: at }).where('id', '=', invite.id).execute();
    await syncDraftEdit(trx, deps.engine, { ...cur, founders }, at, { founders: true });
    return { draft_id: cur.id, listing_id: cur.listing_id };
  });
}
