// The index's own term dictionary, held in memory as one sorted array, and the typo correction
// against it. Engine-free: both engines load their terms into the same structure, so the same
// words get the same corrections.
//
// Correction walks the sorted array as if it were a trie: terms that share a prefix share the rows of
// the edit-distance table already computed for that prefix, and a prefix whose best row value is
// already over the limit skips every term that starts with it (a binary search). Distance is the
// optimal-string-alignment distance (insert, delete, substitute, or swap two neighbours = 1 edit).

const MAX_TERM = 64; // longer "words" (hashes, base64 noise) are never correction candidates

export interface Near { term: string; distance: number }

export class TermDictionary {
  readonly terms: readonly string[];
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
    const i = lowerBound(this.terms, word, 0);
    return i < this.terms.length && this.terms[i] === word;
  }

  /** Terms starting with `prefix`, in sorted order, at most `limit`. */
  withPrefix(prefix: string, limit = Infinity): string[] {
    const out: string[] = [];
    const end = upperBoundPrefix(this.terms, prefix, 0);
    for (let i = lowerBound(this.terms, prefix, 0); i < end && out.length < limit; i++) out.push(this.terms[i]);
    return out;
  }

  /** Every term within `maxDistance` edits of `word` (including `word` itself when present), nearest first, then sorted. */
  near(word: string, maxDistance: number): Near[] {
    const terms = this.terms;
    const m = word.length;
    const d = maxDistance;
    if (m === 0 || m > MAX_TERM) return [];
    const q = new Uint16Array(m);
    for (let j = 0; j < m; j++) q[j] = word.charCodeAt(j);
    const rows: Int32Array[] = [];
    const first = new Int32Array(m + 1);
    for (let j = 0; j <= m; j++) first[j] = j;
    rows.push(first);
    const maxDepth = Math.min(MAX_TERM, m + d);
    for (let k = 1; k <= maxDepth; k++) rows.push(new Int32Array(m + 1));

    const out: Near[] = [];
    let prev = '';
    let valid = 0; // rows[1..valid] hold the table for prev's first `valid` characters
    let i = 0;
    const n = terms.length;
    while (i < n) {
      const t = terms[i];
      let k = 0;
      const lim = Math.min(valid, t.length);
      while (k < lim && t.charCodeAt(k) === prev.charCodeAt(k)) k++;
      // rows[0..k] are valid for t
      let skipTo = -1;
      const depth = t.length;
      for (let kk = k + 1; kk <= depth; kk++) {
        if (kk > maxDepth) {
          skipTo = upperBoundPrefix(terms, t.slice(0, kk), i);
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
          skipTo = upperBoundPrefix(terms, t.slice(0, kk), i);
          valid = kk; // row kk is computed (and hopeless); later terms share at most kk-1 characters
          break;
        }
      }
      prev = t;
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
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) => Array.from({ length: n + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[m][n];
}
