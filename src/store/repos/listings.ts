// Public reads of one listing: the full profile, its alternatives and a side-by-side comparison;
// and the updates makers post, newest first across the site. Only live listings are public here;
// anything else reads as "not found".
import { BATCH_KEYS, batchedRead, hasPool, hotQuery, keyArgs } from '../prepared.ts';
import { sql, type Compilable, type CompiledQuery, type Kysely, type RawBuilder } from 'kysely';
import type { Engine } from '../connect.ts';
import type { DB } from '../types.ts';
import { fromJson } from '../json.ts';
import {
  SUMMARY_SELECT,
  summariesByIds,
  summaryQuery,
  toSummary,
  type ListingSummary,
  type SummaryRow,
} from './summary.ts';
import { num } from './sql-helpers.ts';
import { AWARD_KIND, awardTitle, trendOf } from '../../domain/ranking.ts';
import { addDays } from '../../domain/weeks.ts';
import { STORY_KEYS, type ProfileField } from '../../domain/vocabulary.ts';

// ------------------------------------------------------------------ prepared reads
// get_listing is the hottest read: its queries are built and compiled once per database and then
// run with new parameters, skipping Kysely's builder and compiler on every request.
const ARG = '\u0000arg:';
/** A placeholder for the i-th argument of a prepared query (typed loosely: it stands for any value). */
// biome-ignore lint/suspicious/noExplicitAny: a placeholder standing for any column value in the query builder
const arg = (i: number): any => ARG + i;
const compiledCache = new WeakMap<Kysely<DB>, Map<string, CompiledQuery<unknown>>>();

async function prepared<R>(
  db: Kysely<DB>,
  key: string,
  build: () => Compilable<R>,
  args: readonly unknown[],
): Promise<R[]> {
  let cache = compiledCache.get(db);
  if (!cache) compiledCache.set(db, (cache = new Map()));
  let compiled = cache.get(key) as CompiledQuery<R> | undefined;
  if (!compiled) {
    compiled = build().compile();
    cache.set(key, compiled);
  }
  const parameters = compiled.parameters.map((p) =>
    typeof p === 'string' && p.startsWith(ARG) ? args[Number(p.slice(ARG.length))] : p,
  );
  return (await db.executeQuery<R>({ ...compiled, parameters })).rows;
}

export const LATEST_UPDATES = 5;
export const ALTERNATIVES_LIMIT = 10;

const PROFILE_COLUMNS = [
  'l.id',
  'l.slug',
  'l.name',
  'l.url',
  'l.domain',
  'l.tagline',
  'l.short_description',
  'l.description',
  'l.headline',
  'l.summary',
  'l.stage',
  'l.pricing_model',
  'l.pricing_summary',
  'l.country',
  'l.city',
  'l.founded_year',
  'l.contact_email',
  'l.demo_video_url',
  'l.logo_url',
  'l.features',
  'l.usps',
  'l.keywords',
  'l.tags',
  'l.socials',
  'l.faqs',
  'l.not_found',
  'l.facts',
  'l.media',
  'l.seo_title',
  'l.seo_description',
  'l.status',
  'l.plan',
  'l.launch_week',
  'l.launched_at',
  'l.primary_category_id',
  'l.unlocked',
  'l.verified_at',
  'l.domain_rating',
  'l.votes_count',
  'l.followers_count',
  'l.updated_at',
] as const;

export interface DomainRatingView {
  value: number | null;
  /** Latest reading's date (YYYY-MM-DD), or null when only the listing's own figure is known. */
  as_of: string | null;
  trend: { direction: 'up' | 'down' | 'flat' | 'new'; change_30d: number | null; change_90d: number | null };
  history: Array<{ date: string; rating: number }>;
}

/**
 * Domain Rating with its trend: the latest reading, its change against the last reading at least 30
 * and 90 days older (null when there is none that old), the direction against the previous reading,
 * and the history (oldest first). Without history, the listing's own figure with trend "new".
 */
