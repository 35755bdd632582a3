// The in-memory search index: every listing's words, held in the application, ranked the way FTS5's
// bm25() ranks them. It answers the common search (words, sort by relevance, live listings, no other
// filter) without a database statement per match: at 100,000 listings a very common word matches
// ~25,000 of them, and bm25() plus the join to listings cost ~1 µs each in SQLite (25–40 ms per such
// search); here they cost a few tens of nanoseconds.
//
//   documents   one slot per version of a listing's text: its id, status (live or not), votes and
//               length in words. A listing whose text changes gets a new slot and its old slot dies
//               (its postings are skipped, and dropped at the next compaction); a change to its votes
//               or status only rewrites its slot.
//   postings    per word: the slots holding it, delta-encoded as varints, each followed by the word's
//               weighted frequency in that listing (a byte: name ×5, tagline ×2, description ×1,
//               keywords ×2, the weights of the SQL path's bm25).
//
// Ranking is FTS5's bm25 exactly (fts5_aux.c: k1 = 1.2, b = 0.75, IDF = ln((N − n + 0.5)/(n + 0.5)),
// at least 1e-6, every listing of any status counted in N and n as FTS5 counts every row), then more
// votes, then the lower id: on SQLite the same order as the SQL path, on PostgreSQL the same order as
// on SQLite. Which listings match is the plan's (plan.ts): every word, each through any of its terms.
//
// The index is engine-free; store/search/feed.ts fills it and keeps it current.
import type { WordPlan } from './plan.ts';
import { TermDictionary } from './dictionary.ts';
import type { Engine } from '../connect.ts';
import { tokenize } from './tokenize.ts';

const K1 = 1.2;
const B = 0.75;
/** bm25 weights of name, tagline, description, keywords (as the SQL path's bm25(listings_fts, 5, 2, 1, 2)). */
const WEIGHTS = [5, 2, 1, 2] as const;
const DEAD = 0;
const LIVE = 1;
const OTHER = 2;

/** A listing's row as the feed reads it. */
export interface IndexRow {
  id: number;
  status: string;
  votes_count: number;
  name: string | null;
  tagline: string | null;
  description: string | null;
  keywords: string | null;
}

class Postings {
  bytes: Uint8Array;
  len = 0;
  /** The last slot appended (deltas are from it). */
  last = -1;
  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
  }
  push(slot: number, f: number): void {
    if (this.len + 7 > this.bytes.length) {
      const grown = new Uint8Array(Math.max(16, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.len));
      this.bytes = grown;
    }
    let d = slot - this.last;
    this.last = slot;
    const b = this.bytes;
    let i = this.len;
    while (d >= 0x80) {
      b[i++] = (d & 0x7f) | 0x80;
      d >>>= 7;
    }
    b[i++] = d;
    b[i++] = f > 255 ? 255 : f;
    this.len = i;
  }
  trim(): void {
    if (this.bytes.length > this.len) this.bytes = this.bytes.slice(0, this.len);
  }
}

export interface RankedPage {
  /** Listing ids of the page, best first. */
  ids: number[];
  /** Every live listing that matches. */
  total: number;
}

export class MemorySearchIndex {
  readonly engine: Engine;
  #ids = new Int32Array(1024);
  #status = new Uint8Array(1024);
  #votes = new Int32Array(1024);
  #length = new Uint32Array(1024);
  #hash = new Int32Array(1024);
  #slots = 0;
  #slotOf = new Map<number, number>();
  #postings = new Map<string, Postings>();
  /** Documents (of any status) and their words in all, for bm25's N and average length. */
  #docs = 0;
  #tokens = 0;
  #deadSlots = 0;
  #dictionary: TermDictionary | undefined;
  // Per-search scratch, one entry per slot (grown with the slots).
  #stamp = new Uint32Array(0);
  #epoch = 0;
  #freq = new Float64Array(0);
  #score = new Float64Array(0);
  #mask = new Uint16Array(0);
  #queryStamp = new Uint32Array(0);
  #queryEpoch = 0;
  #touched = new Int32Array(0);
  #queryTouched = new Int32Array(0);

  constructor(engine: Engine) {
    this.engine = engine;
  }

  get size(): number {
    return this.#slotOf.size;
  }

