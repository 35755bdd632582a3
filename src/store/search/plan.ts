// The typo-tolerant query plan: the same on both engines (engine-free, pure).
//
//   1. The query is cut into words the way the index cuts text (tokenize.ts).
//   2. Each word is looked up in the index's own dictionary:
//        - present → the word itself;
//        - absent, 5–7 characters → the dictionary words at edit distance 1;
//        - absent, 8+ characters → the nearest dictionary words at edit distance ≤ 2
//          (those at distance 1 when there are any, else those at distance 2);
//        - absent, shorter than 5 → no correction (the word must match as typed).
//      The length that sets the typos allowed is the longer of the two words: a dropped letter turns a
//      5-letter word into 4 letters, and that is still one typo in a 5-letter word. So a 4-letter word
//      is corrected to 5-letter words one edit away, and a 7-letter word (with no word one edit away) to
//      words of 8+ letters two edits away.
//      At most MAX_CORRECTIONS corrections per word, nearest first then alphabetical.
//   3. The last word may be unfinished (the user is still typing): it also matches every word that
//      starts with it (when at least MIN_PREFIX characters long); corrections are only tried for it when no
//      dictionary word starts with it.
//   4. A listing matches when it holds every query word (AND), each through any of its alternatives (OR).
import type { TermDictionary } from './dictionary.ts';
import { charLength } from './tokenize.ts';

export const MAX_WORDS = 10;
export const MAX_CORRECTIONS = 10;
export const MIN_PREFIX = 2;
/** An unfinished last word is expanded to the dictionary words it starts; beyond this many, the engine's own prefix match does it. */
export const MAX_PREFIX_EXPANSION = 50;

export interface WordPlan {
  /** The word as typed (normalised). */
  word: string;
  /** Whole dictionary words that match it: the word itself, or its corrections. */
  terms: string[];
  /** Also matches every word starting with `word` (more than MAX_PREFIX_EXPANSION of them; fewer are listed in `terms`). */
  prefix: boolean;
  /** True when `terms` are corrections of a word the index does not hold. */
  corrected: boolean;
}

/** Typos allowed in a word of n characters: 2 from 8, 1 from 5, none below. */
export function typosFor(n: number): number {
  return n >= 8 ? 2 : n >= 5 ? 1 : 0;
}

export function planQuery(
  words: readonly string[],
  dict: TermDictionary,
  opts: { lastIsPrefix?: boolean } = {},
): WordPlan[] {
  const unique = [...new Set(words)].slice(0, MAX_WORDS);
  return unique.map((word, i) => {
    const last = i === unique.length - 1 && (opts.lastIsPrefix ?? true);
    if (last && charLength(word) >= MIN_PREFIX) {
      // Every word starting with it (the word itself included when the index holds it).
      const starting = dict.withPrefix(word, MAX_PREFIX_EXPANSION + 1);
      if (starting.length > MAX_PREFIX_EXPANSION) return { word, terms: [], prefix: true, corrected: false };
      if (starting.length > 0) return { word, terms: starting, prefix: false, corrected: false };
    }
    if (dict.has(word)) return { word, terms: [word], prefix: false, corrected: false };
    // A correction one character longer may allow one more typo than the word typed (see above).
    const n = charLength(word);
    const typos = typosFor(n + 1);
    if (typos > 0) {
      // The nearest terms only (those at distance 1 when there are any), each within the typos its
      // length allows, alphabetical, at most MAX_CORRECTIONS.
      const allowed = dict.nearest(word, typos).filter((c) => c.distance <= typosFor(Math.max(n, charLength(c.term))));
      if (allowed.length)
        return { word, terms: allowed.slice(0, MAX_CORRECTIONS).map((c) => c.term), prefix: false, corrected: true };
    }
    return { word, terms: [word], prefix: false, corrected: false };
  });
}

/** The plan as an FTS5 MATCH expression: ("a" OR "b") AND ("c" OR "c"*). Terms hold only letters and digits. */
export function toFts5(plan: readonly WordPlan[]): string {
  return plan
    .map((w) => {
      const alts = w.terms.map((t) => `"${t}"`);
      if (w.prefix) alts.push(`"${w.word}"*`);
      return alts.length === 1 ? alts[0] : `(${alts.join(' OR ')})`;
    })
    .join(' AND ');
}

/** The plan as a PostgreSQL tsquery text for to_tsquery('simple', …): ('a' | 'b') & ('c' | 'c':*). */
export function toTsquery(plan: readonly WordPlan[]): string {
  return plan
    .map((w) => {
      const alts = w.terms.map((t) => `'${t}'`);
      if (w.prefix) alts.push(`'${w.word}':*`);
      return alts.length === 1 ? alts[0] : `(${alts.join(' | ')})`;
    })
    .join(' & ');
}
