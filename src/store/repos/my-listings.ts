// Storage of "My listings": the owner's rows, versions (edit history with before/after), updates,
// milestones, stories, interview answers, badge checks and the lifecycle moves of the
// listings.advance job. Business rules live in the services (own-listing, listing-edits, publishing,
// interview, listings); this file only reads and writes.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Engine } from '../connect.ts';
import type { DB, ListingsTable } from '../types.ts';
import { fromJson, toJson } from '../json.ts';
import { summaryQuery, toSummary, type ListingSummary, type SummaryRow } from './summary.ts';
import { num } from './sql-helpers.ts';
import { STORY_KEYS, type ListingPlan, type StoryKey } from '../../domain/vocabulary.ts';
import { lockRows } from '../dialect.ts';

type Db = Kysely<DB> | Transaction<DB>;

/** Columns of a listing row that an owner's operation reads or compares. */
export type OwnRow = Omit<ListingsTable, 'id'> & { id: number };

/** A listing row by id, only when `userId` owns it; optionally locked FOR UPDATE (PostgreSQL) inside a transaction. */
export async function findOwnListing(
  db: Db,
  id: number,
  userId: number,
  opts: { engine?: Engine; lock?: boolean } = {},
): Promise<OwnRow | undefined> {
  return (await db
    .selectFrom('listings')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', userId)
    .$call(lockRows(opts.engine ?? 'sqlite', opts.lock))
    .executeTakeFirst()) as OwnRow | undefined;
}

/** The caller's own-listing summary fields besides the public summary. */
export type OwnSummary = ListingSummary & {
  listing_id: number;
  plan: ListingPlan;
  unlocked: string[];
  verified: boolean;
  badge_seen_at: string | null;
  created_at: string;
  updated_at: string;
};

/** Every listing `userId` owns, any status, newest first (then the higher id). */
export async function listOwnListings(
  db: Kysely<DB>,
  userId: number,
  page: { limit: number; offset: number },
): Promise<{ items: OwnSummary[]; total: number }> {
  const rows = await summaryQuery(db)
    .select(['l.plan', 'l.unlocked', 'l.verified_at', 'l.badge_seen_at', 'l.created_at', 'l.updated_at'])
    .where('l.owner_id', '=', userId)
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const { n } = await db
    .selectFrom('listings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    items: rows.map((r) => ({
      listing_id: r.id,
      ...toSummary(r as SummaryRow),
      plan: r.plan,
      unlocked: fromJson<string[]>(r.unlocked, []),
      verified: r.verified_at !== null,
      badge_seen_at: isoOrNull(r.badge_seen_at),
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
    })),
    total: num(n),
  };
}

/** Timestamps are ISO strings on both engines; PostgreSQL may hand back Date objects. */
export const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
export const isoOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : iso(v));

// ------------------------------------------------------------------ versions (edit history)

/** `reviewedBy`: the edit is the site team's own (an admin's revert), recorded as reviewed by them. */
export interface VersionInput {
  listingId: number;
  userId: number;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  applyTo: string[];
  now: string;
  reviewedBy?: number;
  /** The draft the edit came from (services/draft-listing.ts). */
  draftId?: string;
}

