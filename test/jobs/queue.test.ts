// The durable job queue on both engines: claim, lease, heartbeat, retries, failure, a worker killed
// mid-job and resumed by another, and exactly-once completion with two instances at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { freshStore, type TestDb } from '../support/app.ts';
import { openStore } from '../../src/store/index.ts';
import type { Store } from '../../src/store/connect.ts';
import {
  enqueue,
  getJob,
  claimNext,
  pruneJobs,
  runNextJob,
  runClaimedJob,
  drainJobs,
  completeJob,
  startWorkers,
  LeaseLost,
  PermanentJobError,
  type JobDeps,
  type JobHandlers,
} from '../../src/jobs/queue.ts';

let t: TestDb;
let second: Store;
const depsOf = (store: Store, now?: () => Date): JobDeps => ({
  store,
  config: t.config,
  services: {} as JobDeps['services'],
  now,
});

before(async () => {
  t = await freshStore();
  second = await openStore(t.config); // a second "instance" on the same database
});
after(async () => {
  await second.close();
  await t.cleanup();
});

async function clear() {
  await t.store.db.deleteFrom('jobs').execute();
}

test('an enqueued job runs once and ends done; nothing runs when the queue is empty', async () => {
  await clear();
  const seen: unknown[] = [];
  const handlers: JobHandlers = {
    'test.echo': {
      run: async (ctx) => {
        seen.push(ctx.job.payload);
      },
    },
  };
  const id = await enqueue(t.store.db, 'test.echo', { hello: 'world' });
  const r = await runNextJob(depsOf(t.store), handlers);
  assert.equal(r?.outcome, 'done');
  assert.deepEqual(seen, [{ hello: 'world' }]);
  const job = await getJob(t.store.db, id);
  assert.equal(job?.status, 'done');
  assert.equal(job?.attempts, 1);
  assert.equal(job?.locked_by, null);
  assert.equal(await runNextJob(depsOf(t.store), handlers), undefined);
});

test('a job scheduled for later is not claimed before its time', async () => {
  await clear();
  const handlers: JobHandlers = { 'test.later': { run: async () => {} } };
  const base = Date.now();
  await enqueue(t.store.db, 'test.later', {}, { runAt: new Date(base + 60_000) });
  assert.equal(
    await runNextJob(
      depsOf(t.store, () => new Date(base)),
      handlers,
    ),
    undefined,
  );
  const r = await runNextJob(
    depsOf(t.store, () => new Date(base + 61_000)),
    handlers,
  );
  assert.equal(r?.outcome, 'done');
});

test('errors are retried with growing backoff, then the job fails for good and onFailed runs in the same transaction', async () => {
  await clear();
  let calls = 0;
  const failedWith: string[] = [];
  const handlers: JobHandlers = {
    'test.flaky': {
      maxAttempts: 3,
      run: async () => {
        calls++;
        throw new Error(`boom ${calls}`);
      },
      onFailed: async (trx, job, error) => {
        failedWith.push(error);
        await trx
          .insertInto('settings')
          .values({ key: `failed-${job.id}`, value: '"yes"', updated_at: new Date().toISOString() })
          .execute();
      },
    },
  };
  const id = await enqueue(t.store.db, 'test.flaky', {});
  let clock = Date.now();
  const deps = depsOf(t.store, () => new Date(clock));
  assert.equal((await runNextJob(deps, handlers, { backoffMs: 1000 }))?.outcome, 'retry');
  let job = await getJob(t.store.db, id);
  assert.equal(job?.status, 'queued');
  assert.match(job?.last_error ?? '', /boom 1/);
  assert.equal(Date.parse(job!.run_at) - clock, 1000, 'first retry after backoffMs');
  assert.equal(await runNextJob(deps, handlers, { backoffMs: 1000 }), undefined, 'not before the backoff has passed');
  clock += 1000;
  assert.equal((await runNextJob(deps, handlers, { backoffMs: 1000 }))?.outcome, 'retry');
  job = await getJob(t.store.db, id);
  assert.equal(Date.parse(job!.run_at) - clock, 2000, 'the backoff doubles');
  clock += 2000;
  assert.equal((await runNextJob(deps, handlers, { backoffMs: 1000 }))?.outcome, 'failed');
  job = await getJob(t.store.db, id);
  assert.equal(job?.status, 'failed');
  assert.equal(job?.attempts, 3);
  assert.match(job?.last_error ?? '', /boom 3/);
  assert.equal(calls, 3);
  assert.equal(failedWith.length, 1);
  assert.ok(
    await t.store.db.selectFrom('settings').select('key').where('key', '=', `failed-${id}`).executeTakeFirst(),
    'onFailed wrote in the failing transaction',
  );
});

test('a PermanentJobError fails at once, without retries', async () => {
  await clear();
  let calls = 0;
  const handlers: JobHandlers = {
    'test.perm': {
      run: async () => {
        calls++;
        throw new PermanentJobError('bad payload');
      },
    },
  };
  const id = await enqueue(t.store.db, 'test.perm', {});
  assert.equal((await runNextJob(depsOf(t.store), handlers))?.outcome, 'failed');
  assert.equal(calls, 1);
  assert.equal((await getJob(t.store.db, id))?.status, 'failed');
});

