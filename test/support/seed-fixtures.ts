// Small, explicit fixtures for directory tests: categories, users, listings, votes — with times
// placed relative to the real current week so ranking rules can be checked exactly.
import type { Kysely } from 'kysely';
import type { DB } from '../../src/store/types.ts';
import { toJson } from '../../src/store/json.ts';
import { addWeeks, dayStart, mondayOf } from '../../src/domain/weeks.ts';
import type { ListingStatus } from '../../src/domain/vocabulary.ts';
import { recountVotes } from '../../src/store/repos/votes.ts';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** Mondays relative to the current week: week(0) = this Monday, week(-1) = last Monday … */
export function week(offset: number, now = new Date()): string {
  return addWeeks(mondayOf(now), offset);
}

/** An ISO instant inside a week: `hours` after that Monday 00:00 UTC. */
export function inWeek(offset: number, hours: number, now = new Date()): string {
  return new Date(dayStart(week(offset, now)).getTime() + hours * HOUR).toISOString();
}

/** An instant in the current week that is already past: a fraction (0–1) of the time elapsed since Monday 00:00. */
export function earlierThisWeek(fraction: number, now = new Date()): string {
  const start = dayStart(week(0, now)).getTime();
  return new Date(start + Math.floor((now.getTime() - start) * fraction)).toISOString();
}

/** An instant earlier today (UTC): a fraction of the time elapsed since midnight. */
export function earlierToday(fraction: number, now = new Date()): string {
  const start = dayStart(now).getTime();
  return new Date(start + Math.floor((now.getTime() - start) * fraction)).toISOString();
}

export async function addCategory(
  db: Kysely<DB>,
  slug: string,
  parent?: string,
  extra: { description?: string; position?: number } = {},
): Promise<number> {
  const parentId = parent
    ? (await db.selectFrom('categories').select('id').where('slug', '=', parent).executeTakeFirstOrThrow()).id
    : null;
  const row = await db
    .insertInto('categories')
    .values({
      slug,
      name: slug
        .split('-')
        .map((w) => w[0].toUpperCase() + w.slice(1))
        .join(' '),
      parent_id: parentId,
      description: extra.description ?? `All about ${slug}.`,
      faqs: toJson([{ question: `What is ${slug}?`, answer: 'A test category.' }]),
      attributes: toJson(['open_source', 'api']),
      position: extra.position ?? 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function addUsers(db: Kysely<DB>, n: number, prefix = 'voter'): Promise<number[]> {
  const now = new Date().toISOString();
  const rows = await db
    .insertInto('users')
    .values(
      Array.from({ length: n }, (_, i) => ({
        email: `${prefix}${i}@test.example`,
        name: `${prefix} ${i}`,
        password_hash: null,
        role: 'user',
        email_verified_at: now,
        created_at: now,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export interface ListingFixture {
  slug: string;
  name?: string;
  status?: ListingStatus;
  category: string;
  extraCategories?: string[];
  launch_week?: string | null;
  launched_at?: string | null;
  unlocked?: string[];
  verified_at?: string | null;
  views_count?: number;
  followers_count?: number;
  domain_rating?: number | null;
  revenue_cents?: number | null;
  votes_count?: number;
}

export async function addListing(db: Kysely<DB>, f: ListingFixture): Promise<number> {
  const now = new Date().toISOString();
  const cat = (await db.selectFrom('categories').select('id').where('slug', '=', f.category).executeTakeFirstOrThrow())
    .id;
  const status = f.status ?? 'live';
  const row = await db
    .insertInto('listings')
    .values({
      slug: f.slug,
      name: f.name ?? f.slug.toUpperCase(),
      url: `https://${f.slug}.example`,
      domain: `${f.slug}.example`,
      tagline: `Tagline of ${f.slug}`,
      owner_id: null,
      draft_id: null,
      short_description: null,
      description: `About ${f.slug}.`,
      stage: null,
      pricing_model: null,
      pricing_summary: null,
      country: null,
      city: null,
      founded_year: null,
      contact_email: null,
      demo_video_url: null,
      logo_url: null,
      headline: null,
      summary: null,
      seo_title: null,
      seo_description: null,
      badge_seen_at: null,
      features: '[]',
      usps: '[]',
      keywords: '[]',
      tags: '[]',
      socials: '{}',
      faqs: '[]',
      not_found: '[]',
      facts: '{}',
      media: '[]',
      status,
      plan: (f.unlocked ?? []).length ? ('paid' as const) : ('free' as const),
      launch_week: f.launch_week === undefined ? (status === 'draft' ? null : week(0)) : f.launch_week,
      launched_at: f.launched_at === undefined ? (status === 'live' ? earlierThisWeek(0) : null) : f.launched_at,
      primary_category_id: cat,
      unlocked: toJson(f.unlocked ?? []),
      verified_at: f.verified_at ?? null,
      followers_count: f.followers_count ?? 0,
      domain_rating: f.domain_rating ?? null,
      revenue_cents: f.revenue_cents ?? null,
      votes_count: f.votes_count ?? 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (f.views_count)
    await db
      .updateTable('listing_view_totals')
      .set({ views: f.views_count })
      .where('listing_id', '=', row.id)
      .execute();
  await db
    .insertInto('listing_categories')
    .values({ listing_id: row.id, category_id: cat, is_primary: true })
    .execute();
  for (const extra of f.extraCategories ?? []) {
    const id = (await db.selectFrom('categories').select('id').where('slug', '=', extra).executeTakeFirstOrThrow()).id;
    await db
      .insertInto('listing_categories')
      .values({ listing_id: row.id, category_id: id, is_primary: false })
      .execute();
  }
  return row.id;
}

/** Inserts one vote per (user, time) and keeps listings.votes_count = number of votes rows. */
export async function addVotes(db: Kysely<DB>, listingId: number, voters: number[], times: string[]): Promise<void> {
  if (times.length > voters.length) throw new Error('not enough voters for one vote per person');
  if (times.length)
    await db
      .insertInto('votes')
      .values(times.map((t, i) => ({ listing_id: listingId, user_id: voters[i], created_at: t })))
      .execute();
  const n = await db
    .selectFrom('votes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('listing_id', '=', listingId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('listings')
    .set({ votes_count: Number(n.n) })
    .where('id', '=', listingId)
    .execute();
  await recountVotes(db, listingId); // the weighted sums the rankings read
}

export async function idOf(db: Kysely<DB>, slug: string): Promise<number> {
  return (await db.selectFrom('listings').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
}
