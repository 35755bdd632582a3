// The durable job queue on the `jobs` table (DESIGN "Layout": jobs/).
//
// A job is a row: kind, payload (JSON), status queued | running | done | failed, attempts, run_at,
// locked_by / locked_until (the lease), last_error.
//
// Claiming is safe with several workers and several instances:
//   - PostgreSQL: UPDATE … WHERE id = (SELECT id … FOR UPDATE SKIP LOCKED LIMIT 1) RETURNING *,
//   - SQLite (one writer at a time): one atomic UPDATE … WHERE id = (SELECT … LIMIT 1) AND <still claimable> RETURNING *.
// A claimed job holds a lease (locked_until) that its worker extends while it runs (heartbeat). A job
// whose worker died (killed mid-job) becomes claimable again once its lease has expired, and the next
// worker runs it again from the start; handlers are written to be re-runnable.
// Completion is exactly-once: `complete()` marks the job done and applies the handler's final writes in
// ONE transaction, and only while this worker still holds the lease — a worker that lost its lease
// cannot complete (LeaseLost), so two workers never both finish one job.
// Errors: retried with exponential backoff up to maxAttempts, then `failed` (the handler's onFailed
// hook runs in the same transaction so the owning record shows the failure).
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, JobsTable } from '../store/types.ts';
import type { Engine } from '../store/connect.ts';
import type { Config } from '../config.ts';
import type { Services } from '../operations/context.ts';
import { fromJson, toJson } from '../store/json.ts';
import { skipLocked } from '../store/dialect.ts';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface Job<P = unknown> {
  id: number;
  kind: string;
  payload: P;
  status: JobStatus;
  attempts: number;
  run_at: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** What the queue needs: the store and, for handlers, the configuration and services (AppDeps fits). */
export interface JobDeps {
  store: { db: Kysely<DB>; engine: Engine };
  config: Config;
  services: Services;
  /** Clock, injectable for tests (default: the wall clock). */
  now?: () => Date;
  log?: {
    info(obj: unknown, msg?: string): void;
    warn(obj: unknown, msg?: string): void;
    error(obj: unknown, msg?: string): void;
  };
}

export interface JobContext<P = unknown> {
  job: Job<P>;
  deps: JobDeps;
  workerId: string;
  /** Aborted when the lease is lost, the worker stops, or the handler's time cap passes. */
  signal: AbortSignal;
  now(): Date;
  /**
   * Applies the handler's final writes and marks the job done, in one transaction, only while this
   * worker still holds the lease. Throws LeaseLost otherwise (nothing is written). Called by the runner
   * with no writes when the handler returns without calling it.
   */
  complete(writes?: (trx: Transaction<DB>) => Promise<void>): Promise<void>;
}

export interface JobHandler<P = unknown> {
  run(ctx: JobContext<P>): Promise<void>;
  /** Runs (in the transaction that marks the job failed) once the job has failed for good. */
  onFailed?(trx: Transaction<DB>, job: Job<P>, error: string, deps: JobDeps): Promise<void>;
  /** Attempts before the job fails for good (default 3). */
  maxAttempts?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: each handler takes its own payload type; the queue only routes by name
export type JobHandlers = Record<string, JobHandler<any>>;

export interface RunOptions {
  workerId?: string;
  /** Lease length; the running worker extends it every leaseMs/3 (default 30 s). */
  leaseMs?: number;
  /** First retry delay; doubles per attempt (default 2 s, capped at 10 min). */
  backoffMs?: number;
  /** Only claim jobs of these kinds (default: the kinds in `handlers`). */
  kinds?: string[];
  /** Aborts the running job (worker shutdown): the job is released for another worker, not failed. */
  signal?: AbortSignal;
}

/** Thrown when a worker no longer holds a job's lease (it expired and another worker took the job). */
export class LeaseLost extends Error {
  constructor(jobId: number) {
    super(`job ${jobId}: the lease was lost; another worker owns the job now`);
    this.name = 'LeaseLost';
  }
}

/** A failure that retrying cannot fix: the job fails at once. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

const clock = (deps: JobDeps) => (deps.now ? deps.now() : new Date());
const iso = (d: Date) => d.toISOString();

function rowToJob<P>(row: JobsTable & { id: number }): Job<P> {
  return {
    ...row,
    payload: fromJson<P>(row.payload, {} as P),
    status: row.status as JobStatus,
    attempts: Number(row.attempts),
  };
}

/** Adds a job (inside the caller's transaction when given one). Returns its id. */
export async function enqueue(
  db: Kysely<DB>,
  kind: string,
  payload: unknown,
  opts: { runAt?: Date; now?: Date } = {},
): Promise<number> {
  const now = iso(opts.now ?? new Date());
  const row = await db
    .insertInto('jobs')
    .values({
      kind,
      payload: toJson(payload),
      status: 'queued',
      attempts: 0,
      run_at: iso(opts.runAt ?? opts.now ?? new Date()),
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Queues a run of a recurring job unless one is queued already (migration 160: one queued run per
 * recurring kind, so instances starting together make one chain, not two). Returns its id, or undefined
 * when another was queued first.
 */
export async function enqueueOnce(
  db: Kysely<DB>,
  kind: string,
  opts: { runAt?: Date; now?: Date } = {},
): Promise<number | undefined> {
  const now = iso(opts.now ?? new Date());
  const row = await db
    .insertInto('jobs')
    .values({
      kind,
      payload: toJson({}),
      status: 'queued',
      attempts: 0,
      run_at: iso(opts.runAt ?? opts.now ?? new Date()),
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function getJob<P = unknown>(db: Kysely<DB>, id: number): Promise<Job<P> | undefined> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? rowToJob<P>(row as JobsTable & { id: number }) : undefined;
}

/**
 * Claims the next runnable job for `workerId`: a queued job whose run_at has come, or a running job
 * whose lease has expired (its worker died). Increments attempts. Returns undefined when none.
 */
export async function claimNext(
  deps: JobDeps,
  workerId: string,
  opts: { leaseMs?: number; kinds?: string[] } = {},
): Promise<Job | undefined> {
  const { db, engine } = deps.store;
  const now = clock(deps);
  const nowS = iso(now);
  const until = iso(new Date(now.getTime() + (opts.leaseMs ?? 30_000)));
  const kinds = opts.kinds?.length ? opts.kinds : null;
  const kindFilter = kinds ? sql`AND kind IN (${sql.join(kinds)})` : sql``;
  const claimable = sql`((status = 'queued' AND run_at <= ${nowS}) OR (status = 'running' AND locked_until < ${nowS}))`;
  // The claimable test is repeated outside the subquery: on SQLite it makes the pick and the update
  // one atomic step; on PostgreSQL the row is already locked for us (SKIP LOCKED) and it holds anyway.
  const query = sql<JobsTable & { id: number }>`UPDATE jobs
    SET status = 'running', locked_by = ${workerId}, locked_until = ${until}, attempts = attempts + 1, updated_at = ${nowS}
    WHERE id = (SELECT id FROM jobs WHERE ${claimable} ${kindFilter} ORDER BY run_at, id ${skipLocked(engine)} LIMIT 1)
      AND ${claimable}
    RETURNING *`;
  const res = await query.execute(db);
  const row = res.rows[0];
  return row ? rowToJob(row) : undefined;
}

/** Extends the lease; false when this worker no longer holds it. */
export async function extendLease(deps: JobDeps, jobId: number, workerId: string, leaseMs: number): Promise<boolean> {
  const now = clock(deps);
  const r = await deps.store.db
    .updateTable('jobs')
    .set({ locked_until: iso(new Date(now.getTime() + leaseMs)), updated_at: iso(now) })
    .where('id', '=', jobId)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Marks the job done and applies `writes`, atomically, only while `workerId` holds the lease. */
export async function completeJob(
  deps: JobDeps,
  jobId: number,
  workerId: string,
  writes?: (trx: Transaction<DB>) => Promise<void>,
): Promise<void> {
  await deps.store.db.transaction().execute(async (trx) => {
    const nowS = iso(clock(deps));
    const r = await trx
      .updateTable('jobs')
      .set({ status: 'done', locked_by: null, locked_until: null, updated_at: nowS })
      .where('id', '=', jobId)
      .where('locked_by', '=', workerId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw new LeaseLost(jobId);
    if (writes) await writes(trx);
  });
}

function backoff(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 10 * 60_000);
}

const errorText = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 2000);

async function failOrRetry(
  deps: JobDeps,
  handler: JobHandler | undefined,
  job: Job,
  workerId: string,
  error: unknown,
  opts: RunOptions,
): Promise<'failed' | 'retry'> {
  const maxAttempts = handler?.maxAttempts ?? 3;
  const permanent = error instanceof PermanentJobError || !handler;
  const msg = errorText(error);
  const now = clock(deps);
  const final = permanent || job.attempts >= maxAttempts;
  let outcome: 'failed' | 'retry' = final ? 'failed' : 'retry';
  await deps.store.db.transaction().execute(async (trx) => {
    const q = trx
      .updateTable('jobs')
      .where('id', '=', job.id)
      .where('locked_by', '=', workerId)
      .where('status', '=', 'running');
    const r = final
      ? await q
          .set({ status: 'failed', last_error: msg, locked_by: null, locked_until: null, updated_at: iso(now) })
          .executeTakeFirst()
      : await q
          .set({
            status: 'queued',
            last_error: msg,
            locked_by: null,
            locked_until: null,
            run_at: iso(new Date(now.getTime() + backoff(job.attempts, opts.backoffMs ?? 2000))),
            updated_at: iso(now),
          })
          .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) {
      outcome = 'retry'; // the lease is gone: the worker that has the job now decides
      return;
    }
    if (final && handler?.onFailed) await handler.onFailed(trx, job, msg, deps);
  });
  return outcome;
}

/** Gives a running job back (worker shutting down): claimable again at once, attempt not counted. */
async function release(deps: JobDeps, job: Job, workerId: string): Promise<void> {
  const nowS = iso(clock(deps));
  await deps.store.db
    .updateTable('jobs')
    .set({
      status: 'queued',
      locked_by: null,
      locked_until: null,
      run_at: nowS,
      attempts: Math.max(0, job.attempts - 1),
      updated_at: nowS,
    })
    .where('id', '=', job.id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .execute();
}

export type RunResult = { job: Job; outcome: 'done' | 'retry' | 'failed' | 'lease_lost' | 'released' };

/** Runs one claimed job to its outcome (used by runNextJob and by tests that claim by hand). */
export async function runClaimedJob(
  deps: JobDeps,
  handlers: JobHandlers,
  job: Job,
  workerId: string,
  opts: RunOptions = {},
): Promise<RunResult> {
  const handler = handlers[job.kind];
  const leaseMs = opts.leaseMs ?? 30_000;
  const log = deps.log;
  if (!handler) {
    await failOrRetry(
      deps,
      undefined,
      job,
      workerId,
      new PermanentJobError(`no handler for job kind ${job.kind}`),
      opts,
    );
    return { job, outcome: 'failed' };
  }
  if (job.attempts > (handler.maxAttempts ?? 3)) {
    // Claimed again after its worker died too many times: fail it instead of looping forever.
    await failOrRetry(
      deps,
      handler,
      job,
      workerId,
      new PermanentJobError(`gave up after ${job.attempts - 1} attempts (the last worker stopped without finishing)`),
      opts,
    );
    return { job, outcome: 'failed' };
  }
  const ac = new AbortController();
  const onStop = () => ac.abort(new Error('worker stopping'));
  opts.signal?.addEventListener('abort', onStop, { once: true });
  let leaseLost = false;
  const beat = setInterval(
    () => {
      extendLease(deps, job.id, workerId, leaseMs).then(
        (held) => {
          if (!held) {
            leaseLost = true;
            ac.abort(new LeaseLost(job.id));
          }
        },
        () => {},
      );
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  beat.unref?.();
  let completed = false;
  const ctx: JobContext = {
    job,
    deps,
    workerId,
    signal: ac.signal,
    now: () => clock(deps),
    complete: async (writes) => {
      await completeJob(deps, job.id, workerId, writes);
      completed = true;
    },
  };
  try {
    await handler.run(ctx);
    if (!completed) await ctx.complete();
    return { job, outcome: 'done' };
  } catch (e) {
    if (e instanceof LeaseLost || leaseLost) {
      log?.warn({ job: job.id, kind: job.kind, workerId }, 'job lease lost; another worker runs it');
      return { job, outcome: 'lease_lost' };
    }
    if (opts.signal?.aborted) {
      await release(deps, job, workerId).catch(() => {});
      return { job, outcome: 'released' };
    }
    log?.warn({ job: job.id, kind: job.kind, attempt: job.attempts, err: errorText(e) }, 'job failed');
    const outcome = await failOrRetry(deps, handler, job, workerId, e, opts);
    return { job, outcome };
  } finally {
    clearInterval(beat);
    opts.signal?.removeEventListener('abort', onStop);
  }
}

/** Claims and runs the next runnable job; undefined when there is none. */
export async function runNextJob(
  deps: JobDeps,
  handlers: JobHandlers,
  opts: RunOptions = {},
): Promise<RunResult | undefined> {
  const workerId = opts.workerId ?? defaultWorkerId();
  const job = await claimNext(deps, workerId, { leaseMs: opts.leaseMs, kinds: opts.kinds ?? Object.keys(handlers) });
  if (!job) return undefined;
  return runClaimedJob(deps, handlers, job, workerId, opts);
}

/** Runs jobs until none is runnable now (tests drive the queue with this). Returns what ran. */
export async function drainJobs(
  deps: JobDeps,
  handlers: JobHandlers,
  opts: RunOptions & { max?: number } = {},
): Promise<RunResult[]> {
  const out: RunResult[] = [];
  const max = opts.max ?? 1000;
  while (out.length < max) {
    const r = await runNextJob(deps, handlers, opts);
    if (!r) break;
    out.push(r);
  }
  return out;
}

/** Deletes finished jobs: done ones after `doneDays` (default 7), failed ones after `failedDays` (default 30). Returns how many. */
export async function pruneJobs(deps: JobDeps, opts: { doneDays?: number; failedDays?: number } = {}): Promise<number> {
  const now = clock(deps).getTime();
  const day = 86_400_000;
  const r = await deps.store.db
    .deleteFrom('jobs')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'done'), eb('updated_at', '<', iso(new Date(now - (opts.doneDays ?? 7) * day)))]),
        eb.and([
          eb('status', '=', 'failed'),
          eb('updated_at', '<', iso(new Date(now - (opts.failedDays ?? 30) * day))),
        ]),
      ]),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

let seq = 0;
export function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${++seq}:${randomUUID().slice(0, 8)}`;
}

export interface Workers {
  /** Stops claiming; in-flight jobs are given back for another worker after `graceMs` (default 5 s). */
  stop(graceMs?: number): Promise<void>;
  /** Wakes idle workers now (a job was just enqueued). */
  wake(): void;
}

/** Starts `concurrency` worker loops that poll the queue every `pollMs` when idle. */
export function startWorkers(
  deps: JobDeps,
  handlers: JobHandlers,
  opts: {
    concurrency?: number;
    pollMs?: number;
    leaseMs?: number;
    backoffMs?: number;
    /** Told of every job run to its outcome, with its time in seconds (metrics). */
    onRun?: (result: RunResult, seconds: number) => void;
  } = {},
): Workers {
  const concurrency = opts.concurrency ?? 2;
  const pollMs = opts.pollMs ?? 1000;
  const stopAc = new AbortController();
  let stopping = false;
  const sleepers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        sleepers.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      sleepers.add(done);
    });
  const wakeAll = () => {
    for (const s of [...sleepers]) s();
  };
  let prunedAt = 0;
  const loop = async (i: number) => {
    const workerId = `${defaultWorkerId()}#${i}`;
    while (!stopping) {
      if (i === 0 && Date.now() - prunedAt > 3_600_000) {
        prunedAt = Date.now();
        await pruneJobs(deps).catch((e) => deps.log?.warn({ err: errorText(e) }, 'pruning old jobs failed'));
      }
      let ran: RunResult | undefined;
      const started = performance.now();
      try {
        ran = await runNextJob(deps, handlers, {
          workerId,
          leaseMs: opts.leaseMs,
          backoffMs: opts.backoffMs,
          signal: stopAc.signal,
        });
        if (ran && opts.onRun) opts.onRun(ran, (performance.now() - started) / 1000);
      } catch (e) {
        deps.log?.error({ err: errorText(e), workerId }, 'job worker error');
      }
      if (!ran && !stopping) await sleep(pollMs);
    }
  };
  const loops = Array.from({ length: concurrency }, (_, i) => loop(i));
  return {
    wake: wakeAll,
    async stop(graceMs = 5000) {
      if (stopping) return;
      stopping = true;
      wakeAll();
      const all = Promise.all(loops);
      const grace = new Promise<'timeout'>((r) => {
        const t = setTimeout(() => r('timeout'), graceMs);
        t.unref?.();
      });
      if ((await Promise.race([all.then(() => 'ok' as const), grace])) === 'timeout') {
        stopAc.abort(new Error('worker stopping'));
        await all;
      }
    },
  };
}