export function domainRatingView(
  history: Array<{ date: string; rating: number }>,
  fallback: number | null,
): DomainRatingView {
  if (!history.length)
    return {
      value: fallback,
      as_of: null,
      trend: { direction: 'new', change_30d: null, change_90d: null },
      history: [],
    };
  const latest = history[history.length - 1];
  const before = (days: number) => {
    const cutoff = addDays(latest.date, -days);
    for (let i = history.length - 1; i >= 0; i--) if (history[i].date <= cutoff) return history[i].rating;
    return null;
  };
  const b30 = before(30);
  const b90 = before(90);
  const prev = history.length > 1 ? history[history.length - 2].rating : null;
  return {
    value: latest.rating,
    as_of: latest.date,
    trend: {
      direction: trendOf(latest.rating, prev),
      change_30d: b30 === null ? null : latest.rating - b30,
      change_90d: b90 === null ? null : latest.rating - b90,
    },
    history,
  };
}

/**
 * A correlated subquery giving the rows of `from` as a JSON array of objects (`fields`), ordered:
 * json_group_array on SQLite, json_agg on PostgreSQL (the one place the two differ here).
 */
function jsonRows(
  engine: Engine,
  fields: Record<string, RawBuilder<unknown>>,
  from: RawBuilder<unknown>,
  orderBy: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const pairs = sql.join(Object.entries(fields).map(([k, v]) => sql`${sql.lit(k)}, ${v}`));
  return engine === 'postgres'
    ? sql`(select json_agg(json_build_object(${pairs}) order by ${orderBy}) ${from})`
    : sql`(select json_group_array(json_object(${pairs}) order by ${orderBy}) ${from})`;
}

/** A JSON column from jsonRows: text on SQLite, parsed by pg on PostgreSQL, NULL for no rows there. */
function rowsOf<T>(v: unknown): T[] {
  if (v === null || v === undefined) return [];
  return (typeof v === 'string' ? JSON.parse(v) : v) as T[];
}

const iso = (v: string | null): string | null => (v === null ? null : new Date(v).toISOString());

/**
 * The profile in ONE statement: the listing's columns, its genuine-review rating, and its
 * categories, founders, latest updates, Domain Rating history, awards, milestones and story as JSON
 * arrays. Built and compiled once per database (prepared()).
 */
