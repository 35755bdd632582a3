// The index's own term dictionary, held in memory as one sorted array, and the typo correction
// against it. Engine-free: both engines load their terms into the same structure, so the same
// words get the same corrections.
//
// Correction walks the sorted array as if it were a trie: terms that share a prefix share the rows of
// the edit-distance table already computed for that prefix, and a prefix whose best row value is
// already over the limit skips every term that starts with it (read off the array of prefix lengths
// each term shares with the one before it). Distance is the
// optimal-string-alignment distance (insert, delete, substitute, or swap two neighbours = 1 edit).
//
// nearest() (what the query plan asks for: only the nearest terms) finds distance 1 faster: it makes
// every single edit of the word (deletes, neighbour swaps, and substitutions and insertions of each
// character some term holds) and looks each up among the terms (a bit filter of their hashes, then a
// Set), and only walks the array for distance 2 when nothing is at distance 1. Edits are over UTF-16
// code units, like the walk.

const MAX_TERM = 64; // longer "words" (hashes, base64 noise) are never correction candidates
/** Above this many candidate edits (a dictionary of many scripts has a large alphabet), walk instead. */
const MAX_EDITS = 16384;
const HASH_BASE = 0x01000193;
const HASH_SALT = 0x5bd1e995;
/** POW[k] = HASH_BASE^k (mod 2^32). */
const POW = new Int32Array(MAX_TERM + 2);
POW[0] = 1;
for (let k = 1; k < POW.length; k++) POW[k] = Math.imul(POW[k - 1], HASH_BASE);

/** murmur3's finaliser: spreads a 32-bit hash over all bits. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

interface EditIndex {
  set: Set<string>;
  /** Bit filter of the terms' hashes (two bits each). */
  bits: Int32Array;
  mask: number;
  /** Every UTF-16 code unit that occurs in some term. */
  alphabet: Uint16Array;
  /** lcp[i]: characters terms[i] shares with terms[i-1] at the start (at most 255, more than the walk needs). */
  lcp: Uint8Array;
}

export interface Near {
  term: string;
  distance: number;
}

export class TermDictionary {
  readonly terms: readonly string[];
  #edits: EditIndex | undefined;
  constructor(terms: Iterable<string>, sorted = false) {
    if (sorted) {
      this.terms = terms as readonly string[];
      return;
    }
    const list = [...new Set(terms)].filter((t) => t.length > 0);
    list.sort(cmp);
    this.terms = list;
  }

  /** From terms already unique and sorted by UTF-16 code units (as the loaders give them). */
  static fromSorted(terms: string[]): TermDictionary {
    return new TermDictionary(terms, true);
  }

  get size(): number {
    return this.terms.length;
  }

  has(word: string): boolean {
    return this.#index().set.has(word);
  }

  /** Built on first use (once per dictionary). */
  #index(): EditIndex {
    if (this.#edits) return this.#edits;
    const terms = this.terms;
    const set = new Set(terms);
    const units = new Set<number>();
    // ~16 bits per term: two probes then pass ~0.5% of the candidates that are not terms.
    let size = 1 << 10;
    while (size < terms.length * 16 && size < 1 << 26) size *= 2;
    const bits = new Int32Array(size >>> 5);
    const mask = size - 1;
    for (const t of terms) {
      let h = 0;
      for (let i = 0; i < t.length; i++) {
        const c = t.charCodeAt(i);
        units.add(c);
        h = (Math.imul(h, HASH_BASE) + c) | 0;
      }
      const f1 = mix(h) & mask;
      const f2 = mix(h ^ HASH_SALT) & mask;
      bits[f1 >>> 5] |= 1 << (f1 & 31);
      bits[f2 >>> 5] |= 1 << (f2 & 31);
    }
    const lcp = new Uint8Array(terms.length);
    for (let i = 1; i < terms.length; i++) lcp[i] = Math.min(255, commonPrefix(terms[i - 1], terms[i]));
    this.#edits = { set, bits, mask, alphabet: Uint16Array.from([...units].sort((x, y) => x - y)), lcp };
    return this.#edits;
  }

  /** Terms starting with `prefix`, in sorted order, at most `limit`. */
  withPrefix(prefix: string, limit = Infinity): string[] {
    const out: string[] = [];
    const end = upperBoundPrefix(this.terms, prefix, 0);
    for (let i = lowerBound(this.terms, prefix, 0); i < end && out.length < limit; i++) out.push(this.terms[i]);
    return out;
  }