export async function insertVersion(trx: Db, v: VersionInput): Promise<number> {
  const row = await trx
    .insertInto('listing_versions')
    .values({
      listing_id: v.listingId,
      user_id: v.userId,
      before: toJson(v.before),
      after: toJson(v.after),
      apply_to: toJson(v.applyTo),
      created_at: v.now,
      reviewed_at: v.reviewedBy === undefined ? null : v.now,
      reviewed_by: v.reviewedBy ?? null,
      draft_id: v.draftId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface VersionView {
  id: number;
  listing: { id: number; slug: string; name: string; status: string };
  user: { id: number; name: string; email: string } | null;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  apply_to: string[];
  created_at: string;
  reviewed_at: string | null;
  reviewed_by: { id: number; name: string } | null;
  /** The draft the edit came from; null for an edit made on the listing. */
  draft_id: string | null;
}

/** Listing edits for the site team: unreviewed first, then newest first. */
export async function listVersions(
  db: Kysely<DB>,
  page: { limit: number; offset: number },
): Promise<{ items: VersionView[]; total: number; unreviewed: number }> {
  const rows = await db
    .selectFrom('listing_versions as v')
    .innerJoin('listings as l', 'l.id', 'v.listing_id')
    .leftJoin('users as u', 'u.id', 'v.user_id')
    .leftJoin('users as r', 'r.id', 'v.reviewed_by')
    .select([
      'v.id',
      'v.before',
      'v.after',
      'v.apply_to',
      'v.created_at',
      'v.reviewed_at',
      'v.user_id',
      'v.reviewed_by',
      'v.draft_id',
      'l.id as listing_id',
      'l.slug',
      'l.name as listing_name',
      'l.status',
      'u.name as user_name',
      'u.email as user_email',
      'r.name as reviewer_name',
    ])
    .orderBy(sql`case when v.reviewed_at is null then 0 else 1 end`)
    .orderBy('v.created_at', 'desc')
    .orderBy('v.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const counts = await db
    .selectFrom('listing_versions')
    .select([
      (eb) => eb.fn.countAll<number>().as('total'),
      sql<number>`sum(case when reviewed_at is null then 1 else 0 end)`.as('unreviewed'),
    ])
    .executeTakeFirstOrThrow();
  return {
    items: rows.map((r) => ({
      id: r.id,
      listing: { id: r.listing_id, slug: r.slug, name: r.listing_name, status: r.status },
      user: r.user_id === null ? null : { id: r.user_id, name: r.user_name ?? '', email: r.user_email ?? '' },
      before: fromJson<Record<string, unknown>>(r.before, {}),
      after: fromJson<Record<string, unknown>>(r.after, {}),
      apply_to: fromJson<string[]>(r.apply_to, []),
      created_at: iso(r.created_at),
      reviewed_at: isoOrNull(r.reviewed_at),
      reviewed_by: r.reviewed_by === null ? null : { id: r.reviewed_by, name: r.reviewer_name ?? '' },
      draft_id: r.draft_id,
    })),
    total: num(counts.total),
    unreviewed: num(counts.unreviewed),
  };
}

/** Marks a version reviewed (the first review is kept). False when no version has the id. */
export async function markVersionReviewed(
  db: Kysely<DB>,
  id: number,
  reviewerId: number,
  now: string,
): Promise<boolean> {
  const exists = await db.selectFrom('listing_versions').select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) return false;
  await db
    .updateTable('listing_versions')
    .set({ reviewed_at: now, reviewed_by: reviewerId })
    .where('id', '=', id)
    .where('reviewed_at', 'is', null)
    .execute();
  return true;
}

// ------------------------------------------------------------------ sites (apply_to)

export async function siteRows(db: Db): Promise<Array<{ key: string; name: string; url: string }>> {
  return db.selectFrom('sites').select(['key', 'name', 'url']).orderBy('key').execute();
}

// ------------------------------------------------------------------ updates and followers

export async function insertUpdate(
  trx: Db,
  listingId: number,
  title: string,
  body: string,
  now: string,
): Promise<number> {
  return (
    await trx
      .insertInto('updates')
      .values({ listing_id: listingId, title, body, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

/** The people following a listing (id, email, name), oldest follow first. */
export async function followersOf(
  db: Db,
  listingId: number,
): Promise<Array<{ id: number; email: string; name: string }>> {
  return db
    .selectFrom('follows as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['u.id', 'u.email', 'u.name'])
    .where('f.listing_id', '=', listingId)
    .orderBy('f.created_at')
    .orderBy('u.id')
    .execute();
}

// ------------------------------------------------------------------ milestones

export type MilestoneRow = { id: number; date: string; title: string; description: string | null; url: string | null };

export async function countMilestones(db: Db, listingId: number): Promise<number> {
  const { n } = await db
    .selectFrom('milestones')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('listing_id', '=', listingId)
    .executeTakeFirstOrThrow();
  return num(n);
}

export async function insertMilestone(
  trx: Db,
  listingId: number,
  m: Omit<MilestoneRow, 'id'>,
  now: string,
): Promise<MilestoneRow> {
  const row = await trx
    .insertInto('milestones')
    .values({
      listing_id: listingId,
      date: m.date,
      title: m.title,
      description: m.description,
      url: m.url,
      created_at: now,
    })
    .returning(['id', 'date', 'title', 'description', 'url'])
    .executeTakeFirstOrThrow();
  return row;
}

/** Deletes a milestone of the listing; false when the listing has no milestone with that id. */
export async function deleteMilestone(trx: Db, listingId: number, milestoneId: number): Promise<boolean> {
  const r = await trx
    .deleteFrom('milestones')
    .where('id', '=', milestoneId)
    .where('listing_id', '=', listingId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

// ------------------------------------------------------------------ story

export type Story = Record<StoryKey, string | null>;

/** Replaces the listing's story (a story with no text at all is deleted). */
export async function replaceStory(trx: Db, listingId: number, story: Story, now: string): Promise<void> {
  await trx.deleteFrom('stories').where('listing_id', '=', listingId).execute();
  if (STORY_KEYS.some((k) => story[k] !== null))
    await trx
      .insertInto('stories')
      .values({ listing_id: listingId, ...story, updated_at: now })
      .execute();
}

// ------------------------------------------------------------------ interview answers

export async function activeQuestionTexts(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('interview_questions')
    .select(['id', 'text', 'active'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.filter((r) => Boolean(r.active)).map((r) => [r.id, r.text]));
}

export async function upsertAnswer(
  trx: Db,
  userId: number,
  questionId: number,
  answer: string,
  now: string,
): Promise<void> {
  await trx
    .insertInto('interview_answers')
    .values({ user_id: userId, question_id: questionId, answer, updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'question_id']).doUpdateSet({ answer, updated_at: now }))
    .execute();
}

export async function deleteAnswer(trx: Db, userId: number, questionId: number): Promise<void> {
  await trx
    .deleteFrom('interview_answers')
    .where('user_id', '=', userId)
    .where('question_id', '=', questionId)
    .execute();
}

/** The caller's answers in question order. */
export async function answersOf(
  db: Db,
  userId: number,
): Promise<Array<{ question_id: number; question: string; answer: string; updated_at: string }>> {
  const rows = await db
    .selectFrom('interview_answers as a')
    .innerJoin('interview_questions as q', 'q.id', 'a.question_id')
    .select(['a.question_id', 'q.text', 'a.answer', 'a.updated_at'])
    .where('a.user_id', '=', userId)
    .orderBy('q.position')
    .orderBy('q.id')
    .execute();
  return rows.map((r) => ({
    question_id: r.question_id,
    question: r.text,
    answer: r.answer,
    updated_at: iso(r.updated_at),
  }));
}

// ------------------------------------------------------------------ badge checks and the lifecycle job

export interface BadgeCheck {
  checked_at: string;
  found: boolean;
  detail: string | null;
}

export async function lastBadgeCheck(db: Db, listingId: number): Promise<BadgeCheck | null> {
  const r = await db
    .selectFrom('badge_checks')
    .select(['checked_at', 'found', 'detail'])
    .where('listing_id', '=', listingId)
    .orderBy('checked_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r ? { checked_at: iso(r.checked_at), found: Boolean(r.found), detail: r.detail } : null;
}

export async function insertBadgeCheck(
  trx: Db,
  listingId: number,
  found: boolean,
  detail: string,
  now: string,
): Promise<void> {
  await trx
    .insertInto('badge_checks')
    .values({ listing_id: listingId, checked_at: now, found, detail: detail.slice(0, 500) })
    .execute();
}

/** Listings waiting for their badge, the least recently checked first (never checked first), at most `limit`. */
export async function awaitingBadge(
  db: Kysely<DB>,
  limit: number,
): Promise<Array<{ id: number; slug: string; url: string; launch_week: string | null }>> {
  const last = sql<string | null>`(select max(b.checked_at) from badge_checks b where b.listing_id = l.id)`;
  return db
    .selectFrom('listings as l')
    .select(['l.id', 'l.slug', 'l.url', 'l.launch_week'])
    .where('l.status', '=', 'awaiting_badge')
    .orderBy(sql`case when ${last} is null then 0 else 1 end`)
    .orderBy(last)
    .orderBy('l.id')
    .limit(limit)
    .execute();
}
