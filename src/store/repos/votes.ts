// Community votes and follows, cast only by signed-in people on the website (there is no voting
// through the API). One vote and one follow per person per listing (votes: unique (listing_id,
// user_id); follows: primary key (listing_id, user_id)). Votes are timestamped, so weekly rankings
// count the votes cast in a week. listings.votes_count / followers_count move by the rows the change
// inserted or deleted, in the same transaction, with the listing row locked on PostgreSQL (SQLite has one
// writer), so concurrent votes never lose an update.
//
// Each vote also keeps its context and its weight (domain/vote-weight.ts, migration 190), and the
// same transaction keeps the listing's sums (listing_vote_totals, listing_week_votes) that the rankings
// read: a vote cast is added to them (addedVoteSums; add_vote_sums() on PostgreSQL, migration 290), a
// vote taken back recounts them (recountVotes()'s arithmetic, voteSums). A change of weights (detection,
// an admin's decision) goes through reweighVotes(), which recounts the listings it touched.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../types.ts';
import type { Engine } from '../connect.ts';
import { num } from './sql-helpers.ts';
import { lockRows } from '../dialect.ts';
import { sqliteAdapterOf, type NodeSqlite } from '../sqlite.ts';
import { hotRead } from '../prepared.ts';
import { mondayOf } from '../../domain/weeks.ts';
import { TRENDING_HALF_LIFE_HOURS, TRENDING_WINDOW_DAYS } from '../../domain/ranking.ts';
import { DEFAULT_VOTE_WEIGHTS, weighVote, type VoteReview, type VoteWeightSettings } from '../../domain/vote-weight.ts';

/** What the website knows about a vote as it is cast (hashes already keyed; never a raw address). */
export interface VoteCastContext {
  accountAgeHours: number;
  emailConfirmed: boolean;
  netHash: string | null;
  uaHash: string | null;
  /** ms since the page was served; null when the form carried no valid page time. */
  pageMs: number | null;
}

export interface ReactOptions {
  now?: Date;
  vote?: VoteCastContext;
  weights?: VoteWeightSettings;
}

export type Reaction = 'vote' | 'follow';
/** add: make sure it is on; remove: make sure it is off; toggle: flip it. */
export type ReactionAction = 'add' | 'remove' | 'toggle';

export type ReactionResult =
  | { status: 'ok'; slug: string; name: string; active: boolean; changed: boolean; count: number }
  | { status: 'not_found' }
  | { status: 'not_live'; slug: string; name: string; listingStatus: string };

const TABLE = { vote: 'votes', follow: 'follows' } as const;
const COUNT = { vote: 'votes_count', follow: 'followers_count' } as const;

/**
 * Votes for (or follows) a live listing on behalf of a person, or takes the vote back, in one
 * transaction. Only live listings can be voted on or followed.
 */
export function react(
  db: Kysely<DB>,
  engine: Engine,
  kind: Reaction,
  slug: string,
  userId: number,
  action: ReactionAction,
  opts: ReactOptions = {},
): Promise<ReactionResult> {
  // a reaction is its own transaction (with those it arrives with): never part of a caller's
  if (db.isTransaction) return Promise.reject(new Error('react() runs in its own transaction, not in a caller’s'));
  const one: Pending = { kind, slug, userId, action, opts, resolve: () => {}, reject: () => {} };
  return new Promise((resolve, reject) => {
    one.resolve = resolve;
    one.reject = reject;
    groupOf(db, engine).add(one);
  });
}

interface Pending {
  kind: Reaction;
  slug: string;
  userId: number;
  action: ReactionAction;
  opts: ReactOptions;
  resolve: (r: ReactionResult) => void;
  reject: (err: unknown) => void;
}

/** The most reactions one group writes (the writer, or the listings' rows, are held for the whole group). */
const GROUP_MAX = 64;
/** How often a reaction caught in a deadlock between two groups (two instances) is tried again. */
const RETRIES = 3;

type Outcome = { ok: ReactionResult } | { err: unknown; retry?: boolean };

