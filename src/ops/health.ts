// Liveness and readiness.
//   /healthz  the process is alive and its event loop turns: 200 {status: "ok"}, nothing else is asked.
//   /readyz   ready for traffic: the database answers and has every migration of this version, Redis
//             answers when REDIS_URL is set, and the job queue is not stuck (no due job has waited
//             longer than READY_MAX_JOB_LAG_S for a worker). 200 {status: "ready", checks}, else 503
//             {status: "not_ready", checks} naming what failed. Checks run at most once a second
//             (callers in that second share the answer), each with a 2 s time limit.
import { sql } from 'kysely';
import type { AppDeps } from '../deps.ts';
import { pendingMigrations } from '../store/migrate.ts';

export interface Check {
  ok: boolean;
  ms: number;
  error?: string;
  [k: string]: unknown;
}

export interface Readiness {
  status: 'ready' | 'not_ready';
  checks: Record<string, Check | { ok: true; skipped: string }>;
}

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      t = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
      t.unref();
    }),
  ]).finally(() => clearTimeout(t));
}

async function timed(what: string, fn: () => Promise<Record<string, unknown> | undefined>): Promise<Check> {
  const start = performance.now();
  try {
    const extra = (await withTimeout(fn(), CHECK_TIMEOUT_MS, what)) ?? {};
    const ms = Math.round(performance.now() - start);
    return { ok: extra.ok !== false, ms, ...extra };
  } catch (e) {
    return { ok: false, ms: Math.round(performance.now() - start), error: (e as Error).message };
  }
}

/** Runs the readiness checks once. */
export async function checkReadiness(deps: AppDeps): Promise<Readiness> {
  const { db } = deps.store;
  const maxLagS = deps.config.READY_MAX_JOB_LAG_S;
  const [database, migrations, redis, jobs] = await Promise.all([
    timed('the database', async () => {
      await sql`SELECT 1`.execute(db);
      return { engine: deps.store.engine };
    }),
    timed('the database', async () => {
      const pending = await pendingMigrations(db);
      return pending.length ? { ok: false, pending, error: `${pending.length} migration(s) not applied` } : {};
    }),
    deps.config.REDIS_URL
      ? timed('Redis', async () => {
          if (!deps.redis) throw new Error('no Redis client');
          await deps.redis.ping();
          return {};
        })
      : Promise.resolve(undefined),
    maxLagS > 0
      ? timed('the job queue', async () => {
          const now = new Date().toISOString();
          const r = await db
            .selectFrom('jobs')
            .select((eb) => [eb.fn.min('run_at').as('oldest'), eb.fn.countAll().as('due')])
            .where('status', '=', 'queued')
            .where('run_at', '<=', now)
            .executeTakeFirst();
          const oldest = r?.oldest as string | null | undefined;
          const lagS = oldest ? Math.max(0, Math.round((Date.now() - Date.parse(oldest)) / 1000)) : 0;
          const due = Number(r?.due ?? 0);
          return lagS > maxLagS
            ? {
                ok: false,
                due,
                lag_s: lagS,
                error: `the oldest due job has waited ${lagS} s for a worker (READY_MAX_JOB_LAG_S is ${maxLagS}); is any instance running WORKERS=true?`,
              }
            : { due, lag_s: lagS };
        })
      : Promise.resolve(undefined),
  ]);
  const checks: Readiness['checks'] = {
    database,
    migrations,
    redis: redis ?? { ok: true, skipped: 'REDIS_URL is not set' },
    jobs: jobs ?? { ok: true, skipped: 'READY_MAX_JOB_LAG_S is 0' },
  };
  return { status: Object.values(checks).every((c) => c.ok) ? 'ready' : 'not_ready', checks };
}

/** checkReadiness, at most once a second: callers within that second (or while it runs) share its answer. */
export function readinessProbe(deps: AppDeps, minIntervalMs = 1000): () => Promise<Readiness> {
  let last: { at: number; result: Promise<Readiness> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= minIntervalMs) last = { at: now, result: checkReadiness(deps) };
    return last.result;
  };
}
