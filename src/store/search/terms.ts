// Where each engine keeps its term dictionary, and how the in-memory copy stays current.
//   SQLite: the FTS5 index's own vocabulary (listings_fts_vocab). Whether the index changed is read
//     from the FTS5 structure record (listings_fts_data id 10), which every write to the index
//     rewrites: a few microseconds, so it is checked on every search. Reading the vocabulary scans the
//     whole index (~150 ms at 100,000 listings), so it runs on a worker thread with its own read-only
//     connection and the event loop keeps serving other requests.
//   PostgreSQL: search_terms (every word the tsvector trigger has seen) and the sequence
//     search_terms_version that the trigger bumps when it adds a word (migration 020).
// Either way the search waits for a reload only after the words of the index changed, and then
// every query sees the new words.
import { Worker } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import type { DB } from '../types.ts';
import { TermDictionary } from './dictionary.ts';

interface State {
  dict: TermDictionary;
  signature: string;
  loading?: Promise<TermDictionary>;
}

const states = new WeakMap<Kysely<DB>, State>();

/** The current dictionary of the index behind `db`, reloaded when the index's words changed. */
export async function termDictionary(db: Kysely<DB>, engine: Engine): Promise<TermDictionary> {
  const state = states.get(db);
  const signature = await readSignature(db, engine);
  if (state && state.signature === signature) return state.dict;
  if (state?.loading) return state.loading;
  const loading = loadTerms(db, engine).then((terms) => {
    const dict = TermDictionary.fromSorted(terms);
    states.set(db, { dict, signature });
    return dict;
  });
  if (state) state.loading = loading;
  else states.set(db, { dict: new TermDictionary([]), signature: '\u0000never', loading });
  try {
    return await loading;
  } finally {
    const s = states.get(db);
    if (s?.loading === loading) s.loading = undefined;
  }
}

/** Forgets the cached dictionary (the next search reloads it). */
export function forgetTermDictionary(db: Kysely<DB>): void {
  states.delete(db);
}

async function readSignature(db: Kysely<DB>, engine: Engine): Promise<string> {
  if (engine === 'sqlite') {
    const row = (await sql<{ block: Uint8Array | null }>`SELECT block FROM listings_fts_data WHERE id = 10`.execute(db)).rows[0];
    return row?.block ? Buffer.from(row.block).toString('latin1') : '';
  }
  const row = (await sql<{ v: number; called: boolean }>`SELECT last_value AS v, is_called AS called FROM search_terms_version`.execute(db)).rows[0];
  return row ? `${row.v}:${row.called}` : '';
}

/** All terms, sorted by UTF-16 code units (the order TermDictionary searches in). */
async function loadTerms(db: Kysely<DB>, engine: Engine): Promise<string[]> {
  if (engine === 'postgres') {
    const rows = (await sql<{ term: string }>`SELECT term FROM search_terms`.execute(db)).rows;
    return sortTerms(rows.map((r) => r.term));
  }
  const file = (await sql<{ name: string; file: string }>`PRAGMA database_list`.execute(db)).rows.find((r) => r.name === 'main')?.file;
  if (file) {
    try {
      return await loadInWorker(file);
    } catch {
      // fall through: read on this thread
    }
  }
  const rows = (await sql<{ term: string }>`SELECT term FROM listings_fts_vocab`.execute(db)).rows;
  return sortTerms(rows.map((r) => r.term));
}

function sortTerms(terms: string[]): string[] {
  return terms.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file, { readOnly: true });
try {
  db.exec('PRAGMA busy_timeout = 5000');
  const terms = db.prepare('SELECT term FROM listings_fts_vocab').all().map((r) => r.term);
  terms.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  parentPort.postMessage(terms.join('\\n'));
} finally {
  db.close();
}`;

function loadInWorker(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { file } });
    worker.once('message', (text: string) => resolve(text ? text.split('\n') : []));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`term loader exited with ${code}`)));
  });
}
