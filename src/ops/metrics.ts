// Prometheus metrics (prom-client): requests by route pattern and status with latency histograms, the
// job queue (depth and lag, read from the jobs table at scrape time, so the same on every instance), jobs
// and drafts finished by this process, the database pool, cache hit counts, and Node's default process
// metrics. Served at /metrics on the main port, on a port of its own (METRICS_PORT), or not at all
// (METRICS=false): see ops/index.ts.
//
// The request histogram is counted by our own few lines instead of prom-client's Histogram.observe:
// observe() validates and hashes the labels on every call (~1 µs here, measured, also through a labelled
// child), which is a few percent of a cheap read. Here a request costs two Map lookups by values it
// already has, a bucket search and three additions (~20-30 ns); the series are handed to prom-client's
// registry as a histogram when scraped, and it writes them in the exposition format.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { sql } from 'kysely';
import type { AppDeps } from '../deps.ts';
import { cacheCounts } from './cache-stats.ts';
import { idleGcCounts } from './idle-gc.ts';

/** Latency buckets in seconds: from a cached read (~1 ms) to a slow page (10 s). */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const UNMATCHED = '(unmatched)';

interface QueueRow {
  kind: string;
  status: string;
  due: number;
  n: number;
  oldest: string | null;
}

interface Series {
  labels: { method: string; route: string; status_code: string };
  /** counts[i]: observations in bucket i alone (not cumulative); the last slot is above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

/** The request histogram: one series per method, route pattern and status. */
export class RequestHistogram {
  readonly name = 'http_request_duration_seconds';
  readonly help =
    'HTTP requests by method, route pattern and status: latency from the first byte read to the last written';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series: Series[] = [];
  /** Per route pattern: its series by method length and status (see observe). */
  readonly #routes = new Map<string, Map<number, Series[]>>();

