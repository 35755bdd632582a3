// The in-memory search index: every listing's words, held in the application, ranked the way FTS5's
// bm25() ranks them. It answers the common search (words, sort by relevance, live listings, no other
// filter) without a database statement per match: at 100,000 listings a very common word matches
// ~25,000 of them, and bm25() plus the join to listings cost ~1 µs each in SQLite (25–40 ms per such
// search); here they cost a few tens of nanoseconds.
//
//   slots       one per version of a listing's text: its id, status (live or not), votes and length
//               in words, and what a results page shows of it (its summary, below). A listing whose
//               text changes gets a new slot and its old slot dies (its postings are skipped, and
//               dropped at the next compaction); a change to anything else only rewrites its slot.
//   summaries   per slot, the summary's own words (slug, name, url, tagline, logo, launch week and
//               date) as one JSON array text (those of the load as UTF-8 in one buffer, those written
//               since as strings), its primary category id and its followers: a results
//               page is read from here, not from a row per listing in the database (under load those
//               random rows were ~30% of a search's time). Views and the category's slug and name,
//               which change without the listing, are read with the page (index.ts).
//   postings    per word: the slots holding it, delta-encoded as varints, each followed by the word's
//               weighted frequency in that listing (a byte: name ×5, tagline ×2, description ×1,
//               keywords ×2, the weights of the SQL path's bm25). Those of the load sit in one buffer
//               (a Segment: sorted words, offsets, bytes); those added since, in a small buffer per word.
//
// ~25 MB at 100,000 listings (10 MB of postings), plus ~16 MB of summaries. A search thread has its segment built in a
// short-lived process (builder.ts) that hands it over in a file (segment-file.ts) and exits, taking the garbage of the build with it.
//
// Ranking is FTS5's bm25 exactly (fts5_aux.c: k1 = 1.2, b = 0.75, IDF = ln((N − n + 0.5)/(n + 0.5)),
// at least 1e-6, every listing of any status counted in N and n as FTS5 counts every row), then more
// votes, then the lower id: on SQLite the same order as the SQL path, on PostgreSQL the same order as
// on SQLite. Which listings match is the plan's (plan.ts): every word, each through any of its terms.
//
// The index is engine-free; store/search/feed.ts fills it and keeps it current.
import type { WordPlan } from './plan.ts';
import type { SummaryRow } from '../repos/summary.ts';
import { TermDictionary } from './dictionary.ts';
import type { Engine } from '../connect.ts';
import { tokenize } from './tokenize.ts';

const K1 = 1.2;
const B = 0.75;
/** bm25 weights of name, tagline, description, keywords (as the SQL path's bm25(listings_fts, 5, 2, 1, 2)). */
const WEIGHTS = [5, 2, 1, 2] as const;
/** A word's postings are looked up candidate by candidate when there are fewer candidates than its bytes / PROBE_COST. */
const PROBE_COST = 48;
/** Skip table: an entry every SKIP_EVERY postings, for words with at least SKIP_MIN_BYTES of them. */
const SKIP_EVERY = 32;
const SKIP_MIN_BYTES = 256;
const DEAD = 0;
const LIVE = 1;
const OTHER = 2;

/** A listing's row as the feed reads it (the summary's columns are optional for tests of ranking alone). */
export interface IndexRow {
  id: number;
  status: string;
  votes_count: number;
  name: string | null;
  tagline: string | null;
  description: string | null;
  keywords: string | null;
  slug?: string;
  url?: string;
  logo_url?: string | null;
  launch_week?: string | null;
  launched_at?: string | null;
  primary_category_id?: number | null;
  followers_count?: number;
}

/** The listings columns of IndexRow's summary, as the feed and the builder select them; the feed follows them (migration 140). */
export const SUMMARY_COLUMNS = 'slug, url, logo_url, launch_week, launched_at, primary_category_id, followers_count';

