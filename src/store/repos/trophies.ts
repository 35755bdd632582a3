// The trophy group's storage (issue #21): signed awards as cabinets show them, trophy leaderboards,
// the weekly results the Hall of Fame is computed from, programmes and their entries. Rules live in
// domain/ (hall-of-fame.ts, programmes.ts, award-statement.ts); this file reads and writes.
import type { Kysely } from 'kysely';
import type { DB } from '../types.ts';
import { fromJson, toJson } from '../json.ts';
import { summaryQuery, toSummary, type ListingSummary, type SummaryRow } from './summary.ts';
import { num } from './sql-helpers.ts';
import { AWARD_KIND } from '../../domain/ranking.ts';
import { addDays } from '../../domain/weeks.ts';
import type { ProgrammeRules, WinnerRule } from '../../domain/programmes.ts';
import type { WeeklyResult } from '../../domain/hall-of-fame.ts';

// ------------------------------------------------------------------ awards

export interface SignedAwardRow {
  listing_id: number;
  week: string;
  rank: number;
  votes: number;
  created_at: string;
  statement: string | null;
  signature: string | null;
  kid: string | null;
}

/** Launch of the Week awards of live listings (all, or of the given listings), newest week first then rank. */
export async function awardsOf(db: Kysely<DB>, listingIds?: readonly number[]): Promise<SignedAwardRow[]> {
  if (listingIds && !listingIds.length) return [];
  let q = db
    .selectFrom('awards as a')
    .innerJoin('listings as l', 'l.id', 'a.listing_id')
    .select(['a.listing_id', 'a.week', 'a.rank', 'a.votes', 'a.created_at', 'a.statement', 'a.signature', 'a.kid'])
    .where('a.kind', '=', AWARD_KIND)
    .where('l.status', '=', 'live');
  if (listingIds) q = q.where('a.listing_id', 'in', [...listingIds]);
  const rows = await q.orderBy('a.week', 'desc').orderBy('a.rank').execute();
  return rows.map((r) => ({ ...r, rank: num(r.rank), votes: num(r.votes) }));
}

/** One award by its week and rank (any listing status: verification also answers for a listing gone since). */
export async function awardAt(
  db: Kysely<DB>,
  week: string,
  rank: number,
): Promise<(SignedAwardRow & { snapshot_hash: string | null; snapshot: string | null }) | undefined> {
  const r = await db
    .selectFrom('awards as a')
    .leftJoin('award_snapshots as s', (j) => j.onRef('s.kind', '=', 'a.kind').onRef('s.week', '=', 'a.week'))
    .select([
      'a.listing_id',
      'a.week',
      'a.rank',
      'a.votes',
      'a.created_at',
      'a.statement',
      'a.signature',
      'a.kid',
      's.hash as snapshot_hash',
      's.canonical as snapshot',
    ])
    .where('a.kind', '=', AWARD_KIND)
    .where('a.week', '=', week)
    .where('a.rank', '=', rank)
    .executeTakeFirst();
  return r ? { ...r, rank: num(r.rank), votes: num(r.votes) } : undefined;
}

/** Every weekly result of live listings (for the Hall of Fame). */
export async function weeklyResults(db: Kysely<DB>): Promise<WeeklyResult[]> {
  return (await awardsOf(db)).map((a) => ({ week: a.week, rank: a.rank, listing_id: a.listing_id, votes: a.votes }));
}

// ------------------------------------------------------------------ trophy leaderboards

/** Which of `listingIds` are in the category (or, for a parent, in one of its subcategories). */
export async function listingsInCategory(
  db: Kysely<DB>,
  slug: string,
  listingIds: readonly number[],
): Promise<Set<number>> {
  const out = new Set<number>();
  for (let i = 0; i < listingIds.length; i += 500) {
    const rows = await db
      .selectFrom('listing_categories as lc')
      .innerJoin('categories as c', 'c.id', 'lc.category_id')
      .leftJoin('categories as p', 'p.id', 'c.parent_id')
      .select('lc.listing_id')
      .where('lc.listing_id', 'in', listingIds.slice(i, i + 500))
      .where((w) => w.or([w('c.slug', '=', slug), w('p.slug', '=', slug)]))
      .execute();
    for (const r of rows) out.add(r.listing_id);
  }
  return out;
}

export async function categoryExists(db: Kysely<DB>, slug: string): Promise<boolean> {
  return Boolean(await db.selectFrom('categories').select('id').where('slug', '=', slug).executeTakeFirst());
}

// ------------------------------------------------------------------ cabinets

export interface CabinetListing {
  id: number;
  summary: ListingSummary;
  created_at: string;
  verified_at: string | null;
  unlocked: string[];
  featured_at: string | null;
}