function profileQuery(
  db: Kysely<DB>,
  engine: Engine,
  by: 'live-slug' | 'id' | 'live-ids' = 'live-slug',
  ids: readonly number[] = [],
) {
  const genuine = engine === 'postgres' ? sql`true` : sql`1`;
  const f = (col: string) => sql.ref(col);
  const q = db
    .selectFrom('listings as l')
    .select(PROFILE_COLUMNS)
    .select([
      sql<number>`(select v.views from listing_view_totals v where v.listing_id = l.id)`.as('views_count'),
      sql<number | null>`(select avg(r.rating) from reviews r where r.listing_id = l.id and r.genuine = ${genuine})`.as(
        'rating_avg',
      ),
      sql<number>`(select count(*) from reviews r where r.listing_id = l.id and r.genuine = ${genuine})`.as(
        'rating_count',
      ),
      jsonRows(
        engine,
        {
          id: f('c.id'),
          slug: f('c.slug'),
          name: f('c.name'),
          parent_slug: f('p.slug'),
          parent_name: f('p.name'),
          is_primary: sql`(select lc.is_primary from listing_categories lc where lc.listing_id = l.id and lc.category_id = c.id)`,
        },
        sql`from categories c left join categories p on p.id = c.parent_id
        where c.id in (select lc2.category_id from listing_categories lc2 where lc2.listing_id = l.id) or c.id = l.primary_category_id`,
        sql`c.id`,
      ).as('categories_json'),
      jsonRows(
        engine,
        {
          slug: f('fo.slug'),
          name: f('fo.name'),
          title: f('fo.title'),
          avatar_url: f('fo.avatar_url'),
          country: f('fo.country'),
          socials: f('fo.socials'),
        },
        sql`from listing_founders lf join founders fo on fo.id = lf.founder_id where lf.listing_id = l.id`,
        sql`lf.position, fo.id`,
      ).as('founders_json'),
      jsonRows(
        engine,
        { id: f('u.id'), title: f('u.title'), body: f('u.body'), created_at: f('u.created_at') },
        sql`from (select id, title, body, created_at from updates where listing_id = l.id order by created_at desc, id desc limit ${sql.lit(LATEST_UPDATES)}) u`,
        sql`u.created_at desc, u.id desc`,
      ).as('updates_json'),
      jsonRows(
        engine,
        { date: f('d.date'), rating: f('d.rating') },
        sql`from domain_ratings d where d.listing_id = l.id`,
        sql`d.date`,
      ).as('ratings_json'),
      jsonRows(
        engine,
        { week: f('a.week'), rank: f('a.rank'), votes: f('a.votes') },
        sql`from awards a where a.listing_id = l.id and a.kind = ${sql.lit(AWARD_KIND)}`,
        sql`a.week desc, a.rank`,
      ).as('awards_json'),
      jsonRows(
        engine,
        { id: f('m.id'), date: f('m.date'), title: f('m.title'), description: f('m.description'), url: f('m.url') },
        sql`from milestones m where m.listing_id = l.id`,
        sql`m.date desc, m.id desc`,
      ).as('milestones_json'),
      jsonRows(
        engine,
        Object.fromEntries([...STORY_KEYS, 'updated_at'].map((k) => [k, f(`s.${k}`)])),
        sql`from stories s where s.listing_id = l.id`,
        sql`s.listing_id`,
      ).as('story_json'),
    ]);
  // Public reads find a live listing by slug; the owner's read (ownerProfile) finds any status by id.
  if (by === 'live-ids') return q.where('l.id', 'in', ids).where('l.status', '=', 'live');
  return by === 'id' ? q.where('l.id', '=', arg(0)) : q.where('l.slug', '=', arg(0)).where('l.status', '=', 'live');
}

type ProfileRow = Awaited<ReturnType<ReturnType<typeof profileQuery>['execute']>>[number];

type StoryRow = {
  title: string | null;
  story: string | null;
  why_started: string | null;
  problem: string | null;
  journey: string | null;
  challenges: string | null;
  achievements: string | null;
  lessons: string | null;
  whats_next: string | null;
  updated_at: string;
};

/** The full public profile of a live listing (see get_listing), or undefined. `id` is for the caller (view counting) and is not part of the profile. */
export async function publicProfile(
  db: Kysely<DB>,
  engine: Engine,
  slug: string,
): Promise<{ id: number; profile: Record<string, unknown> } | undefined> {
  const [l] = await prepared(db, 'profile', () => profileQuery(db, engine, 'live-slug'), [slug]);
  return l ? { id: l.id, profile: publicProfileOf(l) } : undefined;
}

/** The public profiles of the live listings among `ids` (one statement; missing or not live ids are left out). */
export async function publicProfilesByIds(
  db: Kysely<DB>,
  engine: Engine,
  ids: readonly number[],
): Promise<Array<{ id: number; profile: Record<string, unknown> }>> {
  if (!ids.length) return [];
  const rows = await profileQuery(db, engine, 'live-ids', ids).execute();
  return rows.map((l) => ({ id: l.id, profile: publicProfileOf(l) }));
}

/**
 * The same profile for the listing's owner (get_my_listing): any status, found by id, and the
 * paid-only sections story, milestones and media always present (listings.unlocked tells whether
 * the public sees them). Undefined when no listing has the id.
 */
