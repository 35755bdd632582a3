// SQLite's checkpoints in a thread of their own (store/checkpoints.ts): commits on the main thread only
// append to the write-ahead log, the log stays short under a steady stream of commits, nothing
// committed is lost, and the writer checkpoints by itself again once the thread stops.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { sql } from 'kysely';
import { freshStore, type TestDb } from '../support/app.ts';
import { sqliteAdapterOf } from '../../src/store/sqlite.ts';
import { CheckpointThread } from '../../src/store/checkpoints.ts';

let t: TestDb;
before(async () => {
  t = await freshStore();
});
after(async () => {
  await t.cleanup();
});

const autoCheckpoint = (): number =>
  Number(
    (sqliteAdapterOf(t.store.db)!.raw.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number })
      .wal_autocheckpoint,
  );

test('under a steady stream of commits the log stays short and every commit is kept', async (c) => {
  if (t.store.engine !== 'sqlite') return c.skip('an SQLite mechanism');
  const file = t.store.sqliteFile!;
  const raw = sqliteAdapterOf(t.store.db)!.raw;
  raw.exec('CREATE TABLE stream (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const thread = new CheckpointThread(file, raw, { everyMs: 5, restartFrames: 64 });
  await thread.ready;
  assert.equal(autoCheckpoint(), 0, 'the writer no longer checkpoints by itself');
  const insert = raw.prepare('INSERT INTO stream (body) VALUES (?)');
  const body = 'x'.repeat(3000); // about one page a commit
  let largest = 0;
  const deadline = Date.now() + 1500;
  let n = 0;
  while (Date.now() < deadline) {
    for (let i = 0; i < 20; i++, n++) insert.run(body); // each its own transaction
    largest = Math.max(largest, statSync(`${file}-wal`).size);
    await new Promise((r) => setTimeout(r, 1)); // the event loop turns, as it does between requests
  }
  assert.ok(n > 500, `commits made: ${n}`);
  // Without restarts the log would hold every commit (a page each and more); with them, a few limits' worth.
  assert.ok(largest * 4 < n * 4096, `largest log: ${largest} bytes for ${n} commits`);
  await thread.close();
  assert.equal(autoCheckpoint(), 1000, 'the writer checkpoints by itself again');
  const count = await sql<{ n: number }>`SELECT count(*) AS n FROM stream`.execute(t.store.db);
  assert.equal(Number(count.rows[0].n), n);
});
