// Demo content for the vote integrity report (issue #21): six accounts made about an hour ago vote,
// within minutes and from one network, for one of this week's launches. Their votes keep a context as
// the website would record it (the hashes here are fixed stand-ins, not hashes of real addresses) and
// weigh by the default rules; the detection pass then files them as a burst for /admin/votes.
import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import type { DB } from '../types.ts';
import { DEFAULT_VOTE_WEIGHTS, weighVote } from '../../domain/vote-weight.ts';
import { recountVotes } from '../repos/votes.ts';
import { detectVotePatterns } from '../repos/vote-reviews.ts';

const ACCOUNTS = 6;

/** Returns the votes added (0 when this week has no launch old enough to have been voted for like this). */
export async function seedVoteBurst(db: Kysely<DB>, engine: Engine, monday: string, now: Date): Promise<number> {
  const nowMs = now.getTime();
  const target = await db
    .selectFrom('listings')
    .select(['id'])
    .where('status', '=', 'live')
    .where('launch_week', '=', monday)
    .where('launched_at', '<=', new Date(nowMs - 2 * 3_600_000).toISOString())
    .orderBy('launched_at')
    .orderBy('id')
    .executeTakeFirst();
  if (!target) return 0;
  const created = new Date(nowMs - 70 * 60_000).toISOString();
  const users = await db
    .insertInto('users')
    .values(
      Array.from({ length: ACCOUNTS }, (_, i) => ({
        email: `new.account.${i + 1}@burst.example`,
        name: `New Account ${i + 1}`,
        password_hash: null,
        role: 'user',
        email_verified_at: created,
        created_at: created,
      })),
    )
    .returning('id')
    .execute();
  const votes = users.map((u, i) => {
    const at = nowMs - (40 - 4 * i) * 60_000;
    const context = { accountAgeHours: (at - Date.parse(created)) / 3_600_000, emailConfirmed: true, pageMs: 900 };
    const w = weighVote({ ...context, review: null }, DEFAULT_VOTE_WEIGHTS);
    return {
      listing_id: target.id,
      user_id: u.id,
      created_at: new Date(at).toISOString(),
      weight: w.weight,
      reason: w.reason,
      account_age_hours: Math.round(context.accountAgeHours * 1000) / 1000,
      email_confirmed: 1,
      net_hash: 'demo-network-one',
      ua_hash: 'demo-browser-one',
      page_ms: context.pageMs,
    };
  });
  await db.insertInto('votes').values(votes).execute();
  const n = await db
    .selectFrom('votes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('listing_id', '=', target.id)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('listings')
    .set({ votes_count: Number(n.n) })
    .where('id', '=', target.id)
    .execute();
  await recountVotes(db, target.id);
  await detectVotePatterns(
    db,
    engine,
    now,
    {
      newAccountHours: DEFAULT_VOTE_WEIGHTS.newAccountHours,
      burstAccounts: 5,
      burstWindowMinutes: 60,
      burstLookbackMinutes: 75,
      ringAccounts: 4,
      ringListings: 3,
      ringWindowDays: 14,
    },
    DEFAULT_VOTE_WEIGHTS,
    { kinds: ['burst'] },
  );
  return votes.length;
}