export async function ownerProfile(db: Kysely<DB>, engine: Engine, id: number): Promise<OwnerProfile | undefined> {
  const [l] = await prepared(db, 'profile-by-id', () => profileQuery(db, engine, 'id'), [id]);
  return l ? { ...buildProfile(l), story: storyOf(l), milestones: milestonesOf(l), media: mediaOf(l) } : undefined;
}

/** A screenshot or video of the listing (a paid section). */
interface MediaItem {
  type: 'image' | 'video';
  url: string;
  alt?: string;
}

/** A fact a category asks its listings for: text, a number, yes/no or a list of words. */
type Fact = string | number | boolean | string[];

/** The profile every reader gets; the paid sections are added by publicProfileOf and ownerProfile. */
type Profile = ReturnType<typeof buildProfile>;
/** The owner's profile: every paid section present, unlocked or not. */
export type OwnerProfile = Profile & {
  story: ReturnType<typeof storyOf>;
  milestones: ReturnType<typeof milestonesOf>;
  media: MediaItem[];
};

/** The public profile: the paid sections (story, milestones, media) only where unlocked. */
function publicProfileOf(l: ProfileRow) {
  const unlocked = new Set(fromJson<string[]>(l.unlocked, []));
  return {
    ...buildProfile(l),
    ...(unlocked.has('story') ? { story: storyOf(l) } : {}),
    ...(unlocked.has('milestones') ? { milestones: milestonesOf(l) } : {}),
    ...(unlocked.has('media') ? { media: mediaOf(l) } : {}),
  };
}

function storyOf(l: ProfileRow) {
  const story = rowsOf<StoryRow>(l.story_json)[0];
  return story
    ? {
        title: story.title,
        story: story.story,
        why_started: story.why_started,
        problem: story.problem,
        journey: story.journey,
        challenges: story.challenges,
        achievements: story.achievements,
        lessons: story.lessons,
        whats_next: story.whats_next,
        updated_at: iso(story.updated_at),
      }
    : null;
}

function milestonesOf(l: ProfileRow) {
  const milestones = rowsOf<{
    id: number;
    date: string;
    title: string;
    description: string | null;
    url: string | null;
  }>(l.milestones_json);
  return milestones.map((m) => ({
    id: num(m.id),
    date: m.date,
    title: m.title,
    description: m.description,
    url: m.url,
  }));
}

const mediaOf = (l: ProfileRow): MediaItem[] => fromJson<MediaItem[]>(l.media, []);

