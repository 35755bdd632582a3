// "My listings" and the listing lifecycle (spec 4.5 and part 3).
//
// Listing statuses and moves (the spec shows the names; the moves are ours and written into the
// operation descriptions):
//
//   draft           submit_draft saved it (plan none); not public.
//     │ choose_free_listing → plan free, launch_week W = the Monday `free_queue_weeks` weeks after
//     │                       the current week (settings; default 4)
//     ▼
//   awaiting_badge  queued for week W; public as "upcoming", goes live only once our badge (or a
//     │             link to its listing page) is on the listing's homepage. The listings.advance job
//     │             reads the homepage (guarded fetcher, robots.txt respected) about every 15 minutes
//     │             and records each check in badge_checks.
//     │ badge found → badge_seen_at = now; week W not started yet → scheduled; started → live.
//     │               (Found only after week W has ENDED: the launch week becomes the current week.)
//     ▼
//   scheduled       cleared to go live in its launch week (free with the badge found, or paid for a
//     │             future week).
//     │ launch week starts (listings.advance) → live, launched_at = now
//     ▼
//   live            public, searchable, open to votes from people on the site.
//
// Paid launches (create_checkout + payment) move a listing to live or scheduled from the orders
// module; a listing on a paid plan refuses choose_free_listing with 409.
import { FIELD_RULES, httpUrl } from '../domain/profile-rules.ts';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../store/types.ts';
import type { Engine } from '../store/connect.ts';
import type { Config } from '../config.ts';
import type { Ctx } from '../operations/context.ts';
import { userOf } from '../operations/context.ts';
import { ApiError, notFound, type ErrorDetail } from '../operations/errors.ts';
import { validationError } from '../operations/errors.ts';
import { fromJson, toJson } from '../store/json.ts';
import { ownerProfile } from '../store/repos/listings.ts';
import { freeQueueWeeks } from '../store/repos/settings.ts';
import {
  activeQuestionTexts,
  answersOf,
  awaitingBadge,
  countMilestones,
  deleteAnswer,
  deleteMilestone as deleteMilestoneRow,
  findOwnListing,
  followersOf,
  insertBadgeCheck,
  insertMilestone,
  insertUpdate,
  insertVersion,
  iso,
  isoOrNull,
  lastBadgeCheck,
  replaceStory,
  siteRows,
  upsertAnswer,
  type MilestoneRow,
  type OwnRow,
  type Story,
} from '../store/repos/my-listings.ts';
import { STORY_KEYS } from '../domain/vocabulary.ts';
import { freeQueueWeek, mondayOf } from '../domain/weeks.ts';
import { homepageHasBadge, listingPageUrl } from '../domain/badges.ts';
import { checkUrl, guardedFetch, isFetchError } from '../drafting/crawler/guarded-fetch.ts';
import { RobotsCache } from '../drafting/crawler/robots.ts';
import { queueFanOut } from '../jobs/mail.ts';
import type { BadgeCheckOptions } from './options.ts';
import { LISTING_LIST_FIELDS, type ListingStatus } from '../domain/vocabulary.ts';
import { lockRows } from '../store/dialect.ts';

export const MAX_MILESTONES = 50;
/** How often the listings.advance job runs (badge checks and launches). */
export const ADVANCE_EVERY_MS = 15 * 60_000;
/** Homepages read per run at most (the least recently checked first), and how many at once. */
export const BADGE_CHECKS_PER_RUN = 200;
export const BADGE_CHECK_CONCURRENCY = 6;
export const BADGE_FETCH_TIMEOUT_MS = 10_000;

type ViewDeps = { db: Kysely<DB>; engine: Engine; config: Pick<Config, 'publicUrl'> };

// ---------------------------------------------------------------------------------------------
// The own-listing view

function badgeUrls(publicUrl: string, slug: string) {
  return { api: `${publicUrl}/api/v1/listings/${slug}/badges`, page: `${publicUrl}/listings/${slug}/badges` };
}

/**
 * What the owner should do next, in plain words, for the listing's status: for the API (`next_steps`,
 * naming the operations to call) or, with `audience: 'web'`, for the owner's page on the website
 * (naming its buttons).
 */
