// The owner's edits of a published or saved listing (spec 4.5): update_my_listing (kept in the
// version history, with apply_to copying the travelling fields to the company's listings on other
// sites), a draft's changes reaching its listing (submit_draft, update_draft: editFromDraft, the same
// version history and review), the site team's revert of an edit (admin edit review),
// post_listing_update (followers told by mail through the outbox), add_milestone / delete_milestone and
// set_founder_story.
import { FIELD_RULES, httpUrl } from '../domain/profile-rules.ts';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../store/types.ts';
import type { Engine } from '../store/connect.ts';
import type { Ctx } from '../operations/context.ts';
import { userOf } from '../operations/context.ts';
import { notFound, type ErrorDetail } from '../operations/errors.ts';
import { validationError } from '../operations/errors.ts';
import { fromJson, toJson } from '../store/json.ts';
import {
  countMilestones,
  deleteMilestone as deleteMilestoneRow,
  findOwnListing,
  followersOf,
  insertMilestone,
  insertUpdate,
  insertVersion,
  replaceStory,
  siteRows,
  type MilestoneRow,
  type OwnRow,
  type Story,
} from '../store/repos/my-listings.ts';
import { LISTING_LIST_FIELDS, STORY_KEYS } from '../domain/vocabulary.ts';
import { listingPageUrl } from '../domain/badges.ts';
import { queueFanOut } from '../jobs/mail.ts';
import { lockRows } from '../store/dialect.ts';
import { setPrimaryCategory } from '../store/repos/drafts.ts';
import { ownListingView, ownOr404, viewDeps } from './own-listing.ts';

export const MAX_MILESTONES = 50;

// ---------------------------------------------------------------------------------------------
// update_my_listing

export const SCALAR_FIELDS = [
  'tagline',
  'short_description',
  'description',
  'pricing_model',
  'pricing_summary',
  'country',
  'city',
  'founded_year',
  'demo_video_url',
  'contact_email',
  'headline',
  'summary',
  'seo_title',
  'seo_description',
] as const;
/** The fields that travel to the company's listings on other sites with apply_to. */
export const TRAVELLING_FIELDS = ['headline', 'summary', 'seo_title', 'seo_description'] as const;
/** What update_my_listing may change, in the order its `changed_fields` names them. */
export const EDITABLE_FIELDS = [...SCALAR_FIELDS, ...LISTING_LIST_FIELDS, 'socials', 'faqs'] as const;
type ScalarField = (typeof SCALAR_FIELDS)[number];
type ListField = (typeof LISTING_LIST_FIELDS)[number];
type TravellingField = (typeof TRAVELLING_FIELDS)[number];
const isTravelling = (f: string): f is TravellingField => (TRAVELLING_FIELDS as readonly string[]).includes(f);

export interface ListingPatch {
  fields?: Partial<Record<ScalarField, string | number | null>> & Partial<Record<ListField, string[] | null>>;
  apply_to?: string[];
  socials?: Record<string, string | undefined>;
  faqs?: Array<{ question: string; answer: string }>;
}

function checkScalar(
  f: ScalarField,
  v: string | number | null | undefined,
  errors: ErrorDetail[],
): string | number | null {
  const path = `body.fields.${f}`;
  if (v === null || v === undefined) return null;
  if (f === 'founded_year') return typeof v === 'number' ? v : null; // the schema checked 1800–2100
  const t = String(v).trim();
  if (!t) return null;
  switch (f) {
    case 'country':
    case 'contact_email':
    case 'demo_video_url': {
      // The same rules as update_draft (domain/profile-rules.ts).
      const r = FIELD_RULES[f](t);
      if (!r.ok) {
        errors.push({ path, message: r.message });
        return null;
      }
      return r.value;
    }
    default:
      return t;
  }
}

function cleanList(v: string[] | null | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of v ?? []) {
    const t = item.trim();
    if (!t || seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    out.push(t);
  }
  return out;
}