test('a worker killed mid-job: the job is taken over after the lease expires, resumes and completes; the dead worker cannot complete it', async () => {
  await clear();
  const handlers: JobHandlers = {
    'test.resume': {
      run: async (ctx) => {
        await ctx.complete(async (trx) => {
          await trx
            .insertInto('settings')
            .values({
              key: `done-by-${ctx.job.id}`,
              value: JSON.stringify(ctx.workerId),
              updated_at: new Date().toISOString(),
            })
            .execute();
        });
      },
    },
  };
  const id = await enqueue(t.store.db, 'test.resume', { n: 1 });
  const start = Date.now();
  // Worker A claims the job and "dies" (never finishes, never heartbeats).
  const a = await claimNext(
    depsOf(t.store, () => new Date(start)),
    'worker-A',
    { leaseMs: 30_000 },
  );
  assert.equal(a?.id, id);
  assert.equal((await getJob(t.store.db, id))?.status, 'running');
  // While the lease holds, nobody else gets it.
  assert.equal(
    await runNextJob(
      depsOf(second, () => new Date(start + 10_000)),
      handlers,
      { workerId: 'worker-B' },
    ),
    undefined,
  );
  // After the lease expired, worker B (another instance) takes it over and completes it.
  const r = await runNextJob(
    depsOf(second, () => new Date(start + 31_000)),
    handlers,
    { workerId: 'worker-B' },
  );
  assert.equal(r?.outcome, 'done');
  const job = await getJob(t.store.db, id);
  assert.equal(job?.status, 'done');
  assert.equal(job?.attempts, 2, 'the take-over counts as a second attempt');
  const row = await t.store.db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', `done-by-${id}`)
    .executeTakeFirstOrThrow();
  assert.equal(JSON.parse(row.value), 'worker-B');
  // Worker A comes back to life: it cannot complete the job a second time.
  await assert.rejects(
    completeJob(depsOf(t.store), id, 'worker-A', async (trx) => {
      await trx
        .insertInto('settings')
        .values({ key: `done-twice-${id}`, value: '1', updated_at: new Date().toISOString() })
        .execute();
    }),
    LeaseLost,
  );
  assert.equal(
    await t.store.db.selectFrom('settings').select('key').where('key', '=', `done-twice-${id}`).executeTakeFirst(),
    undefined,
    "the late worker's writes were rolled back",
  );
});

test('a job whose worker died more often than its attempts allow ends failed, with onFailed', async () => {
  await clear();
  let ran = 0;
  let failed = 0;
  const handlers: JobHandlers = {
    'test.dies': {
      maxAttempts: 2,
      run: async () => {
        ran++;
      },
      onFailed: async () => {
        failed++;
      },
    },
  };
  const id = await enqueue(t.store.db, 'test.dies', {});
  const start = Date.now();
  await claimNext(
    depsOf(t.store, () => new Date(start)),
    'w1',
    { leaseMs: 1000 },
  );
  await claimNext(
    depsOf(t.store, () => new Date(start + 2000)),
    'w2',
    { leaseMs: 1000 },
  );
  const r = await runNextJob(
    depsOf(t.store, () => new Date(start + 4000)),
    handlers,
    { workerId: 'w3', leaseMs: 1000 },
  );
  assert.equal(r?.outcome, 'failed');
  assert.equal(ran, 0);
  assert.equal(failed, 1);
  const job = await getJob(t.store.db, id);
  assert.equal(job?.status, 'failed');
  assert.match(job?.last_error ?? '', /gave up/);
});

test('a running job keeps its lease by heartbeat: a second worker cannot steal a long job', async () => {
  await clear();
  let runs = 0;
  const handlers: JobHandlers = {
    'test.long': {
      run: async () => {
        runs++;
        await delay(700);
      },
    },
  };
  const id = await enqueue(t.store.db, 'test.long', {});
  const first = runNextJob(depsOf(t.store), handlers, { workerId: 'A', leaseMs: 240 });
  await delay(450); // longer than the lease: only the heartbeat keeps it
  assert.equal(await runNextJob(depsOf(second), handlers, { workerId: 'B', leaseMs: 240 }), undefined);
  assert.equal((await first)?.outcome, 'done');
  assert.equal(runs, 1);
  assert.equal((await getJob(t.store.db, id))?.attempts, 1);
});

test('a handler that loses its lease is told (signal aborted) and its completion is refused', async () => {
  await clear();
  let aborted = false;
  const handlers: JobHandlers = {
    'test.lose': {
      run: async (ctx) => {
        // Someone else takes the job over (simulated: the lease is reassigned).
        await t.store.db.updateTable('jobs').set({ locked_by: 'thief' }).where('id', '=', ctx.job.id).execute();
        await delay(150);
        aborted = ctx.signal.aborted;
        await ctx.complete();
      },
    },
  };
  await enqueue(t.store.db, 'test.lose', {});
  const r = await runNextJob(depsOf(t.store), handlers, { workerId: 'A', leaseMs: 90 });
  assert.equal(r?.outcome, 'lease_lost');
  assert.equal(aborted, true);
});

