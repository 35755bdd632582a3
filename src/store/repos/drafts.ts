// Drafts: storage of a draft (one row in `drafts`, JSON columns as text), its public shape
// (`draftView`), and saving a draft as the caller's listing (`saveListingFromDraft`).
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Engine } from '../connect.ts';
import type { DB, DraftsTable } from '../types.ts';
import { fromJson, toJson } from '../json.ts';
import { normaliseDomain } from '../../domain/urls.ts';
import { completeness as completenessOfFields, missing as missingFields } from '../../drafting/extract/completeness.ts';
import {
  PROFILE_FIELDS,
  STORY_KEYS,
  type DraftFailureReason,
  type DraftStage,
  type DraftStatus,
  type FieldState,
  type ListingStatus,
  type ProfileField,
} from '../../domain/vocabulary.ts';
import { lockRows } from '../dialect.ts';

export type { DraftStatus, FieldState };
export type FieldValue = string | string[] | null;
export interface Evidence {
  quote: string;
  url: string;
  /** For list fields: the index of the item the quote supports (drafted values only). */
  item?: number;
}

/** A field as stored: what is shown, plus the AI's own value and evidence (kept for `restore`). */
export interface StoredField {
  value: FieldValue;
  state: FieldState;
  evidence: Evidence[];
  ai_value: FieldValue;
  ai_evidence: Evidence[];
}
export type StoredFields = Record<ProfileField, StoredField>;

export interface DraftError {
  reason: DraftFailureReason;
  message: string;
}
export interface DraftFaq {
  question: string;
  answer: string;
  evidence?: Evidence[];
}
export interface DraftFounder {
  name: string;
  title?: string;
  bio?: string;
  evidence?: Evidence[];
}
export interface DraftMilestone {
  date: string;
  title: string;
  description?: string;
  url?: string;
  evidence?: Evidence[];
}
export interface StoredPage {
  url: string;
  title: string;
  text: string;
  html?: string;
}
/**
 * A competitor's site read and compared with the draft (update_draft's competitor_url), or why it could
 * not be read.
 */
export type Competitor =
  | {
      url: string;
      name: string | null;
      tagline: string | null;
      pricing_model: string | null;
      features: string[];
      shared_features: string[];
      only_theirs: string[];
      only_ours: string[];
      compared_at: string;
    }
  | { url: string; error: DraftError };

/** A draft with its JSON columns decoded. */
export interface Draft {
  id: string;
  user_id: number;
  url: string;
  status: DraftStatus;
  stage: DraftStage | null;
  pages_read: number;
  pages_planned: number;
  error: DraftError | null;
  fields: StoredFields;
  faqs: DraftFaq[];
  founders: DraftFounder[];
  company_socials: Record<string, string>;
  founder_socials: Record<string, string>;
  /** The founder story's sections that have text, by STORY_KEYS key (update_draft takes no other key). */
  story: Record<string, string>;
  milestones: DraftMilestone[];
  competitor: Competitor | null;
  seo: { title?: string; meta?: string };
  pages: StoredPage[];
  listing_id: number | null;
  created_at: string;
  updated_at: string;
}

export function emptyField(): StoredField {
  return { value: null, state: 'not_found', evidence: [], ai_value: null, ai_evidence: [] };
}
export function emptyFields(): StoredFields {
  return Object.fromEntries(PROFILE_FIELDS.map((f) => [f, emptyField()])) as StoredFields;
}

export function hasValue(v: FieldValue | undefined): boolean {
  if (v === null || v === undefined) return false;
  return Array.isArray(v) ? v.length > 0 : v.trim() !== '';
}