/** Canonical JSON for comparing values (object keys sorted). */
function canon(v: unknown): string {
  return JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );
}

/** The current value of an editable field, decoded. */
function currentOf(row: OwnRow, f: string): unknown {
  switch (f) {
    case 'features':
    case 'usps':
    case 'keywords':
    case 'tags':
      return fromJson<string[]>(row[f], []);
    case 'socials':
      return fromJson<Record<string, string>>(row.socials, {});
    case 'faqs':
      return fromJson<Array<{ question: string; answer: string }>>(row.faqs, []);
    case 'founded_year':
      return row.founded_year === null ? null : Number(row.founded_year);
    default:
      return (row as unknown as Record<string, unknown>)[f] ?? null;
  }
}

/** Editable fields (decoded values, as currentOf gives them) as listing columns: the lists and objects as JSON text. */
function columnsOf(values: Record<string, unknown>, now: string): Record<string, unknown> {
  const columns: Record<string, unknown> = { updated_at: now };
  for (const [f, v] of Object.entries(values))
    columns[f] = ['features', 'usps', 'keywords', 'tags', 'socials', 'faqs'].includes(f) ? toJson(v) : v;
  return columns;
}

/** Resolves apply_to (`all` or site keys) to site keys; unknown keys are 400s naming them. */
async function resolveApplyTo(
  db: Kysely<DB>,
  applyTo: string[],
  publicUrl: string,
  errors: ErrorDetail[],
): Promise<string[]> {
  if (!applyTo.length) return [];
  const sites = await siteRows(db);
  const known = new Set(sites.map((s) => s.key));
  const own = (u: string) => u.replace(/\/$/, '') === publicUrl.replace(/\/$/, '');
  const out = new Set<string>();
  applyTo.forEach((raw, i) => {
    const key = raw.trim();
    if (key === 'all')
      for (const s of sites) {
        if (!own(s.url)) out.add(s.key);
      }
    else if (known.has(key)) out.add(key);
    else
      errors.push({
        path: `body.apply_to.${i}`,
        message: `"${raw}" is not a site key: use "all" or one of ${sites.map((s) => s.key).join(', ') || '(no sites are configured)'}`,
      });
  });
  return [...out].sort();
}

export async function updateMyListing(ctx: Ctx, id: number, body: ListingPatch) {
  const user = userOf(ctx);
  const existing = await ownOr404(ctx.db, id, user.userId);
  const errors: ErrorDetail[] = [];
  // Normalise and check what was sent: `next` holds every field sent, as it would be stored (decoded).
  const next: Record<string, unknown> = {};
  for (const f of SCALAR_FIELDS) {
    if (body.fields && f in body.fields && body.fields[f] !== undefined)
      next[f] = checkScalar(f, body.fields[f], errors);
  }
  for (const f of LISTING_LIST_FIELDS) {
    if (body.fields && f in body.fields && body.fields[f] !== undefined) next[f] = cleanList(body.fields[f]);
  }
  if (body.socials !== undefined) {
    const socials: Record<string, string> = {};
    for (const [k, v] of Object.entries(body.socials)) {
      const t = (v ?? '').trim();
      if (!t) continue; // an empty link drops the platform
      if (!httpUrl(t)) errors.push({ path: `body.socials.${k}`, message: 'must be an http or https link' });
      else socials[k] = t;
    }
    next.socials = socials;
  }
  if (body.faqs !== undefined) {
    next.faqs = body.faqs.map((q, i) => {
      const question = q.question.trim();
      const answer = q.answer.trim();
      if (!question) errors.push({ path: `body.faqs.${i}.question`, message: 'must not be empty' });
      if (!answer) errors.push({ path: `body.faqs.${i}.answer`, message: 'must not be empty' });
      return { question, answer };
    });
  }
  const sites = await resolveApplyTo(ctx.db, body.apply_to ?? [], ctx.config.publicUrl, errors);
  if (errors.length) throw validationError(errors);

  const now = ctx.now().toISOString();
  const result = await ctx.db.transaction().execute(async (trx) => {
    const row = await ownOr404(trx, id, user.userId, { engine: ctx.engine, lock: true });
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const [f, v] of Object.entries(next)) {
      const cur = currentOf(row, f);
      if (canon(cur) === canon(v)) continue;
      before[f] = cur;
      after[f] = v;
    }
    // `next` is filled in EDITABLE_FIELDS order, so these are the keys of `after` in their order.
    const changed = EDITABLE_FIELDS.filter((f) => f in after);
    if (!changed.length) return { changed, versionId: null, applied: [] as string[], fields: [] as TravellingField[] };
    await trx.updateTable('listings').set(columnsOf(after, now)).where('id', '=', id).execute();
    const travelling = changed.filter(isTravelling);
    const applied = travelling.length ? sites : [];
    const versionId = await insertVersion(trx, {
      listingId: id,
      userId: user.userId,
      before,
      after,
      applyTo: applied,
      now,
    });
    return { changed, versionId, applied, fields: applied.length ? travelling : [] };
  });
  const row = result.changed.length ? await ownOr404(ctx.db, id, user.userId) : existing;
  return {
    ...(await ownListingView(viewDeps(ctx), row)),
    changed_fields: result.changed,
    version_id: result.versionId,
    applied_to: result.applied,
    applied_fields: result.fields,
  };
}