  /** The index's words, for the typo corrections (rebuilt after words were added or dropped). */
  dictionary(): TermDictionary {
    if (!this.#dictionary) this.#dictionary = new TermDictionary(this.#postings.keys());
    return this.#dictionary;
  }

  /** Adds or refreshes a listing. */
  upsert(row: IndexRow): void {
    const status = row.status === 'live' ? LIVE : OTHER;
    const text = [row.name ?? '', row.tagline ?? '', row.description ?? '', row.keywords ?? ''];
    const hash = hashTexts(text);
    const old = this.#slotOf.get(row.id);
    if (old !== undefined && this.#hash[old] === hash) {
      this.#status[old] = status;
      this.#votes[old] = row.votes_count;
      return;
    }
    if (old !== undefined) this.#kill(old);
    const slot = this.#newSlot();
    const freq = new Map<string, number>();
    let length = 0;
    for (let c = 0; c < 4; c++) {
      if (!text[c]) continue;
      const words = tokenize(text[c], this.engine);
      length += words.length;
      const w = WEIGHTS[c];
      for (const t of words) freq.set(t, (freq.get(t) ?? 0) + w);
    }
    for (const [term, f] of freq) {
      let p = this.#postings.get(term);
      if (!p) {
        p = new Postings(8);
        this.#postings.set(term, p);
        this.#dictionary = undefined;
      }
      p.push(slot, f);
    }
    this.#ids[slot] = row.id;
    this.#status[slot] = status;
    this.#votes[slot] = row.votes_count;
    this.#length[slot] = length;
    this.#hash[slot] = hash;
    this.#slotOf.set(row.id, slot);
    this.#docs++;
    this.#tokens += length;
  }

  /** Forgets a deleted listing. */
  remove(id: number): void {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return;
    this.#slotOf.delete(id);
    this.#kill(slot);
  }

  /** After a bulk load: postings lose their spare capacity. */
  trim(): void {
    for (const p of this.#postings.values()) p.trim();
  }

  /** Drops the postings of dead slots once they are a third of all slots; words left without a listing go too. */
  compactIfWorthIt(): void {
    if (this.#deadSlots < 1000 || this.#deadSlots * 3 < this.#slots) return;
    const status = this.#status;
    for (const [term, p] of this.#postings) {
      const kept = new Postings(p.len);
      const b = p.bytes;
      let slot = -1;
      for (let i = 0; i < p.len; ) {
        let d = 0;
        let shift = 0;
        let byte: number;
        do {
          byte = b[i++];
          d |= (byte & 0x7f) << shift;
          shift += 7;
        } while (byte & 0x80);
        slot += d;
        const f = b[i++];
        if (status[slot] !== DEAD) kept.push(slot, f);
      }
      if (kept.len === 0) {
        this.#postings.delete(term);
        this.#dictionary = undefined;
      } else {
        kept.trim();
        this.#postings.set(term, kept);
      }
    }
    // Dead slots stay allocated (a few bytes each) and are never reused: postings only ever append.
    this.#deadSlots = 0;
  }

  /**
   * The page [offset, offset + limit) of the live listings matching the plan, by bm25 then votes then
   * id, and how many match. Prefix words (plan.prefix) expand to the index's words that start with them.
   */
  rank(plan: readonly WordPlan[], offset: number, limit: number): RankedPage {
    if (!plan.length) return { ids: [], total: 0 };
    this.#ensureScratch();
    const qEpoch = this.#nextQueryEpoch();
    const qStamp = this.#queryStamp;
    const score = this.#score;
    const mask = this.#mask;
    const qTouched = this.#queryTouched;
    let nq = 0;
    const avgdl = this.#docs > 0 ? this.#tokens / this.#docs : 1;
    const length = this.#length;
    const status = this.#status;

    plan.forEach((word, wi) => {
      const bit = 1 << wi;
      const phrases: string[][] = word.terms.map((t) => [t]);
      if (word.prefix) phrases.push(this.dictionary().withPrefix(word.word));
      for (const terms of phrases) {
        // One phrase: its frequency per listing (summed over its terms), and how many listings hold it.
        const epoch = this.#nextEpoch();
        const stamp = this.#stamp;
        const freq = this.#freq;
        const touched = this.#touched;
        let n = 0;
        for (const term of terms) {
          const p = this.#postings.get(term);
          if (!p) continue;
          const b = p.bytes;
          const end = p.len;
          let slot = -1;
          for (let i = 0; i < end; ) {
            let byte = b[i++];
            let d = byte & 0x7f;
            if (byte & 0x80) {
              let shift = 7;
              do {
                byte = b[i++];
                d |= (byte & 0x7f) << shift;
                shift += 7;
              } while (byte & 0x80);
            }
            slot += d;
            const f = b[i++];
            if (status[slot] === DEAD) continue;
            if (stamp[slot] !== epoch) {
              stamp[slot] = epoch;
              freq[slot] = f;
              touched[n++] = slot;
            } else freq[slot] += f;
          }
        }
        if (n === 0) continue;
        let idf = Math.log((this.#docs - n + 0.5) / (n + 0.5));
        if (idf <= 0) idf = 1e-6;
        for (let k = 0; k < n; k++) {
          const s = touched[k];
          const f = freq[s];
          const add = idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * length[s]) / avgdl)));
          if (qStamp[s] !== qEpoch) {
            qStamp[s] = qEpoch;
            score[s] = 0;
            mask[s] = 0;
            qTouched[nq++] = s;
          }
          score[s] += add;
          mask[s] |= bit;
        }
      }
    });

    // The live listings holding every word; the best `offset + limit` of them, kept in a heap whose
    // root is the worst kept.
    const all = (1 << plan.length) - 1;
    const want = offset + limit;
    const votes = this.#votes;
    const ids = this.#ids;
    const better = (a: number, b: number): boolean =>
      score[a] !== score[b] ? score[a] > score[b] : votes[a] !== votes[b] ? votes[a] > votes[b] : ids[a] < ids[b];
    const heap: number[] = [];
    let total = 0;
    for (let k = 0; k < nq; k++) {
      const s = qTouched[k];
      if (mask[s] !== all || status[s] !== LIVE) continue;
      total++;
      if (want <= 0) continue;
      if (heap.length < want) {
        heap.push(s);
        siftUp(heap, heap.length - 1, better);
      } else if (better(s, heap[0])) {
        heap[0] = s;
        siftDown(heap, 0, better);
      }
    }
    heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
    return { ids: heap.slice(offset).map((s) => ids[s]), total };
  }

  #kill(slot: number): void {
    this.#status[slot] = DEAD;
    this.#docs--;
    this.#tokens -= this.#length[slot];
    this.#deadSlots++;
  }

