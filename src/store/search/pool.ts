// search_listings on SQLite, off the main event loop. node:sqlite is synchronous: a search that ranks
// thousands of matches (a very common word) would otherwise stop every other request for its whole
// duration, and a single thread would leave the second core idle. SEARCH_THREADS worker threads each
// hold a read-only connection to the database file (WAL: they see every committed write) and their own
// copy of the term dictionary; a search goes to the thread with the fewest searches in flight.
// PostgreSQL needs none of this: the work already happens in the database server's processes.
import { Worker } from 'node:worker_threads';
import { SearchInputError, type SearchInput, type SearchResult } from './index.ts';

interface Pending {
  resolve: (r: SearchResult) => void;
  reject: (e: unknown) => void;
}
interface Thread {
  worker: Worker;
  inFlight: Map<number, Pending>;
}

export class SearchPool {
  readonly #file: string;
  readonly #size: number;
  #threads: Thread[] = [];
  #nextId = 1;
  #closed = false;

  constructor(file: string, size: number) {
    this.#file = file;
    this.#size = size;
  }

  search(input: SearchInput): Promise<SearchResult> {
    if (this.#closed) return Promise.reject(new Error('the search pool is closed'));
    const thread = this.#pick();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      thread.inFlight.set(id, { resolve, reject });
      thread.worker.postMessage({ id, input: { ...input, now: input.now?.toISOString() } });
    });
  }

  /** Starts every thread now, each loading its in-memory index (feed.ts), instead of on the first searches. */
  warm(): void {
    while (!this.#closed && this.#threads.length < this.#size) this.#start();
  }

  async close(): Promise<void> {
    this.#closed = true;
    const threads = this.#threads;
    this.#threads = [];
    for (const t of threads) {
      for (const p of t.inFlight.values()) p.reject(new Error('the search pool is closed'));
      t.inFlight.clear();
    }
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  /** The thread with the fewest searches in flight; threads start on first use, up to the pool size. */
  #pick(): Thread {
    let best: Thread | undefined;
    for (const t of this.#threads) if (!best || t.inFlight.size < best.inFlight.size) best = t;
    if (best && (best.inFlight.size === 0 || this.#threads.length >= this.#size)) return best;
    return this.#start();
  }

  #start(): Thread {
    // A small young generation: a search allocates little that lives, and each thread's heap is resident memory.
    const worker = new Worker(new URL('./worker.ts', import.meta.url), {
      workerData: { file: this.#file },
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    worker.unref();
    const thread: Thread = { worker, inFlight: new Map() };
    worker.on('message', (msg: { id: number; result?: SearchResult; error?: { field?: string; message: string } }) => {
      const p = thread.inFlight.get(msg.id);
      if (!p) return;
      thread.inFlight.delete(msg.id);
      if (msg.error)
        p.reject(
          msg.error.field !== undefined
            ? new SearchInputError(msg.error.field, msg.error.message)
            : new Error(msg.error.message),
        );
      else p.resolve(msg.result!);
    });
    const fail = (err: unknown) => {
      // A thread that dies fails its searches (a 500 each) and is replaced on the next search.
      this.#threads = this.#threads.filter((t) => t !== thread);
      for (const p of thread.inFlight.values())
        p.reject(err instanceof Error ? err : new Error(`search thread exited (${String(err)})`));
      thread.inFlight.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.#closed) fail(new Error(`search thread exited with code ${code}`));
    });
    this.#threads.push(thread);
    return thread;
  }
}