// ---------------------------------------------------------------------------------------------
// a draft's changes reaching its listing (submit_draft, update_draft of a submitted draft)

/** A version row's name for the listing's primary category (its slug as the value). */
export const PRIMARY_CATEGORY = 'primary_category';
/**
 * What a version row may record: update_my_listing's fields, and what only a draft writes (the name,
 * logo, stage, tags and primary category).
 */
const VERSIONED_FIELDS = ['name', ...EDITABLE_FIELDS, 'stage', 'tags', 'logo_url', PRIMARY_CATEGORY] as const;

type Db = Kysely<DB> | Transaction<DB>;

async function primarySlugOf(db: Db, row: OwnRow): Promise<string | null> {
  if (row.primary_category_id === null) return null;
  const c = await db
    .selectFrom('categories')
    .select('slug')
    .where('id', '=', row.primary_category_id)
    .executeTakeFirst();
  return c?.slug ?? null;
}

async function versionedValues(db: Db, row: OwnRow): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const f of VERSIONED_FIELDS) out[f] = f === PRIMARY_CATEGORY ? await primarySlugOf(db, row) : currentOf(row, f);
  return out;
}

/**
 * Writes a draft's changes into its listing as an edit by its owner (the listing-edit path): `write`
 * changes the listing inside `trx` (store/repos/drafts.ts saveListingFromDraft); every field it changed
 * is kept in the version history with its value before and after, not yet reviewed, so the site team's
 * edit review (/admin/edits) sees it, and can revert it, as it does update_my_listing's edits. Undefined
 * when `userId` does not own the listing (any more).
 */
export async function editFromDraft(
  trx: Transaction<DB>,
  engine: Engine,
  listingId: number,
  userId: number,
  now: string,
  write: () => Promise<void>,
  draftId?: string,
): Promise<{ versionId: number | null; changed: string[] } | undefined> {
  const row = await findOwnListing(trx, listingId, userId, { engine, lock: true });
  if (!row) return undefined;
  const was = await versionedValues(trx, row);
  await write();
  const is = await versionedValues(trx, (await findOwnListing(trx, listingId, userId))!);
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const f of VERSIONED_FIELDS) {
    if (canon(was[f]) === canon(is[f])) continue;
    before[f] = was[f];
    after[f] = is[f];
  }
  const changed = Object.keys(after);
  if (!changed.length) return { versionId: null, changed };
  const versionId = await insertVersion(trx, { listingId, userId, before, after, applyTo: [], now, draftId });
  return { versionId, changed };
}

