// Categories: the two-level tree with live listing counts, and one category with its live listings.
// A listing belongs to its primary category (listings.primary_category_id) and to its extra categories
// (listing_categories rows with is_primary = false); each listing counts once per category.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../types.ts';
import { fromJson } from '../json.ts';
import { summariesByIds, type summaryQuery, type ListingSummary } from './summary.ts';
import { nullsLast, num } from './sql-helpers.ts';
import { keptAt, membershipStamp } from '../membership.ts';

export type CategoryRow = {
  id: number;
  slug: string;
  name: string;
  parent_id: number | null;
  description: string;
  faqs: string;
  attributes: string;
  position: number;
};

/** A subcategory in the tree. */
export type SubcategoryNode = {
  slug: string;
  name: string;
  description: string;
  /** Live listings in this category. */
  live_listings: number;
};

/** A top-level category in the tree. */
export type CategoryNode = SubcategoryNode & {
  /** Live listings in it or any subcategory, each listing once. */
  live_listings: number;
  subcategories: SubcategoryNode[];
};

/**
 * The category tree and its live counts, as they are now: read again only after a listing, an extra
 * category or the tree itself changed (the 'membership' counter, store/membership.ts), so a category read
 * costs one small-row lookup for all of it. Shared by every caller: read it, never change it.
 */
export interface CategoriesNow {
  /** By position, then name, then id. */
  rows: readonly CategoryRow[];
  bySlug: ReadonlyMap<string, CategoryRow>;
  byId: ReadonlyMap<number, CategoryRow>;
  /** A category's subcategories, in the same order. */
  children: ReadonlyMap<number, readonly CategoryRow[]>;
  /**
   * Live listing counts: own (direct) and rolled up to the top-level category (each listing once).
   * Membership: a listing's primary category (listings.primary_category_id) plus its extra categories
   * (listing_categories rows with is_primary = false). Both queries read indexes only.
   */
  counts: { direct: ReadonlyMap<number, number>; rolled: ReadonlyMap<number, number> };
  /** The membership counter these were read at (for what else is kept by it in the same request). */
  stamp: string;
}

export async function categoriesNow(db: Kysely<DB>): Promise<CategoriesNow> {
  // The counter is read before the rows: a change that commits meanwhile moves it past this value.
  const stamp = await membershipStamp(db);
  return keptAt(db, 'membership categories', stamp, async () => {
    const read = db.selectFrom('categories').selectAll().orderBy('position').orderBy('name').orderBy('id').execute();
    const [rows, counts] = await Promise.all([read, countLive(db, read)]);
    const children = new Map<number, CategoryRow[]>();
    for (const c of rows)
      if (c.parent_id !== null) children.set(c.parent_id, [...(children.get(c.parent_id) ?? []), c]);
    return {
      rows,
      bySlug: new Map(rows.map((c) => [c.slug, c])),
      byId: new Map(rows.map((c) => [c.id, c])),
      children,
      counts,
      stamp,
    };
  });
}

