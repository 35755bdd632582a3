// SQLite checkpoints in a thread of their own, so a commit on the main event loop only appends to the
// write-ahead log.
//
// In WAL mode every commit appends the pages it changed to the log, and by default the committing
// connection copies the log back into the database file (and syncs that file) once the log passes
// 1,000 pages: every ~70 votes, one vote waited for a checkpoint of a few milliseconds, on the event
// loop that serves every page. Measured in process on SQLite with 100,000 listings, a vote's commit
// averaged ~550 µs with checkpoints on the writer and ~200 µs without; votes per second (one at a
// time) went from ~470 to ~950.
//
// So a server turns the writer's automatic checkpoints off and a thread with its own connection runs a
// PASSIVE checkpoint every CHECKPOINT_EVERY_MS: it copies what no reader still needs, and never waits
// for the writer nor blocks it. The log starts again from its beginning only when a write begins just
// after the whole log was copied, which under a steady stream of commits a checkpoint from another
// connection never meets (the log would only grow). So once the log passes RESTART_FRAMES and the thread
// has copied all of it, the writer runs a PASSIVE checkpoint itself: it copies only the pages committed
// since (milliseconds), and its next commit restarts the log (journal_size_limit trims the file). A
// RESTART checkpoint from the thread would do it without the writer, but it holds writes back, and a
// transaction that began as a read then fails at once with "database is locked" (no busy wait for an
// upgrade, by SQLite's design): measured, 1 vote in 7 under load. Durability is unchanged: a commit is in the log
// before it is acknowledged, whoever copies it later. When the thread stops (server close) or dies,
// the writer's automatic checkpoints are turned back on.
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';

/** How often the thread checkpoints. */
const CHECKPOINT_EVERY_MS = 100;
/**
 * Past this many pages in the log (64 MB of 4 KB pages), the writer is asked to restart it: each time
 * costs the writer a checkpoint of the pages since the thread's (and a sync) on the event loop. At 4,096
 * it was ~9 % of a vote's time under a stream of votes; at 16,384, a quarter of that.
 */
const RESTART_FRAMES = 16_384;
/** SQLite's default automatic checkpoint (pages), restored when the thread is not running. */
const AUTO_CHECKPOINT_PAGES = 1000;
/** The log file is cut back to this size when it starts again from its beginning. */
const WAL_SIZE_LIMIT = 80 * 1024 * 1024;

export class CheckpointThread {
  readonly #writer: DatabaseSync;
  readonly #worker: Worker;
  readonly #done: Promise<void>;
  /** Settles once the thread has its connection (its first checkpoint follows within `everyMs`). */
  readonly ready: Promise<void>;

  constructor(file: string, writer: DatabaseSync, opts: { everyMs?: number; restartFrames?: number } = {}) {
    this.#writer = writer;
    this.#worker = new Worker(new URL('./checkpoint-thread.ts', import.meta.url), {
      workerData: {
        file,
        everyMs: opts.everyMs ?? CHECKPOINT_EVERY_MS,
        restartFrames: opts.restartFrames ?? RESTART_FRAMES,
      },
      resourceLimits: { maxYoungGenerationSizeMb: 1 },
    });
    this.#worker.unref();
    let started: () => void;
    this.ready = new Promise((resolve) => (started = resolve));
    this.#worker.on('message', (msg: unknown) => {
      if (msg === 'ready') started();
      if (msg !== 'restart') return;
      try {
        writer.exec('PRAGMA wal_checkpoint(PASSIVE)');
      } catch {
        // inside a transaction, or busy: the thread asks again
      }
    });
    writer.exec(`PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT};`);
    this.#done = new Promise((resolve) => {
      const restore = () => {
        this.#autoCheckpoints();
        resolve();
      };
      this.#worker.once('exit', restore);
      this.#worker.once('error', restore);
    });
  }

  /** Stops the thread after a last checkpoint; the writer checkpoints by itself again. */
  async close(): Promise<void> {
    this.#worker.ref(); // the process waits for the last checkpoint
    this.#worker.postMessage('stop');
    await this.#done;
  }

  #autoCheckpoints(): void {
    try {
      this.#writer.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES};`);
    } catch {
      // the writer is closed already: nothing to restore
    }
  }
}