/** A live listing as its trophy cabinet needs it. */
export async function cabinetListing(db: Kysely<DB>, slug: string): Promise<CabinetListing | undefined> {
  const r = await summaryQuery(db)
    .select(['l.created_at', 'l.verified_at', 'l.unlocked'])
    .select((eb) =>
      eb
        .selectFrom('featured_placements as fp')
        .select((f) => f.fn.min('fp.created_at').as('t'))
        .whereRef('fp.listing_id', '=', 'l.id')
        .as('featured_at'),
    )
    .where('l.slug', '=', slug)
    .where('l.status', '=', 'live')
    .executeTakeFirst();
  if (!r) return undefined;
  return {
    id: r.id,
    summary: toSummary(r as SummaryRow),
    created_at: r.created_at,
    verified_at: r.verified_at,
    unlocked: fromJson<string[]>(r.unlocked, []),
    featured_at: (r.featured_at as string | null) ?? null,
  };
}

/** The milestones of listings (their own dates), newest first. */
export async function milestonesOf(
  db: Kysely<DB>,
  listingIds: readonly number[],
): Promise<Array<{ listing_id: number; date: string; title: string; url: string | null }>> {
  if (!listingIds.length) return [];
  return db
    .selectFrom('milestones')
    .select(['listing_id', 'date', 'title', 'url'])
    .where('listing_id', 'in', [...listingIds])
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** A founder behind at least one live listing, with those listings' ids. */
export async function founderWithListings(
  db: Kysely<DB>,
  slug: string,
): Promise<
  { slug: string; name: string; title: string | null; avatar_url: string | null; listing_ids: number[] } | undefined
> {
  const f = await db
    .selectFrom('founders')
    .select(['id', 'slug', 'name', 'title', 'avatar_url'])
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (!f) return undefined;
  const rows = await db
    .selectFrom('listing_founders as lf')
    .innerJoin('listings as l', 'l.id', 'lf.listing_id')
    .select('l.id')
    .where('lf.founder_id', '=', f.id)
    .where('l.status', '=', 'live')
    .orderBy('lf.position')
    .orderBy('l.id')
    .execute();
  if (!rows.length) return undefined;
  return { slug: f.slug, name: f.name, title: f.title, avatar_url: f.avatar_url, listing_ids: rows.map((r) => r.id) };
}

// ------------------------------------------------------------------ programmes

export interface ProgrammeInput {
  slug: string;
  name: string;
  description: string;
  starts_on: string;
  ends_on: string;
  rules: ProgrammeRules;
  winners: WinnerRule;
  winners_count: number;
}

export interface ProgrammeRow extends ProgrammeInput {
  id: number;
  entries: number;
}

function programmeQuery(db: Kysely<DB>) {
  return db
    .selectFrom('programmes as p')
    .selectAll('p')
    .select((eb) =>
      eb
        .selectFrom('programme_entries as e')
        .innerJoin('listings as l', 'l.id', 'e.listing_id')
        .select((x) => x.fn.countAll<number>().as('n'))
        .whereRef('e.programme_id', '=', 'p.id')
        .where('l.status', '=', 'live')
        .as('entries'),
    );
}

function toProgramme(r: {
  id: number;
  slug: string;
  name: string;
  description: string;
  starts_on: string;
  ends_on: string;
  rules: string;
  winners: string;
  winners_count: number;
  entries: unknown;
}): ProgrammeRow {
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    description: r.description,
    starts_on: r.starts_on,
    ends_on: r.ends_on,
    rules: fromJson<ProgrammeRules>(r.rules, {}),
    winners: r.winners as WinnerRule,
    winners_count: num(r.winners_count),
    entries: num(r.entries),
  };
}

/** Every programme, the latest period first. */
export async function listProgrammeRows(db: Kysely<DB>): Promise<ProgrammeRow[]> {
  const rows = await programmeQuery(db).orderBy('p.ends_on', 'desc').orderBy('p.id', 'desc').execute();
  return rows.map(toProgramme);
}

export async function programmeBySlug(db: Kysely<DB>, slug: string): Promise<ProgrammeRow | undefined> {
  const r = await programmeQuery(db).where('p.slug', '=', slug).executeTakeFirst();
  return r ? toProgramme(r) : undefined;
}

export async function programmeById(db: Kysely<DB>, id: number): Promise<ProgrammeRow | undefined> {
  const r = await programmeQuery(db).where('p.id', '=', id).executeTakeFirst();
  return r ? toProgramme(r) : undefined;
}