function buildProfile(l: ProfileRow) {
  const categories = rowsOf<{
    id: number;
    slug: string;
    name: string;
    is_primary: number | boolean | null;
    parent_slug: string | null;
    parent_name: string | null;
  }>(l.categories_json);
  const founders = rowsOf<{
    slug: string;
    name: string;
    title: string | null;
    avatar_url: string | null;
    country: string | null;
    socials: string;
  }>(l.founders_json);
  const updates = rowsOf<{ id: number; title: string; body: string; created_at: string }>(l.updates_json);
  const drHistory = rowsOf<{ date: string; rating: number }>(l.ratings_json);
  const awards = rowsOf<{ week: string; rank: number; votes: number }>(l.awards_json);

  // Primary first (listing_categories' flag, else listings.primary_category_id), each category once.
  const seen = new Set<number>();
  const cats = [...categories]
    .sort(
      (a, b) =>
        primaryRank(b, l.primary_category_id) - primaryRank(a, l.primary_category_id) || a.name.localeCompare(b.name),
    )
    .filter((c) => {
      if (seen.has(c.id)) return false;
      seen.add(c.id);
      return true;
    })
    .map((c, i) => ({
      slug: c.slug,
      name: c.name,
      primary: i === 0,
      parent: c.parent_slug ? { slug: c.parent_slug, name: c.parent_name } : null,
    }));

  const ratingCount = num(l.rating_count);
  const socials = fromJson<Record<string, string>>(l.socials, {});
  const profile = {
    slug: l.slug,
    name: l.name,
    url: l.url,
    domain: l.domain,
    tagline: l.tagline,
    short_description: l.short_description,
    description: l.description,
    headline: l.headline,
    summary: l.summary,
    logo_url: l.logo_url,
    status: l.status,
    launch_week: l.launch_week,
    launched_at: l.launched_at,
    stage: l.stage,
    country: l.country,
    city: l.city,
    founded_year: l.founded_year === null ? null : num(l.founded_year),
    contact_email: l.contact_email,
    pricing: { model: l.pricing_model, summary: l.pricing_summary },
    features: fromJson<string[]>(l.features, []),
    usps: fromJson<string[]>(l.usps, []),
    keywords: fromJson<string[]>(l.keywords, []),
    tags: fromJson<string[]>(l.tags, []),
    categories: cats,
    founders: founders.map((f) => ({
      slug: f.slug,
      name: f.name,
      title: f.title,
      avatar_url: f.avatar_url,
      country: f.country,
      socials: fromJson<Record<string, string>>(f.socials, {}),
    })),
    faqs: fromJson<Array<{ question: string; answer: string }>>(l.faqs, []),
    socials,
    latest_updates: updates.map((u) => ({
      id: num(u.id),
      title: u.title,
      body: u.body,
      created_at: iso(u.created_at),
    })),
    community_rating: { average: ratingCount ? Math.round(Number(l.rating_avg) * 10) / 10 : null, count: ratingCount },
    domain_rating: domainRatingView(
      drHistory.map((d) => ({ date: d.date, rating: num(d.rating) })),
      l.domain_rating === null ? null : num(l.domain_rating),
    ),
    links: { website: l.url, demo_video: l.demo_video_url, ...(socials.github ? { source_code: socials.github } : {}) },
    facts: fromJson<Record<string, Fact>>(l.facts, {}),
    not_found_on_website: [] as ProfileField[], // below, from the profile's own values
    verified: l.verified_at !== null,
    awards: awards.map((a) => ({
      week: a.week,
      rank: num(a.rank),
      title: awardTitle(num(a.rank)),
      votes: num(a.votes),
    })),
    seo: { title: l.seo_title, description: l.seo_description },
    votes: num(l.votes_count),
    followers: num(l.followers_count),
    views: num(l.views_count),
    updated_at: l.updated_at,
  };
  // What the site did not state, less what the listing has since been given (by its maker, on the listing).
  profile.not_found_on_website = fromJson<ProfileField[]>(l.not_found, []).filter((f) =>
    isBlank(profileValue(profile, f)),
  );
  return profile;
}

function primaryRank(c: { id: number; is_primary: number | boolean | null }, primaryId: number | null): number {
  return c.id === primaryId ? 2 : c.is_primary ? 1 : 0;
}

export type AlternativeItem = ListingSummary & { approved: boolean };

type AlternativesSelf = SummaryRow & { primary_category_id: number | null };
/** PostgreSQL: alternativesOf()'s own read for a batch of slugs (store/prepared.ts BatchedRead). */
const ALTERNATIVES_SELF_BATCH = `SELECT q.i, ${SUMMARY_SELECT.join(', ')}, l.primary_category_id
  FROM ${BATCH_KEYS} JOIN listings l ON l.slug = q.k AND l.status = 'live'
  LEFT JOIN categories pc ON pc.id = l.primary_category_id`;

/**
 * Alternatives to a live listing: the live listings its owner approved (in the owner's order), then
 * other live listings of its primary category, most voted first (then the lower id); never itself,
 * each once, at most `limit`. Undefined when the listing is not live.
 *
 * `shareMs` > 0: a category's most voted (with their summaries) are read once per category for that
 * long and shared by every listing of it: on a listing page the same few dozen lists are asked for
 * with every listing. 0 (a caller who has just changed something) reads them afresh.
 */