  /** Records one request: method, route pattern (UNMATCHED for the not-found handler), status and seconds. */
  observe(method: string, route: string, status: number, seconds: number): void {
    let byRoute = this.#routes.get(route);
    if (!byRoute) this.#routes.set(route, (byRoute = new Map()));
    const key = method.length * 1000 + status; // no Map of strings built per request: GET and PUT share a length…
    let list = byRoute.get(key);
    if (!list) byRoute.set(key, (list = []));
    let s: Series | undefined;
    for (const x of list) if (x.labels.method === method) s = x; // … so each slot holds the few methods of that length
    if (!s) list.push((s = this.#add(method, route, status)));
    let b = 0;
    while (b < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[b]) b++;
    s.counts[b]++;
    s.sum += seconds;
    s.count++;
  }

  #add(method: string, route: string, status: number): Series {
    const s: Series = {
      labels: { method, route, status_code: String(status) },
      counts: new Float64Array(LATENCY_BUCKETS.length + 1),
      sum: 0,
      count: 0,
    };
    this.#series.push(s);
    return s;
  }

  /** prom-client's metric interface: the series as a histogram's values (cumulative buckets, +Inf, sum, count). */
  get() {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    for (const s of this.#series) {
      let acc = 0;
      for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
        acc += s.counts[i];
        values.push({ labels: { ...s.labels, le: LATENCY_BUCKETS[i] }, value: acc, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.#series.length = 0;
    this.#routes.clear();
  }
}

export interface Metrics {
  registry: Registry;
  requests: RequestHistogram;
  /** A job this process ran (the workers call it); a draft.build's draft is read to count it built or failed. */
  jobRan(kind: string, outcome: string, seconds: number, payload: unknown): void;
}

/** The metrics of one app: its own registry (several apps in one test process do not collide). */
export function createMetrics(deps: AppDeps): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new RequestHistogram();
  registry.registerMetric(requests as never);
  const { db, engine } = deps.store;

  const jobsFinished = new Counter({
    name: 'launchlist_jobs_finished_total',
    help: 'Jobs this process ran, by kind and outcome (done, retry, failed, lease_lost, released)',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const jobSeconds = new Counter({
    name: 'launchlist_job_seconds_total',
    help: 'Seconds this process spent running jobs, by kind',
    labelNames: ['kind'],
    registers: [registry],
  });
  const drafts = new Counter({
    name: 'launchlist_drafts_finished_total',
    help: 'Drafts whose build this process finished, by the status it left: ready (built) or failed',
    labelNames: ['status'],
    registers: [registry],
  });
  for (const status of ['ready', 'failed']) drafts.inc({ status }, 0);

  // The queue as the database has it (shared by every instance): read once per scrape, by whichever
  // of the two gauges is collected first.
  let snapshot: { at: number; rows: Promise<QueueRow[]> } | undefined;
  const queue = (): Promise<QueueRow[]> => {
    const now = Date.now();
    if (!snapshot || now - snapshot.at > 500) {
      const iso = new Date(now).toISOString();
      snapshot = {
        at: now,
        rows: sql<QueueRow>`
          SELECT kind, status, CASE WHEN status = 'queued' AND run_at <= ${iso} THEN 1 ELSE 0 END AS due,
                 COUNT(*) AS n, MIN(run_at) AS oldest
          FROM jobs WHERE status IN ('queued', 'running', 'failed') GROUP BY kind, status, due`
          .execute(db)
          .then((r) => r.rows),
      };
    }
    return snapshot.rows;
  };
  new Gauge({
    name: 'launchlist_job_queue_depth',
    help: 'Jobs in the queue by kind and state: ready (due, waiting for a worker), scheduled (later), running, failed (kept 30 days)',
    labelNames: ['kind', 'state'],
    registers: [registry],
    async collect() {
      const rows = await queue();
      this.reset();
      for (const r of rows) {
        const state = r.status === 'queued' ? (Number(r.due) ? 'ready' : 'scheduled') : r.status;
        this.inc({ kind: r.kind, state }, Number(r.n));
      }
    },
  });
  new Gauge({
    name: 'launchlist_job_queue_lag_seconds',
    help: 'How long the oldest due job has waited for a worker (0 when none waits)',
    registers: [registry],
    async collect() {
      let oldest: string | null = null;
      for (const r of await queue())
        if (r.status === 'queued' && Number(r.due) && r.oldest && (oldest === null || r.oldest < oldest))
          oldest = r.oldest;
      this.set(oldest ? Math.max(0, (Date.now() - Date.parse(oldest)) / 1000) : 0);
    },
  });

  new Gauge({
    name: 'launchlist_db_pool_connections',
    help: 'Database connections of this process: PostgreSQL pool clients by state (total, idle, waiting = requests queued for a client); SQLite: its one read-write connection',
    labelNames: ['engine', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      const pool = deps.store.pgPool;
      if (pool) {
        this.set({ engine, state: 'total' }, pool.totalCount);
        this.set({ engine, state: 'idle' }, pool.idleCount);
        this.set({ engine, state: 'waiting' }, pool.waitingCount);
      } else this.set({ engine, state: 'total' }, 1);
    },
  });

  // Cache counters live in plain objects (ops/cache-stats.ts: an increment on the hot path); each scrape
  // adds what changed since the last one.
  const seen = new Map<string, number>();
  new Counter({
    name: 'launchlist_cache_requests_total',
    help: 'Cache look-ups by cache and result (hit, miss). profile_stored: get_listing found its stored profile current (miss: rebuilt); profile_text: PostgreSQL sent no text because this process held it; profile_fresh: answered with no round trip (PROFILE_FRESH_MS); cimd: client metadata documents; vies: VAT number checks',
    labelNames: ['cache', 'result'],
    registers: [registry],
    collect() {
      for (const [cache, c] of Object.entries(cacheCounts)) {
        for (const result of ['hit', 'miss'] as const) {
          const key = `${cache}|${result}`;
          const now = c[result];
          this.inc({ cache, result }, Math.max(0, now - (seen.get(key) ?? 0)));
          seen.set(key, now);
        }
      }
    },
  });

  // Memory-reducing collections run when the server went quiet (ops/idle-gc.ts), and their pauses.
  growingCounter(
    registry,
    'launchlist_idle_gc_total',
    'Memory-reducing garbage collections run when the server went quiet after a busy spell (IDLE_GC)',
    () => idleGcCounts.runs,
  );
  growingCounter(
    registry,
    'launchlist_idle_gc_seconds_total',
    'Seconds the event loop paused for those collections (with the malloc_trim after each, on glibc)',
    () => idleGcCounts.seconds,
  );

  return {
    registry,
    requests,
    jobRan(kind, outcome, seconds, payload) {
      jobsFinished.inc({ kind, outcome });
      jobSeconds.inc({ kind }, seconds);
      const draftId = (payload as { draftId?: unknown } | null)?.draftId;
      if (kind === 'draft.build' && (outcome === 'done' || outcome === 'failed') && typeof draftId === 'string') {
        db.selectFrom('drafts')
          .select('status')
          .where('id', '=', draftId)
          .executeTakeFirst()
          .then(
            (d) => {
              if (d && (d.status === 'ready' || d.status === 'failed')) drafts.inc({ status: d.status });
            },
            () => {},
          );
      }
    },
  };
}

/** A counter that reports a number this process only ever adds to (read at each scrape). */
function growingCounter(registry: Registry, name: string, help: string, total: () => number): void {
  let seen = 0;
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const now = total();
      this.inc(Math.max(0, now - seen));
      seen = now;
    },
  });
}

/**
 * Counts every answer, the not-found handler's too, in one onResponse hook. The route pattern comes from
 * the request's route options (a getter that builds a small object: measured, see the README).
 */
export function instrumentRequests(app: FastifyInstance, requests: RequestHistogram): void {
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    requests.observe(
      req.method,
      req.is404 ? UNMATCHED : (req.routeOptions.url ?? UNMATCHED),
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}

export { UNMATCHED };
