// The listing lifecycle job: about every 15 minutes it reads the homepages of free listings waiting
// for their badge (scheduling those that show it) and launches scheduled listings whose week has
// started (services/listings.ts, advanceListings). It reschedules itself, also after a failure.
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import { ADVANCE_EVERY_MS, advanceListings } from '../services/listings.ts';
import { enqueueOnce, type JobHandler } from './queue.ts';

export const LISTINGS_ADVANCE = 'listings.advance';

export const nextAdvanceRun = (now: Date): Date => new Date(now.getTime() + ADVANCE_EVERY_MS);

export const listingsAdvanceHandler: JobHandler<Record<string, never>> = {
  async run(ctx) {
    await advanceListings(ctx.deps, ctx.now(), { signal: ctx.signal });
    await ctx.complete(async (trx) => {
      // One chain: when another instance already queued a run, this one does not add a second.
      const queued = await trx
        .selectFrom('jobs')
        .select('id')
        .where('kind', '=', LISTINGS_ADVANCE)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      if (!queued) await enqueueOnce(trx, LISTINGS_ADVANCE, { runAt: nextAdvanceRun(ctx.now()), now: ctx.now() });
    });
  },
  // A run that failed for good must not end the chain: the next one is queued in the same transaction.
  async onFailed(trx, _job, _error, deps) {
    const now = deps.now ? deps.now() : new Date();
    await enqueueOnce(trx, LISTINGS_ADVANCE, { runAt: nextAdvanceRun(now), now });
  },
};

/** Makes sure one listings.advance job is queued or running (the first runs at once). */
export async function ensureListingsAdvanceScheduled(db: Kysely<DB>, now = new Date()): Promise<boolean> {
  const pending = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', LISTINGS_ADVANCE)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  if (pending) return false;
  return (await enqueueOnce(db, LISTINGS_ADVANCE, { now })) !== undefined;
}
