// Where each engine keeps its term dictionary, and how the in-memory copy stays current.
//   SQLite: the FTS5 index's own vocabulary (listings_fts_vocab). Whether the index changed is read
//     from the FTS5 structure record (listings_fts_data id 10), which every write to the index
//     rewrites: a few microseconds, so it is checked on every search. Reading the vocabulary scans the
//     whole index (~120 ms at 100,000 listings), so it is read in slices of VOCAB_SLICE terms (each a
//     few ms) with the event loop free to serve other requests in between. (A worker thread with its
//     own connection was tried: it kept ~30 MB more resident memory for no gain in latency.)
//   PostgreSQL: search_terms (every word the tsvector trigger has seen) and the sequence
//     search_terms_version that the trigger bumps when it adds a word (migration 020). A search
//     with the dictionary already in memory reads the sequence inside its own count query
//     (PG_SIGNATURE, see searchListings) rather than in a round trip of its own.
// Either way the search waits for a reload only after the words of the index changed, and then
// every query sees the new words.
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
/** Terms read per slice of the SQLite vocabulary (~3–8 ms each at 100,000 listings). */
const VOCAB_SLICE = 1000;

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

/** The dictionary in memory and the signature it was loaded at, without checking the index (none while loading). */
export function cachedTermDictionary(db: Kysely<DB>): { dict: TermDictionary; signature: string } | undefined {
  const state = states.get(db);
  return state && !state.loading ? state : undefined;
}

/** PostgreSQL: the signature of the index's words, as an expression (also read inside a search's own query). */
export const PG_SIGNATURE = sql<string>`(SELECT last_value::text || ':' || is_called::text FROM search_terms_version)`;

/** Forgets the cached dictionary (the next search reloads it). */
export function forgetTermDictionary(db: Kysely<DB>): void {
  states.delete(db);
}

async function readSignature(db: Kysely<DB>, engine: Engine): Promise<string> {
  if (engine === 'sqlite') {
    const row = (await sql<{ block: Uint8Array | null }>`SELECT block FROM listings_fts_data WHERE id = 10`.execute(db)).rows[0];
    return row?.block ? Buffer.from(row.block).toString('latin1') : '';
  }
  return (await sql<{ signature: string | null }>`SELECT ${PG_SIGNATURE} AS signature`.execute(db)).rows[0]?.signature ?? '';
}

/** All terms, sorted by UTF-16 code units (the order TermDictionary searches in). */
async function loadTerms(db: Kysely<DB>, engine: Engine): Promise<string[]> {
  if (engine === 'postgres') {
    const rows = (await sql<{ term: string }>`SELECT term FROM search_terms`.execute(db)).rows;
    return sortTerms(rows.map((r) => r.term));
  }
  const terms: string[] = [];
  for (let last = ''; ; ) {
    const rows = (await sql<{ term: string }>`SELECT term FROM listings_fts_vocab WHERE term > ${last} ORDER BY term LIMIT ${VOCAB_SLICE}`.execute(db)).rows;
    for (const r of rows) terms.push(r.term);
    if (rows.length < VOCAB_SLICE) break;
    last = rows[rows.length - 1].term;
    await new Promise((resolve) => setImmediate(resolve)); // let waiting requests run
  }
  return sortTerms(terms);
}

function sortTerms(terms: string[]): string[] {
  return terms.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