test('exactly-once: two instances draining the same queue at once run every job exactly once', async () => {
  await clear();
  const N = 40;
  const counts = new Map<number, string[]>();
  const make = (name: string): JobHandlers => ({
    'test.once': {
      run: async (ctx) => {
        const n = (ctx.job.payload as { n: number }).n;
        counts.set(n, [...(counts.get(n) ?? []), name]);
        await delay(2);
      },
    },
  });
  for (let n = 0; n < N; n++) await enqueue(t.store.db, 'test.once', { n });
  const [a, b, c] = await Promise.all([
    drainJobs(depsOf(t.store), make('A1'), { workerId: 'A1' }),
    drainJobs(depsOf(second), make('B1'), { workerId: 'B1' }),
    drainJobs(depsOf(second), make('B2'), { workerId: 'B2' }),
  ]);
  assert.equal(a.length + b.length + c.length, N);
  assert.equal(counts.size, N);
  for (const [n, by] of counts) assert.equal(by.length, 1, `job ${n} ran ${by.length} times (${by.join(', ')})`);
  const left = await t.store.db.selectFrom('jobs').select('status').where('status', '!=', 'done').execute();
  assert.equal(left.length, 0);
  assert.ok(a.length > 0 && b.length + c.length > 0, `both instances took jobs (${a.length} / ${b.length + c.length})`);
});

test('startWorkers picks jobs up by itself, wake() starts them at once, stop() ends the loops', async () => {
  await clear();
  const done: number[] = [];
  const handlers: JobHandlers = {
    'test.bg': {
      run: async (ctx) => {
        done.push((ctx.job.payload as { n: number }).n);
      },
    },
  };
  const workers = startWorkers(depsOf(t.store), handlers, { concurrency: 2, pollMs: 5000 });
  await delay(50);
  await enqueue(t.store.db, 'test.bg', { n: 1 });
  await enqueue(t.store.db, 'test.bg', { n: 2 });
  workers.wake();
  for (let i = 0; i < 100 && done.length < 2; i++) await delay(20);
  await workers.stop();
  assert.deepEqual(done.sort(), [1, 2]);
});

test('stopping a worker mid-job gives the job back for another worker instead of failing it', async () => {
  await clear();
  let started = false;
  const handlers: JobHandlers = {
    'test.stop': {
      run: async (ctx) => {
        started = true;
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, 10_000);
          ctx.signal.addEventListener(
            'abort',
            () => {
              clearTimeout(timer);
              reject(ctx.signal.reason);
            },
            { once: true },
          );
        });
      },
    },
  };
  const id = await enqueue(t.store.db, 'test.stop', {});
  const workers = startWorkers(depsOf(t.store), handlers, { concurrency: 1, pollMs: 10 });
  for (let i = 0; i < 100 && !started; i++) await delay(10);
  assert.ok(started);
  await workers.stop(50);
  const job = await getJob(t.store.db, id);
  assert.equal(job?.status, 'queued');
  assert.equal(job?.attempts, 0, 'a shutdown is not counted as an attempt');
  assert.equal(job?.locked_by, null);
  // …and a new worker completes it.
  const r = await runClaimedJob(
    depsOf(t.store),
    { 'test.stop': { run: async () => {} } },
    (await claimNext(depsOf(t.store), 'C'))!,
    'C',
  );
  assert.equal(r.outcome, 'done');
});

test('pruneJobs deletes done jobs after a week and failed ones after a month, never queued or running ones', async () => {
  await clear();
  const handlers: JobHandlers = {
    'test.ok': { run: async () => {} },
    'test.bad': {
      run: async () => {
        throw new PermanentJobError('no');
      },
    },
  };
  const done = await enqueue(t.store.db, 'test.ok', {});
  await runNextJob(depsOf(t.store), handlers, { kinds: ['test.ok'] });
  const failed = await enqueue(t.store.db, 'test.bad', {});
  await runNextJob(depsOf(t.store), handlers, { kinds: ['test.bad'] });
  const queued = await enqueue(t.store.db, 'test.ok', {}, { runAt: new Date(Date.now() + 365 * 86_400_000) });
  const day = 86_400_000;
  assert.equal(await pruneJobs(depsOf(t.store, () => new Date(Date.now() + 6 * day))), 0);
  assert.equal(await pruneJobs(depsOf(t.store, () => new Date(Date.now() + 8 * day))), 1);
  assert.equal(await getJob(t.store.db, done), undefined);
  assert.ok(await getJob(t.store.db, failed));
  assert.equal(await pruneJobs(depsOf(t.store, () => new Date(Date.now() + 31 * day))), 1);
  assert.equal(await getJob(t.store.db, failed), undefined);
  assert.equal((await getJob(t.store.db, queued))?.status, 'queued');
});