  /**
   * The terms nearest to `word` within `maxDistance` edits: `word` itself when present, else those at
   * distance 1 when there are any, else at distance 2 …, sorted, at most `limit`. The same answer as
   * near(word, maxDistance) cut to its smallest distance, found faster.
   */
  nearest(word: string, maxDistance: number, limit = Infinity): Near[] {
    const m = word.length;
    if (m === 0 || m > MAX_TERM || maxDistance < 0) return [];
    const index = this.#index();
    if (index.set.has(word)) return limit >= 1 ? [{ term: word, distance: 0 }] : [];
    if (maxDistance === 0) return [];
    const one = this.#oneEdit(word, index);
    if (one === null) return firstDistance(this.near(word, maxDistance), limit);
    if (one.length > 0 || maxDistance === 1) {
      one.sort(cmp);
      return one.slice(0, limit).map((term) => ({ term, distance: 1 }));
    }
    return firstDistance(this.near(word, maxDistance), limit);
  }

  /**
   * The terms exactly one edit from `word` (which is not a term), unsorted; null when there would be
   * too many edits to try. Each edit is first probed by its hash in the bit filter (computed from the
   * word's prefix and suffix hashes, no string built); only the few that pass are built and looked up.
   */
  #oneEdit(word: string, index: EditIndex): string[] | null {
    const { set, bits, mask, alphabet } = index;
    const m = word.length;
    const terms = this.terms;
    // An edit at position j keeps word[0, j) in front, so j goes no further than the longest
    // prefix of the word that starts some term (read off its neighbours in sorted order).
    const at = lowerBound(terms, word, 0);
    let last = 0;
    if (at > 0) last = commonPrefix(word, terms[at - 1]);
    if (at < terms.length) last = Math.max(last, commonPrefix(word, terms[at]));
    if ((last + 1) * 2 * alphabet.length > MAX_EDITS) return null;
    // Hash of s = Σ s[i]·B^(len−1−i) (mod 2^32): pre[j] hashes word[0, j), suf[j] hashes word[j, m).
    const pre = new Int32Array(m + 1);
    for (let i = 0; i < m; i++) pre[i + 1] = (Math.imul(pre[i], HASH_BASE) + word.charCodeAt(i)) | 0;
    const suf = new Int32Array(m + 2);
    for (let i = m - 1; i >= 0; i--) suf[i] = (Math.imul(word.charCodeAt(i), POW[m - 1 - i]) + suf[i + 1]) | 0;
    const found: string[] = [];
    const check = (cand: string) => {
      if (set.has(cand) && !found.includes(cand)) found.push(cand);
    };
    const maybe = (h: number): boolean => {
      const f1 = mix(h) & mask;
      if ((bits[f1 >>> 5] & (1 << (f1 & 31))) === 0) return false;
      const f2 = mix(h ^ HASH_SALT) & mask;
      return (bits[f2 >>> 5] & (1 << (f2 & 31))) !== 0;
    };
    for (let j = 0; j <= last; j++) {
      const rest = m - j; // characters from position j on
      if (m < MAX_TERM) {
        // Insert c before position j: word[0, j) c word[j, m).
        const base = (Math.imul(pre[j], POW[rest + 1]) + suf[j]) | 0;
        const p = POW[rest];
        for (let a = 0; a < alphabet.length; a++) {
          const c = alphabet[a];
          if (maybe((base + Math.imul(c, p)) | 0)) check(word.slice(0, j) + String.fromCharCode(c) + word.slice(j));
        }
      }
      if (j === m) break;
      const here = word.charCodeAt(j);
      // Substitute position j with c: word[0, j) c word[j+1, m).
      const base = (Math.imul(pre[j], POW[rest]) + suf[j + 1]) | 0;
      const p = POW[rest - 1];
      for (let a = 0; a < alphabet.length; a++) {
        const c = alphabet[a];
        if (c !== here && maybe((base + Math.imul(c, p)) | 0))
          check(word.slice(0, j) + String.fromCharCode(c) + word.slice(j + 1));
      }
      // Delete position j.
      if (maybe((Math.imul(pre[j], POW[rest - 1]) + suf[j + 1]) | 0)) check(word.slice(0, j) + word.slice(j + 1));
      // Swap positions j and j+1.
      if (j + 1 < m) {
        const next = word.charCodeAt(j + 1);
        if (next !== here) {
          const h =
            (Math.imul(pre[j], POW[rest]) +
              Math.imul(next, POW[rest - 1]) +
              Math.imul(here, POW[rest - 2]) +
              suf[j + 2]) |
            0;
          if (maybe(h)) check(word.slice(0, j) + word[j + 1] + word[j] + word.slice(j + 2));
        }
      }
    }
    return found;
  }

  /** Every term within `maxDistance` edits of `word` (including `word` itself when present), nearest first, then sorted. */
  near(word: string, maxDistance: number): Near[] {
    const terms = this.terms;
    const m = word.length;
    const d = maxDistance;
    if (m === 0 || m > MAX_TERM) return [];
    const q = new Uint16Array(m);
    for (let j = 0; j < m; j++) q[j] = word.charCodeAt(j);
    const lcp = this.#index().lcp;
    const rows: Int32Array[] = [];
    const first = new Int32Array(m + 1);
    for (let j = 0; j <= m; j++) first[j] = j;
    rows.push(first);
    const maxDepth = Math.min(MAX_TERM, m + d);
    for (let k = 1; k <= maxDepth; k++) rows.push(new Int32Array(m + 1));

    const out: Near[] = [];
    let valid = 0; // rows[1..valid] hold the table for the first `valid` characters of the term visited last
    let i = 0;
    const n = terms.length;
    // The end of the run of terms from i on that share t's first kk characters.
    const runEnd = (kk: number): number => {
      let j = i + 1;
      while (j < n && lcp[j] >= kk) j++;
      return j;
    };
    while (i < n) {
      const t = terms[i];
      // The term visited last shares lcp[i] characters with t (directly before it, or skipped to
      // it over terms that all shared more), and rows[0..k] are valid for t.
      const k = Math.min(valid, lcp[i]);
      let skipTo = -1;
      const depth = t.length;
      for (let kk = k + 1; kk <= depth; kk++) {
        if (kk > maxDepth) {
          skipTo = runEnd(kk);
          valid = kk - 1;
          break;
        }
        const row = rows[kk];
        const up = rows[kk - 1];
        const c = t.charCodeAt(kk - 1);
        row[0] = kk;
        let best = kk;
        for (let j = 1; j <= m; j++) {
          let v = up[j - 1] + (q[j - 1] === c ? 0 : 1);
          const del = up[j] + 1;
          if (del < v) v = del;
          const ins = row[j - 1] + 1;
          if (ins < v) v = ins;
          if (kk > 1 && j > 1 && c === q[j - 2] && t.charCodeAt(kk - 2) === q[j - 1]) {
            const tr = rows[kk - 2][j - 2] + 1;
            if (tr < v) v = tr;
          }
          row[j] = v;
          if (v < best) best = v;
        }
        if (best > d) {
          skipTo = runEnd(kk);
          valid = kk; // row kk is computed (and hopeless); later terms share at most kk-1 characters
          break;
        }
      }
      if (skipTo >= 0) {
        i = skipTo;
        continue;
      }
      valid = depth;
      const dist = rows[depth][m];
      if (dist <= d) out.push({ term: t, distance: dist });
      i++;
    }
    out.sort((a, b) => a.distance - b.distance || cmp(a.term, b.term));
    return out;
  }
}

/** The entries at the first (smallest) distance of a list sorted nearest first, at most `limit`. */
function firstDistance(near: Near[], limit: number): Near[] {
  if (!near.length) return near;
  const best = near[0].distance;
  const out: Near[] = [];
  for (const n of near) {
    if (n.distance !== best || out.length >= limit) break;
    out.push(n);
  }
  return out;
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let k = 0;
  while (k < n && a.charCodeAt(k) === b.charCodeAt(k)) k++;
  return k;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** First index >= from whose term is >= key. */
function lowerBound(terms: readonly string[], key: string, from: number): number {
  let lo = from;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index >= from whose term does not start with prefix (terms are sorted, so they form one run). */
function upperBoundPrefix(terms: readonly string[], prefix: string, from: number): number {
  return lowerBound(terms, prefix + '\uffff', from);
}

/** Optimal-string-alignment distance (the same measure as TermDictionary.near), for tests and checks. */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) =>
    Array.from({ length: n + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[m][n];
}