/**
 * Reactions that arrive together are written in ONE transaction (a group commit), on both engines.
 *
 *   SQLite: a vote's own statements cost ~0.3 ms and its COMMIT as much again (the log frames of every
 *     page it touched: the vote, the listing's row and its indexes, the sums, the stamps); pages shared
 *     by a group's votes (the search feed's version, the stamps) are written once per group.
 *   PostgreSQL: one statement, react_listings() (migration 250), for the whole group: one round trip
 *     and one commit instead of eleven statements a vote. It takes the listings in the order of their
 *     slugs, so two groups (two instances) lock them in the same order; a reaction caught in a deadlock
 *     all the same (with another transaction) is tried again in the next group.
 *
 * Each reaction runs in a savepoint (a subtransaction), so one that fails is undone alone and its caller
 * gets its error; the others are answered only once the group's COMMIT has returned (nobody is told of
 * a vote that could still be lost). A group starts at the next turn of the event loop (setImmediate:
 * what arrived meanwhile joins it, and a lone vote waits for nothing else); reactions that arrive while
 * a group is being written form the next one.
 */
class ReactionGroup {
  readonly #db: Kysely<DB>;
  readonly #engine: Engine;
  #queue: Array<Pending & { tries?: number }> = [];
  #running = false;
  constructor(db: Kysely<DB>, engine: Engine) {
    this.#db = db;
    this.#engine = engine;
  }
  add(p: Pending): void {
    this.#queue.push(p);
    if (!this.#running && this.#queue.length === 1) setImmediate(() => void this.#run());
  }
  async #run(): Promise<void> {
    if (this.#running || !this.#queue.length) return;
    this.#running = true;
    const group = this.#queue.splice(0, GROUP_MAX);
    try {
      const out =
        this.#engine === 'postgres' ? await writePostgres(this.#db, group) : await writeSqlite(this.#db, group);
      group.forEach((p, i) => {
        const r = out[i];
        if ('ok' in r) p.resolve(r.ok);
        else if (r.retry && (p.tries = (p.tries ?? 0) + 1) < RETRIES) this.#queue.unshift(p);
        else p.reject(r.err);
      });
    } catch (err) {
      for (const p of group) p.reject(err); // the COMMIT failed: none of them was written
    } finally {
      this.#running = false;
      if (this.#queue.length) setImmediate(() => void this.#run());
    }
  }
}

/**
 * SQLite: the whole group in one synchronous run of cached statements, on the connection Kysely hands out
 * (its lock keeps any Kysely transaction off the connection meanwhile). Built through Kysely and awaited
 * statement by statement, the same reactions cost a vote about a third more of the server's time.
 */
async function writeSqlite(db: Kysely<DB>, group: readonly Pending[]): Promise<Outcome[]> {
  const direct = sqliteAdapterOf(db);
  if (!direct) throw new Error('reactions on SQLite are written through the store’s own connection');
  return db.connection().execute(async () => writeSqliteNow(direct, group));
}

/** writeSqlite() on the process's own SQLite connection: BEGIN, a savepoint per reaction, COMMIT. */
function writeSqliteNow(db: NodeSqlite, group: readonly Pending[]): Outcome[] {
  const run = (text: string, values: unknown[] = []) => db.prepare(text).run(values);
  const out: Outcome[] = [];
  run('BEGIN');
  try {
    for (const p of group) {
      run('SAVEPOINT reaction');
      try {
        out.push({ ok: reactNow(db, p) });
      } catch (err) {
        run('ROLLBACK TO reaction');
        out.push({ err });
      }
      run('RELEASE reaction');
    }
    run('COMMIT');
  } catch (err) {
    if (db.raw.isTransaction) run('ROLLBACK');
    throw err;
  }
  return out;
}

/** One reaction, inside writeSqliteNow()'s transaction: what react_listing() (migration 250) does on PostgreSQL. */
function reactNow(db: NodeSqlite, p: Pending): ReactionResult {
  const { kind, slug, userId, action, opts } = p;
  const now = opts.now ?? new Date();
  const all = <R>(text: string, values: unknown[]) => db.prepare(text).all(values) as R[];
  const l = all<{
    id: number;
    slug: string;
    name: string;
    status: string;
    votes_count: number;
    followers_count: number;
  }>('SELECT id, slug, name, status, votes_count, followers_count FROM listings WHERE slug = ?', [slug])[0];
  if (!l) return { status: 'not_found' as const };
  if (l.status !== 'live') return { status: 'not_live' as const, slug: l.slug, name: l.name, listingStatus: l.status };
  const table = TABLE[kind];
  const had = all(`SELECT 1 FROM ${table} WHERE listing_id = ? AND user_id = ?`, [l.id, userId]).length > 0;
  const want = action === 'toggle' ? !had : action === 'add';
  if (want === had)
    return {
      status: 'ok' as const,
      slug: l.slug,
      name: l.name,
      active: want,
      changed: false,
      count: num(l[COUNT[kind]]),
    };
  const vote = kind === 'vote' ? voteColumns(opts) : undefined;
  let delta: number;
  if (want) {
    const row: Record<string, unknown> = { listing_id: l.id, user_id: userId, created_at: now.toISOString(), ...vote };
    const keys = Object.keys(row);
    delta = Number(
      db
        .prepare(
          `INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')}) ON CONFLICT (listing_id, user_id) DO NOTHING`,
        )
        .run(Object.values(row)).changes,
    );
  } else {
    delta = -Number(
      db.prepare(`DELETE FROM ${table} WHERE listing_id = ? AND user_id = ?`).run([l.id, userId]).changes,
    );
  }
  // kept, not recounted: a count of the listing's rows grew with its votes (see addedVoteSums)
  const column = COUNT[kind];
  const count = num(
    all<Record<string, number>>(`UPDATE listings SET ${column} = ${column} + ? WHERE id = ? RETURNING ${column}`, [
      delta,
      l.id,
    ])[0][column],
  );
  if (vote && delta > 0) addVoteSqlite(db, l.id, { at: now.getTime(), weight: vote.weight, reason: vote.reason });
  else if (vote && delta < 0) {
    // a vote taken back (rare): the sums recounted from the listing's votes
    const sums = voteSums(
      all<{ created_at: string; weight: number; reason: string | null }>(
        'SELECT created_at, weight, reason FROM votes WHERE listing_id = ?',
        [l.id],
      ),
    );
    writeTotalsSqlite(db, l.id, sums.totals);
    db.prepare('DELETE FROM listing_week_votes WHERE listing_id = ?').run([l.id]);
    const insertWeek = db.prepare(
      'INSERT INTO listing_week_votes (listing_id, week, weighted, votes) VALUES (?, ?, ?, ?)',
    );
    for (const w of sums.weeks) insertWeek.run([l.id, w.week, w.weighted, w.votes]);
  }
  return { status: 'ok' as const, slug: l.slug, name: l.name, active: want, changed: true, count };
}

const DAY_MS = 86_400_000;
const HALF_LIFE_MS = TRENDING_HALF_LIFE_HOURS * 3_600_000;
const WINDOW_MS = TRENDING_WINDOW_DAYS * DAY_MS;

type Totals = {
  weighted: number | string;
  votes: number | string;
  discounted: number | string;
  by_reason: string;
  trend: number | string;
  last_vote_at: string | Date | null;
};

/**
 * SQLite: a vote just added to a listing, added to its sums (addedVoteSums): its totals row and its week's
 * row, each read and written by key. Recounting them from all the listing's votes made each vote cost in
 * proportion to the votes the listing already had: a launch with 3,000 votes took ~4 ms a vote.
 */
function addVoteSqlite(db: NodeSqlite, listingId: number, v: AddedVote): void {
  const prev = db
    .prepare(
      'SELECT weighted, votes, discounted, by_reason, trend, last_vote_at FROM listing_vote_totals WHERE listing_id = ?',
    )
    .all([listingId])[0] as Totals | undefined;
  const { from, to } = leavingRange(prev, v);
  // the index (listing_id, created_at) of migration 290; a day either side, then exactly (stored times are ISO text)
  const leaving =
    from < to
      ? (
          db
            .prepare('SELECT created_at, weight FROM votes WHERE listing_id = ? AND created_at >= ? AND created_at < ?')
            .all([listingId, new Date(from - DAY_MS).toISOString(), new Date(to + DAY_MS).toISOString()]) as Array<{
            created_at: string;
            weight: number;
          }>
        ).filter((x) => ms(x.created_at) >= from && ms(x.created_at) < to)
      : [];
  writeTotalsSqlite(db, listingId, addedVoteSums(prev, leaving, v));
  const monday = mondayOf(new Date(v.at));
  const week = db
    .prepare('SELECT weighted, votes FROM listing_week_votes WHERE listing_id = ? AND week = ?')
    .all([listingId, monday])[0] as { weighted: number; votes: number } | undefined;
  db.prepare(
    `INSERT INTO listing_week_votes (listing_id, week, weighted, votes) VALUES (?, ?, ?, ?)
     ON CONFLICT (listing_id, week) DO UPDATE SET weighted = excluded.weighted, votes = excluded.votes`,
  ).run([listingId, monday, round4(Number(week?.weighted ?? 0) + v.weight), Number(week?.votes ?? 0) + 1]);
}

/** SQLite: a listing's totals row, written whole (a vote added: addedVoteSums; a vote taken back: voteSums). */
function writeTotalsSqlite(db: NodeSqlite, listingId: number, t: ReturnType<typeof voteSums>['totals']): void {
  db.prepare(
    `INSERT INTO listing_vote_totals (listing_id, weighted, votes, discounted, by_reason, trend, last_vote_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (listing_id) DO UPDATE SET weighted = excluded.weighted, votes = excluded.votes, discounted = excluded.discounted,
       by_reason = excluded.by_reason, trend = excluded.trend, last_vote_at = excluded.last_vote_at`,
  ).run([listingId, t.weighted, t.votes, t.discounted, t.by_reason, t.trend, t.last_vote_at]);
}

interface AddedVote {
  /** When it was cast (ms since the epoch). */
  at: number;
  weight: number;
  reason: string | null;
}

/**
 * The votes whose part of the trending score a new vote ends (created in [from, to)): the trend counts the
 * votes at most TRENDING_WINDOW_DAYS older than the latest, so a vote later than the latest moves that
 * window on. Empty (from ≥ to) when the vote is not the latest or is the first.
 */
function leavingRange(prev: Pick<Totals, 'last_vote_at'> | undefined, v: AddedVote): { from: number; to: number } {
  const last = prev?.last_vote_at ? ms(prev.last_vote_at) : undefined;
  if (last === undefined || v.at <= last) return { from: 0, to: 0 };
  return { from: last - WINDOW_MS, to: v.at - WINDOW_MS };
}

/**
 * A listing's vote sums with one more vote, from the sums before it and the votes that leave the trend's
 * window (leavingRange): the same numbers voteSums() makes from all its votes (the trend to rounding), in
 * time independent of how many votes the listing has. migration 290's add_vote_sums() is the same on
 * PostgreSQL.
 */
function addedVoteSums(
  prev: Totals | undefined,
  leaving: ReadonlyArray<{ created_at: string | Date; weight: number | string }>,
  v: AddedVote,
) {
  const last = prev?.last_vote_at ? ms(prev.last_vote_at) : undefined;
  let trend: number;
  let latest: number;
  if (last === undefined) {
    trend = v.weight;
    latest = v.at;
  } else if (v.at >= last) {
    // the score as of the previous latest vote, less the votes leaving the window, decayed to this vote, plus it
    let kept = Number(prev?.trend ?? 0);
    for (const x of leaving) kept -= Number(x.weight) * 0.5 ** (Math.max(0, last - ms(x.created_at)) / HALF_LIFE_MS);
    trend = Math.max(0, kept) * 0.5 ** ((v.at - last) / HALF_LIFE_MS) + v.weight;
    latest = v.at;
  } else {
    // an earlier vote (votes of one moment written out of order): counted at its age, if in the window
    trend =
      Number(prev?.trend ?? 0) + (last - v.at <= WINDOW_MS ? v.weight * 0.5 ** ((last - v.at) / HALF_LIFE_MS) : 0);
    latest = last;
  }
  const byReason: Record<string, number> = JSON.parse(prev?.by_reason || '{}');
  if (v.weight < 1) {
    const r = v.reason ?? 'other';
    byReason[r] = (byReason[r] ?? 0) + 1;
  }
  return {
    weighted: round4(Number(prev?.weighted ?? 0) + v.weight),
    votes: Number(prev?.votes ?? 0) + 1,
    discounted: Number(prev?.discounted ?? 0) + (v.weight < 1 ? 1 : 0),
    by_reason: JSON.stringify(Object.fromEntries(Object.entries(byReason).sort())),
    trend,
    last_vote_at: new Date(latest).toISOString(),
  };
}

/** SQLSTATEs of a reaction that lost a race with another transaction (deadlock, serialization). */
const RETRYABLE = /^40P01|^40001/;

async function writePostgres(db: Kysely<DB>, group: readonly Pending[]): Promise<Outcome[]> {
  const items = group.map((p) => ({
    kind: p.kind,
    slug: p.slug,
    user: p.userId,
    action: p.action,
    at: (p.opts.now ?? new Date()).toISOString(),
    ...voteColumns(p.opts),
  }));
  const { rows } = await sql<{
    i: number;
    outcome: 'ok' | 'not_found' | 'not_live' | 'error';
    slug: string;
    name: string;
    status: string;
    active: boolean;
    changed: boolean;
    count: number;
    error: string | null;
  }>`SELECT * FROM react_listings(${JSON.stringify(items)}::jsonb)`.execute(db);
  const out: Outcome[] = group.map(() => ({ err: new Error('the reaction was not answered') }));
  for (const r of rows) {
    out[r.i] =
      r.outcome === 'error'
        ? { err: new Error(`the reaction failed: ${r.error}`), retry: RETRYABLE.test(r.error ?? '') }
        : {
            ok:
              r.outcome === 'not_found'
                ? { status: 'not_found' }
                : r.outcome === 'not_live'
                  ? { status: 'not_live', slug: r.slug, name: r.name, listingStatus: r.status }
                  : {
                      status: 'ok',
                      slug: r.slug,
                      name: r.name,
                      active: r.active,
                      changed: r.changed,
                      count: num(r.count),
                    },
          };
  }
  return out;
}

const groups = new WeakMap<Kysely<DB>, ReactionGroup>();
function groupOf(db: Kysely<DB>, engine: Engine): ReactionGroup {
  let g = groups.get(db);
  if (!g) groups.set(db, (g = new ReactionGroup(db, engine)));
  return g;
}

/**
 * A new vote's columns from its context: its weight, the reason it counts less, and the context kept
 * with it (none: a full vote with no context, as votes cast before weights existed).
 */
function voteColumns(opts: ReactOptions) {
  const c = opts.vote;
  if (!c) return { weight: 1, reason: null };
  const w = weighVote(
    { accountAgeHours: c.accountAgeHours, emailConfirmed: c.emailConfirmed, pageMs: c.pageMs, review: null },
    opts.weights ?? DEFAULT_VOTE_WEIGHTS,
  );
  return {
    weight: w.weight,
    reason: w.reason,
    account_age_hours: Math.round(c.accountAgeHours * 1000) / 1000,
    email_confirmed: c.emailConfirmed ? 1 : 0,
    net_hash: c.netHash,
    ua_hash: c.uaHash,
    page_ms: c.pageMs,
  };
}

/**
 * The person's votes (or follows) among the given listing slugs, as rows of the listing's slug and the
 * reaction's kind. Votes and follows share the columns read here, so one query serves both tables.
 */
function reactedAmong(db: Kysely<DB>, kind: Reaction, userId: number, slugs: readonly string[]) {
  return db
    .selectFrom(`${TABLE[kind]} as r` as 'votes as r')
    .innerJoin('listings as l', 'l.id', 'r.listing_id')
    .select([sql<Reaction>`${sql.lit(kind)}`.as('kind'), 'l.slug'])
    .where('r.user_id', '=', userId)
    .where('l.slug', 'in', slugs);
}

/** Of the given listing slugs, those the person has voted for (or follows). One query. */
export async function reactedSlugs(
  db: Kysely<DB>,
  kind: Reaction,
  userId: number,
  slugs: readonly string[],
): Promise<Set<string>> {
  const unique = [...new Set(slugs)];
  if (!unique.length) return new Set();
  const rows = await reactedAmong(db, kind, userId, unique).execute();
  return new Set(rows.map((r) => r.slug));
}

/**
 * reactionsAmong() as one cached statement (SQLite: the slugs as one JSON array) or named prepared one
 * (PostgreSQL: text arrays): a signed-in page asks on every request, and building the query, with a
 * placeholder per slug, was a third of its cost (PostgreSQL also parsed and planned it each time).
 * SQLite reads the person's votes by `votes_user` and keeps those on the page: led by the page's slugs
 * instead (a slug lookup each, whatever the person cast) it took twice the time under the signed-in loads.
 */
const REACTIONS_AMONG = {
  name: 'll_reactions_among',
  sqlite: `SELECT 'vote' AS kind, l.slug FROM votes r JOIN listings l ON l.id = r.listing_id
    WHERE r.user_id = ? AND l.slug IN (SELECT value FROM json_each(?))
  UNION ALL
  SELECT 'follow' AS kind, l.slug FROM follows r JOIN listings l ON l.id = r.listing_id
    WHERE r.user_id = ? AND l.slug IN (SELECT value FROM json_each(?))`,
  postgres: `SELECT 'vote' AS kind, l.slug FROM votes r JOIN listings l ON l.id = r.listing_id
    WHERE r.user_id = $1 AND l.slug = ANY($2::text[])
  UNION ALL
  SELECT 'follow' AS kind, l.slug FROM follows r JOIN listings l ON l.id = r.listing_id
    WHERE r.user_id = $1 AND l.slug = ANY($3::text[])`,
};

/**
 * Of the given slugs, those the person voted for and those they follow: one statement for both (a
 * signed-in listing page asks for its votes and its follow; on PostgreSQL each statement is a round trip).
 */
export async function reactionsAmong(
  db: Kysely<DB>,
  userId: number,
  voteSlugs: readonly string[],
  followSlugs: readonly string[],
): Promise<{ voted: Set<string>; following: Set<string> }> {
  const votes = [...new Set(voteSlugs)];
  const follows = [...new Set(followSlugs)];
  const out = { voted: new Set<string>(), following: new Set<string>() };
  if (!votes.length && !follows.length) return out;
  const sqlite = sqliteAdapterOf(db) !== undefined;
  const hot = await hotRead<{ kind: Reaction; slug: string }>(
    db,
    REACTIONS_AMONG,
    sqlite ? [userId, JSON.stringify(votes), userId, JSON.stringify(follows)] : [userId, votes, follows],
  );
  if (hot) {
    for (const r of hot) (r.kind === 'vote' ? out.voted : out.following).add(r.slug);
    return out;
  }
  const queries = [
    ...(votes.length ? [reactedAmong(db, 'vote', userId, votes)] : []),
    ...(follows.length ? [reactedAmong(db, 'follow', userId, follows)] : []),
  ];
  const rows = await queries.reduce((a, b) => a.unionAll(b)).execute();
  for (const r of rows) (r.kind === 'vote' ? out.voted : out.following).add(r.slug);
  return out;
}

// ---------------------------------------------------------------- weighted sums

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const ms = (t: string | Date) => (typeof t === 'string' ? Date.parse(t) : t.getTime());

/**
 * Rewrites one listing's maintained vote sums from its votes: the all-time weighted total, the
 * discounted votes by reason, the trending score as of its last vote, and its per-week sums. Runs in
 * the transaction that changed a vote or a weight (a write reads the listing's votes; reads never do).
 */
export async function recountVotes(trx: Kysely<DB>, listingId: number): Promise<void> {
  const votes = await trx
    .selectFrom('votes')
    .select(['created_at', 'weight', 'reason'])
    .where('listing_id', '=', listingId)
    .execute();
  const { totals: row, weeks } = voteSums(votes);
  await trx
    .insertInto('listing_vote_totals')
    .values({ listing_id: listingId, ...row })
    .onConflict((oc) => oc.column('listing_id').doUpdateSet(row))
    .execute();
  await trx.deleteFrom('listing_week_votes').where('listing_id', '=', listingId).execute();
  if (weeks.length)
    await trx
      .insertInto('listing_week_votes')
      .values(weeks.map((w) => ({ listing_id: listingId, ...w })))
      .execute();
}

/**
 * A listing's maintained vote sums, from its votes: the all-time weighted total, the discounted votes by
 * reason, the trending score as of its last vote, and its per-week sums.
 */
function voteSums(votes: ReadonlyArray<{ created_at: string | Date; weight: number | string; reason: string | null }>) {
  let weighted = 0;
  let discounted = 0;
  let last = Number.NEGATIVE_INFINITY;
  const byReason: Record<string, number> = {};
  const weeks = new Map<string, { weighted: number; votes: number }>();
  for (const v of votes) {
    const w = Number(v.weight);
    weighted += w;
    if (w < 1) {
      discounted++;
      const r = v.reason ?? 'other';
      byReason[r] = (byReason[r] ?? 0) + 1;
    }
    const t = ms(v.created_at);
    if (t > last) last = t;
    const week = mondayOf(new Date(t));
    const e = weeks.get(week) ?? { weighted: 0, votes: 0 };
    e.weighted += w;
    e.votes++;
    weeks.set(week, e);
  }
  let trend = 0;
  for (const v of votes) {
    const ageH = (last - ms(v.created_at)) / 3_600_000;
    if (ageH > TRENDING_WINDOW_DAYS * 24) continue;
    trend += Number(v.weight) * 0.5 ** (Math.max(0, ageH) / TRENDING_HALF_LIFE_HOURS);
  }
  return {
    totals: {
      weighted: round4(weighted),
      votes: votes.length,
      discounted,
      by_reason: JSON.stringify(Object.fromEntries(Object.entries(byReason).sort())),
      trend,
      last_vote_at: votes.length ? new Date(last).toISOString() : null,
    },
    weeks: [...weeks].map(([week, e]) => ({ week, weighted: round4(e.weighted), votes: e.votes })),
  };
}

/** Recounts every listing that has votes or sums (after a bulk load such as the demo seed). */
export async function recountAllVotes(db: Kysely<DB>): Promise<void> {
  const ids = await db
    .selectFrom('votes')
    .select('listing_id')
    .distinct()
    .union(db.selectFrom('listing_vote_totals').select('listing_id'))
    .execute();
  for (let i = 0; i < ids.length; i += 200) {
    const chunk = ids.slice(i, i + 200);
    const run = async (trx: Kysely<DB>) => {
      for (const r of chunk) await recountVotes(trx, r.listing_id);
    };
    await (db.isTransaction ? run(db) : db.transaction().execute(run));
  }
}

/**
 * Sets the review state of the given votes (null leaves it), weighs them again with the current
 * settings, and recounts the listings whose sums changed. Returns how many votes changed weight.
 */
export async function reweighVotes(
  trx: Kysely<DB>,
  engine: Engine,
  voteIds: readonly number[],
  review: VoteReview | undefined,
  weights: VoteWeightSettings,
  opts: { onlyIfReview?: readonly (string | null)[] } = {},
): Promise<number> {
  const touched = new Set<number>();
  let changed = 0;
  // In chunks, so that a large review stays within the engines' limits on parameters.
  for (let i = 0; i < voteIds.length; i += 1000) {
    const ids = voteIds.slice(i, i + 1000);
    // The listings' rows first, in id order, as react() does: a vote cast meanwhile waits, and each
    // recount below sees every committed vote (PostgreSQL; SQLite has one writer at a time).
    await trx
      .selectFrom('listings')
      .select('id')
      .where('id', 'in', trx.selectFrom('votes').select('listing_id').where('id', 'in', ids))
      .orderBy('id')
      .$call(lockRows(engine))
      .execute();
    const rows = await trx
      .selectFrom('votes')
      .select(['id', 'listing_id', 'weight', 'reason', 'account_age_hours', 'email_confirmed', 'page_ms', 'review'])
      .where('id', 'in', ids)
      .execute();
    for (const v of rows) {
      if (opts.onlyIfReview && !opts.onlyIfReview.includes(v.review)) continue;
      const nextReview = review === undefined ? (v.review as VoteReview) : review;
      const w = weighVote(
        {
          accountAgeHours: v.account_age_hours === null ? null : Number(v.account_age_hours),
          emailConfirmed: v.email_confirmed === null ? null : Boolean(Number(v.email_confirmed)),
          pageMs: v.page_ms === null ? null : Number(v.page_ms),
          review: nextReview,
        },
        weights,
      );
      if (w.weight !== Number(v.weight)) changed++;
      if (w.weight !== Number(v.weight) || w.reason !== v.reason || nextReview !== v.review) {
        await trx
          .updateTable('votes')
          .set({ weight: w.weight, reason: w.reason, review: nextReview })
          .where('id', '=', v.id)
          .execute();
        touched.add(v.listing_id);
      }
    }
  }
  for (const id of touched) await recountVotes(trx, id);
  return changed;
}

/**
 * Weighs every vote again with `weights` (after a change of the VOTE_WEIGHT_* settings: a vote keeps
 * the weight it was given when cast until then), `chunk` votes per transaction. Review states stay.
 * Returns how many votes changed weight.
 */
export async function reweighAllVotes(
  db: Kysely<DB>,
  engine: Engine,
  weights: VoteWeightSettings,
  chunk = 1000,
): Promise<number> {
  let changed = 0;
  for (let after = 0; ; ) {
    const ids = (
      await db.selectFrom('votes').select('id').where('id', '>', after).orderBy('id').limit(chunk).execute()
    ).map((r) => r.id);
    if (!ids.length) return changed;
    after = ids[ids.length - 1] as number;
    changed += await db.transaction().execute((trx) => reweighVotes(trx, engine, ids, undefined, weights));
  }
}
