// Community votes and follows, cast only by signed-in people on the website (there is no voting
// through the API). One vote and one follow per person per listing (votes: unique (listing_id,
// user_id); follows: primary key (listing_id, user_id)). Votes are timestamped, so weekly rankings
// count the votes cast in a week. listings.votes_count / followers_count are recounted from the
// table in the same transaction as the change, with the listing row locked on PostgreSQL, so
// concurrent votes never lose an update and the count always equals the number of rows.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../types.ts';
import type { Engine } from '../connect.ts';
import { num } from './sql-helpers.ts';
import { lockRows } from '../dialect.ts';

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
export async function react(
  db: Kysely<DB>,
  engine: Engine,
  kind: Reaction,
  slug: string,
  userId: number,
  action: ReactionAction,
  now: Date = new Date(),
): Promise<ReactionResult> {
  return db.transaction().execute(async (trx) => {
    // The lock serialises reactions on one listing: the recount below sees every committed row.
    const l = await trx
      .selectFrom('listings')
      .select(['id', 'slug', 'name', 'status'])
      .where('slug', '=', slug)
      .$call(lockRows(engine))
      .executeTakeFirst();
    if (!l) return { status: 'not_found' as const };
    if (l.status !== 'live')
      return { status: 'not_live' as const, slug: l.slug, name: l.name, listingStatus: l.status };
    const had = await hasReaction(trx, kind, l.id, userId);
    const want = action === 'toggle' ? !had : action === 'add';
    if (want && !had) {
      await trx
        .insertInto(TABLE[kind])
        .values({ listing_id: l.id, user_id: userId, created_at: now.toISOString() })
        .onConflict((oc) => oc.columns(['listing_id', 'user_id']).doNothing())
        .execute();
    } else if (!want && had) {
      await trx.deleteFrom(TABLE[kind]).where('listing_id', '=', l.id).where('user_id', '=', userId).execute();
    }
    const count = num(
      (
        await trx
          .selectFrom(TABLE[kind])
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('listing_id', '=', l.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
    await trx
      .updateTable('listings')
      .set(COUNT[kind] === 'votes_count' ? { votes_count: count } : { followers_count: count })
      .where('id', '=', l.id)
      .execute();
    return { status: 'ok' as const, slug: l.slug, name: l.name, active: want, changed: want !== had, count };
  });
}

async function hasReaction(
  db: Kysely<DB> | Transaction<DB>,
  kind: Reaction,
  listingId: number,
  userId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom(TABLE[kind])
    .select('listing_id')
    .where('listing_id', '=', listingId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
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
  const rows =
    kind === 'vote'
      ? await db
          .selectFrom('votes as r')
          .innerJoin('listings as l', 'l.id', 'r.listing_id')
          .select('l.slug')
          .where('r.user_id', '=', userId)
          .where('l.slug', 'in', unique)
          .execute()
      : await db
          .selectFrom('follows as r')
          .innerJoin('listings as l', 'l.id', 'r.listing_id')
          .select('l.slug')
          .where('r.user_id', '=', userId)
          .where('l.slug', 'in', unique)
          .execute();
  return new Set(rows.map((r) => r.slug));
}

/** Whether the person voted for and follows one listing. */
export async function reactionsOf(
  db: Kysely<DB>,
  userId: number,
  slug: string,
): Promise<{ voted: boolean; following: boolean }> {
  const [v, f] = await Promise.all([
    reactedSlugs(db, 'vote', userId, [slug]),
    reactedSlugs(db, 'follow', userId, [slug]),
  ]);
  return { voted: v.has(slug), following: f.has(slug) };
}
