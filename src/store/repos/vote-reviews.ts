// The vote review queue (issue #21): what the detection job (jobs/vote-detection.ts) finds, and the
// site team's decisions on it.
//
//   burst  at least `burstAccounts` accounts younger than the new-account age voting from one network
//          (the keyed hash of its /24 or /48) within `burstWindowMinutes`
//   ring   at least `ringAccounts` accounts whose votes of the last `ringWindowDays` are the very same
//          set of at least `ringListings` listings
// Votes found are marked review = 'pending' (they count × VOTE_WEIGHT_UNDER_REVIEW) and filed as one
// review; votes reviewed once (pending, discounted or restored) are not filed again. An admin's
// decision sets the review's votes to 'discounted' (× 0) or 'restored' (the rules' own weight), is
// logged in vote_decisions (who, when, what, how many votes changed weight), and recounts the
// listings' sums in the same transaction. Paid plans and orders are never read here.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../types.ts';
import type { Engine } from '../connect.ts';
import type { VoteWeightSettings } from '../../domain/vote-weight.ts';
import { lockRows } from '../dialect.ts';
import { num } from './sql-helpers.ts';
import { reweighVotes } from './votes.ts';

export interface DetectionSettings {
  newAccountHours: number;
  burstAccounts: number;
  burstWindowMinutes: number;
  /** How far back a scan looks for bursts (the scan interval plus the window, so none falls between scans). */
  burstLookbackMinutes: number;
  ringAccounts: number;
  ringListings: number;
  ringWindowDays: number;
}

export type ReviewKind = 'burst' | 'ring';
export type ReviewStatus = 'open' | 'discounted' | 'restored';
export type ReviewAction = 'discount' | 'restore';

interface Found {
  kind: ReviewKind;
  signature: string;
  summary: string;
  voteIds: number[];
  listingIds: number[];
  userIds: number[];
}

const ms = (t: string | Date) => (typeof t === 'string' ? Date.parse(t) : t.getTime());
const sortNum = (xs: Iterable<number>) => [...new Set(xs)].sort((a, b) => a - b);

/** Bursts among recent votes not reviewed yet: per network, the largest run of new accounts within the window. */
async function findBursts(db: Kysely<DB>, now: Date, s: DetectionSettings): Promise<Found[]> {
  const since = new Date(now.getTime() - s.burstLookbackMinutes * 60_000).toISOString();
  const rows = await db
    .selectFrom('votes')
    .select(['id', 'listing_id', 'user_id', 'created_at', 'net_hash'])
    .where('created_at', '>=', since)
    .where('net_hash', 'is not', null)
    .where('review', 'is', null)
    .where('account_age_hours', '<', s.newAccountHours)
    .orderBy('net_hash')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const byNet = new Map<string, typeof rows>();
  for (const r of rows) {
    const k = r.net_hash as string;
    const list = byNet.get(k);
    if (list) list.push(r);
    else byNet.set(k, [r]);
  }
  const found: Found[] = [];
  const window = s.burstWindowMinutes * 60_000;
  for (const [net, votes] of byNet) {
    // Two pointers over the votes in time order: the window with the most distinct accounts.
    let best: { from: number; to: number; accounts: number } | undefined;
    const inWindow = new Map<number, number>();
    let from = 0;
    for (let to = 0; to < votes.length; to++) {
      const v = votes[to]!;
      inWindow.set(v.user_id, (inWindow.get(v.user_id) ?? 0) + 1);
      while (ms(v.created_at) - ms(votes[from]!.created_at) > window) {
        const u = votes[from]!.user_id;
        const n = (inWindow.get(u) ?? 0) - 1;
        if (n) inWindow.set(u, n);
        else inWindow.delete(u);
        from++;
      }
      if (!best || inWindow.size > best.accounts) best = { from, to, accounts: inWindow.size };
    }
    if (!best || best.accounts < s.burstAccounts) continue;
    const chosen = votes.slice(best.from, best.to + 1);
    const listings = sortNum(chosen.map((v) => v.listing_id));
    found.push({
      kind: 'burst',
      signature: `burst:${net}:${chosen[0]!.id}`,
      summary: `${best.accounts} new accounts voted from one network within ${s.burstWindowMinutes} minutes (${chosen.length} votes, ${listings.length} listing${listings.length === 1 ? '' : 's'}).`,
      voteIds: chosen.map((v) => v.id),
      listingIds: listings,
      userIds: sortNum(chosen.map((v) => v.user_id)),
    });
  }
  return found;
}

