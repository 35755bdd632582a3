// Claims of existing listings (spec parts 2, 3 and 4.6): storage only. The rules live in
// src/services/claims.ts. `token` holds the public verification value for dns/meta/file claims and
// only a SHA-256 (hex) of the secret link token for email claims.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../types.ts';
import type { Engine } from '../connect.ts';
import { PUBLIC_STATUSES } from './summary.ts';
import { lockRows } from '../dialect.ts';
import { BATCH_KEYS, batchedRead, hasPool, hotQuery, keyArgs } from '../prepared.ts';
import type { ClaimMethod, ClaimStatus } from '../../domain/claims.ts';

type Db = Kysely<DB> | Transaction<DB>;

export const EXPIRED_ERROR = 'the email link expired before it was opened; start a new claim';

export interface ClaimRow {
  id: number;
  user_id: number;
  listing_id: number;
  method: ClaimMethod;
  email: string | null;
  token: string;
  status: ClaimStatus;
  created_at: string;
  verified_at: string | null;
  checked_at: string | null;
  last_error: string | null;
  expires_at: string | null;
}

/** What a claim needs to know about its listing. */
export interface ClaimListing {
  id: number;
  slug: string;
  name: string;
  url: string;
  domain: string;
  status: string;
  owner_id: number | null;
  verified_at: string | null;
}
const LISTING_COLUMNS = ['id', 'slug', 'name', 'url', 'domain', 'status', 'owner_id', 'verified_at'] as const;
/** PostgreSQL: publicListingBySlug() for a batch of slugs (store/prepared.ts BatchedRead). */
const CLAIM_LISTING_BATCH = `SELECT q.i, ${LISTING_COLUMNS.map((c) => `l.${c}`).join(', ')}
  FROM ${BATCH_KEYS} JOIN listings l ON l.slug = q.k AND l.status IN (${PUBLIC_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/** A listing anyone can see (live, scheduled, awaiting_badge) by slug; drafts and unknown slugs give undefined. */
export async function publicListingBySlug(db: Db, slug: string): Promise<ClaimListing | undefined> {
  const query = (s: string) =>
    db
      .selectFrom('listings')
      .select(LISTING_COLUMNS)
      .where('slug', '=', s)
      .where('status', 'in', [...PUBLIC_STATUSES]);
  // a signed-in listing page's claim box reads it on every request: on PostgreSQL with the other pages'
  // that arrive at the same moment (one statement)
  if (hasPool(db as Kysely<DB>)) {
    const [row] = await batchedRead<string, ClaimListing & { i: number }>(
      db as Kysely<DB>,
      'll_claim_listing_batch',
      CLAIM_LISTING_BATCH,
      keyArgs,
    ).read(slug);
    if (!row) return undefined;
    const { i: _batchIndex, ...listing } = row;
    return listing;
  }
  const hot = await hotQuery(db as Kysely<DB>, 'll_claim_listing', ([s]) => query(s), [slug]);
  return hot ? hot[0] : query(slug).executeTakeFirst();
}

export async function listingById(
  db: Db,
  id: number,
  opts: { engine?: Engine; lock?: boolean } = {},
): Promise<ClaimListing | undefined> {
  return db
    .selectFrom('listings')
    .select(LISTING_COLUMNS)
    .where('id', '=', id)
    .$call(lockRows(opts.engine ?? 'sqlite', opts.lock))
    .executeTakeFirst();
}

export async function findClaim(db: Db, id: number): Promise<ClaimRow | undefined> {
  return db.selectFrom('claims').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The caller's own claim; someone else's claim is undefined (the API answers 404). */
export async function findOwnClaim(db: Db, id: number, userId: number): Promise<ClaimRow | undefined> {
  return db.selectFrom('claims').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function findPendingClaim(
  db: Db,
  userId: number,
  listingId: number,
  method: ClaimMethod,
): Promise<ClaimRow | undefined> {
  return db
    .selectFrom('claims')
    .selectAll()
    .where('user_id', '=', userId)
    .where('listing_id', '=', listingId)
    .where('method', '=', method)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

export async function findClaimByToken(db: Db, tokenHash: string): Promise<ClaimRow | undefined> {
  return db
    .selectFrom('claims')
    .selectAll()
    .where('token', '=', tokenHash)
    .where('method', '=', 'email')
    .executeTakeFirst();
}

export async function insertClaim(db: Db, v: Omit<ClaimRow, 'id'>): Promise<ClaimRow> {
  return db.insertInto('claims').values(v).returningAll().executeTakeFirstOrThrow();
}

/** A new link for a pending email claim (new address, new token hash, new expiry). */
export async function resendEmailClaim(
  db: Db,
  id: number,
  v: { email: string; token: string; expires_at: string },
): Promise<void> {
  await db.updateTable('claims').set(v).where('id', '=', id).where('status', '=', 'pending').execute();
}

/** The caller's claims, newest first. */
export async function listOwnClaims(
  db: Db,
  userId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: ClaimRow[]; total: number }> {
  const rows = await db
    .selectFrom('claims')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const { n } = await db
    .selectFrom('claims')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

/** Pending email claims whose link has run out become `expired` (scoped to a user or one claim). */
export async function expireEmailClaims(
  db: Db,
  nowIso: string,
  scope: { userId?: number; id?: number },
): Promise<void> {
  let q = db
    .updateTable('claims')
    .set({ status: 'expired', last_error: EXPIRED_ERROR })
    .where('method', '=', 'email')
    .where('status', '=', 'pending')
    .where('expires_at', '<', nowIso);
  if (scope.userId !== undefined) q = q.where('user_id', '=', scope.userId);
  if (scope.id !== undefined) q = q.where('id', '=', scope.id);
  await q.execute();
}

/**
 * Takes the claim's check slot: sets checked_at = now when the claim is pending and was not checked
 * since `notAfterIso`. One statement, so concurrent calls cannot both pass. False when refused.
 */
export async function reserveCheck(db: Db, id: number, nowIso: string, notAfterIso: string): Promise<boolean> {
  const r = await db
    .updateTable('claims')
    .set({ checked_at: nowIso })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<=', notAfterIso)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function recordCheckFailure(db: Db, id: number, checkedAt: string, error: string): Promise<void> {
  await db
    .updateTable('claims')
    .set({ checked_at: checkedAt, last_error: error })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * Marks a pending claim verified and moves the listing to its claimant, in the caller's transaction:
 * the listing row is locked first (PostgreSQL) so two claims of one listing verify one after the other;
 * every other pending claim of the listing is closed as `failed`. Returns null when the claim was no
 * longer pending (another request got there first), else the listing's previous owner.
 */
export async function markVerified(
  trx: Transaction<DB>,
  engine: Engine,
  claim: ClaimRow,
  nowIso: string,
): Promise<{ previousOwnerId: number | null; listing: ClaimListing } | null> {
  const listing = await listingById(trx, claim.listing_id, { engine, lock: true });
  if (!listing) return null;
  const r = await trx
    .updateTable('claims')
    .set({ status: 'verified', verified_at: nowIso, checked_at: nowIso, last_error: null })
    .where('id', '=', claim.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return null;
  await trx
    .updateTable('listings')
    .set({ owner_id: claim.user_id, verified_at: nowIso, updated_at: nowIso })
    .where('id', '=', listing.id)
    .execute();
  // Drafts belong to their makers: one of anyone but the new owner stops being this listing's draft, so
  // update_draft changes only the draft and submit_draft makes a listing of its own, never this one.
  await trx
    .updateTable('drafts')
    .set({ listing_id: null })
    .where('listing_id', '=', listing.id)
    .where('user_id', '!=', claim.user_id)
    .execute();
  if (listing.owner_id !== claim.user_id)
    await trx.updateTable('listings').set({ draft_id: null }).where('id', '=', listing.id).execute();
  const others = await trx
    .selectFrom('claims')
    .select(['id', 'user_id'])
    .where('listing_id', '=', listing.id)
    .where('status', '=', 'pending')
    .where('id', '!=', claim.id)
    .execute();
  for (const o of others) {
    const why =
      o.user_id === claim.user_id
        ? `not needed any more: claim ${claim.id} proved your control of ${listing.domain} on ${nowIso} and you own the listing`
        : `another account proved control of ${listing.domain} on ${nowIso} and now owns the listing; start a new claim if you control the domain`;
    await trx
      .updateTable('claims')
      .set({ status: 'failed', last_error: why })
      .where('id', '=', o.id)
      .where('status', '=', 'pending')
      .execute();
  }
  return { previousOwnerId: listing.owner_id, listing };
}

export async function userContact(
  db: Db,
  id: number,
): Promise<{ id: number; email: string; name: string } | undefined> {
  return db.selectFrom('users').select(['id', 'email', 'name']).where('id', '=', id).executeTakeFirst();
}
