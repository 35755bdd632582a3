// The checkpoint thread (store/checkpoints.ts): its own connection to the SQLite file, copying what
// the write-ahead log holds into the database file every `everyMs`, off the main event loop.
// Messages: 'stop' in (a last checkpoint, then the connection closes; the thread exits); out, 'ready'
// once, then 'restart' (the log is long and all copied: the writer may restart it).
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const { file, everyMs, restartFrames } = workerData as { file: string; everyMs: number; restartFrames: number };
const db = new DatabaseSync(file);
// The same durability as the writer's connection (store/sqlite.ts): a checkpoint syncs the log before
// it copies and the database file after.
db.exec('PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 0;');
// PASSIVE: copies what no reader still needs and never waits for, nor blocks, the writer or a reader.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const run = () => {
  try {
    const r = checkpoint.get() as { busy: number; log: number; checkpointed: number };
    // The log starts again from its beginning only when a write begins just after the whole log was
    // copied, which under a steady stream of commits a checkpoint here never meets: past the limit,
    // the writer is asked to copy the few pages committed since, itself (see checkpoints.ts).
    if (r.busy === 0 && r.log >= restartFrames && r.checkpointed === r.log) parentPort!.postMessage('restart');
  } catch {
    // busy (another checkpoint runs): the next tick tries again
  }
};
const timer = setInterval(run, everyMs);
parentPort!.postMessage('ready');
parentPort!.on('message', (msg: unknown) => {
  if (msg !== 'stop') return;
  clearInterval(timer);
  run();
  db.close();
  parentPort!.close();
});
