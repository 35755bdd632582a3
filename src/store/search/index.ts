// The search module: one entry point for search_listings on both engines. The typo rule and the
// AND/OR semantics live in plan.ts (engine-free); this file only turns the plan into each engine's
// native full-text query (FTS5 MATCH ranked by bm25 on SQLite; tsvector @@ tsquery ranked by ts_rank
// on PostgreSQL) plus the shared filters and sorts.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Engine } from '../connect.ts';
import { preparedArrays } from '../prepared.ts';
import { sqliteAdapterOf } from '../sqlite.ts';
import type { DB } from '../types.ts';
import { SUMMARY_SELECT, viewsOrderFrom, type SummaryRow } from '../repos/summary.ts';
import { hoursSince, nullsLast, num } from '../repos/sql-helpers.ts';
import { normaliseDomain } from '../../domain/urls.ts';
import { mondayOf } from '../../domain/weeks.ts';
import { TRENDING_HALF_LIFE_HOURS, TRENDING_WINDOW_DAYS } from '../../domain/ranking.ts';
import { tokenize } from './tokenize.ts';
import { planQuery, toFts5, toTsquery, type WordPlan } from './plan.ts';
import { searchIndex } from './feed.ts';
import type { MemorySearchIndex } from './memory-index.ts';
import type { ListingStatus } from '../../domain/vocabulary.ts';

export { tokenize } from './tokenize.ts';
export { planQuery, type WordPlan } from './plan.ts';
export { searchIndex, forgetSearchIndex } from './feed.ts';