export async function alternativesOf(
  db: Kysely<DB>,
  slug: string,
  limit = ALTERNATIVES_LIMIT,
  shareMs = 0,
): Promise<{ listing: ListingSummary; items: AlternativeItem[] } | undefined> {
  // every listing page reads it: compiled once, a cached or named prepared statement (store/prepared.ts)
  // and on PostgreSQL, with the other listing pages' that arrive at the same moment (one statement)
  const selfQuery = (s: string) =>
    summaryQuery(db).select('l.primary_category_id').where('l.slug', '=', s).where('l.status', '=', 'live');
  const hot = hasPool(db)
    ? await batchedRead<string, AlternativesSelf & { i: number }>(
        db,
        'll_alternatives_self_batch',
        ALTERNATIVES_SELF_BATCH,
        keyArgs,
      ).read(slug)
    : await hotQuery(db, 'll_alternatives_self', ([s]) => selfQuery(s), [slug]);
  const self = hot ? hot[0] : await selfQuery(slug).executeTakeFirst();
  if (!self) return undefined;
  const approved = !(await mayHaveApproved(db, self.id, shareMs))
    ? []
    : await summaryQuery(db)
        .innerJoin('alternatives as a', 'a.alternative_id', 'l.id')
        .where('a.listing_id', '=', self.id)
        .where('a.approved', '=', true as never)
        .where('l.status', '=', 'live')
        .where('l.id', '<>', self.id)
        .orderBy('a.position')
        .orderBy('l.id')
        .limit(limit)
        .execute();
  const items: AlternativeItem[] = approved.map((r) => ({ ...toSummary(r as SummaryRow), approved: true }));
  const taken = new Set([self.id, ...approved.map((r) => r.id)]);
  if (items.length < limit && self.primary_category_id !== null) {
    const want = limit - items.length;
    const top = await mostVotedIn(db, self.primary_category_id, want + taken.size, shareMs);
    for (const t of top) {
      if (items.length >= limit) break;
      if (!taken.has(t.id)) items.push({ ...t.summary, approved: false });
    }
  }
  return { listing: toSummary(self as SummaryRow), items };
}

const sharedReads = new WeakMap<object, Map<string, { at: number; value: Promise<unknown> }>>();

/**
 * `read()`'s result shared for `ms` per database and key: every caller meanwhile gets the same promise.
 * A failure is not kept. The keys are few (one per category, and one more), each replaced when it expires.
 */
function sharedRead<T>(db: object, key: string, ms: number, read: () => Promise<T>): Promise<T> {
  let byKey = sharedReads.get(db);
  if (!byKey) sharedReads.set(db, (byKey = new Map()));
  const now = Date.now();
  const hit = byKey.get(key);
  if (hit && now - hit.at < ms) return hit.value as Promise<T>;
  const entry = { at: now, value: read() };
  byKey.set(key, entry);
  entry.value.catch(() => {
    if (byKey.get(key) === entry) byKey.delete(key);
  });
  return entry.value;
}

/**
 * False when the listing has no approved alternatives. Few listings have any: with `shareMs` > 0 the
 * ids of those that do are read once per `shareMs` (per database), so most listing pages skip the query.
 */
async function mayHaveApproved(db: Kysely<DB>, listingId: number, shareMs: number): Promise<boolean> {
  if (shareMs <= 0) return true;
  const ids = await sharedRead(db, 'approved', shareMs, async () => {
    const rows = await db
      .selectFrom('alternatives')
      .select('listing_id')
      .distinct()
      .where('approved', '=', true as never)
      .execute();
    return new Set(rows.map((r) => Number(r.listing_id)));
  });
  return ids.has(Number(listingId));
}

/** The most voted a category's lists are shared for (2 × ALTERNATIVES_LIMIT + 1 covers any listing's own and approved). */
const SHARED_TOP = 2 * ALTERNATIVES_LIMIT + 1;
type TopRow = { id: number; summary: ListingSummary };

