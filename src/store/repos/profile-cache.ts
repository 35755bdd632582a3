// listing_profiles (migration 080): each live listing's public profile as JSON text, built from the
// listing's profile_rev. get_listing's read path is store/profile-reader.ts; this is the writing side.
import type { Kysely } from 'kysely';
import type { Store } from '../connect.ts';
import type { DB } from '../types.ts';
import { publicProfilesByIds } from './listings.ts';

/** The live counters: read from their columns on every request, never part of the stored text. */
export const LIVE_COUNTERS = ['votes', 'followers', 'views'] as const;

/** The profile text without the live counters. */
export function baseText(profile: Record<string, unknown>): string {
  const rest: Record<string, unknown> = { ...profile };
  for (const k of LIVE_COUNTERS) delete rest[k];
  return JSON.stringify(rest);
}

/**
 * Stores profiles built from `rev`, each only if its listing's profile_rev still equals that rev (a
 * write that landed while it was being built leaves the listing stale, to be rebuilt, never wrong).
 */
export async function storeProfiles(
  db: Kysely<DB>,
  profiles: ReadonlyArray<{ id: number; rev: number; body: string }>,
): Promise<void> {
  if (!profiles.length) return;
  await db.transaction().execute(async (trx) => {
    for (const p of profiles) {
      await trx
        .insertInto('listing_profiles')
        .columns(['listing_id', 'rev', 'body'])
        .expression((eb) =>
          eb
            .selectFrom('listings')
            .select((s) => ['id', 'profile_rev', s.val(p.body).as('body')])
            .where('id', '=', p.id)
            .where('profile_rev', '=', p.rev),
        )
        .onConflict((oc) =>
          oc.column('listing_id').doUpdateSet((eb) => ({ rev: eb.ref('excluded.rev'), body: eb.ref('excluded.body') })),
        )
        .execute();
    }
  });
}

/**
 * Builds the stored profile of every live listing whose profile is missing or stale, `batch` at a
 * time (seeding; a running server rebuilds on read). Returns how many were built.
 */
export async function refreshProfiles(store: Store, opts: { batch?: number } = {}): Promise<number> {
  const batch = opts.batch ?? 200;
  const db = store.db;
  let built = 0;
  for (let after = 0; ; ) {
    const stale = await db
      .selectFrom('listings as l')
      .leftJoin('listing_profiles as p', 'p.listing_id', 'l.id')
      .select(['l.id', 'l.profile_rev'])
      .where('l.status', '=', 'live')
      .where('l.id', '>', after)
      .where((eb) => eb.or([eb('p.rev', 'is', null), eb('p.rev', '<>', eb.ref('l.profile_rev'))]))
      .orderBy('l.id')
      .limit(batch)
      .execute();
    if (!stale.length) return built;
    after = stale[stale.length - 1].id;
    const revOf = new Map(stale.map((r) => [r.id, r.profile_rev]));
    const profiles = await publicProfilesByIds(
      db,
      store.engine,
      stale.map((r) => r.id),
    );
    await storeProfiles(
      db,
      profiles.map((p) => ({ id: p.id, rev: revOf.get(p.id)!, body: baseText(p.profile) })),
    );
    built += profiles.length;
  }
}