/** The summary of a listing as the index holds it (summaries()): the category by id, its words being read with the page. */
export type HeldSummary = Omit<SummaryRow, 'primary_category_slug' | 'primary_category_name'> & {
  primary_category_id: number | null;
  followers_count: number;
};

/** A row's summary words as one JSON text: [slug, name, url, tagline, logo_url, launch_week, launched_at]. */
function summaryText(row: IndexRow): string {
  return JSON.stringify([
    row.slug ?? '',
    row.name ?? '',
    row.url ?? '',
    row.tagline ?? null,
    row.logo_url ?? null,
    row.launch_week ?? null,
    row.launched_at ?? null,
  ]);
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
    b[i++] = Math.min(f, 255);
    this.len = i;
  }
}

export interface RankedPage {
  /** Listing ids of the page, best first. */
  ids: number[];
  /** Every live listing that matches. */
  total: number;
}

/** The index as built in one pass: plain arrays and buffers, which a builder process can send over. */
export interface Segment {
  /** Words, sorted by UTF-16 code units; postings of terms[i] are data[offsets[i] .. offsets[i + 1]). */
  terms: string[];
  offsets: Uint32Array;
  data: Uint8Array;
  slots: number;
  ids: Int32Array;
  status: Uint8Array;
  votes: Int32Array;
  length: Uint32Array;
  hash: Int32Array;
  /** summaryText() of each slot as UTF-8, slot s at summaryBytes[summaryOffsets[s] .. summaryOffsets[s + 1]); its primary category id (0: none) and followers. */
  summaryBytes: Uint8Array;
  summaryOffsets: Uint32Array;
  category: Int32Array;
  followers: Int32Array;
}

/** Builds a Segment from listings added one at a time. */
export class SegmentBuilder {
  readonly #engine: Engine;
  #postings = new Map<string, Postings>();
  #slots = 0;
  #ids: Int32Array = new Int32Array(1024);
  #status: Uint8Array = new Uint8Array(1024);
  #votes: Int32Array = new Int32Array(1024);
  #length: Uint32Array = new Uint32Array(1024);
  #hash: Int32Array = new Int32Array(1024);
  #summaryBytes = new Uint8Array(1 << 16);
  #summaryLength = 0;
  #summaryOffsets: Uint32Array = new Uint32Array(1024);
  #category: Int32Array = new Int32Array(1024);
  #followers: Int32Array = new Int32Array(1024);
  constructor(engine: Engine) {
    this.#engine = engine;
  }