/** Rings: groups of accounts whose recent votes are the same set of listings. */
async function findRings(db: Kysely<DB>, now: Date, s: DetectionSettings): Promise<Found[]> {
  const since = new Date(now.getTime() - s.ringWindowDays * 86_400_000).toISOString();
  const rows = await db
    .selectFrom('votes')
    .select(['id', 'listing_id', 'user_id', 'review'])
    .where('created_at', '>=', since)
    .orderBy('user_id')
    .orderBy('listing_id')
    .execute();
  const byUser = new Map<number, typeof rows>();
  for (const r of rows) {
    const list = byUser.get(r.user_id);
    if (list) list.push(r);
    else byUser.set(r.user_id, [r]);
  }
  const bySet = new Map<string, number[]>();
  for (const [user, votes] of byUser) {
    if (votes.length < s.ringListings) continue;
    const key = votes.map((v) => v.listing_id).join(',');
    const list = bySet.get(key);
    if (list) list.push(user);
    else bySet.set(key, [user]);
  }
  const found: Found[] = [];
  for (const [key, users] of bySet) {
    if (users.length < s.ringAccounts) continue;
    const votes = users.flatMap((u) => byUser.get(u)!);
    const fresh = votes.filter((v) => v.review === null);
    if (!fresh.length) continue; // all reviewed already
    const listings = key.split(',').map(Number);
    found.push({
      kind: 'ring',
      signature: `ring:${key}:${users.join(',')}`,
      summary: `${users.length} accounts voted for exactly the same ${listings.length} listings within ${s.ringWindowDays} days.`,
      voteIds: fresh.map((v) => v.id),
      listingIds: listings,
      userIds: sortNum(users),
    });
  }
  return found;
}

/**
 * One detection pass: files each new burst and ring as an open review, marks its votes pending and
 * weighs them again. Re-runnable: a pattern already filed (same signature) is skipped. Returns the
 * reviews filed.
 */
export async function detectVotePatterns(
  db: Kysely<DB>,
  engine: Engine,
  now: Date,
  s: DetectionSettings,
  weights: VoteWeightSettings,
  opts: { kinds?: readonly ReviewKind[] } = {},
): Promise<Array<{ id: number; kind: ReviewKind; votes: number }>> {
  const kinds = opts.kinds ?? ['burst', 'ring'];
  const found = [
    ...(kinds.includes('burst') ? await findBursts(db, now, s) : []),
    ...(kinds.includes('ring') ? await findRings(db, now, s) : []),
  ];
  const filed: Array<{ id: number; kind: ReviewKind; votes: number }> = [];
  for (const f of found) {
    const file = async (trx: Kysely<DB>) => {
      const row = await trx
        .insertInto('vote_reviews')
        .values({
          kind: f.kind,
          status: 'open',
          // Hashed: a ring's accounts and listings can be longer than an index entry may be.
          signature: createHash('sha256').update(f.signature).digest('hex'),
          summary: f.summary,
          listing_ids: JSON.stringify(f.listingIds),
          user_ids: JSON.stringify(f.userIds),
          created_at: now.toISOString(),
          decided_at: null,
          decided_by: null,
        })
        .onConflict((oc) => oc.column('signature').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row) return undefined;
      for (let i = 0; i < f.voteIds.length; i += 500)
        await trx
          .insertInto('vote_review_votes')
          .values(f.voteIds.slice(i, i + 500).map((vote_id) => ({ review_id: row.id, vote_id })))
          .execute();
      // Only votes no review has seen: a vote is filed once.
      await reweighVotes(trx, engine, f.voteIds, 'pending', weights, { onlyIfReview: [null] });
      return row.id;
    };
    // One transaction per pattern (inside the caller's when it passes one: the demo seed).
    const id = await (db.isTransaction ? file(db) : db.transaction().execute(file));
    if (id !== undefined) filed.push({ id, kind: f.kind, votes: f.voteIds.length });
  }
  return filed;
}

export interface ReviewView {
  id: number;
  kind: ReviewKind;
  status: ReviewStatus;
  summary: string;
  created_at: string;
  decided_at: string | null;
  votes: number;
  /** The weight its votes count with now, summed. */
  weight: number;
  listings: Array<{ id: number; slug: string; name: string }>;
  accounts: number;
  decisions: Array<{ at: string; by: string; action: ReviewAction; votes_changed: number; note: string | null }>;
}

