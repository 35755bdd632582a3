// Query words exactly as the full-text indexes cut them: lower-cased, Latin accents removed, split
// on anything that is not a letter or a digit (SQLite FTS5 unicode61 remove_diacritics 2; on
// PostgreSQL the 020_search_tokens migration folds punctuation and accents the same way).
import type { Engine } from '../connect.ts';

// unaccent (PostgreSQL) also folds letters that have no Unicode decomposition; FTS5 keeps them.
const PG_FOLD: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ı: 'i',
  ŀ: 'l',
  ŧ: 't',
};
const PG_FOLD_RE = new RegExp(`[${Object.keys(PG_FOLD).join('')}]`, 'g');
const WORD = /[\p{L}\p{N}]+/gu;

/** The index's words in `text`, in order (duplicates kept). */
export function tokenize(text: string, engine: Engine): string[] {
  let s = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  if (engine === 'postgres') s = s.replace(PG_FOLD_RE, (c) => PG_FOLD[c]);
  return s.normalize('NFC').match(WORD) ?? [];
}

/** Length in characters (code points), the measure of the typo rule. */
export const charLength = (w: string): number => {
  let n = 0;
  for (const _ of w) n++;
  return n;
};