export function nextSteps(
  row: Pick<OwnRow, 'status' | 'plan' | 'slug' | 'url' | 'launch_week'>,
  publicUrl: string,
  opts: {
    queueWeeks?: number;
    lastCheck?: { checked_at: string; found: boolean; detail: string | null } | null;
    audience?: 'api' | 'web';
  } = {},
): string[] {
  const page = listingPageUrl(publicUrl, row.slug);
  const badges = badgeUrls(publicUrl, row.slug);
  const web = opts.audience === 'web';
  const weeks = opts.queueWeeks === undefined ? 'a few weeks out' : `${opts.queueWeeks} weeks out`;
  switch (row.status) {
    case 'draft':
      return web
        ? [
            `Publish the listing: "Publish free" below queues it for the launch week ${weeks}; it goes live in that week once a Launchlist badge is on your homepage.`,
            'Or "Buy a launch" below to go live at once or in a week you choose, with the paid extras.',
          ]
        : [
            `Publish the listing: choose_free_listing (POST /me/listings/{listing_id}/free) queues it for the launch week ${weeks}; it goes live in that week once a Launchlist badge is on your homepage.`,
            'Or buy a `launch` with create_checkout to go live at once or in a week you choose, with the paid extras (prices from list_products).',
          ];
    case 'awaiting_badge': {
      const steps = [
        web
          ? `Put a Launchlist badge on your homepage ${row.url}: copy the ready-to-paste HTML from your badge page ${badges.page}. Any of its badges, or a plain link to ${page}, counts.`
          : `Put a Launchlist badge on your homepage ${row.url}: get the ready-to-paste HTML from get_badges (GET ${badges.api}) or the badge page ${badges.page}. Any of its badges, or a plain link to ${page}, counts.`,
        `We read your homepage about every 15 minutes. Once the badge is there the listing is scheduled and goes live in the week of ${row.launch_week} (Monday 00:00 UTC); if that week has already started, it goes live at once. Keep the badge up.`,
      ];
      if (opts.lastCheck && !opts.lastCheck.found)
        steps.push(`Last check ${opts.lastCheck.checked_at}: ${opts.lastCheck.detail ?? 'no badge found'}.`);
      return steps;
    }
    case 'scheduled':
      return [
        `Nothing to do: the listing goes live in the week of ${row.launch_week} (Monday 00:00 UTC) at ${page}.${row.plan === 'free' ? ' Keep the Launchlist badge on your homepage.' : ''}`,
        web
          ? 'Meanwhile you can post updates below; they show on the listing once it is live.'
          : 'Meanwhile you can polish it with update_my_listing, add milestones and write your founder story.',
      ];
    case 'live':
      return [
        web
          ? `The listing is live at ${page}. Tell your followers what is new with "Post an update" below; votes come from people on the site.`
          : `The listing is live at ${page}. Tell your followers what is new with post_listing_update; votes come from people on the site.`,
      ];
    default:
      return [];
  }
}

/**
 * The own-listing view: {listing_id, slug, status, plan, launch_week, launched_at, unlocked, verified,
 * badge_seen_at, created_at, updated_at, public_url, badges, last_badge_check, next_steps} and
 * everything public (the get_listing profile), with story, milestones and media always present.
 */
