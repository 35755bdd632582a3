// The search module: one entry point for search_listings on both engines. The typo rule and the
// AND/OR semantics live in plan.ts (engine-free); this file only turns the plan into each engine's
// native full-text query (FTS5 MATCH ranked by bm25 on SQLite; tsvector @@ tsquery ranked by ts_rank
// on PostgreSQL) plus the shared filters and sorts.
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Engine } from '../connect.ts';
import type { DB } from '../types.ts';
import { SUMMARY_SELECT, type SummaryRow } from '../repos/summary.ts';
import { hoursSince, nullsLast, num } from '../repos/sql-helpers.ts';
import { normaliseDomain } from '../../domain/urls.ts';
import { mondayOf } from '../../domain/weeks.ts';
import { TRENDING_HALF_LIFE_HOURS, TRENDING_WINDOW_DAYS } from '../../domain/ranking.ts';
import { tokenize } from './tokenize.ts';
import { planQuery, toFts5, toTsquery, type WordPlan } from './plan.ts';
import { termDictionary } from './terms.ts';

export { tokenize } from './tokenize.ts';
export { planQuery, type WordPlan } from './plan.ts';
export { termDictionary, forgetTermDictionary } from './terms.ts';

export const SEARCH_SORTS = ['relevance', 'newest', 'votes', 'trending', 'most_viewed', 'most_followed'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** Field weights: name ≫ tagline = keywords ≫ description (PostgreSQL labels A, B, B, C with ts_rank's 1 : 0.4 : 0.2). */
const BM25 = sql.raw('bm25(listings_fts, 5.0, 2.0, 1.0, 2.0)');

export interface SearchInput {
  q?: string;
  /** Category slug; its subcategories are included. */
  category?: string;
  stage?: string;
  /** Two letters, any case. */
  country?: string;
  /** Any case. */
  pricing_model?: string;
  /** Any form of a website address: https://www.x.com/path, x.com … */
  domain?: string;
  status?: 'live' | 'upcoming';
  sort?: SearchSort;
  limit: number;
  offset: number;
  now?: Date;
}

export type SearchRow = SummaryRow & { views_count: number; followers_count: number };

export interface SearchResult {
  rows: SearchRow[];
  total: number;
  /** The words searched for and what each matched (empty when browsing). */
  plan: WordPlan[];
}

/** Raised for a filter value that cannot match anything by construction (unknown category, not a website). */
export class SearchInputError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

type Q = SelectQueryBuilder<any, any, any>;

export async function searchListings(db: Kysely<DB>, engine: Engine, input: SearchInput): Promise<SearchResult> {
  const now = input.now ?? new Date();
  const sort = input.sort ?? 'relevance';
  const words = tokenize(input.q ?? '', engine);
  const plan = words.length ? planQuery(words, await termDictionary(db, engine), { lastIsPrefix: !/\s$/.test(input.q ?? '') }) : [];
  const categoryIds = input.category ? await categoryWithDescendants(db, input.category) : null;
  let domains: string[] | null = null;
  if (input.domain !== undefined) {
    const host = normaliseDomain(input.domain);
    if (!host) throw new SearchInputError('domain', 'must be a website address such as example.com or https://www.example.com/');
    domains = parentDomains(host);
  }

  const filters = (q: Q): Q => {
    if ((input.status ?? 'live') === 'live') q = q.where('l.status', '=', 'live');
    else q = q.where('l.status', 'in', ['scheduled', 'awaiting_badge']).where('l.launch_week', '>', mondayOf(now));
    if (categoryIds) {
      // Any of its categories (listing_categories), with listings.primary_category_id as a safety net.
      q = q.where((eb: any) => eb.or([
        eb('l.primary_category_id', 'in', categoryIds),
        eb('l.id', 'in', eb.selectFrom('listing_categories as lc').select('lc.listing_id').where('lc.category_id', 'in', categoryIds)),
      ]));
    }
    if (input.stage) q = q.where(sql`lower(l.stage)`, '=', input.stage.toLowerCase());
    if (input.country) q = q.where(sql`upper(l.country)`, '=', input.country.toUpperCase());
    if (input.pricing_model) q = q.where(sql`lower(l.pricing_model)`, '=', input.pricing_model.toLowerCase());
    if (domains) q = q.where('l.domain', 'in', domains);
    return q;
  };

  // The full-text part: a join (SQLite, which gives bm25) or a predicate (PostgreSQL).
  let rank: RawBuilder<number> | null = null;
  const matching = (q: Q, withRank: boolean): Q => {
    if (!plan.length) return q;
    if (engine === 'sqlite') {
      const match = toFts5(plan);
      const fts = withRank
        ? sql`(SELECT rowid AS id, ${BM25} AS rank FROM listings_fts WHERE listings_fts MATCH ${match})`
        : sql`(SELECT rowid AS id FROM listings_fts WHERE listings_fts MATCH ${match})`;
      return q.innerJoin(fts.as('f'), (j: any) => j.onRef('f.id', '=', 'l.id'));
    }
    return q.where(sql<boolean>`l.search @@ to_tsquery('simple', ${toTsquery(plan)})`);
  };
  if (plan.length) rank = engine === 'sqlite' ? sql<number>`f.rank` : sql<number>`-ts_rank(l.search, to_tsquery('simple', ${toTsquery(plan)}), 1)`;

  // 1. The page of ids, ordered (narrow: on SQLite the covering index answers filters and sorts,
  //    and only the page's rows are read in full). PostgreSQL reads the rows anyway (ts_rank needs
  //    the vector): there the summaries come in the same query, one round trip fewer.
  const oneQuery = engine === 'postgres';
  let idsQ: Q = filters(matching((db as Kysely<any>).selectFrom('listings as l'), true));
  idsQ = oneQuery
    ? idsQ.leftJoin('categories as pc', 'pc.id', 'l.primary_category_id').select([...SUMMARY_SELECT, 'l.views_count', 'l.followers_count'])
    : idsQ.select('l.id');
  // Order: the chosen sort, then relevance (when searching), then more votes, then the lower id.
  switch (sort) {
    case 'relevance':
      if (rank) idsQ = idsQ.orderBy(rank);
      break;
    case 'newest':
      idsQ = idsQ.orderBy(nullsLast(sql`l.launched_at`)).orderBy('l.launched_at', 'desc');
      break;
    case 'votes':
      idsQ = idsQ.orderBy('l.votes_count', 'desc');
      break;
    case 'trending':
      idsQ = idsQ.leftJoin(trendingScores(db, engine, now), (j: any) => j.onRef('ts.listing_id', '=', 'l.id')).orderBy(sql`coalesce(ts.score, 0)`, 'desc');
      break;
    case 'most_viewed':
      idsQ = idsQ.orderBy('l.views_count', 'desc');
      break;
    case 'most_followed':
      idsQ = idsQ.orderBy('l.followers_count', 'desc');
      break;
  }
  if (rank && sort !== 'relevance') idsQ = idsQ.orderBy(rank);
  idsQ = idsQ.orderBy('l.votes_count', 'desc').orderBy('l.id', 'asc').limit(input.limit).offset(input.offset);
  const countQ = filters(matching((db as Kysely<any>).selectFrom('listings as l'), false)).select(sql<number>`count(*)`.as('n'));

  const [idRows, count] = await Promise.all([idsQ.execute(), countQ.executeTakeFirst()]);
  if (oneQuery) return { rows: idRows as SearchRow[], total: num(count?.n), plan };
  const ids = idRows.map((r: { id: number }) => Number(r.id));
  // 2. Their summaries.
  const rows: SearchRow[] = [];
  if (ids.length) {
    const found = await (db as Kysely<any>).selectFrom('listings as l').leftJoin('categories as pc', 'pc.id', 'l.primary_category_id')
      .select([...SUMMARY_SELECT, 'l.views_count', 'l.followers_count']).where('l.id', 'in', ids).execute();
    const byId = new Map(found.map((r: SearchRow) => [Number(r.id), r]));
    for (const id of ids) {
      const r = byId.get(id);
      if (r) rows.push(r);
    }
  }
  return { rows, total: num(count?.n), plan };
}

/** The category with this slug and all its descendants; SearchInputError when there is none. */
async function categoryWithDescendants(db: Kysely<DB>, slug: string): Promise<number[]> {
  const all = await db.selectFrom('categories').select(['id', 'slug', 'parent_id']).execute();
  const root = all.find((c) => c.slug === slug);
  if (!root) throw new SearchInputError('category', `no category ${JSON.stringify(slug)} exists; list_categories gives the category slugs`);
  const ids = new Set([root.id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of all) if (c.parent_id !== null && ids.has(c.parent_id) && !ids.has(c.id)) { ids.add(c.id); grew = true; }
  }
  return [...ids];
}

/** app.example.co.uk → [app.example.co.uk, example.co.uk, co.uk]: a listing's site may be a parent of the address given. */
function parentDomains(host: string): string[] {
  const labels = host.split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'));
  return out;
}

/** Trending score per listing (domain/ranking.ts): Σ 0.5^(vote age in hours / half-life) over the votes of the window. */
function trendingScores(db: Kysely<DB>, engine: Engine, now: Date) {
  const nowIso = now.toISOString();
  const cutoff = new Date(now.getTime() - TRENDING_WINDOW_DAYS * 86_400_000).toISOString();
  const age = hoursSince(engine, sql`v.created_at`, nowIso);
  const half = sql.raw(`${Number(TRENDING_HALF_LIFE_HOURS)}.0`);
  const weight = engine === 'postgres'
    ? sql<number>`power(0.5::float8, greatest(${age}, 0) / ${half})`
    : sql<number>`power(0.5, max(${age}, 0) / ${half})`;
  return db.selectFrom('votes as v')
    .select(['v.listing_id', sql<number>`sum(${weight})`.as('score')])
    .where('v.created_at', '>=', cutoff).where('v.created_at', '<=', nowIso)
    .groupBy('v.listing_id')
    .as('ts');
}
