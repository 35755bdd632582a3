// Categories: the two-level tree with live listing counts, and one category with its live listings.
// A listing belongs to a category through listing_categories (primary and extra categories) and,
// as a safety net, through listings.primary_category_id; each listing counts once per category.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../types.ts';
import { fromJson } from '../json.ts';
import { summaryQuery, toSummary, type ListingSummary, type SummaryRow } from './summary.ts';
import { nullsLast, num } from './sql-helpers.ts';

export type CategoryRow = { id: number; slug: string; name: string; parent_id: number | null; description: string; faqs: string; attributes: string; position: number };

export type CategoryNode = {
  slug: string;
  name: string;
  description: string;
  /** Live listings in this category (for a parent: in it or any subcategory, each listing once). */
  live_listings: number;
  subcategories?: CategoryNode[];
};

export async function allCategories(db: Kysely<DB>): Promise<CategoryRow[]> {
  return db.selectFrom('categories').selectAll().orderBy('position').orderBy('name').orderBy('id').execute();
}

/** (category, live listing) pairs, each once: listing_categories plus primary categories. */
const livePairs = sql`(
  select lc.category_id as cid, lc.listing_id as lid from listing_categories lc join listings l on l.id = lc.listing_id where l.status = 'live'
  union
  select l.primary_category_id as cid, l.id as lid from listings l where l.status = 'live' and l.primary_category_id is not null
)`;

/** Live listing counts: own (direct) and rolled up to the top-level category. */
export async function liveCounts(db: Kysely<DB>): Promise<{ direct: Map<number, number>; rolled: Map<number, number> }> {
  const direct = await sql<{ cid: number; n: number }>`select x.cid as cid, count(distinct x.lid) as n from ${livePairs} x group by x.cid`.execute(db);
  const rolled = await sql<{ root: number; n: number }>`select coalesce(c.parent_id, c.id) as root, count(distinct x.lid) as n
    from ${livePairs} x join categories c on c.id = x.cid group by coalesce(c.parent_id, c.id)`.execute(db);
  return {
    direct: new Map(direct.rows.map((r) => [Number(r.cid), num(r.n)])),
    rolled: new Map(rolled.rows.map((r) => [Number(r.root), num(r.n)])),
  };
}

export async function categoryTree(db: Kysely<DB>, includeEmpty: boolean): Promise<CategoryNode[]> {
  const cats = await allCategories(db);
  const { direct, rolled } = await liveCounts(db);
  const children = new Map<number, CategoryRow[]>();
  for (const c of cats) if (c.parent_id !== null) children.set(c.parent_id, [...(children.get(c.parent_id) ?? []), c]);
  const out: CategoryNode[] = [];
  for (const p of cats.filter((c) => c.parent_id === null)) {
    const subs = (children.get(p.id) ?? [])
      .map((c) => ({ slug: c.slug, name: c.name, description: c.description, live_listings: direct.get(c.id) ?? 0 }))
      .filter((c) => includeEmpty || c.live_listings > 0);
    const node: CategoryNode = { slug: p.slug, name: p.name, description: p.description, live_listings: rolled.get(p.id) ?? 0, subcategories: subs };
    if (includeEmpty || node.live_listings > 0) out.push(node);
  }
  return out;
}

export async function categoryBySlug(db: Kysely<DB>, slug: string): Promise<CategoryRow | undefined> {
  return db.selectFrom('categories').selectAll().where('slug', '=', slug).executeTakeFirst();
}

/** The ids of a category and all its descendants. */
export async function categoryAndDescendants(db: Kysely<DB>, id: number): Promise<number[]> {
  const cats = await db.selectFrom('categories').select(['id', 'parent_id']).execute();
  const ids = [id];
  for (let i = 0; i < ids.length; i++) for (const c of cats) if (c.parent_id === ids[i] && !ids.includes(c.id)) ids.push(c.id);
  return ids;
}

/** Live listings in any of the categories, most voted first (then the earlier launch, then id). */
export async function liveListingsInCategories(db: Kysely<DB>, ids: number[], limit: number, offset: number): Promise<{ items: ListingSummary[]; total: number }> {
  const inCats = (q: ReturnType<typeof summaryQuery>) => q
    .where('l.status', '=', 'live')
    .where((eb) => eb.or([
      eb('l.primary_category_id', 'in', ids),
      eb.exists(eb.selectFrom('listing_categories as lc').select('lc.listing_id').whereRef('lc.listing_id', '=', 'l.id').where('lc.category_id', 'in', ids)),
    ]));
  const rows = await inCats(summaryQuery(db))
    .orderBy('l.votes_count', 'desc').orderBy(nullsLast(sql`l.launched_at`)).orderBy('l.launched_at', 'asc').orderBy('l.id', 'asc')
    .limit(limit).offset(offset).execute();
  const count = await db.selectFrom('listings as l')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('l.status', '=', 'live')
    .where((eb) => eb.or([
      eb('l.primary_category_id', 'in', ids),
      eb.exists(eb.selectFrom('listing_categories as lc').select('lc.listing_id').whereRef('lc.listing_id', '=', 'l.id').where('lc.category_id', 'in', ids)),
    ]))
    .executeTakeFirstOrThrow();
  return { items: rows.map((r) => toSummary(r as SummaryRow)), total: num(count.n) };
}

export function categoryDetail(c: CategoryRow) {
  return {
    slug: c.slug,
    name: c.name,
    description: c.description,
    faqs: fromJson<Array<{ question: string; answer: string }>>(c.faqs, []),
    attributes: fromJson<string[]>(c.attributes, []),
  };
}