/**
 * A category's `n` most voted live listings (primary category), with their summaries: read from the
 * (status, primary_category_id, votes_count) index, which stops after the few it needs (sorting every
 * listing of a category that may hold thousands cost ~10 ms a listing page at 100,000 listings); then
 * only their summaries. Shared for `shareMs` (per database) when n ≤ SHARED_TOP.
 */
function mostVotedIn(db: Kysely<DB>, categoryId: number, n: number, shareMs: number): Promise<TopRow[]> {
  const read = async (count: number): Promise<TopRow[]> => {
    const ids = (
      await db
        .selectFrom('listings as l')
        .select('l.id')
        .where('l.status', '=', 'live')
        .where('l.primary_category_id', '=', categoryId)
        .orderBy('l.votes_count', 'desc')
        .orderBy('l.id')
        .limit(count)
        .execute()
    ).map((r) => r.id);
    const summaries = await summariesByIds(db, ids);
    return ids.flatMap((id) => {
      const summary = summaries.get(id);
      return summary ? [{ id, summary }] : [];
    });
  };
  if (shareMs <= 0 || n > SHARED_TOP) return read(n);
  return sharedRead(db, `top ${categoryId}`, shareMs, () => read(SHARED_TOP));
}

export type UpdateFeedItem = { title: string; body: string; created_at: string; listing: ListingSummary };

/**
 * The site's latest updates (post_listing_update feeds it): updates of live listings, newest first
 * (then the higher id), each with its listing's summary; `total` counts them all.
 */