export async function ownListingView(deps: ViewDeps, row: OwnRow): Promise<Record<string, unknown>> {
  const [profile, lastCheck, queueWeeks] = await Promise.all([
    ownerProfile(deps.db, deps.engine, row.id),
    lastBadgeCheck(deps.db, row.id),
    row.status === 'draft' ? freeQueueWeeks(deps.db) : Promise.resolve(undefined),
  ]);
  return {
    listing_id: row.id,
    ...(profile ?? {}),
    slug: row.slug,
    status: row.status,
    plan: row.plan,
    launch_week: row.launch_week,
    launched_at: isoOrNull(row.launched_at),
    unlocked: fromJson<string[]>(row.unlocked, []),
    verified: row.verified_at !== null,
    badge_seen_at: isoOrNull(row.badge_seen_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    public_url: listingPageUrl(deps.config.publicUrl, row.slug),
    badges: badgeUrls(deps.config.publicUrl, row.slug),
    last_badge_check: lastCheck,
    next_steps: nextSteps(row, deps.config.publicUrl, { queueWeeks, lastCheck }),
  };
}

const viewDeps = (ctx: Ctx): ViewDeps => ({ db: ctx.db, engine: ctx.engine, config: ctx.config });

async function ownOr404(
  db: Kysely<DB> | Transaction<DB>,
  id: number,
  userId: number,
  opts: { engine?: Engine; lock?: boolean } = {},
): Promise<OwnRow> {
  const row = await findOwnListing(db, id, userId, opts);
  return row ?? notFound('listing', id);
}

export async function getMyListing(ctx: Ctx, id: number): Promise<Record<string, unknown>> {
  return ownListingView(viewDeps(ctx), await ownOr404(ctx.db, id, userOf(ctx).userId));
}

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
type ScalarField = (typeof SCALAR_FIELDS)[number];
type ListField = (typeof LISTING_LIST_FIELDS)[number];

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
    columns[f] = ['features', 'usps', 'keywords', 'socials', 'faqs'].includes(f) ? toJson(v) : v;
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

export async function updateMyListing(ctx: Ctx, id: number, body: ListingPatch): Promise<Record<string, unknown>> {
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
    const changed = Object.keys(after);
    if (!changed.length) return { changed, versionId: null, applied: [] as string[], fields: [] as string[] };
    await trx.updateTable('listings').set(columnsOf(after, now)).where('id', '=', id).execute();
    const travelling = changed.filter((f) => (TRAVELLING_FIELDS as readonly string[]).includes(f));
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
    for (const [f, value] of Object.entries(before)) {
      const cur = currentOf(row, f);
      if (canon(cur) !== canon(after[f]))
        kept.push(f); // changed again since: not this edit's value any more
      else if (canon(cur) !== canon(value)) {
        was[f] = cur;
        back[f] = value;
      }
    }
    const restored = Object.keys(back);
    if (restored.length) {
      await trx.updateTable('listings').set(columnsOf(back, now)).where('id', '=', row.id).execute();
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

// ---------------------------------------------------------------------------------------------
// answer_interview

export async function answerInterview(ctx: Ctx, answers: Array<{ question_id: number; answer: string }>) {
  const user = userOf(ctx);
  const errors: ErrorDetail[] = [];
  const questions = await activeQuestionTexts(
    ctx.db,
    answers.map((a) => a.question_id),
  );
  const firstAt = new Map<number, number>();
  answers.forEach((a, i) => {
    const path = `body.answers.${i}.question_id`;
    if (!questions.has(a.question_id))
      errors.push({
        path,
        message: `no interview question has id ${a.question_id}; use the ids from list_interview_questions`,
      });
    else if (firstAt.has(a.question_id))
      errors.push({
        path,
        message: `question ${a.question_id} is answered twice in this request (also at body.answers.${firstAt.get(a.question_id)}); send each question once`,
      });
    else firstAt.set(a.question_id, i);
  });
  if (errors.length) throw validationError(errors);
  const now = ctx.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    for (const a of answers) {
      const text = a.answer.trim();
      if (text) await upsertAnswer(trx, user.userId, a.question_id, text, now);
      else await deleteAnswer(trx, user.userId, a.question_id); // an empty answer withdraws it
    }
  });
  return { answers: await answersOf(ctx.db, user.userId) };
}

// ---------------------------------------------------------------------------------------------
// choose_free_listing

export async function chooseFreeListing(ctx: Ctx, id: number): Promise<Record<string, unknown>> {
  const user = userOf(ctx);
  const now = ctx.now();
  const queueWeeks = await freeQueueWeeks(ctx.db);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const row = await ownOr404(trx, id, user.userId, { engine: ctx.engine, lock: true });
    if (row.plan === 'paid') {
      throw new ApiError(
        'conflict',
        `This listing is on a paid plan (status ${row.status}${row.launch_week ? `, launch week ${row.launch_week}` : ''}); the free plan cannot replace it.`,
      );
    }
    if (row.plan === 'free') return row; // already chosen: same week, no second queue move
    if (row.status !== 'draft') {
      throw new ApiError(
        'conflict',
        `The free plan is chosen for a submitted listing in status draft; this one is ${row.status}.`,
      );
    }
    const week = freeQueueWeek(now, queueWeeks);
    const at = now.toISOString();
    // A badge already seen (e.g. found before) clears it at once: scheduled for week W.
    const status: ListingStatus = row.badge_seen_at ? 'scheduled' : 'awaiting_badge';
    await trx
      .updateTable('listings')
      .set({ plan: 'free', status, launch_week: week, updated_at: at })
      .where('id', '=', id)
      .execute();
    return { ...row, plan: 'free' as const, status, launch_week: week, updated_at: at };
  });
  return ownListingView(viewDeps(ctx), row);
}

// ---------------------------------------------------------------------------------------------
// The lifecycle job: badge checks and launches

export interface AdvanceDeps {
  store: { db: Kysely<DB>; engine: Engine };
  config: Pick<Config, 'FETCH_ALLOW_HOSTS' | 'publicUrl'>;
  services?: { badgeChecks: BadgeCheckOptions };
  log?: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
}

export interface AdvanceReport {
  /** Homepages read. */
  checked: number;
  /** Slugs whose badge was found in this run. */
  badge_found: string[];
  /** Slugs that went live in this run. */
  launched: string[];
}

