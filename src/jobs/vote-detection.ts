// The vote detection job (issue #21): every VOTE_SCAN_MINUTES it looks for bursts and rings among
// recent votes (store/repos/vote-reviews.ts) and files what it finds for the site team
// (/admin/votes), then schedules its next run in the same transaction that completes it, one chain
// however many instances run (enqueueOnce; migration 190 adds its kind to the one-queued-run rule).
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import type { Config } from '../config.ts';
import { detectVotePatterns, type DetectionSettings } from '../store/repos/vote-reviews.ts';
import { voteWeightsOf } from '../services/vote-context.ts';
import { enqueueOnce, type JobHandler } from './queue.ts';

export const VOTES_DETECT = 'votes.detect';

export function detectionSettingsOf(config: Config): DetectionSettings {
  return {
    newAccountHours: config.VOTE_NEW_ACCOUNT_HOURS,
    burstAccounts: config.VOTE_BURST_ACCOUNTS,
    burstWindowMinutes: config.VOTE_BURST_WINDOW_MINUTES,
    burstLookbackMinutes: config.VOTE_SCAN_MINUTES + config.VOTE_BURST_WINDOW_MINUTES,
    ringAccounts: config.VOTE_RING_ACCOUNTS,
    ringListings: config.VOTE_RING_LISTINGS,
    ringWindowDays: config.VOTE_RING_WINDOW_DAYS,
  };
}

export const voteDetectHandler: JobHandler<Record<string, never>> = {
  async run(ctx) {
    const { config } = ctx.deps;
    const filed = await detectVotePatterns(
      ctx.deps.store.db,
      ctx.deps.store.engine,
      ctx.now(),
      detectionSettingsOf(config),
      voteWeightsOf(config),
    );
    if (filed.length) ctx.deps.log?.warn({ filed }, 'vote patterns filed for review');
    await ctx.complete(async (trx) => {
      const runAt = new Date(ctx.now().getTime() + config.VOTE_SCAN_MINUTES * 60_000);
      await enqueueOnce(trx, VOTES_DETECT, { runAt, now: ctx.now() });
    });
  },
};

/** Makes sure one detection run is scheduled (now). */
export async function ensureVoteDetectionScheduled(db: Kysely<DB>, now = new Date()): Promise<boolean> {
  const pending = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', VOTES_DETECT)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  if (pending) return false;
  return (await enqueueOnce(db, VOTES_DETECT, { now })) !== undefined;
}