export async function latestUpdates(
  db: Kysely<DB>,
  limit: number,
  offset: number,
): Promise<{ items: UpdateFeedItem[]; total: number }> {
  // Updates first (CROSS JOIN keeps them the outer loop on SQLite): the page is read from the
  // updates_recent index in order, each update's listing by its key, instead of sorting every update.
  const live = () =>
    db
      .selectFrom('updates as u')
      .crossJoin('listings as l')
      .whereRef('l.id', '=', 'u.listing_id')
      .where('l.status', '=', 'live');
  const [rows, count] = await Promise.all([
    live()
      .select(['u.listing_id', 'u.title', 'u.body', 'u.created_at'])
      .orderBy('u.created_at', 'desc')
      .orderBy('u.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    live()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const summaries = await summariesByIds(
    db,
    rows.map((r) => r.listing_id),
  );
  return {
    items: rows.flatMap((r) => {
      const listing = summaries.get(r.listing_id);
      return listing ? [{ title: r.title, body: r.body, created_at: iso(r.created_at)!, listing }] : [];
    }),
    total: num(count.n),
  };
}

/** Core facts compared for every pair, from listing columns. */
const CORE_FACTS: Array<{ key: string; label: string; read: (l: CompareRow) => unknown }> = [
  { key: 'pricing_model', label: 'Pricing model', read: (l) => l.pricing_model },
  { key: 'pricing_summary', label: 'Pricing', read: (l) => l.pricing_summary },
  { key: 'stage', label: 'Stage', read: (l) => l.stage },
  { key: 'founded_year', label: 'Founded', read: (l) => (l.founded_year === null ? null : num(l.founded_year)) },
  { key: 'country', label: 'Country', read: (l) => l.country },
  { key: 'city', label: 'City', read: (l) => l.city },
  {
    key: 'domain_rating',
    label: 'Domain Rating',
    read: (l) => (l.domain_rating === null ? null : num(l.domain_rating)),
  },
];

type CompareRow = SummaryRow & {
  pricing_model: string | null;
  pricing_summary: string | null;
  stage: string | null;
  founded_year: number | null;
  country: string | null;
  city: string | null;
  domain_rating: number | null;
  facts: string;
  category_attributes: string | null;
};

/** A compared fact; null when the listing does not state it. */
type FactCell = Fact | null;

export interface CompareCell {
  key: string;
  label: string;
  a: FactCell;
  b: FactCell;
}

const ACRONYMS = new Set(['api', 'cli', 'sso', 'gdpr', 'ai', 'seo', 'crm', 'sdk', 'ui', 'url', 'vat', 'saml']);

/** "open_source" → "Open source", "api" → "API". Attributes may also be declared as {key, label}. */
export function attributeLabel(key: string): string {
  const words = key
    .split(/[_-]+/)
    .filter(Boolean)
    .map((w) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function attributesOf(json: string | null): Array<{ key: string; label: string }> {
  const raw = fromJson<unknown[]>(json, []);
  const out: Array<{ key: string; label: string }> = [];
  for (const a of Array.isArray(raw) ? raw : []) {
    if (typeof a === 'string') out.push({ key: a, label: attributeLabel(a) });
    else if (a && typeof a === 'object' && typeof (a as { key?: unknown }).key === 'string') {
      const key = (a as { key: string }).key;
      const label = (a as { label?: unknown }).label;
      out.push({ key, label: typeof label === 'string' ? label : attributeLabel(key) });
    }
  }
  return out;
}

/**
 * Two live listings side by side: core facts, then the attributes of both primary categories (the
 * first listing's category first; each once). A cell is null when that listing does not state the
 * fact; a row is kept even when neither does (both cells null). `missing` names a side that is not a live listing.
 */
export async function compareListings(
  db: Kysely<DB>,
  a: string,
  b: string,
): Promise<{ missing: 'a' | 'b' } | { a: ListingSummary; b: ListingSummary; attributes: CompareCell[] }> {
  const rows = await summaryQuery(db)
    .select([
      'l.pricing_model',
      'l.pricing_summary',
      'l.stage',
      'l.founded_year',
      'l.country',
      'l.city',
      'l.domain_rating',
      'l.facts',
      'pc.attributes as category_attributes',
    ])
    .where('l.slug', 'in', [a, b])
    .where('l.status', '=', 'live')
    .execute();
  const ra = rows.find((r) => r.slug === a) as CompareRow | undefined;
  const rb = rows.find((r) => r.slug === b) as CompareRow | undefined;
  if (!ra) return { missing: 'a' };
  if (!rb) return { missing: 'b' };
  const fa = fromJson<Record<string, unknown>>(ra.facts, {});
  const fb = fromJson<Record<string, unknown>>(rb.facts, {});
  const cell = (v: unknown): FactCell => {
    if (typeof v === 'string') return v === '' ? null : v;
    if (typeof v === 'number' || typeof v === 'boolean') return v;
    if (Array.isArray(v)) return v.length ? v.map(String) : null;
    return null; // absent, or a value no fact takes
  };
  const out: CompareCell[] = CORE_FACTS.map((f) => ({
    key: f.key,
    label: f.label,
    a: cell(f.read(ra)),
    b: cell(f.read(rb)),
  }));
  const keys = new Set(out.map((c) => c.key));
  for (const attr of [...attributesOf(ra.category_attributes), ...attributesOf(rb.category_attributes)]) {
    if (keys.has(attr.key)) continue;
    keys.add(attr.key);
    out.push({ key: attr.key, label: attr.label, a: cell(fa[attr.key]), b: cell(fb[attr.key]) });
  }
  return { a: toSummary(ra), b: toSummary(rb), attributes: out };
}

const isBlank = (v: unknown): boolean =>
  v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** A profile field (a draft's field name) as the public profile shows it; most sit at the top under their own name. */
function profileValue(profile: Record<string, unknown>, field: string): unknown {
  const pricing = profile.pricing as { model: unknown; summary: unknown };
  if (field === 'pricing_model') return pricing.model;
  if (field === 'pricing_summary') return pricing.summary;
  if (field === 'demo_video_url') return (profile.links as { demo_video: unknown }).demo_video;
  return profile[field];
}
