// Founders behind live listings, their companies and published stories.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../types.ts';
import { fromJson } from '../json.ts';
import { summaryQuery, toSummary, type ListingSummary, type SummaryRow } from './summary.ts';
import { icontains, num } from './sql-helpers.ts';
import { STORY_KEYS, type StoryKey } from '../../domain/vocabulary.ts';

export type FounderCompany = ListingSummary & { role: string | null; primary_founder: boolean };

async function companiesOf(
  db: Kysely<DB>,
  founderIds: number[],
): Promise<Map<number, Array<FounderCompany & { listing_id: number; unlocked: string }>>> {
  const out = new Map<number, Array<FounderCompany & { listing_id: number; unlocked: string }>>();
  if (!founderIds.length) return out;
  const rows = await summaryQuery(db)
    .innerJoin('listing_founders as lf', 'lf.listing_id', 'l.id')
    .innerJoin('founders as f', 'f.id', 'lf.founder_id')
    .select(['lf.founder_id', 'lf.position', 'f.title as founder_title', 'l.unlocked'])
    .where('lf.founder_id', 'in', founderIds)
    .where('l.status', '=', 'live')
    .orderBy('l.votes_count', 'desc')
    .orderBy('l.id', 'asc')
    .execute();
  for (const r of rows) {
    const list = out.get(r.founder_id) ?? [];
    list.push({
      ...toSummary(r as SummaryRow),
      role: r.founder_title,
      primary_founder: num(r.position) === 0,
      listing_id: r.id,
      unlocked: r.unlocked,
    });
    out.set(r.founder_id, list);
  }
  return out;
}

/** `founders as f` narrowed to the founders of at least one live listing (the public ones). */
export const behindLive = (db: Kysely<DB>) =>
  db
    .selectFrom('founders as f')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('listing_founders as lf')
          .innerJoin('listings as l', 'l.id', 'lf.listing_id')
          .select('lf.listing_id')
          .whereRef('lf.founder_id', '=', 'f.id')
          .where('l.status', '=', 'live'),
      ),
    );

export type FounderListItem = {
  slug: string;
  name: string;
  title: string | null;
  country: string | null;
  avatar_url: string | null;
  bio_excerpt: string | null;
  companies: FounderCompany[];
};

export async function listFounderItems(
  db: Kysely<DB>,
  filter: { q?: string; country?: string },
  limit: number,
  offset: number,
): Promise<{ items: FounderListItem[]; total: number }> {
  let q = behindLive(db);
  const term = filter.q?.trim();
  if (term) q = q.where(icontains(sql.ref('f.name'), term));
  if (filter.country) q = q.where('f.country', '=', filter.country.toUpperCase());
  const rows = await q
    .select(['f.id', 'f.slug', 'f.name', 'f.title', 'f.country', 'f.avatar_url', 'f.bio'])
    .orderBy('f.name')
    .orderBy('f.id')
    .limit(limit)
    .offset(offset)
    .execute();
  const total = num((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const companies = await companiesOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) => ({
      slug: r.slug,
      name: r.name,
      title: r.title,
      country: r.country,
      avatar_url: r.avatar_url,
      bio_excerpt: excerpt(r.bio, 200),
      companies: (companies.get(r.id) ?? []).map(({ listing_id: _l, unlocked: _u, ...c }) => c),
    })),
    total,
  };
}

export function excerpt(s: string | null, max: number): string | null {
  if (!s) return null;
  const flat = s.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[,;:.\s]+$/, '') + '…';
}

/** The founder-story sections, in reading order (as set_founder_story takes them). */

export type FounderDetail = {
  slug: string;
  name: string;
  title: string | null;
  bio: string | null;
  country: string | null;
  avatar_url: string | null;
  socials: Record<string, string>;
  companies: FounderCompany[];
  stories: Array<{ listing: ListingSummary } & Partial<Record<StoryKey, string>> & { updated_at: string }>;
};

/** A founder behind at least one live listing, or undefined. Stories: those of their live listings whose story section is unlocked. */
export async function founderBySlug(db: Kysely<DB>, slug: string): Promise<FounderDetail | undefined> {
  const f = await behindLive(db).selectAll('f').where('f.slug', '=', slug).executeTakeFirst();
  if (!f) return undefined;
  const companies = (await companiesOf(db, [f.id])).get(f.id) ?? [];
  const storyListings = companies.filter((c) => fromJson<string[]>(c.unlocked, []).includes('story'));
  const stories: FounderDetail['stories'] = [];
  if (storyListings.length) {
    const rows = await db
      .selectFrom('stories')
      .selectAll()
      .where(
        'listing_id',
        'in',
        storyListings.map((c) => c.listing_id),
      )
      .execute();
    for (const c of storyListings) {
      const s = rows.find((r) => r.listing_id === c.listing_id);
      if (!s) continue;
      const sections: Partial<Record<StoryKey, string>> = {};
      for (const k of STORY_KEYS) if (s[k]) sections[k] = s[k] as string;
      if (!Object.keys(sections).length) continue;
      const { listing_id: _l, unlocked: _u, role: _r, primary_founder: _p, ...listing } = c;
      stories.push({ listing, ...sections, updated_at: s.updated_at });
    }
  }
  return {
    slug: f.slug,
    name: f.name,
    title: f.title,
    bio: f.bio,
    country: f.country,
    avatar_url: f.avatar_url,
    socials: fromJson<Record<string, string>>(f.socials, {}),
    companies: companies.map(({ listing_id: _l, unlocked: _u, ...c }) => c),
    stories,
  };
}