/** The live counts of the categories `categories` will give (read at the same time as the counts). */
async function countLive(
  db: Kysely<DB>,
  categories: Promise<ReadonlyArray<{ id: number; parent_id: number | null }>>,
): Promise<{ direct: Map<number, number>; rolled: Map<number, number> }> {
  const [cats, primary, extraRows] = await Promise.all([
    categories,
    db
      .selectFrom('listings')
      .select(['primary_category_id as cid', (eb) => eb.fn.countAll<number>().as('n')])
      .where('status', '=', 'live')
      .where('primary_category_id', 'is not', null)
      .groupBy('primary_category_id')
      .execute(),
    db
      .selectFrom('listing_categories')
      .select(['category_id', 'listing_id'])
      .where('is_primary', '=', sql.lit(false) as never)
      .execute(),
  ]);
  // Extra categories are few (a paid add-on): look their listings up by id rather than joining every live listing.
  const owners = new Map<number, number | null>();
  const extraIds = [...new Set(extraRows.map((e) => e.listing_id))];
  for (let i = 0; i < extraIds.length; i += 500) {
    const rows = await db
      .selectFrom('listings')
      .select(['id', 'primary_category_id'])
      .where('id', 'in', extraIds.slice(i, i + 500))
      .where('status', '=', 'live')
      .execute();
    for (const r of rows) owners.set(r.id, r.primary_category_id);
  }
  const extras = extraRows
    .filter((e) => owners.has(e.listing_id))
    .map((e) => ({ cid: e.category_id, lid: e.listing_id, pid: owners.get(e.listing_id) ?? null }));
  const rootOf = new Map<number, number>();
  const parentOf = new Map(cats.map((c) => [c.id, c.parent_id]));
  for (const c of cats) {
    let r = c.id;
    for (let guard = 0; parentOf.get(r) !== null && parentOf.get(r) !== undefined && guard < 10; guard++)
      r = parentOf.get(r) as number;
    rootOf.set(c.id, r);
  }
  const direct = new Map<number, number>();
  const rolled = new Map<number, number>();
  const bump = (m: Map<number, number>, k: number, n: number) => m.set(k, (m.get(k) ?? 0) + n);
  for (const p of primary) {
    const cid = Number(p.cid);
    bump(direct, cid, num(p.n));
    if (rootOf.has(cid)) bump(rolled, rootOf.get(cid) as number, num(p.n));
  }
  const seen = new Set<string>();
  for (const e of extras) {
    const cid = Number(e.cid);
    const pid = e.pid === null ? null : Number(e.pid);
    if (cid === pid) continue; // the primary category, already counted
    bump(direct, cid, 1);
    const root = rootOf.get(cid);
    if (root === undefined || (pid !== null && rootOf.get(pid) === root)) continue; // already counted under this root through its primary
    const key = `${root}:${e.lid}`;
    if (!seen.has(key)) {
      seen.add(key);
      bump(rolled, root, 1);
    }
  }
  return { direct, rolled };
}

export async function categoryTree(db: Kysely<DB>, includeEmpty: boolean): Promise<CategoryNode[]> {
  const { rows, children, counts } = await categoriesNow(db);
  const out: CategoryNode[] = [];
  for (const p of rows.filter((c) => c.parent_id === null)) {
    const subs = (children.get(p.id) ?? [])
      .map((c) => ({
        slug: c.slug,
        name: c.name,
        description: c.description,
        live_listings: counts.direct.get(c.id) ?? 0,
      }))
      .filter((c) => includeEmpty || c.live_listings > 0);
    const node: CategoryNode = {
      slug: p.slug,
      name: p.name,
      description: p.description,
      live_listings: counts.rolled.get(p.id) ?? 0,
      subcategories: subs,
    };
    if (includeEmpty || node.live_listings > 0) out.push(node);
  }
  return out;
}

/** The ids of a category and all its descendants. */
export function categoryAndDescendants(tree: CategoriesNow, id: number): number[] {
  const ids = [id];
  for (let i = 0; i < ids.length; i++)
    for (const c of tree.children.get(ids[i]) ?? []) if (!ids.includes(c.id)) ids.push(c.id);
  return ids;
}

/** Live listings whose primary category or one of whose extra categories is among `ids`. */
function inCategories<Q extends { where: (...args: never[]) => unknown }>(q: Q, db: Kysely<DB>, ids: number[]): Q {
  return (q as unknown as ReturnType<typeof summaryQuery>)
    .where('l.status', '=', 'live')
    .where((eb) =>
      eb.or([eb('l.primary_category_id', 'in', ids), eb('l.id', 'in', extraMembers(db, ids))]),
    ) as unknown as Q;
}

/**
 * The listings that have one of `ids` as an extra (not primary) category. `is_primary = false` is a
 * literal, not a parameter: PostgreSQL plans our statements generically (plan_cache_mode,
 * store/connect.ts), and with the flag as a parameter it could not know that extra categories are a few
 * rows among 100,000 primary ones, so it walked every live listing in vote order (0.5–0.8 s a category
 * page at 100,000 listings; 0.1 ms with the literal).
 */
