// Launch of the Week awards are decided when a week ends: a recurring job computes the awards of
// every finished week that has none yet (from community votes only, see store/repos/awards.ts),
// then schedules itself for just after the next Monday 00:00 UTC.
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import { computeMissingAwards } from '../store/repos/awards.ts';
import { mondayOf } from '../domain/weeks.ts';
import { enqueueOnce, type JobHandler } from './queue.ts';

export const AWARDS_COMPUTE = 'awards.compute';

/** Five minutes after the Monday that follows `now` (UTC). */
export function nextAwardsRun(now: Date): Date {
  const monday = new Date(mondayOf(now) + 'T00:00:00Z');
  return new Date(monday.getTime() + 7 * 86_400_000 + 5 * 60_000);
}

export const awardsComputeHandler: JobHandler<Record<string, never>> = {
  async run(ctx) {
    const weeks = await computeMissingAwards(ctx.deps.store.db, ctx.now());
    if (weeks.length) ctx.deps.log?.info({ weeks }, 'Launch of the Week awards decided');
    await ctx.complete(async (trx) => {
      await enqueueOnce(trx, AWARDS_COMPUTE, { runAt: nextAwardsRun(ctx.now()), now: ctx.now() });
    });
  },
};

/** Makes sure one awards job is scheduled (run now to catch up on weeks that ended while no worker ran). */
export async function ensureAwardsScheduled(db: Kysely<DB>, now = new Date()): Promise<boolean> {
  const pending = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', AWARDS_COMPUTE)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  if (pending) return false;
  // Another instance checking at the same moment may queue it first: then this one queues nothing.
  return (await enqueueOnce(db, AWARDS_COMPUTE, { now })) !== undefined;
}