  add(row: IndexRow): void {
    if (this.#slots === this.#ids.length) this.#setSlots(growSlots(this.#slotArrays(), this.#slots * 2));
    const slot = this.#slots++;
    const doc = analyse(row, this.#engine);
    for (const [term, f] of doc.freq) {
      let p = this.#postings.get(term);
      if (!p) this.#postings.set(term, (p = new Postings(8)));
      p.push(slot, f);
    }
    this.#ids[slot] = row.id;
    this.#status[slot] = doc.status;
    this.#votes[slot] = row.votes_count;
    this.#length[slot] = doc.length;
    this.#hash[slot] = doc.hash;
    this.#category[slot] = row.primary_category_id ?? 0;
    this.#followers[slot] = row.followers_count ?? 0;
    const text = summaryText(row);
    if (this.#summaryLength + text.length * 3 > this.#summaryBytes.length) {
      const grown = new Uint8Array(Math.max(this.#summaryBytes.length * 2, this.#summaryLength + text.length * 3));
      grown.set(this.#summaryBytes.subarray(0, this.#summaryLength));
      this.#summaryBytes = grown;
    }
    if (slot >= this.#summaryOffsets.length) {
      const grown = new Uint32Array(this.#summaryOffsets.length * 2);
      grown.set(this.#summaryOffsets);
      this.#summaryOffsets = grown;
    }
    this.#summaryOffsets[slot] = this.#summaryLength;
    this.#summaryLength += UTF8.encodeInto(text, this.#summaryBytes.subarray(this.#summaryLength)).written;
  }

  #slotArrays(): SlotArrays {
    return {
      ids: this.#ids,
      status: this.#status,
      votes: this.#votes,
      length: this.#length,
      hash: this.#hash,
      category: this.#category,
      followers: this.#followers,
    };
  }

  #setSlots(a: SlotArrays): void {
    ({
      ids: this.#ids,
      status: this.#status,
      votes: this.#votes,
      length: this.#length,
      hash: this.#hash,
      category: this.#category,
      followers: this.#followers,
    } = a);
  }

  finish(): Segment {
    const n = this.#slots;
    const summaryOffsets = new Uint32Array(n + 1);
    summaryOffsets.set(this.#summaryOffsets.subarray(0, n));
    summaryOffsets[n] = this.#summaryLength;
    return {
      ...packPostings(this.#postings),
      slots: n,
      ids: this.#ids.slice(0, n),
      status: this.#status.slice(0, n),
      votes: this.#votes.slice(0, n),
      length: this.#length.slice(0, n),
      hash: this.#hash.slice(0, n),
      summaryBytes: this.#summaryBytes.slice(0, this.#summaryLength),
      summaryOffsets,
      category: this.#category.slice(0, n),
      followers: this.#followers.slice(0, n),
    };
  }
}

/** A listing's words: weighted frequency per word, length in words, status and a hash of its text. */
function analyse(
  row: IndexRow,
  engine: Engine,
): { freq: Map<string, number>; length: number; status: number; hash: number } {
  const text = [row.name ?? '', row.tagline ?? '', row.description ?? '', row.keywords ?? ''];
  const freq = new Map<string, number>();
  let length = 0;
  for (let c = 0; c < 4; c++) {
    if (!text[c]) continue;
    const words = tokenize(text[c], engine);
    length += words.length;
    const w = WEIGHTS[c];
    for (const t of words) freq.set(t, (freq.get(t) ?? 0) + w);
  }
  return { freq, length, status: row.status === 'live' ? LIVE : OTHER, hash: hashTexts(text) };
}

export class MemorySearchIndex {
  readonly engine: Engine;
  // The segment loaded (or last compacted) and the postings appended since, by word.
  #terms: string[];
  #offsets: Uint32Array;
  #data: Uint8Array;
  #added = new Map<string, Postings>();
  /** Words in #added that the segment does not hold. */
  #newTerms = 0;
  // Per slot.
  #ids: Int32Array;
  #status: Uint8Array;
  #votes: Int32Array;
  #length: Uint32Array;
  #hash: Int32Array;
  /** The load's summaries (Segment.summaryBytes) and, by slot, those written since. */
  #summaryBytes: Buffer;
  #summaryOffsets: Uint32Array;
  #summarySlots: number;
  #summaryWritten = new Map<number, string>();
  #category: Int32Array;
  #followers: Int32Array;
  #slots: number;
  /** Listing id → its slot, −1 for none. */
  #slotOf = new Int32Array(0);
  /** Documents (of any status) and their words in all, for bm25's N and average length. */
  #docs = 0;
  #tokens = 0;
  #deadSlots = 0;
  #dictionary: TermDictionary | undefined;
  /** Bumped whenever a slot is added or dies: what the cached listing counts per word depend on. */
  #slotsChanged = 0;
  #dfCache = new Map<string, { at: number; n: number }>();
  #skipStart = new Uint32Array(1);
  #skipSlot = new Int32Array(0);
  #skipOff = new Uint32Array(0);
  // Per-search scratch, one entry per slot (grown with the slots).
  #stamp = new Uint32Array(0);
  #epoch = 0;
  #freq = new Uint32Array(0);
  #score = new Float64Array(0);
  #mask = new Uint16Array(0);
  #queryStamp = new Uint32Array(0);
  #queryEpoch = 0;
  #touched = new Int32Array(0);
  #queryTouched = new Int32Array(0);

  constructor(engine: Engine, segment: Segment) {
    this.engine = engine;
    this.#terms = segment.terms;
    this.#offsets = segment.offsets;
    this.#data = segment.data;
    this.#ids = segment.ids;
    this.#status = segment.status;
    this.#votes = segment.votes;
    this.#length = segment.length;
    this.#hash = segment.hash;
    this.#summaryBytes = Buffer.from(
      segment.summaryBytes.buffer,
      segment.summaryBytes.byteOffset,
      segment.summaryBytes.byteLength,
    );
    this.#summaryOffsets = segment.summaryOffsets;
    this.#summarySlots = segment.slots;
    this.#category = segment.category;
    this.#followers = segment.followers;
    this.#slots = segment.slots;
    for (let s = 0; s < this.#slots; s++) {
      this.#setSlotOf(this.#ids[s], s);
      this.#docs++;
      this.#tokens += this.#length[s];
    }
    this.#buildSkips();
  }

  /** Listings held. */
  get size(): number {
    return this.#docs;
  }

  /** The index's words, for the typo corrections (rebuilt after words were added or dropped). */
  dictionary(): TermDictionary {
    if (!this.#dictionary) {
      this.#dictionary =
        this.#newTerms === 0
          ? TermDictionary.fromSorted(this.#terms)
          : new TermDictionary([...this.#terms, ...this.#added.keys()]);
    }
    return this.#dictionary;
  }

  /** Adds or refreshes a listing. */
  upsert(row: IndexRow): void {
    const old = row.id < this.#slotOf.length ? this.#slotOf[row.id] : -1;
    const doc = analyse(row, this.engine);
    if (old >= 0 && this.#hash[old] === doc.hash) {
      this.#status[old] = doc.status;
      this.#votes[old] = row.votes_count;
      this.#setSummary(old, row);
      return;
    }
    if (old >= 0) this.#kill(old);
    const slot = this.#newSlot();
    for (const [term, f] of doc.freq) {
      let p = this.#added.get(term);
      if (!p) {
        this.#added.set(term, (p = new Postings(8)));
        if (this.#segmentTerm(term) < 0) {
          this.#newTerms++;
          this.#dictionary = undefined;
        }
      }
      p.push(slot, f);
    }
    this.#ids[slot] = row.id;
    this.#status[slot] = doc.status;
    this.#votes[slot] = row.votes_count;
    this.#length[slot] = doc.length;
    this.#hash[slot] = doc.hash;
    this.#setSummary(slot, row);
    this.#setSlotOf(row.id, slot);
    this.#docs++;
    this.#tokens += doc.length;
  }

  /**
   * The summary of each of these listings as the index holds it (undefined for one it does not hold).
   * What the summary shows besides: the primary category's slug and name, and the views.
   */
  summaries(ids: readonly number[]): Array<HeldSummary | undefined> {
    return ids.map((id) => {
      const slot = id < this.#slotOf.length ? this.#slotOf[id] : -1;
      if (slot < 0 || this.#status[slot] !== LIVE) return undefined; // only live listings are ranked and shown
      const text =
        this.#summaryWritten.get(slot) ??
        (slot < this.#summarySlots
          ? this.#summaryBytes.toString('utf8', this.#summaryOffsets[slot], this.#summaryOffsets[slot + 1])
          : '');
      if (!text) return undefined;
      const [slug, name, url, tagline, logo_url, launch_week, launched_at] = JSON.parse(text) as [
        string,
        string,
        string,
        string | null,
        string | null,
        string | null,
        string | null,
      ];
      const category = this.#category[slot];
      return {
        id,
        slug,
        name,
        url,
        tagline,
        logo_url,
        votes_count: this.#votes[slot],
        status: 'live',
        launch_week,
        launched_at,
        primary_category_id: category === 0 ? null : category,
        followers_count: this.#followers[slot],
      };
    });
  }

  #setSummary(slot: number, row: IndexRow): void {
    this.#summaryWritten.set(slot, summaryText(row));
    this.#category[slot] = row.primary_category_id ?? 0;
    this.#followers[slot] = row.followers_count ?? 0;
  }

  /** Forgets a deleted listing. */
  remove(id: number): void {
    const slot = id < this.#slotOf.length ? this.#slotOf[id] : -1;
    if (slot < 0) return;
    this.#slotOf[id] = -1;
    this.#kill(slot);
  }

  /**
   * Once dead slots are a third of all: a new segment of the live slots' postings (words left without
   * a listing are dropped). Slots keep their numbers; dead ones stay allocated, a few bytes each.
   */
  compactIfWorthIt(): void {
    if (this.#deadSlots < 1000 || this.#deadSlots * 3 < this.#slots) return;
    const status = this.#status;
    const kept = new Map<string, Postings>();
    const keep = (term: string, b: Uint8Array, start: number, end: number) =>
      forEachPosting(b, start, end, (slot, f) => {
        if (status[slot] === DEAD) return;
        let p = kept.get(term);
        if (!p) kept.set(term, (p = new Postings(8)));
        p.push(slot, f);
      });
    for (let t = 0; t < this.#terms.length; t++)
      keep(this.#terms[t], this.#data, this.#offsets[t], this.#offsets[t + 1]);
    for (const [term, p] of this.#added) keep(term, p.bytes, 0, p.len);
    ({ terms: this.#terms, offsets: this.#offsets, data: this.#data } = packPostings(kept));
    this.#added = new Map();
    this.#newTerms = 0;
    this.#deadSlots = 0;
    this.#dictionary = undefined;
    this.#buildSkips();
  }

  /**
   * The page [offset, offset + limit) of the live listings matching the plan, by bm25 then votes then
   * id, and how many match. Prefix words (plan.prefix) expand to the index's words that start with them.
   *
   * The word with the fewest postings is read in full: its listings are the candidates. Each other word
   * (fewest postings first) only has to be looked up for the candidates still in: through the skip
   * table when they are few next to its postings, else by reading its postings. bm25 also needs how
   * many listings hold each word (its IDF), which is counted once and kept until the slots change.
   */
  rank(plan: readonly WordPlan[], offset: number, limit: number): RankedPage {
    if (!plan.length) return { ids: [], total: 0 };
    this.#ensureScratch();
    const qEpoch = this.#nextQueryEpoch();
    const qStamp = this.#queryStamp;
    const score = this.#score;
    const mask = this.#mask;
    const cands = this.#queryTouched;
    const stamp = this.#stamp;
    const freq = this.#freq;
    let nc = 0;
    const avgdl = this.#docs > 0 ? this.#tokens / this.#docs : 1;
    const length = this.#length;
    const idfOf = (n: number): number => {
      const idf = Math.log((this.#docs - n + 0.5) / (n + 0.5));
      return idf <= 0 ? 1e-6 : idf;
    };
    const words = plan
      .map((w, wi) => {
        const phrases: string[][] = w.terms.map((t) => [t]);
        if (w.prefix) phrases.push(this.dictionary().withPrefix(w.word));
        let cost = 0;
        for (const ph of phrases) for (const t of ph) cost += this.#bytes(t);
        return { bit: 1 << wi, phrases, cost };
      })
      .sort((a, b) => a.cost - b.cost);

    // The first word: every listing holding it is a candidate.
    const first = words[0];
    for (const terms of first.phrases) {
      const epoch = this.#nextEpoch();
      const n = this.#scanTerms(terms, epoch);
      if (n === 0) continue;
      const idf = idfOf(n);
      const touched = this.#touched;
      for (let k = 0; k < n; k++) {
        const s = touched[k];
        const f = freq[s];
        if (qStamp[s] !== qEpoch) {
          qStamp[s] = qEpoch;
          score[s] = 0;
          mask[s] = 0;
          cands[nc++] = s;
        }
        score[s] += idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * length[s]) / avgdl)));
        mask[s] |= first.bit;
      }
    }
    let need = first.bit;
    for (let wi = 1; wi < words.length && nc > 0; wi++) {
      const word = words[wi];
      // Candidates still in: they held every word so far (ascending, for the skip tables).
      let kept = 0;
      for (let k = 0; k < nc; k++) if (mask[cands[k]] === need) cands[kept++] = cands[k];
      nc = kept;
      cands.subarray(0, nc).sort();
      for (const terms of word.phrases) {
        let n: number;
        let epoch: number;
        const t = terms.length === 1 ? this.#segmentTerm(terms[0]) : -1;
        if (t >= 0 && nc * PROBE_COST < this.#offsets[t + 1] - this.#offsets[t]) {
          n = this.#df(terms[0]); // (may read the postings, with an epoch of its own: before the probe's)
          epoch = this.#nextEpoch();
          this.#probe(t, cands, nc, epoch);
          const added = this.#added.get(terms[0]);
          if (added) this.#scan(added.bytes, 0, added.len, epoch, 0);
        } else {
          epoch = this.#nextEpoch();
          n = this.#scanTerms(terms, epoch);
          if (terms.length === 1) this.#dfCache.set(terms[0], { at: this.#slotsChanged, n });
        }
        if (n === 0) continue;
        const idf = idfOf(n);
        for (let k = 0; k < nc; k++) {
          const s = cands[k];
          if (stamp[s] !== epoch) continue;
          const f = freq[s];
          score[s] += idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * length[s]) / avgdl)));
          mask[s] |= word.bit;
        }
      }
      need |= word.bit;
    }

    // The live candidates holding every word; the best `offset + limit` of them, kept in a heap whose
    // root is the worst kept.
    const all = (1 << plan.length) - 1;
    const want = offset + limit;
    const status = this.#status;
    const votes = this.#votes;
    const ids = this.#ids;
    const better = (a: number, b: number): boolean =>
      score[a] !== score[b] ? score[a] > score[b] : votes[a] !== votes[b] ? votes[a] > votes[b] : ids[a] < ids[b];
    const heap: number[] = [];
    let total = 0;
    for (let k = 0; k < nc; k++) {
      const s = cands[k];
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

  /** Reads every posting of these words as one phrase; returns how many live-or-not listings hold it. */
  #scanTerms(terms: readonly string[], epoch: number): number {
    let n = 0;
    for (const term of terms) {
      const t = this.#segmentTerm(term);
      if (t >= 0) n = this.#scan(this.#data, this.#offsets[t], this.#offsets[t + 1], epoch, n);
      const p = this.#added.get(term);
      if (p) n = this.#scan(p.bytes, 0, p.len, epoch, n);
    }
    return n;
  }

  /** Size of a word's postings in bytes (the cost of reading them). */
  #bytes(term: string): number {
    const t = this.#segmentTerm(term);
    return (t >= 0 ? this.#offsets[t + 1] - this.#offsets[t] : 0) + (this.#added.get(term)?.len ?? 0);
  }

  /** How many listings (of any status) hold the word: counted by reading its postings, kept until the slots change. */
  #df(term: string): number {
    const hit = this.#dfCache.get(term);
    if (hit && hit.at === this.#slotsChanged) return hit.n;
    const n = this.#scanTerms([term], this.#nextEpoch());
    this.#dfCache.set(term, { at: this.#slotsChanged, n });
    return n;
  }

  /**
   * Looks the candidates (ascending slots) up in the segment's postings of word t: each one found gets
   * stamp = epoch and its frequency. The skip table jumps over blocks that end before the candidate.
   */
  #probe(t: number, cands: Int32Array, nc: number, epoch: number): void {
    const b = this.#data;
    const end = this.#offsets[t + 1];
    const skipSlot = this.#skipSlot;
    const skipOff = this.#skipOff;
    const skipEnd = this.#skipStart[t + 1];
    let k = this.#skipStart[t];
    let pos = this.#offsets[t];
    let slot = -1; // the last slot decoded
    let f = 0;
    const stamp = this.#stamp;
    const freq = this.#freq;
    for (let ci = 0; ci < nc; ci++) {
      const c = cands[ci];
      if (slot < c) {
        while (k < skipEnd && skipSlot[k] < c) {
          if (skipOff[k] > pos) {
            pos = skipOff[k];
            slot = skipSlot[k];
          }
          k++;
        }
        while (slot < c && pos < end) {
          let byte = b[pos++];
          let d = byte & 0x7f;
          if (byte & 0x80) {
            let shift = 7;
            do {
              byte = b[pos++];
              d |= (byte & 0x7f) << shift;
              shift += 7;
            } while (byte & 0x80);
          }
          slot += d;
          f = b[pos++];
        }
        if (slot < c) return; // the postings ended
      }
      if (slot === c) {
        stamp[c] = epoch;
        freq[c] = f;
      }
    }
  }

  /** Skip table of the segment: for every SKIP_EVERY-th posting of a long word, the slot before it and its offset. */
  #buildSkips(): void {
    const terms = this.#terms.length;
    const starts = new Uint32Array(terms + 1);
    const slots: number[] = [];
    const offs: number[] = [];
    const b = this.#data;
    for (let t = 0; t < terms; t++) {
      starts[t] = slots.length;
      const begin = this.#offsets[t];
      const end = this.#offsets[t + 1];
      if (end - begin < SKIP_MIN_BYTES) continue;
      let before = -1; // the slot of the posting before
      let count = 0;
      forEachPosting(b, begin, end, (slot, _f, at) => {
        if (count > 0 && count % SKIP_EVERY === 0) {
          slots.push(before);
          offs.push(at);
        }
        before = slot;
        count++;
      });
    }
    starts[terms] = slots.length;
    this.#skipStart = starts;
    this.#skipSlot = Int32Array.from(slots);
    this.#skipOff = Uint32Array.from(offs);
  }

  /** Adds the postings in b[start, end) to the phrase being read: frequency per slot, slots touched. */
  #scan(b: Uint8Array, start: number, end: number, epoch: number, n: number): number {
    const status = this.#status;
    const stamp = this.#stamp;
    const freq = this.#freq;
    const touched = this.#touched;
    let slot = -1;
    for (let i = start; i < end; ) {
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
    return n;
  }

  /** The word's position in the segment's sorted words, −1 when absent. */
  #segmentTerm(term: string): number {
    const terms = this.#terms;
    let lo = 0;
    let hi = terms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const t = terms[mid];
      if (t === term) return mid;
      if (t < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  #setSlotOf(id: number, slot: number): void {
    if (id >= this.#slotOf.length) {
      const grown = new Int32Array(Math.max(1024, Math.ceil((id + 1) * 1.25))).fill(-1);
      grown.set(this.#slotOf);
      this.#slotOf = grown;
    }
    this.#slotOf[id] = slot;
  }

  #kill(slot: number): void {
    this.#slotsChanged++;
    this.#status[slot] = DEAD;
    this.#summaryWritten.delete(slot); // a dead slot is never read (no id leads to it): only its memory goes
    this.#docs--;
    this.#tokens -= this.#length[slot];
    this.#deadSlots++;
  }

  #newSlot(): number {
    if (this.#slots === this.#ids.length)
      this.#setSlots(growSlots(this.#slotArrays(), Math.max(1024, Math.ceil(this.#slots * 1.25))));
    this.#slotsChanged++;
    return this.#slots++;
  }

  #slotArrays(): SlotArrays {
    return {
      ids: this.#ids,
      status: this.#status,
      votes: this.#votes,
      length: this.#length,
      hash: this.#hash,
      category: this.#category,
      followers: this.#followers,
    };
  }

  #setSlots(a: SlotArrays): void {
    ({
      ids: this.#ids,
      status: this.#status,
      votes: this.#votes,
      length: this.#length,
      hash: this.#hash,
      category: this.#category,
      followers: this.#followers,
    } = a);
  }

  #ensureScratch(): void {
    const n = this.#ids.length;
    if (this.#stamp.length >= n) return;
    this.#stamp = new Uint32Array(n);
    this.#epoch = 0;
    this.#freq = new Uint32Array(n);
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

const UTF8 = new TextEncoder();

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The per-slot arrays of a segment and of an index. */
type SlotArrays = Pick<Segment, 'ids' | 'status' | 'votes' | 'length' | 'hash' | 'category' | 'followers'>;

/** The slot arrays copied into arrays of n slots. */
function growSlots(a: SlotArrays, n: number): SlotArrays {
  const grow = <T extends Int32Array | Uint32Array | Uint8Array>(old: T, fresh: T): T => {
    fresh.set(old);
    return fresh;
  };
  return {
    ids: grow(a.ids, new Int32Array(n)),
    status: grow(a.status, new Uint8Array(n)),
    votes: grow(a.votes, new Int32Array(n)),
    length: grow(a.length, new Uint32Array(n)),
    hash: grow(a.hash, new Int32Array(n)),
    category: grow(a.category, new Int32Array(n)),
    followers: grow(a.followers, new Int32Array(n)),
  };
}

/** The words of these postings, sorted, packed into one buffer with their offsets (a segment's layout). */
function packPostings(postings: Map<string, Postings>): Pick<Segment, 'terms' | 'offsets' | 'data'> {
  const terms = [...postings.keys()].sort(cmp);
  const offsets = new Uint32Array(terms.length + 1);
  let size = 0;
  for (let i = 0; i < terms.length; i++) {
    offsets[i] = size;
    size += postings.get(terms[i])!.len;
  }
  offsets[terms.length] = size;
  const data = new Uint8Array(size);
  for (let i = 0; i < terms.length; i++)
    data.set(postings.get(terms[i])!.bytes.subarray(0, offsets[i + 1] - offsets[i]), offsets[i]);
  return { terms, offsets, data };
}

/**
 * Calls fn(slot, f, at) for each posting in b[start, end), `at` being where the posting starts. For the
 * rare passes (compaction, skip tables); the per-search loops (#scan, #probe) decode inline, a call
 * per posting being a measurable share of their time.
 */
function forEachPosting(
  b: Uint8Array,
  start: number,
  end: number,
  fn: (slot: number, f: number, at: number) => void,
): void {
  let slot = -1;
  for (let i = start; i < end; ) {
    const at = i;
    let d = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = b[i++];
      d |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    slot += d;
    fn(slot, b[i++], at);
  }
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

/** A row as the index takes it: PostgreSQL's numeric columns may come as text. */
export function normalise(r: IndexRow): IndexRow {
  return {
    ...r,
    id: Number(r.id),
    votes_count: Number(r.votes_count),
    followers_count: Number(r.followers_count ?? 0),
    primary_category_id:
      r.primary_category_id === null || r.primary_category_id === undefined ? null : Number(r.primary_category_id),
  };
}

/** The columns the index reads of a listing (PostgreSQL: keywords as the text the full-text index sees). */
export const INDEX_COLUMNS = {
  sqlite: `id, status, votes_count, name, tagline, description, keywords, ${SUMMARY_COLUMNS}`,
  postgres: `id, status, votes_count, name, tagline, description, keywords::text AS keywords, ${SUMMARY_COLUMNS}`,
} as const;