/** A listing's values as version rows name them (the primary category by slug); undefined when there is no such listing. */
export async function listingValues(db: Db, listingId: number): Promise<Record<string, unknown> | undefined> {
  const row = (await db.selectFrom('listings').selectAll().where('id', '=', listingId).executeTakeFirst()) as
    | OwnRow
    | undefined;
  return row ? versionedValues(db, row) : undefined;
}

/** Two field values are the same (lists and objects compared by content). */
export const sameValue = (a: unknown, b: unknown): boolean => canon(a) === canon(b);

/** What reverting an edit did: the fields put back, and those left because a later edit changed them again. */
export interface RevertOutcome {
  versionId: number;
  listing: { id: number; slug: string; name: string; owner_id: number | null };
  restored: string[];
  kept: string[];
}

/**
 * The site team takes an owner's edit back (admin edit review): each field the edit changed returns to
 * its value before it, unless a later edit changed it again (kept, so no newer edit is lost). The
 * revert is itself an edit in the version history, by the admin and already reviewed; the edit is
 * marked reviewed. Undefined when no edit has the id.
 */
export async function revertVersion(
  db: Kysely<DB>,
  engine: Engine,
  versionId: number,
  adminId: number,
  now: string,
): Promise<RevertOutcome | undefined> {
  return db.transaction().execute(async (trx) => {
    const v = await trx
      .selectFrom('listing_versions')
      .select(['listing_id', 'before', 'after'])
      .where('id', '=', versionId)
      .executeTakeFirst();
    if (!v) return undefined;
    const row = (await trx
      .selectFrom('listings')
      .selectAll()
      .where('id', '=', v.listing_id)
      .$call(lockRows(engine))
      .executeTakeFirstOrThrow()) as unknown as OwnRow;
    const before = fromJson<Record<string, unknown>>(v.before, {});
    const after = fromJson<Record<string, unknown>>(v.after, {});
    const was: Record<string, unknown> = {};
    const back: Record<string, unknown> = {};
    const kept: string[] = [];
    let primary: { id: number } | undefined;
    for (const [f, value] of Object.entries(before)) {
      const cur = f === PRIMARY_CATEGORY ? await primarySlugOf(trx, row) : currentOf(row, f);
      if (canon(cur) !== canon(after[f]))
        kept.push(f); // changed again since: not this edit's value any more
      else if (canon(cur) !== canon(value)) {
        if (f === PRIMARY_CATEGORY) {
          // Put back only a category that still exists (a listing always keeps one primary category).
          primary =
            typeof value === 'string'
              ? await trx.selectFrom('categories').select('id').where('slug', '=', value).executeTakeFirst()
              : undefined;
          if (!primary) {
            kept.push(f);
            continue;
          }
        }
        was[f] = cur;
        back[f] = value;
      }
    }
    const restored = Object.keys(back);
    if (restored.length) {
      const { [PRIMARY_CATEGORY]: _primary, ...columns } = back;
      await trx.updateTable('listings').set(columnsOf(columns, now)).where('id', '=', row.id).execute();
      if (primary) await setPrimaryCategory(trx, row.id, primary.id);
      await insertVersion(trx, {
        listingId: row.id,
        userId: adminId,
        before: was,
        after: back,
        applyTo: [],
        now,
        reviewedBy: adminId,
      });
    }
    await trx
      .updateTable('listing_versions')
      .set({ reviewed_at: now, reviewed_by: adminId })
      .where('id', '=', versionId)
      .where('reviewed_at', 'is', null)
      .execute();
    return {
      versionId,
      listing: { id: row.id, slug: row.slug, name: row.name, owner_id: row.owner_id },
      restored,
      kept,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// post_listing_update

export async function postListingUpdate(ctx: Ctx, id: number, input: { title: string; body: string }) {
  const user = userOf(ctx);
  const title = input.title.trim();
  const text = input.body.trim();
  const errors: ErrorDetail[] = [];
  if (!title) errors.push({ path: 'body.title', message: 'must not be empty' });
  if (!text) errors.push({ path: 'body.body', message: 'must not be empty' });
  if (errors.length) throw validationError(errors);
  const now = ctx.now().toISOString();
  // Followers are told by mail; the poster is not mailed about their own update. The messages are
  // written to the outbox in the update's own transaction, with the jobs that send them over SMTP
  // (jobs/mail.ts): the update and its mails commit together, and the request never waits on SMTP.
  const { updateId, notified } = await ctx.db.transaction().execute(async (trx) => {
    const listing = await ownOr404(trx, id, user.userId, { engine: ctx.engine, lock: true });
    const updateId = await insertUpdate(trx, id, title, text, now);
    const page = listingPageUrl(ctx.config.publicUrl, listing.slug);
    const mails = (await followersOf(trx, id))
      .filter((f) => f.id !== user.userId)
      .map((f) => ({
        to: f.email,
        subject: `${listing.name}: ${title}`.replace(/[\r\n]+/g, ' ').slice(0, 200),
        text: [
          `Hello ${f.name || ''},`.replace(' ,', ','),
          '',
          `${listing.name} posted an update on Launchlist:`,
          '',
          title,
          '',
          text,
          '',
          `See the listing: ${page}`,
          '',
          `You get this email because you follow ${listing.name} on Launchlist. To stop, unfollow it on ${page}.`,
        ].join('\n'),
      }));
    return { updateId, notified: await queueFanOut(trx, ctx.config, mails) };
  });
  if (notified && ctx.config.SMTP_URL) ctx.services.workers?.wake();
  return { id: updateId, listing_id: id, title, body: text, created_at: now, followers_notified: notified };
}

// ---------------------------------------------------------------------------------------------
// milestones

export async function addMilestone(
  ctx: Ctx,
  id: number,
  m: { date: string; title: string; description?: string; url?: string },
): Promise<MilestoneRow> {
  const user = userOf(ctx);
  const title = m.title.trim();
  if (!title) throw validationError([{ path: 'body.title', message: 'must not be empty' }]);
  const now = ctx.now().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    await ownOr404(trx, id, user.userId, { engine: ctx.engine, lock: true }); // the lock serialises concurrent adds to one listing
    const count = await countMilestones(trx, id);
    if (count >= MAX_MILESTONES) {
      throw validationError([
        {
          path: 'body',
          message: `a listing has at most ${MAX_MILESTONES} milestones and this one already has ${count}; delete one with delete_milestone first`,
        },
      ]);
    }
    return insertMilestone(
      trx,
      id,
      { date: m.date, title, description: m.description?.trim() || null, url: m.url ?? null },
      now,
    );
  });
}

export async function deleteMilestone(
  ctx: Ctx,
  id: number,
  milestoneId: number,
): Promise<{ deleted: true; id: number }> {
  const user = userOf(ctx);
  return ctx.db.transaction().execute(async (trx) => {
    await ownOr404(trx, id, user.userId, { engine: ctx.engine, lock: true });
    if (!(await deleteMilestoneRow(trx, id, milestoneId))) return notFound('milestone', milestoneId);
    await trx.updateTable('listings').set({ updated_at: ctx.now().toISOString() }).where('id', '=', id).execute();
    return { deleted: true as const, id: milestoneId };
  });
}

// ---------------------------------------------------------------------------------------------
// set_founder_story (PUT = replace)

export async function setFounderStory(ctx: Ctx, id: number, body: Partial<Record<string, string | undefined>>) {
  const user = userOf(ctx);
  const story = Object.fromEntries(STORY_KEYS.map((k) => [k, body[k]?.trim() ? body[k]!.trim() : null])) as Story;
  const now = ctx.now().toISOString();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const row = await ownOr404(trx, id, user.userId, { engine: ctx.engine, lock: true });
    await replaceStory(trx, id, story, now);
    await trx.updateTable('listings').set({ updated_at: now }).where('id', '=', id).execute();
    return row;
  });
  const shown = fromJson<string[]>(row.unlocked, []).includes('story');
  return { listing_id: id, ...story, updated_at: now, shown_publicly: shown };
}
