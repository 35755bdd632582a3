// The job kinds this service runs, and the wiring of the workers into a server process.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { startWorkers, type JobHandlers, type Workers } from './queue.ts';
import { DRAFT_BUILD } from '../services/drafting.ts';
import { draftBuildHandler } from './drafts.ts';
import { AWARDS_COMPUTE, awardsComputeHandler, ensureAwardsScheduled } from './awards.ts';
import { LISTINGS_ADVANCE, listingsAdvanceHandler, ensureListingsAdvanceScheduled } from './listings.ts';
import { MAIL_DELIVER, mailDeliverHandler } from './mail.ts';
import { VOTES_DETECT, voteDetectHandler, ensureVoteDetectionScheduled } from './vote-detection.ts';

export * from './queue.ts';

/** Every job kind and its handler. Other modules add theirs here (one line each). */
export const jobHandlers: JobHandlers = {
  [DRAFT_BUILD]: draftBuildHandler,
  [AWARDS_COMPUTE]: awardsComputeHandler,
  [LISTINGS_ADVANCE]: listingsAdvanceHandler,
  [MAIL_DELIVER]: mailDeliverHandler,
  [VOTES_DETECT]: voteDetectHandler,
};

/**
 * Starts the job workers for this process (when config.WORKERS is true) and stops them when the
 * app closes; in-flight jobs are handed back for another worker. `services.workers.wake()` lets a
 * handler that enqueued a job start it at once instead of at the next poll.
 */
export function attachWorkers(
  app: FastifyInstance,
  deps: AppDeps,
  opts: { concurrency?: number; pollMs?: number } = {},
): Workers {
  const workers = startWorkers({ ...deps, log: app.log }, jobHandlers, {
    concurrency: opts.concurrency ?? 2,
    pollMs: opts.pollMs ?? 1000,
    onRun: (r, seconds) => deps.services.jobMetrics?.jobRan(r.job.kind, r.outcome, seconds, r.job.payload),
  });
  ensureAwardsScheduled(deps.store.db).catch((err) => app.log.error({ err }, 'could not schedule the awards job'));
  ensureListingsAdvanceScheduled(deps.store.db).catch((err) =>
    app.log.error({ err }, 'could not schedule the listings.advance job'),
  );
  ensureVoteDetectionScheduled(deps.store.db).catch((err) =>
    app.log.error({ err }, 'could not schedule the votes.detect job'),
  );
  app.addHook('onClose', async () => {
    await workers.stop();
  });
  return workers;
}