/** The review queue: open reviews first (oldest first), then decided ones (newest decision first). */
export async function listVoteReviews(
  db: Kysely<DB>,
  opts: { status?: ReviewStatus; limit?: number } = {},
): Promise<{ items: ReviewView[]; open: number }> {
  let q = db.selectFrom('vote_reviews').selectAll();
  if (opts.status) q = q.where('status', '=', opts.status);
  const rows = await q
    .orderBy((eb) => eb.case().when('status', '=', 'open').then(0).else(1).end())
    .orderBy('decided_at', 'desc')
    .orderBy('id', 'asc')
    .limit(opts.limit ?? 100)
    .execute();
  const open = num(
    (
      await db
        .selectFrom('vote_reviews')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'open')
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (!rows.length) return { items: [], open };
  const ids = rows.map((r) => r.id);
  const [weights, decisions] = await Promise.all([
    db
      .selectFrom('vote_review_votes as rv')
      .innerJoin('votes as v', 'v.id', 'rv.vote_id')
      .select(['rv.review_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('v.weight').as('w')])
      .where('rv.review_id', 'in', ids)
      .groupBy('rv.review_id')
      .execute(),
    db
      .selectFrom('vote_decisions')
      .select(['review_id', 'created_at', 'admin_email', 'action', 'votes_changed', 'note'])
      .where('review_id', 'in', ids)
      .orderBy('id', 'desc')
      .execute(),
  ]);
  const listingIds = sortNum(rows.flatMap((r) => JSON.parse(r.listing_ids) as number[]));
  const listings = listingIds.length
    ? await db.selectFrom('listings').select(['id', 'slug', 'name']).where('id', 'in', listingIds).execute()
    : [];
  const listingById = new Map(listings.map((l) => [l.id, l]));
  const wById = new Map(weights.map((w) => [w.review_id, w]));
  return {
    open,
    items: rows.map((r) => ({
      id: r.id,
      kind: r.kind as ReviewKind,
      status: r.status as ReviewStatus,
      summary: r.summary,
      created_at: String(r.created_at),
      decided_at: r.decided_at === null ? null : String(r.decided_at),
      votes: num(wById.get(r.id)?.n),
      weight: Math.round(num(wById.get(r.id)?.w) * 100) / 100,
      listings: (JSON.parse(r.listing_ids) as number[]).flatMap((id) => {
        const l = listingById.get(id);
        return l ? [l] : [];
      }),
      accounts: (JSON.parse(r.user_ids) as number[]).length,
      decisions: decisions
        .filter((d) => d.review_id === r.id)
        .map((d) => ({
          at: String(d.created_at),
          by: d.admin_email,
          action: d.action as ReviewAction,
          votes_changed: num(d.votes_changed),
          note: d.note,
        })),
    })),
  };
}

/**
 * An admin's decision on a review: discount (its votes count 0) or restore (their rules' weight).
 * Logged with who, when, what; the listings' sums are recounted in the same transaction.
 */
export async function decideVoteReview(
  db: Kysely<DB>,
  engine: Engine,
  reviewId: number,
  admin: { id: number; email: string },
  action: ReviewAction,
  note: string | null,
  weights: VoteWeightSettings,
  now: Date,
): Promise<{ status: 'ok'; votesChanged: number } | { status: 'not_found' }> {
  return db.transaction().execute(async (trx) => {
    const review = await trx
      .selectFrom('vote_reviews')
      .select(['id'])
      .where('id', '=', reviewId)
      .$call(lockRows(engine))
      .executeTakeFirst();
    if (!review) return { status: 'not_found' as const };
    const voteIds = (
      await trx.selectFrom('vote_review_votes').select('vote_id').where('review_id', '=', reviewId).execute()
    ).map((r) => r.vote_id);
    const votesChanged = await reweighVotes(
      trx,
      engine,
      voteIds,
      action === 'discount' ? 'discounted' : 'restored',
      weights,
    );
    const at = now.toISOString();
    await trx
      .updateTable('vote_reviews')
      .set({ status: action === 'discount' ? 'discounted' : 'restored', decided_at: at, decided_by: admin.id })
      .where('id', '=', reviewId)
      .execute();
    await trx
      .insertInto('vote_decisions')
      .values({
        review_id: reviewId,
        admin_id: admin.id,
        admin_email: admin.email,
        action,
        votes_changed: votesChanged,
        note,
        created_at: at,
      })
      .execute();
    return { status: 'ok' as const, votesChanged };
  });
}
