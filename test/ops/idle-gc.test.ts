// Memory given back when the server goes quiet after a busy spell (src/ops/idle-gc.ts, IDLE_GC): the
// decision (busy seconds never collect; two quiet seconds after growth collect once), V8's collector as
// the module takes it (a real collection, with nothing left on the global object), and the started
// server, which collects once it has gone quiet and says so on /metrics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setImmediate as tick } from 'node:timers/promises';
import { exposeGc, GROWTH_BYTES, IdleReducer, QUIET_UTILISATION } from '../../src/ops/idle-gc.ts';
import { freePort } from '../support/net.ts';

const MB = 1024 * 1024;
const BUSY = 0.6;
const QUIET = QUIET_UTILISATION / 2;

test('a busy server is never paused; two quiet seconds after its memory grew give memory back once', () => {
  let rss = 300 * MB;
  let runs = 0;
  const r = new IdleReducer(
    () => {
      runs++;
      rss = 200 * MB; // what the collection gave back
    },
    () => rss,
  );
  for (let i = 0; i < 10; i++) assert.equal(r.tick(BUSY), undefined, 'never while busy');
  assert.equal(r.tick(QUIET), undefined, 'one quiet second is not enough');
  assert.equal(r.tick(BUSY), undefined);
  assert.equal(r.tick(QUIET), undefined, 'a busy second starts the quiet run again');
  const done = r.tick(QUIET);
  assert.ok(done, 'the second quiet second in a row collects');
  assert.equal(runs, 1);
  assert.equal(done.rssBefore, 300 * MB);
  assert.equal(done.rssAfter, 200 * MB);
  for (let i = 0; i < 5; i++) assert.equal(r.tick(QUIET), undefined, 'quiet on, with nothing new to give back');
  // another busy spell: the memory grows past the threshold since the last collection
  for (let i = 0; i < 3; i++) r.tick(BUSY);
  rss = 200 * MB + GROWTH_BYTES - 1;
  r.tick(QUIET);
  assert.equal(r.tick(QUIET), undefined, 'grown by less than the threshold: not worth a pause');
  rss = 200 * MB + GROWTH_BYTES;
  assert.ok(r.tick(QUIET), 'still quiet, and grown by the threshold');
  assert.equal(runs, 2);
});

test("V8's collector, as the module takes it, really collects, and leaves no gc on the global object", async () => {
  const gc = exposeGc();
  assert.ok(gc, 'the collector is had without --expose-gc');
  assert.equal((globalThis as { gc?: unknown }).gc, undefined);
  const ref = (() => new WeakRef({ big: new Array(1000).fill('x') }))();
  await tick(); // a WeakRef's target lives to the end of the job that made it
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  assert.equal(ref.deref(), undefined, 'the unreachable object was collected');
});

test('the started server gives memory back once it has gone quiet (and IDLE_GC=false turns it off)', async () => {
  const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
  const counted = async (idleGc: string): Promise<number> => {
    const dir = mkdtempSync(join(tmpdir(), 'launchlist-idle-gc-'));
    const port = await freePort();
    const env: Record<string, string | undefined> = { ...process.env, PORT: String(port), HOST: '127.0.0.1' };
    env.DATA_DIR = dir;
    env.SEED_DEMO = 'false';
    delete env.DATABASE_URL; // SQLite in DATA_DIR whatever the caller's engine
    const child = spawn(process.execPath, [main], {
      env: { ...env, LOG_LEVEL: 'warn', WORKERS: 'false', IDLE_GC: idleGc },
      stdio: 'ignore',
    });
    try {
      const metric = async () => {
        const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
          (r) => (r.ok ? r.text() : ''),
          () => '',
        );
        const m = /^launchlist_idle_gc_total (\d+)/m.exec(text);
        return m ? Number(m[1]) : undefined;
      };
      for (let i = 0; i < 300 && (await metric()) === undefined; i++) await new Promise((r) => setTimeout(r, 50));
      // started (its own start is work whose garbage counts), then quiet: within a few seconds it collects
      let n = 0;
      const until = Date.now() + (idleGc === 'true' ? 10_000 : 4_000);
      while (Date.now() < until && !n) {
        await new Promise((r) => setTimeout(r, 250));
        n = (await metric()) ?? 0;
      }
      return n ?? 0;
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    }
  };
  assert.ok((await counted('true')) >= 1, 'a collection is counted on /metrics');
  assert.equal(await counted('false'), 0);
});