function extraMembers(db: Kysely<DB>, ids: number[]) {
  return db
    .selectFrom('listing_categories as lc')
    .select('lc.listing_id')
    .where('lc.is_primary', '=', sql.lit(false) as never)
    .where('lc.category_id', 'in', ids);
}

type Ranked = { id: number; votes_count: number; launched_at: string | null };

/** Most voted first, then the earlier launch (none last), then the id: the order of a category's listings. */
function byVotes(a: Ranked, b: Ranked): number {
  return (
    Number(b.votes_count) - Number(a.votes_count) ||
    (a.launched_at === null ? 1 : 0) - (b.launched_at === null ? 1 : 0) ||
    (a.launched_at ?? '').localeCompare(b.launched_at ?? '') ||
    a.id - b.id
  );
}

/**
 * A category's live listings (its subcategories' included), most voted first (then the earlier launch,
 * then id).
 *
 * The cost does not grow with the directory: each category's first `offset + limit` listings are read
 * from the (status, primary_category_id, votes_count, launched_at) index, which stops after them, the
 * extra categories (a paid add-on, few) by their own index, all in one statement, and the lists merged
 * here. The total is the tree's count (`tree.counts`: counted once per change of membership).
 */
export async function liveListingsInCategory(
  db: Kysely<DB>,
  tree: CategoriesNow,
  id: number,
  limit: number,
  offset: number,
): Promise<{ items: ListingSummary[]; total: number }> {
  const ids = categoryAndDescendants(tree, id);
  const want = offset + limit;
  const ranked = (q: ReturnType<typeof rankedQuery>) =>
    q
      .orderBy('l.votes_count', 'desc')
      .orderBy(nullsLast(sql`l.launched_at`))
      .orderBy('l.launched_at', 'asc')
      .orderBy('l.id', 'asc')
      .limit(want);
  const rankedQuery = () =>
    db.selectFrom('listings as l').select(['l.id', 'l.votes_count', 'l.launched_at']).where('l.status', '=', 'live');
  const lists = [
    ...ids.map((c) => ranked(rankedQuery().where('l.primary_category_id', '=', c))),
    ranked(rankedQuery().where('l.id', 'in', extraMembers(db, ids))),
  ].map((q, i) => db.selectFrom(q.as(`r${i}`)).selectAll());
  const [rows, total] = await Promise.all([
    lists
      .slice(1)
      .reduce((u, q) => u.unionAll(q), lists[0])
      .execute(),
    totalIn(db, tree, id, ids),
  ]);
  const seen = new Set<number>();
  const merged: Ranked[] = [];
  for (const r of rows)
    if (!seen.has(r.id)) {
      seen.add(r.id);
      merged.push({ id: r.id, votes_count: num(r.votes_count), launched_at: r.launched_at });
    }
  const page = merged.sort(byVotes).slice(offset, want);
  const summaries = await summariesByIds(
    db,
    page.map((r) => r.id),
  );
  return {
    items: page.map((r) => summaries.get(r.id)).filter((x): x is ListingSummary => x !== undefined),
    total,
  };
}

/**
 * How many live listings are in a category or its subcategories, each once: its own count for a category
 * without subcategories, the tree's rolled-up count (its whole subtree) for a top-level one; counted (once
 * per change of membership) for a subcategory with subcategories of its own, which the counts do not cover.
 */
async function totalIn(db: Kysely<DB>, tree: CategoriesNow, id: number, ids: number[]): Promise<number> {
  if (ids.length === 1) return tree.counts.direct.get(id) ?? 0;
  if (tree.byId.get(id)?.parent_id === null) return tree.counts.rolled.get(id) ?? 0;
  return keptAt(db, `membership category-total ${ids.join(',')}`, tree.stamp, async () =>
    num(
      (
        await inCategories(
          db.selectFrom('listings as l').select((eb) => eb.fn.countAll<number>().as('n')),
          db,
          ids,
        ).executeTakeFirstOrThrow()
      ).n,
    ),
  );
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