const defaultRobots = new RobotsCache({ ttlMs: 60 * 60 * 1000 });

/** Reads a homepage (guarded fetcher, robots.txt respected) and looks for our badge or a link to the listing page. */
export async function checkHomepageBadge(
  deps: AdvanceDeps,
  listing: { slug: string; url: string },
  signal?: AbortSignal,
): Promise<{ found: boolean; detail: string }> {
  const allowHosts = deps.config.FETCH_ALLOW_HOSTS;
  const robots = deps.services?.badgeChecks.robots ?? defaultRobots;
  try {
    checkUrl(listing.url, allowHosts); // refuses non-public addresses before anything is requested
    const policy = await robots.get(listing.url, { allowHosts, signal, timeoutMs: BADGE_FETCH_TIMEOUT_MS });
    if (policy.status === 'unreachable' && policy.error === 'address_not_public') {
      return { found: false, detail: `refused to read ${listing.url}: it resolves to an address that is not public` };
    }
    if (policy.status === 'unreachable') {
      // RFC 9309: a robots.txt that cannot be fetched (network failure, 5xx) means "read nothing".
      const why = policy.httpStatus ? `HTTP ${policy.httpStatus}` : (policy.error ?? 'no answer');
      return {
        found: false,
        detail: `could not read ${policy.robotsUrl} (${why}), so the homepage ${listing.url} was not read either`,
      };
    }
    if (!policy.isAllowed(listing.url)) {
      return {
        found: false,
        detail: `robots.txt of ${policy.origin} does not let LaunchlistBot read ${listing.url}; allow it so the badge can be seen`,
      };
    }
    const res = await guardedFetch(listing.url, {
      allowHosts,
      accept: 'html',
      timeoutMs: BADGE_FETCH_TIMEOUT_MS,
      truncate: true,
      signal,
    });
    const found = homepageHasBadge(res.body, deps.config.publicUrl, listing.slug);
    return found
      ? { found, detail: `badge found on ${res.url}` }
      : {
          found,
          detail: `no Launchlist badge or link to ${listingPageUrl(deps.config.publicUrl, listing.slug)} on ${res.url}`,
        };
  } catch (e) {
    if (isFetchError(e)) return { found: false, detail: `could not read ${listing.url}: ${e.message}` };
    throw e;
  }
}

/**
 * One pass of the lifecycle (the listings.advance job; idempotent): reads the homepage of every
 * listing awaiting its badge (at most BADGE_CHECKS_PER_RUN, least recently checked first), records
 * each check in badge_checks, moves those with the badge to scheduled (badge_seen_at = now), then
 * makes every scheduled listing whose launch week has started live (launched_at = now).
 */
export async function advanceListings(
  deps: AdvanceDeps,
  now: Date,
  opts: { signal?: AbortSignal } = {},
): Promise<AdvanceReport> {
  const db = deps.store.db;
  const thisMonday = mondayOf(now);
  const at = now.toISOString();
  const report: AdvanceReport = { checked: 0, badge_found: [], launched: [] };

  const waiting = await awaitingBadge(db, BADGE_CHECKS_PER_RUN);
  let next = 0;
  const worker = async () => {
    while (next < waiting.length && !opts.signal?.aborted) {
      const l = waiting[next++];
      const check = await checkHomepageBadge(deps, l, opts.signal);
      report.checked++;
      await db.transaction().execute(async (trx) => {
        await insertBadgeCheck(trx, l.id, check.found, check.detail, at);
        if (!check.found) return;
        // Found only after its week ended: it launches in the current week instead of a past one.
        const week = l.launch_week && l.launch_week >= thisMonday ? l.launch_week : thisMonday;
        const r = await trx
          .updateTable('listings')
          .set({ status: 'scheduled', badge_seen_at: at, launch_week: week, updated_at: at })
          .where('id', '=', l.id)
          .where('status', '=', 'awaiting_badge')
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) > 0) report.badge_found.push(l.slug);
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(BADGE_CHECK_CONCURRENCY, waiting.length) }, worker));

  const launched = await db
    .updateTable('listings')
    .set({ status: 'live', launched_at: at, updated_at: at })
    .where('status', '=', 'scheduled')
    .where('launch_week', 'is not', null)
    .where('launch_week', '<=', thisMonday)
    .returning('slug')
    .execute();
  report.launched = launched.map((r) => r.slug);
  if (report.badge_found.length || report.launched.length) deps.log?.info(report, 'listings advanced');
  return report;
}
