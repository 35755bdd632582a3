// TermDictionary.nearest (single edits looked up by hash, the walk only for distance 2) against the
// walk (near) and a brute-force edit distance, on random dictionaries and words: ASCII, accented and
// non-Latin letters, characters outside the BMP (two UTF-16 units), and an alphabet large enough that
// nearest walks for distance 1 as well. Both ways must give the same terms, in the same order.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { TermDictionary, editDistance, type Near } from '../../src/store/search/dictionary.ts';
import { planQuery, MAX_CORRECTIONS } from '../../src/store/search/plan.ts';
import { createRng, type Rng } from '../../src/store/seed/prng.ts';

/** What nearest() promises: near() cut to its smallest distance, at most `limit`. */
function expected(dict: TermDictionary, word: string, maxDistance: number, limit: number): Near[] {
  const all = dict.near(word, maxDistance);
  return all.filter((n) => n.distance === all[0].distance).slice(0, limit);
}

const ASCII = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
const SMALL = [...'abcde']; // few letters: many terms one or two edits apart
const UNICODE = [...'aeinorstßøæœłđçğşžкотмиρσλχ中文字日本語한국', '𝒳', '𝔸', '😀'];
const CJK = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(0x4e00 + i));

function word(rng: Rng, letters: readonly string[], min: number, max: number): string {
  let w = '';
  for (let n = rng.int(min, max); n > 0; n--) w += rng.pick(letters);
  return w;
}

/** One random edit over UTF-16 units (so it may split a surrogate pair, as a typo against the walk can). */
function edit(rng: Rng, w: string, letters: readonly string[]): string {
  const units = w.split('');
  const k = rng.int(0, Math.max(0, units.length - 1));
  const c = rng.pick(letters);
  switch (rng.int(0, 3)) {
    case 0:
      units.splice(k, 0, c);
      break;
    case 1:
      if (units.length) units.splice(k, 1);
      break;
    case 2:
      units[k] = c;
      break;
    default:
      if (k + 1 < units.length) [units[k], units[k + 1]] = [units[k + 1], units[k]];
  }
  return units.join('');
}

function queries(rng: Rng, terms: readonly string[], letters: readonly string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const t = rng.pick(terms);
    switch (i % 5) {
      case 0:
        out.push(t);
        break; // present
      case 1:
        out.push(edit(rng, t, letters));
        break;
      case 2:
        out.push(edit(rng, edit(rng, t, letters), letters));
        break;
      case 3:
        out.push(edit(rng, edit(rng, edit(rng, t, letters), letters), letters));
        break;
      default:
        out.push(word(rng, letters, 1, 14)); // mostly absent
    }
  }
  return out;
}

function check(
  dict: TermDictionary,
  words: readonly string[],
  limits: readonly number[] = [1, 3, MAX_CORRECTIONS, Infinity],
): void {
  for (const w of words) {
    for (const d of [0, 1, 2]) {
      const all = dict.near(w, d);
      const nearest = all.filter((n) => n.distance === all[0].distance);
      for (const limit of limits) {
        assert.deepEqual(
          dict.nearest(w, d, limit),
          nearest.slice(0, limit),
          `nearest(${JSON.stringify(w)}, ${d}, ${limit})`,
        );
      }
    }
  }
}

describe('TermDictionary.nearest agrees with the walk', () => {
  test('ASCII dictionaries, present, misspelt and random words', () => {
    const rng = createRng(1);
    for (const [letters, size, max] of [
      [ASCII, 3000, 12],
      [SMALL, 400, 7],
      [ASCII, 50, 9],
    ] as const) {
      const terms = Array.from({ length: size }, () => word(rng, letters, 1, max));
      const dict = new TermDictionary(terms);
      check(dict, queries(rng, dict.terms, letters, 400));
    }
  });

  test('accents, non-Latin scripts and characters outside the BMP', () => {
    const rng = createRng(2);
    const terms = Array.from({ length: 2500 }, () => word(rng, UNICODE, 1, 10));
    const dict = new TermDictionary(terms);
    check(dict, queries(rng, dict.terms, UNICODE, 600));
    // lone halves of a surrogate pair, as a one-unit edit can leave them
    check(dict, ['\ud835', 'a\udcb3', '𝒳𝒳'.slice(0, 3), 'ρσ\ud83d']);
  });

  test('a large alphabet: every edit tried near the start of a word, the walk past it (too many edits)', () => {
    const rng = createRng(3);
    const terms = Array.from({ length: 3000 }, () => word(rng, CJK, 2, 6));
    terms.push(...CJK.slice(0, 200).map((c) => 'ab' + c + 'cd'));
    const dict = new TermDictionary(terms);
    check(dict, [...queries(rng, dict.terms, CJK, 150), 'abcd', 'abxcd', 'ab中', 'zz'], [1, Infinity]);
  });

  test('terms around the 64-unit limit', () => {
    const rng = createRng(4);
    const long = (n: number) => 'x'.repeat(n - 1) + 'y';
    const terms = [long(62), long(63), long(64), long(65), long(66), 'x'.repeat(64), 'x'.repeat(63) + 'z'];
    for (let i = 0; i < 100; i++) terms.push(word(rng, ['x', 'y'], 60, 66));
    const dict = new TermDictionary(terms);
    const words = [
      ...terms,
      ...terms.map((t) => t.slice(1)),
      ...terms.map((t) => t + 'x'),
      ...terms.map((t) => edit(rng, t, ['x', 'y', 'z'])),
    ];
    check(dict, words, [Infinity]);
  });

  test('the walk itself matches a brute-force edit distance', () => {
    const rng = createRng(5);
    for (const letters of [SMALL, UNICODE]) {
      const terms = Array.from({ length: 300 }, () => word(rng, letters, 1, 8));
      const dict = new TermDictionary(terms);
      for (const w of queries(rng, dict.terms, letters, 150)) {
        if (w === '') continue; // no corrections for nothing
        for (const d of [0, 1, 2]) {
          const want = dict.terms
            .map((t) => ({ term: t, distance: editDistance(w, t) }))
            .filter((n) => n.distance <= d)
            .sort((a, b) => a.distance - b.distance || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
          assert.deepEqual(dict.near(w, d), want, `near(${JSON.stringify(w)}, ${d})`);
        }
      }
    }
  });

  test('has() and the plan use the same dictionary', () => {
    const rng = createRng(6);
    const terms = Array.from({ length: 1000 }, () => word(rng, ASCII, 5, 11));
    const dict = new TermDictionary(terms);
    for (const w of queries(rng, dict.terms, ASCII, 300)) {
      assert.equal(dict.has(w), dict.terms.includes(w));
      const [p] = planQuery([w], dict, { lastIsPrefix: false });
      // Typos allowed by length (2 from 8 letters, 1 from 5), the longer of the two words counting: the
      // nearest terms within one more typo than the word's own length allows, each kept if its length allows it.
      const typos = (len: number) => (len >= 8 ? 2 : len >= 5 ? 1 : 0);
      const budget = typos(w.length + 1);
      const nearest = dict.has(w) || budget === 0 ? [] : expected(dict, w, budget, Infinity);
      const near = nearest
        .filter((x) => x.distance <= typos(Math.max(w.length, x.term.length)))
        .slice(0, MAX_CORRECTIONS);
      assert.deepEqual(p.terms, dict.has(w) ? [w] : near.length ? near.map((x) => x.term) : [w], `plan of ${w}`);
    }
  });
});