export const SEARCH_SORTS = ['relevance', 'newest', 'votes', 'trending', 'most_viewed', 'most_followed'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** Field weights: name ≫ tagline = keywords ≫ description (PostgreSQL labels A, B, B, C with ts_rank's 1 : 0.4 : 0.2). */
const BM25 = sql.raw('bm25(listings_fts, 5.0, 2.0, 1.0, 2.0)');
const EMPTY = sql``;
/** A search row: the summary (SUMMARY_SELECT, `l` joined to `pc`) plus views and followers (SUMMARY_JOINS). */
const SEARCH_COLUMNS_SQL = [...SUMMARY_SELECT, 'vt.views as views_count', 'l.followers_count'].join(', ');
/** A listing's views live in listing_view_totals (migration 100), one row per listing. */
const VIEWS_JOIN_SQL = ' inner join listing_view_totals as vt on vt.listing_id = l.id';
const CATEGORY_JOIN_SQL = ' left join categories as pc on pc.id = l.primary_category_id';
const SEARCH_COLUMNS = sql.raw(SEARCH_COLUMNS_SQL);
const VIEWS_JOIN = sql.raw(VIEWS_JOIN_SQL);
const CATEGORY_JOIN = sql.raw(CATEGORY_JOIN_SQL);
const SUMMARY_JOINS = sql.raw(CATEGORY_JOIN_SQL + VIEWS_JOIN_SQL);

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

// The queries are written as SQL fragments (sql``) rather than with the query builder: building and
// compiling a builder query costs more than the smaller searches themselves.
type Frag = RawBuilder<unknown>;

export async function searchListings(db: Kysely<DB>, engine: Engine, input: SearchInput): Promise<SearchResult> {
  const words = tokenize(input.q ?? '', engine);
  if (!words.length) return searchDatabase(db, engine, input, []);
  // The words are corrected against the in-memory index's dictionary (feed.ts keeps it current), so
  // both engines plan alike; the common search is also ranked there, the rest by the database.
  const index = await searchIndex(db, engine);
  const plan = planQuery(words, index.dictionary(), { lastIsPrefix: !/\s$/.test(input.q ?? '') });
  if (rankedInMemory(input)) {
    const { ids, total } = index.rank(plan, input.offset, input.limit);
    return { rows: await heldSummaries(db, engine, index, ids), total, plan };
  }
  return searchDatabase(db, engine, input, plan);
}

/** Sorted by relevance among live listings with no other filter: the in-memory index holds all it needs. */
function rankedInMemory(input: SearchInput): boolean {
  return (
    (input.sort ?? 'relevance') === 'relevance' &&
    (input.status ?? 'live') === 'live' &&
    input.category === undefined &&
    input.stage === undefined &&
    input.country === undefined &&
    input.pricing_model === undefined &&
    input.domain === undefined
  );
}

/** A search row as an array, in SEARCH_COLUMNS_SQL's order (SUMMARY_SELECT, then views and followers). */
type SearchTuple = [
  number,
  string,
  string,
  string,
  string | null,
  string | null,
  number,
  ListingStatus,
  string | null,
  string | null,
  string | null,
  string | null,
  number,
  number,
];
const fromTuple = (r: SearchTuple): SearchRow => ({
  id: r[0],
  slug: r[1],
  name: r[2],
  url: r[3],
  tagline: r[4],
  logo_url: r[5],
  votes_count: r[6],
  status: r[7],
  launch_week: r[8],
  launched_at: r[9],
  primary_category_slug: r[10],
  primary_category_name: r[11],
  views_count: r[12],
  followers_count: r[13],
});

/** SQLite: the summaries of a page of n listing ids, one statement text per page size (cached by the connection). */
const SQLITE_SUMMARIES: string[] = [];
const sqliteSummaries = (n: number) =>
  (SQLITE_SUMMARIES[n] ??=
    `select ${SEARCH_COLUMNS_SQL} from listings as l${CATEGORY_JOIN_SQL}${VIEWS_JOIN_SQL} where l.id in (${'?, '.repeat(n - 1)}?)`);

/** PostgreSQL: the views and primary category of a page of listings held by the index (heldSummaries). */
const PG_PAGE_EXTRAS = `select k.id, vt.views, c.slug, c.name from unnest($1::int[], $2::int[]) as k(id, cat)
  left join listing_view_totals as vt on vt.listing_id = k.id left join categories as c on c.id = k.cat`;
/** SQLite: the same for a page of n listings, one statement text per page size (cached by the connection). */
const SQLITE_PAGE_EXTRAS: string[] = [];
const sqlitePageExtras = (n: number) =>
  (SQLITE_PAGE_EXTRAS[n] ??= `with k(id, cat) as (values ${'(?, ?), '.repeat(n - 1)}(?, ?))
  select k.id, vt.views, c.slug, c.name from k left join listing_view_totals as vt on vt.listing_id = k.id left join categories as c on c.id = k.cat`);
type ExtrasTuple = [id: number, views: number | null, category_slug: string | null, category_name: string | null];

/** PostgreSQL: the page extras asked for in this turn of the event loop, read by one statement. */
const extrasBatches = new WeakMap<
  Kysely<DB>,
  {
    ids: number[];
    cats: number[];
    waiting: Array<{ resolve: (rows: ExtrasTuple[]) => void; reject: (e: unknown) => void }>;
  }
>();

/**
 * The views and categories of these listings. The searches that rank in the same turn (under load,
 * those that waited for the same feed poll) share one statement: a round trip and a statement in
 * PostgreSQL per group of searches, not per search. Each gets all the group's rows (a Map picks its own).
 */
function pgPageExtras(db: Kysely<DB>, ids: number[], cats: number[]): Promise<ExtrasTuple[]> {
  let batch = extrasBatches.get(db);
  if (!batch) {
    const b = {
      ids: [] as number[],
      cats: [] as number[],
      waiting: [] as Array<{ resolve: (rows: ExtrasTuple[]) => void; reject: (e: unknown) => void }>,
    };
    extrasBatches.set(db, (batch = b));
    setImmediate(() => {
      extrasBatches.delete(db);
      preparedArrays<ExtrasTuple>(db, 'll_search_page_extras', PG_PAGE_EXTRAS, [b.ids, b.cats]).then(
        (rows) => {
          for (const w of b.waiting) w.resolve(rows);
        },
        (e: unknown) => {
          for (const w of b.waiting) w.reject(e);
        },
      );
    });
  }
  batch.ids.push(...ids);
  batch.cats.push(...cats);
  return new Promise((resolve, reject) => batch.waiting.push({ resolve, reject }));
}

/**
 * The summaries of a page the index ranked, in its order, from what the index holds (kept current by
 * the feed before every search, so as fresh as a read of the listings); only what changes without the
 * listing is read: its views (listing_view_totals) and its primary category's slug and name. Two
 * narrow tables, by key: no wide listing row per result.
 */
async function heldSummaries(
  db: Kysely<DB>,
  engine: Engine,
  index: MemorySearchIndex,
  ids: number[],
): Promise<SearchRow[]> {
  if (!ids.length) return [];
  const held = index.summaries(ids).filter((h) => h !== undefined);
  if (!held.length) return [];
  const cats = held.map((h) => h.primary_category_id ?? 0);
  const pageIds = held.map((h) => h.id);
  const direct = engine === 'sqlite' ? sqliteAdapterOf(db) : undefined;
  const extras =
    engine === 'postgres'
      ? await pgPageExtras(db, pageIds, cats)
      : direct
        ? (direct
            .arrays(sqlitePageExtras(held.length))
            .all(...held.flatMap((h, i) => [h.id, cats[i]])) as unknown as ExtrasTuple[])
        : (
            await sql<{
              id: number;
              views: number | null;
              slug: string | null;
              name: string | null;
            }>`with k(id, cat) as (values ${sql.join(held.map((h, i) => sql`(${h.id}, ${cats[i]})`))})
          select k.id, vt.views, c.slug, c.name from k left join listing_view_totals as vt on vt.listing_id = k.id left join categories as c on c.id = k.cat`.execute(
              db,
            )
          ).rows.map((r): ExtrasTuple => [r.id, r.views, r.slug, r.name]);
  const byId = new Map(extras.map((e) => [Number(e[0]), e]));
  return held.map((h) => {
    const e = byId.get(h.id);
    return {
      id: h.id,
      slug: h.slug,
      name: h.name,
      url: h.url,
      tagline: h.tagline,
      logo_url: h.logo_url,
      votes_count: h.votes_count,
      status: 'live',
      launch_week: h.launch_week,
      launched_at: h.launched_at,
      primary_category_slug: e?.[2] ?? null,
      primary_category_name: e?.[3] ?? null,
      views_count: Number(e?.[1] ?? 0),
      followers_count: h.followers_count,
    };
  });
}

/**
 * SQLite: the summaries of a page of the SQL path (filters, other sorts), in this order (one missing,
 * deleted meanwhile, is left out). PostgreSQL's page query reads them itself.
 */
async function summaries(db: Kysely<DB>, ids: number[]): Promise<SearchRow[]> {
  if (!ids.length) return [];
  // The connection's cached statement, run directly: compiling the query through Kysely cost ~20 µs
  // of a search's ~300 (a page of 20 ids), the rows themselves ~100. Its rows come as arrays
  // (SearchTuple), ~15 µs less a page than node:sqlite building the objects.
  const direct = sqliteAdapterOf(db);
  const found = direct
    ? (direct.arrays(sqliteSummaries(ids.length)).all(...ids) as unknown as SearchTuple[]).map(fromTuple)
    : (
        await sql<SearchRow>`select ${SEARCH_COLUMNS} from listings as l${SUMMARY_JOINS} where l.id in (${sql.join(ids)})`.execute(
          db,
        )
      ).rows;
  const byId = new Map(found.map((r) => [Number(r.id), r]));
  const rows: SearchRow[] = [];
  for (const id of ids) {
    const r = byId.get(id);
    if (r) rows.push(r);
  }
  return rows;
}

/** The search for this plan in the database: filters, every sort, and browsing (an empty plan). Exported for the tests that hold the two paths to the same answers. */
export async function searchDatabase(
  db: Kysely<DB>,
  engine: Engine,
  input: SearchInput,
  plan: WordPlan[],
): Promise<SearchResult> {
  const now = input.now ?? new Date();
  const sort = input.sort ?? 'relevance';
  const categoryIds = input.category ? await categoryWithDescendants(db, input.category) : null;
  let domains: string[] | null = null;
  if (input.domain !== undefined) {
    const host = normaliseDomain(input.domain);
    if (!host)
      throw new SearchInputError('domain', 'must be a website address such as example.com or https://www.example.com/');
    domains = parentDomains(host);
  }

  // The filters, ANDed.
  const conds: Frag[] = [];
  // The full-text part: a join (SQLite, which gives bm25) or a predicate (PostgreSQL).
  let rank: Frag | null = null;
  let ftsJoin: (withRank: boolean) => Frag = () => EMPTY;
  if (plan.length) {
    if (engine === 'sqlite') {
      const match = toFts5(plan);
      ftsJoin = (withRank) =>
        withRank
          ? sql` inner join (SELECT rowid AS id, ${BM25} AS rank FROM listings_fts WHERE listings_fts MATCH ${match}) as f on f.id = l.id`
          : sql` inner join (SELECT rowid AS id FROM listings_fts WHERE listings_fts MATCH ${match}) as f on f.id = l.id`;
      rank = sql`f.rank`;
    } else {
      const tsquery = toTsquery(plan);
      conds.push(sql`l.search @@ to_tsquery('simple', ${tsquery})`);
      rank = sql`-ts_rank(l.search, to_tsquery('simple', ${tsquery}), 1)`;
    }
  }
  if ((input.status ?? 'live') === 'live') conds.push(sql`l.status = ${'live'}`);
  else conds.push(sql`l.status in (${'scheduled'}, ${'awaiting_badge'})`, sql`l.launch_week > ${mondayOf(now)}`);
  if (categoryIds) {
    // Any of its categories (listing_categories), with listings.primary_category_id as a safety net.
    const ids = sql.join(categoryIds);
    conds.push(
      sql`(l.primary_category_id in (${ids}) or l.id in (select lc.listing_id from listing_categories as lc where lc.category_id in (${ids})))`,
    );
  }
  if (input.stage) conds.push(sql`lower(l.stage) = ${input.stage.toLowerCase()}`);
  if (input.country) conds.push(sql`upper(l.country) = ${input.country.toUpperCase()}`);
  if (input.pricing_model) conds.push(sql`lower(l.pricing_model) = ${input.pricing_model.toLowerCase()}`);
  if (domains) conds.push(sql`l.domain in (${sql.join(domains)})`);
  const where = sql.join(conds, sql` and `);

  // Order: the chosen sort, then relevance (when searching), then more votes, then the lower id.
  const order: Frag[] = [];
  let trending: Frag = EMPTY;
  switch (sort) {
    case 'relevance':
      if (rank) order.push(rank);
      break;
    case 'newest':
      order.push(nullsLast(sql`l.launched_at`), sql`l.launched_at desc`);
      break;
    case 'votes':
      order.push(sql`l.votes_count desc`);
      break;
    case 'trending':
      trending = sql` left join ${trendingScores(db, engine, now)} on ts.listing_id = l.id`;
      order.push(sql`coalesce(ts.score, 0) desc`);
      break;
    case 'most_viewed':
      order.push(sql`vt.views desc`);
      break;
    case 'most_followed':
      order.push(sql`l.followers_count desc`);
      break;
  }
  if (rank && sort !== 'relevance') order.push(rank);
  order.push(sql`l.votes_count desc`, sql`l.id asc`);
  // Browsing the most viewed live listings with no filter walks the views index (see viewsOrderFrom).
  const byViewsIndex =
    sort === 'most_viewed' && !plan.length && conds.length === 1 && (input.status ?? 'live') === 'live';
  const from = byViewsIndex ? viewsOrderFrom(engine) : sql`listings as l${ftsJoin(true)}`;
  const pageOf = (columns: Frag, joins: Frag) =>
    sql`select ${columns} from ${from}${joins}${trending} where ${where} order by ${sql.join(order)} limit ${input.limit} offset ${input.offset}`;
  // The views are joined where the page shows them (PostgreSQL) or is ordered by them (unless they lead the from).
  const idJoins = sort === 'most_viewed' && !byViewsIndex ? VIEWS_JOIN : EMPTY;
  const countAll = async (): Promise<number> =>
    num(
      (await sql<{ n: number }>`select count(*) as n from listings as l${ftsJoin(false)} where ${where}`.execute(db))
        .rows[0]?.n,
    );

  // 1. The page. PostgreSQL reads the rows anyway (ts_rank needs the vector): there the summaries
  //    come in the same query, and the count runs at the same time on another connection. (The
  //    total from count(*) over () in the page query was tried: no faster for small result sets,
  //    twice as slow for large ones, whose window of wide rows outgrows work_mem.)
  if (engine === 'postgres') {
    const [page, total] = await Promise.all([
      pageOf(SEARCH_COLUMNS, byViewsIndex ? CATEGORY_JOIN : SUMMARY_JOINS).execute(db),
      countAll(),
    ]);
    return { rows: page.rows as SearchRow[], total, plan };
  }
  // SQLite (one statement at a time anyway): the page of ids (narrow: only the page's rows are read
  // in full), then the count, unless the page tells the total: a page that is not full ends the
  // matches (when it is empty past the start, nothing tells how far they went).
  const idRows = (await pageOf(sql`l.id`, idJoins).execute(db)).rows as Array<{ id: number }>;
  const n = idRows.length;
  const total = n < input.limit && (n > 0 || input.offset === 0) ? input.offset + n : await countAll();
  return {
    rows: await summaries(
      db,
      idRows.map((r) => Number(r.id)),
    ),
    total,
    plan,
  };
}

/** The category with this slug and all its descendants; SearchInputError when there is none. */
async function categoryWithDescendants(db: Kysely<DB>, slug: string): Promise<number[]> {
  const all = await db.selectFrom('categories').select(['id', 'slug', 'parent_id']).execute();
  const root = all.find((c) => c.slug === slug);
  if (!root)
    throw new SearchInputError(
      'category',
      `no category ${JSON.stringify(slug)} exists; list_categories gives the category slugs`,
    );
  const ids = new Set([root.id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of all)
      if (c.parent_id !== null && ids.has(c.parent_id) && !ids.has(c.id)) {
        ids.add(c.id);
        grew = true;
      }
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

/**
 * Trending score per listing (domain/ranking.ts), from the maintained sums (store/repos/votes.ts
 * recountVotes): the weighted score as of the listing's last vote, decayed to now; listings with no
 * vote in the window score nothing. No vote is read.
 */
function trendingScores(db: Kysely<DB>, engine: Engine, now: Date) {
  const cutoff = new Date(now.getTime() - TRENDING_WINDOW_DAYS * 86_400_000).toISOString();
  const age = hoursSince(engine, sql`t.last_vote_at`, now.toISOString());
  const half = sql.raw(`${Number(TRENDING_HALF_LIFE_HOURS)}.0`);
  const decay =
    engine === 'postgres'
      ? sql<number>`power(0.5::float8, greatest(${age}, 0) / ${half})`
      : sql<number>`power(0.5, max(${age}, 0) / ${half})`;
  return db
    .selectFrom('listing_vote_totals as t')
    .select(['t.listing_id', sql<number>`(t.trend * ${decay})`.as('score')])
    .where('t.last_vote_at', '>=', cutoff)
    .as('ts');
}