export function decodeDraft(row: DraftsTable): Draft {
  const raw = fromJson<Partial<Record<string, Partial<StoredField>>>>(row.fields, {});
  const fields = emptyFields();
  for (const f of PROFILE_FIELDS) {
    const r = raw[f];
    if (r)
      fields[f] = {
        value: r.value ?? null,
        state: (r.state ?? 'not_found') as FieldState,
        evidence: r.evidence ?? [],
        ai_value: r.ai_value ?? null,
        ai_evidence: r.ai_evidence ?? [],
      };
  }
  return {
    id: row.id,
    user_id: row.user_id,
    url: row.url,
    status: row.status,
    stage: row.stage,
    pages_read: Number(row.pages_read),
    pages_planned: Number(row.pages_planned),
    error: fromJson<DraftError | null>(row.error, null),
    fields,
    faqs: fromJson(row.faqs, []),
    founders: fromJson(row.founders, []),
    company_socials: fromJson(row.company_socials, {}),
    founder_socials: fromJson(row.founder_socials, {}),
    story: fromJson(row.story, {}),
    milestones: fromJson(row.milestones, []),
    competitor: fromJson(row.competitor, null),
    seo: fromJson(row.seo, {}),
    pages: fromJson(row.pages, []),
    listing_id: row.listing_id === null ? null : Number(row.listing_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The columns of `d` that differ from what is stored get written; pass only what changed. */
export function encodeDraft(d: Partial<Draft>): Partial<DraftsTable> {
  const out: Partial<DraftsTable> = {};
  if (d.status !== undefined) out.status = d.status;
  if (d.stage !== undefined) out.stage = d.stage;
  if (d.pages_read !== undefined) out.pages_read = d.pages_read;
  if (d.pages_planned !== undefined) out.pages_planned = d.pages_planned;
  if (d.error !== undefined) out.error = d.error === null ? null : toJson(d.error);
  if (d.url !== undefined) out.url = d.url;
  for (const k of [
    'fields',
    'faqs',
    'founders',
    'company_socials',
    'founder_socials',
    'story',
    'milestones',
    'competitor',
    'seo',
    'pages',
  ] as const) {
    if (d[k] !== undefined) out[k] = toJson(d[k]);
  }
  if (d.listing_id !== undefined) out.listing_id = d.listing_id;
  if (d.updated_at !== undefined) out.updated_at = d.updated_at;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Completeness and what is missing

/** Completeness 0–100 (the drafting module's documented formula, COMPLETENESS_FORMULA). */
export function completenessOf(d: Pick<Draft, 'fields'>): number {
  return completenessOfFields(d.fields).percent;
}

/** Profile fields still without a value, in spec order. */
export function missingOf(d: Pick<Draft, 'fields'>): ProfileField[] {
  return missingFields(d.fields);
}

/** Fields the website did not state (the AI found nothing) and that still have no value. */
export function notFoundOnWebsite(d: Pick<Draft, 'fields'>): ProfileField[] {
  return PROFILE_FIELDS.filter((f) => !hasValue(d.fields[f].ai_value) && !hasValue(d.fields[f].value));
}

// ---------------------------------------------------------------------------------------------
// The public shape

/** A profile field as a draft shows it (without the AI's own value, kept for `restore`). */
export interface DraftFieldView {
  value: FieldValue;
  state: FieldState;
  evidence: Evidence[];
}

/** The one response shape of a draft (get_draft, update_draft, submit_listing). */
export function draftView(input: DraftsTable | Draft) {
  const d =
    'fields' in input && typeof input.fields === 'object' ? (input as Draft) : decodeDraft(input as DraftsTable);
  const fields = {} as Record<ProfileField, DraftFieldView>; // every key is set just below
  for (const f of PROFILE_FIELDS) {
    const s = d.fields[f];
    fields[f] = { value: s.value, state: s.state, evidence: s.evidence };
  }
  return {
    id: d.id,
    url: d.url,
    status: d.status,
    progress: { stage: d.stage, pages_read: d.pages_read, pages_planned: d.pages_planned },
    error: d.error,
    fields,
    faqs: d.faqs,
    founders: d.founders,
    company_socials: d.company_socials,
    founder_socials: d.founder_socials,
    story: d.story,
    // A Milestone's id is returned (spec 2); a draft's milestones are not rows yet, so theirs is the position (1…).
    milestones: d.milestones.map((m, i) => ({ id: i + 1, ...m })),
    competitor: d.competitor,
    seo: d.seo,
    completeness: completenessOf(d),
    missing: missingOf(d),
    not_found_on_website: d.status === 'ready' ? notFoundOnWebsite(d) : [],
    listing_id: d.listing_id,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}
export type DraftView = ReturnType<typeof draftView>;

/** The short form used in list_my_drafts. */
export function draftSummary(d: Draft) {
  return {
    id: d.id,
    url: d.url,
    name: typeof d.fields.name.value === 'string' ? d.fields.name.value : null,
    status: d.status,
    progress: { stage: d.stage, pages_read: d.pages_read, pages_planned: d.pages_planned },
    error: d.error,
    completeness: completenessOf(d),
    missing: missingOf(d),
    listing_id: d.listing_id,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

// ---------------------------------------------------------------------------------------------
// Queries

type Db = Kysely<DB> | Transaction<DB>;

export async function insertDraft(
  db: Db,
  args: { userId: number; url: string; now: string; id?: string },
): Promise<Draft> {
  const row: DraftsTable = {
    id: args.id ?? randomUUID(),
    user_id: args.userId,
    url: args.url,
    status: 'crawling',
    stage: 'queued',
    pages_read: 0,
    pages_planned: 0,
    error: null,
    fields: toJson(emptyFields()),
    faqs: '[]',
    founders: '[]',
    company_socials: '{}',
    founder_socials: '{}',
    story: '{}',
    milestones: '[]',
    competitor: 'null',
    seo: '{}',
    pages: '[]',
    listing_id: null,
    created_at: args.now,
    updated_at: args.now,
  };
  await db.insertInto('drafts').values(row).execute();
  return decodeDraft(row);
}

/** One draft by id (any owner), optionally locked for update (PostgreSQL) inside a transaction. */
export async function findDraft(
  db: Db,
  id: string,
  opts: { engine?: Engine; lock?: boolean } = {},
): Promise<Draft | undefined> {
  const row = await db
    .selectFrom('drafts')
    .selectAll()
    .where('id', '=', id)
    .$call(lockRows(opts.engine ?? 'sqlite', opts.lock))
    .executeTakeFirst();
  return row ? decodeDraft(row as DraftsTable) : undefined;
}

/** The caller's draft, or undefined when it does not exist or belongs to someone else. */
export async function findOwnDraft(
  db: Db,
  id: string,
  userId: number,
  opts: { engine?: Engine; lock?: boolean } = {},
): Promise<Draft | undefined> {
  const d = await findDraft(db, id, opts);
  return d && d.user_id === userId ? d : undefined;
}

export async function listOwnDrafts(
  db: Db,
  userId: number,
  page: { limit: number; offset: number },
): Promise<{ items: Draft[]; total: number }> {
  const rows = await db
    .selectFrom('drafts')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const { n } = await db
    .selectFrom('drafts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { items: rows.map((r) => decodeDraft(r as DraftsTable)), total: Number(n) };
}

export async function updateDraft(db: Db, id: string, patch: Partial<Draft>): Promise<void> {
  const values = encodeDraft(patch);
  if (Object.keys(values).length === 0) return;
  await db.updateTable('drafts').set(values).where('id', '=', id).execute();
}

// ---------------------------------------------------------------------------------------------
// Categories

export interface CategoryRef {
  id: number;
  slug: string;
  name: string;
}

/** Matches names or slugs (case-insensitive) against the category tree; returns matches and what did not match. */
export async function matchCategories(
  db: Db,
  values: string[],
): Promise<{ matched: CategoryRef[]; unknown: string[] }> {
  if (!values.length) return { matched: [], unknown: [] };
  const rows = await db
    .selectFrom('categories')
    .select(['id', 'slug', 'name', 'position'])
    .orderBy('position')
    .orderBy('id')
    .execute();
  const bySlug = new Map(rows.map((r) => [r.slug.toLowerCase(), r]));
  const byName = new Map<string, (typeof rows)[number]>();
  for (const r of rows) if (!byName.has(r.name.trim().toLowerCase())) byName.set(r.name.trim().toLowerCase(), r);
  const matched: CategoryRef[] = [];
  const unknown: string[] = [];
  for (const v of values) {
    const k = v.trim().toLowerCase();
    const r = bySlug.get(k) ?? byName.get(k);
    if (!r) unknown.push(v);
    else if (!matched.some((m) => m.id === r.id)) matched.push({ id: r.id, slug: r.slug, name: r.name });
  }
  return { matched, unknown };
}

// ---------------------------------------------------------------------------------------------
// Draft → listing

export function slugify(s: string): string {
  const base = s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
  return base || 'listing';
}

async function uniqueSlug(db: Db, table: 'listings' | 'founders', base: string): Promise<string> {
  const taken = new Set(
    (
      await db
        .selectFrom(table)
        .select('slug')
        .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
        .execute()
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

const str = (v: FieldValue): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const list = (v: FieldValue): string[] => (Array.isArray(v) ? v : []);

/**
 * What a sync writes: 'all' on the first submit; on a PATCH of a submitted draft, only the parts that
 * changed (services/draft-listing.ts: through the listing-edit path, as an edit with a version row).
 */
export interface SyncSections {
  fields?: ProfileField[] | 'all';
  faqs?: boolean;
  founders?: boolean;
  socials?: boolean;
  story?: boolean;
  milestones?: boolean;
  seo?: boolean;
}
export const ALL_SECTIONS: SyncSections = {
  fields: 'all',
  faqs: true,
  founders: true,
  socials: true,
  story: true,
  milestones: true,
  seo: true,
};

/**
 * Creates the caller's listing from a draft (status draft, plan none, not public), or — when the
 * draft was submitted before — updates the same listing with the `sections` asked for (a listing
 * that has to be created gets them all). Runs inside the caller's transaction.
 */
export async function saveListingFromDraft(
  trx: Transaction<DB>,
  d: Draft,
  now: string,
  sections: SyncSections = ALL_SECTIONS,
  matched?: CategoryRef[],
): Promise<{ listing_id: number; slug: string; status: ListingStatus; created: boolean }> {
  // Only a listing of the draft's own maker is written (a claim that moved the listing detaches the draft, too).
  const existing =
    d.listing_id !== null
      ? await trx
          .selectFrom('listings')
          .select(['id', 'slug', 'status'])
          .where('id', '=', d.listing_id)
          .where('owner_id', '=', d.user_id)
          .executeTakeFirst()
      : undefined;
  if (!existing) sections = ALL_SECTIONS;
  const f = d.fields;
  const name = str(f.name.value);
  const all = sections.fields === 'all';
  const want = (k: ProfileField) => all || (Array.isArray(sections.fields) && sections.fields.includes(k));
  const year = str(f.founded_year.value);
  const columns: Record<string, unknown> = {};
  const scalar: ProfileField[] = [
    'tagline',
    'short_description',
    'description',
    'stage',
    'pricing_model',
    'pricing_summary',
    'country',
    'city',
    'contact_email',
    'demo_video_url',
    'logo_url',
  ];
  for (const k of scalar) if (want(k)) columns[k] = str(f[k].value);
  if (want('founded_year')) columns.founded_year = year && /^\d{4}$/.test(year) ? Number(year) : null;
  for (const k of ['features', 'usps', 'keywords', 'tags'] as const) if (want(k)) columns[k] = toJson(list(f[k].value));
  if (want('name') && name) columns.name = name;
  // Only a site that was read can be said not to state something (a failed crawl read nothing).
  if (all || Array.isArray(sections.fields))
    columns.not_found = toJson(d.status === 'ready' ? notFoundOnWebsite(d) : []);
  if (sections.socials) columns.socials = toJson(d.company_socials);
  if (sections.faqs) columns.faqs = toJson(d.faqs.map((q) => ({ question: q.question, answer: q.answer })));
  if (sections.seo) {
    columns.seo_title = d.seo.title || null;
    columns.seo_description = d.seo.meta || null;
  }

  let categories: CategoryRef[] | undefined;
  if (want('categories')) categories = matched ?? (await matchCategories(trx, list(f.categories.value))).matched; // `matched`: the caller already matched them

  let listingId: number;
  let slug = '';
  let status: ListingStatus;
  let created = false;
  if (existing) {
    listingId = existing.id;
    slug = existing.slug;
    status = existing.status;
    // The primary category is set below (setPrimaryCategory); a draft without categories leaves it: every listing has one.
    await trx
      .updateTable('listings')
      .set({ ...columns, updated_at: now })
      .where('id', '=', listingId)
      .execute();
  } else {
    if (!name) throw new Error('saveListingFromDraft: the draft has no name');
    status = 'draft';
    let host: string | null = null;
    try {
      host = new URL(d.url).hostname.toLowerCase();
    } catch {
      /* stored urls are valid */
    }
    const domain = normaliseDomain(d.url) ?? host ?? d.url;
    // The slug comes from the name, made unique; ON CONFLICT DO NOTHING + retry covers a concurrent submit taking it first.
    let row: { id: number } | undefined;
    for (let i = 0; !row; i++) {
      slug = await uniqueSlug(trx, 'listings', slugify(name));
      row = await trx
        .insertInto('listings')
        .values({
          slug,
          owner_id: d.user_id,
          draft_id: d.id,
          name,
          url: d.url,
          domain,
          status: 'draft',
          plan: 'none',
          primary_category_id: categories?.[0]?.id ?? null,
          created_at: now,
          updated_at: now,
          ...columns,
        } as never)
        .onConflict((oc) => oc.column('slug').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row && i >= 5) throw new Error('saveListingFromDraft: could not find a free slug');
    }
    listingId = row.id;
    created = true;
  }

  // The primary category is the first of the draft's categories. Only the primary is the draft's: the
  // extra categories a paid order added (extra_categories) stay.
  if (categories?.[0]) await setPrimaryCategory(trx, listingId, categories[0].id);

  if (sections.founders || sections.socials) await syncFounders(trx, listingId, d, now);
  if (sections.story) {
    const keys = STORY_KEYS;
    const values = Object.fromEntries(keys.map((k) => [k, d.story[k] ? d.story[k] : null]));
    const any = keys.some((k) => values[k] !== null);
    await trx.deleteFrom('stories').where('listing_id', '=', listingId).execute();
    if (any)
      await trx
        .insertInto('stories')
        .values({ listing_id: listingId, ...values, updated_at: now } as never)
        .execute();
  }
  if (sections.milestones) {
    await trx.deleteFrom('milestones').where('listing_id', '=', listingId).execute();
    for (const m of d.milestones) {
      await trx
        .insertInto('milestones')
        .values({
          listing_id: listingId,
          date: m.date,
          title: m.title,
          description: m.description ?? null,
          url: m.url ?? null,
          created_at: now,
        })
        .execute();
    }
  }
  return { listing_id: listingId, slug, status, created };
}

/**
 * Makes `categoryId` the listing's primary category (listings.primary_category_id and its
 * listing_categories row); the other categories (paid extra categories) are left as they are.
 */
export async function setPrimaryCategory(trx: Db, listingId: number, categoryId: number): Promise<void> {
  const rows = await trx
    .selectFrom('listing_categories')
    .select(['category_id', 'is_primary'])
    .where('listing_id', '=', listingId)
    .execute();
  const primaries = rows.filter((r) => Boolean(r.is_primary));
  const listing = await trx
    .selectFrom('listings')
    .select('primary_category_id')
    .where('id', '=', listingId)
    .executeTakeFirst();
  // Already so: nothing is written (a write would make the stored profile be rebuilt for nothing).
  if (primaries.length === 1 && primaries[0].category_id === categoryId && listing?.primary_category_id === categoryId)
    return;
  const drop = rows.filter((r) => Boolean(r.is_primary) || r.category_id === categoryId).map((r) => r.category_id);
  if (drop.length)
    await trx
      .deleteFrom('listing_categories')
      .where('listing_id', '=', listingId)
      .where('category_id', 'in', drop)
      .execute();
  await trx
    .insertInto('listing_categories')
    .values({ listing_id: listingId, category_id: categoryId, is_primary: true })
    .execute();
  await trx.updateTable('listings').set({ primary_category_id: categoryId }).where('id', '=', listingId).execute();
}

/** The listing's founders follow the draft's list in order; the first (primary) carries founder_socials. */
async function syncFounders(trx: Transaction<DB>, listingId: number, d: Draft, now: string): Promise<void> {
  const linked = await trx
    .selectFrom('listing_founders')
    .innerJoin('founders', 'founders.id', 'listing_founders.founder_id')
    .select(['founders.id', 'founders.user_id', 'listing_founders.position'])
    .where('listing_founders.listing_id', '=', listingId)
    .orderBy('listing_founders.position')
    .execute();
  for (let i = 0; i < d.founders.length; i++) {
    const fd = d.founders[i];
    const socials = toJson(i === 0 ? d.founder_socials : {});
    const prev = linked[i];
    if (prev) {
      await trx
        .updateTable('founders')
        .set({ name: fd.name, title: fd.title ?? null, bio: fd.bio ?? null, socials })
        .where('id', '=', prev.id)
        .execute();
    } else {
      let row: { id: number } | undefined;
      for (let attempt = 0; !row; attempt++) {
        const slug = await uniqueSlug(trx, 'founders', slugify(fd.name));
        row = await trx
          .insertInto('founders')
          .values({ slug, name: fd.name, title: fd.title ?? null, bio: fd.bio ?? null, socials, created_at: now })
          .onConflict((oc) => oc.column('slug').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!row && attempt >= 5) throw new Error('syncFounders: could not find a free slug');
      }
      await trx
        .insertInto('listing_founders')
        .values({ listing_id: listingId, founder_id: row.id, position: i })
        .execute();
    }
  }
  for (const gone of linked.slice(d.founders.length)) {
    await trx
      .deleteFrom('listing_founders')
      .where('listing_id', '=', listingId)
      .where('founder_id', '=', gone.id)
      .execute();
    const elsewhere = await trx
      .selectFrom('listing_founders')
      .select('listing_id')
      .where('founder_id', '=', gone.id)
      .executeTakeFirst();
    if (!elsewhere && gone.user_id === null) await trx.deleteFrom('founders').where('id', '=', gone.id).execute();
  }
}