/** Creates a programme (admin); undefined when the slug is taken. */
export async function insertProgramme(db: Kysely<DB>, p: ProgrammeInput, now: Date): Promise<number | undefined> {
  if (await db.selectFrom('programmes').select('id').where('slug', '=', p.slug).executeTakeFirst()) return undefined;
  const r = await db
    .insertInto('programmes')
    .values({ ...p, rules: toJson(p.rules), created_at: now.toISOString(), updated_at: now.toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** Changes a programme (admin); false when the slug belongs to another programme or the id to none. */
export async function updateProgramme(db: Kysely<DB>, id: number, p: ProgrammeInput, now: Date): Promise<boolean> {
  const other = await db.selectFrom('programmes').select('id').where('slug', '=', p.slug).executeTakeFirst();
  if (other && other.id !== id) return false;
  const r = await db
    .updateTable('programmes')
    .set({ ...p, rules: toJson(p.rules), updated_at: now.toISOString() })
    .where('id', '=', id)
    .executeTakeFirst();
  return num(r.numUpdatedRows) > 0;
}

export interface EntryRow {
  id: number;
  programme_id: number;
  listing_id: number;
  place: number | null;
  created_at: string;
  /** Community votes cast for the listing during the programme period. */
  period_votes: number;
}

/** The entries of programmes whose listing is live, with the votes cast during each programme's period. */
export async function entriesOf(
  db: Kysely<DB>,
  by: { programmeIds?: readonly number[]; listingIds?: readonly number[]; userId?: number },
): Promise<EntryRow[]> {
  if (by.programmeIds && !by.programmeIds.length) return [];
  if (by.listingIds && !by.listingIds.length) return [];
  let q = db
    .selectFrom('programme_entries as e')
    .innerJoin('programmes as p', 'p.id', 'e.programme_id')
    .innerJoin('listings as l', 'l.id', 'e.listing_id')
    .select(['e.id', 'e.programme_id', 'e.listing_id', 'e.place', 'e.created_at', 'p.starts_on', 'p.ends_on']);
  if (by.userId === undefined) q = q.where('l.status', '=', 'live');
  else q = q.where('l.owner_id', '=', by.userId);
  if (by.programmeIds) q = q.where('e.programme_id', 'in', [...by.programmeIds]);
  if (by.listingIds) q = q.where('e.listing_id', 'in', [...by.listingIds]);
  const rows = await q.orderBy('e.created_at').orderBy('e.id').execute();
  // votes cast during each programme's period, one statement per programme
  const votes = new Map<number, number>(); // entry id → votes
  const byProgramme = new Map<number, typeof rows>();
  for (const r of rows) byProgramme.set(r.programme_id, [...(byProgramme.get(r.programme_id) ?? []), r]);
  for (const list of byProgramme.values()) {
    const { starts_on, ends_on } = list[0];
    const ids = [...new Set(list.map((r) => r.listing_id))];
    const counts = new Map<number, number>();
    for (let i = 0; i < ids.length; i += 500) {
      const got = await db
        .selectFrom('votes')
        .select((eb) => ['listing_id', eb.fn.countAll<number>().as('n')])
        .where('listing_id', 'in', ids.slice(i, i + 500))
        .where('created_at', '>=', starts_on + 'T00:00:00.000Z')
        .where('created_at', '<', addDays(ends_on, 1) + 'T00:00:00.000Z')
        .groupBy('listing_id')
        .execute();
      for (const g of got) counts.set(g.listing_id, num(g.n));
    }
    for (const r of list) votes.set(r.id, counts.get(r.listing_id) ?? 0);
  }
  return rows.map((r) => ({
    id: r.id,
    programme_id: r.programme_id,
    listing_id: r.listing_id,
    place: r.place === null ? null : num(r.place),
    created_at: r.created_at,
    period_votes: votes.get(r.id) ?? 0,
  }));
}

/** Facts a programme's entry rules are checked against, for a listing `userId` owns. */
export async function entryFacts(
  db: Kysely<DB>,
  listingId: number,
  userId: number,
): Promise<{ status: string; launched_at: string | null; verified: boolean; categories: string[] } | undefined> {
  const l = await db
    .selectFrom('listings')
    .select(['status', 'launched_at', 'verified_at'])
    .where('id', '=', listingId)
    .where('owner_id', '=', userId)
    .executeTakeFirst();
  if (!l) return undefined;
  const cats = await db
    .selectFrom('listing_categories as lc')
    .innerJoin('categories as c', 'c.id', 'lc.category_id')
    .leftJoin('categories as p', 'p.id', 'c.parent_id')
    .select(['c.slug', 'p.slug as parent'])
    .where('lc.listing_id', '=', listingId)
    .execute();
  const categories = new Set<string>();
  for (const c of cats) {
    categories.add(c.slug);
    if (c.parent) categories.add(c.parent);
  }
  return {
    status: l.status,
    launched_at: l.launched_at,
    verified: l.verified_at !== null,
    categories: [...categories],
  };
}

/** Enters a listing (once): the entry, and whether it was made now (two entering at once: one makes it, the other reads it). */
export async function insertEntry(
  db: Kysely<DB>,
  programmeId: number,
  listingId: number,
  userId: number,
  now: Date,
): Promise<{ id: number; created: boolean; created_at: string }> {
  const made = await db
    .insertInto('programme_entries')
    .values({
      programme_id: programmeId,
      listing_id: listingId,
      user_id: userId,
      place: null,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['programme_id', 'listing_id']).doNothing())
    .returning(['id', 'created_at'])
    .executeTakeFirst();
  if (made) return { id: made.id, created: true, created_at: made.created_at };
  const existing = await db
    .selectFrom('programme_entries')
    .select(['id', 'created_at'])
    .where('programme_id', '=', programmeId)
    .where('listing_id', '=', listingId)
    .executeTakeFirstOrThrow();
  return { id: existing.id, created: false, created_at: existing.created_at };
}

/** Sets a jury place (admin); null clears it. */
export async function setEntryPlace(db: Kysely<DB>, entryId: number, place: number | null): Promise<void> {
  await db.updateTable('programme_entries').set({ place }).where('id', '=', entryId).execute();
}