  #newSlot(): number {
    if (this.#slots === this.#ids.length) {
      const n = this.#ids.length * 2;
      this.#ids = grow(this.#ids, new Int32Array(n));
      this.#status = grow(this.#status, new Uint8Array(n));
      this.#votes = grow(this.#votes, new Int32Array(n));
      this.#length = grow(this.#length, new Uint32Array(n));
      this.#hash = grow(this.#hash, new Int32Array(n));
    }
    return this.#slots++;
  }

  #ensureScratch(): void {
    const n = this.#ids.length;
    if (this.#stamp.length >= n) return;
    this.#stamp = new Uint32Array(n);
    this.#epoch = 0;
    this.#freq = new Float64Array(n);
    this.#score = new Float64Array(n);
    this.#mask = new Uint16Array(n);
    this.#queryStamp = new Uint32Array(n);
    this.#queryEpoch = 0;
    this.#touched = new Int32Array(n);
    this.#queryTouched = new Int32Array(n);
  }

  #nextEpoch(): number {
    if (++this.#epoch === 0xffffffff) {
      this.#stamp.fill(0);
      this.#epoch = 1;
    }
    return this.#epoch;
  }

  #nextQueryEpoch(): number {
    if (++this.#queryEpoch === 0xffffffff) {
      this.#queryStamp.fill(0);
      this.#queryEpoch = 1;
    }
    return this.#queryEpoch;
  }
}

function grow<T extends Int32Array | Uint32Array | Uint8Array>(old: T, fresh: T): T {
  fresh.set(old);
  return fresh;
}

/** FNV-1a over the four texts (with separators): tells a changed text from a vote or status change. */
function hashTexts(texts: string[]): number {
  let h = 0x811c9dc5;
  for (const t of texts) {
    for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0xffff, 0x01000193);
  }
  return h | 0;
}

function siftUp(heap: number[], i: number, better: (a: number, b: number) => boolean): void {
  const x = heap[i];
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!better(heap[parent], x)) break; // the root is the worst: a parent is never better than its children
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = x;
}

function siftDown(heap: number[], i: number, better: (a: number, b: number) => boolean): void {
  const n = heap.length;
  const x = heap[i];
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && better(heap[c], heap[c + 1])) c++; // the worse child
    if (!better(x, heap[c])) break;
    heap[i] = heap[c];
    i = c;
  }
  heap[i] = x;
}
