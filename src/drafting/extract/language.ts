/**
 * Page language, from the text itself (function-word counts; Japanese and Chinese by script), with
 * <html lang> as a tie-breaker. Drafting never translates: a page's values are drafted in the
 * language the page is written in, and the patterns of company.ts/pricing.ts know the drafting
 * languages (en, de, fr, es, pt, ja, zh).
 *
 * It also recognises a template's filler prose: pseudo-Latin ("lorem ipsum" and its generators)
 * and word salad (startup/corporate ipsum: eight or more words with no function word at all).
 */

export type Lang = 'en' | 'de' | 'fr' | 'es' | 'pt' | 'ja' | 'zh' | 'la';

const FUNCTION_WORDS: Record<Exclude<Lang, 'ja' | 'zh'>, Set<string>> = {
  en: new Set(
    'the and of to a in is for with on that you your it are our we this be as at by from or an can'.split(' '),
  ),
  de: new Set(
    'der die das und ist nicht mit für von zu den dem ein eine sie wir ihr auf auch sich im des bei oder wie'.split(
      ' ',
    ),
  ),
  fr: new Set(
    'le la les et des du un une pour avec est en que qui dans sur pas au aux vous nous ce ces votre son'.split(' '),
  ),
  es: new Set('el la los las y de del que en un una para con por es se su sus como más al lo tu'.split(' ')),
  pt: new Set('o a os as e de do da dos das que em um uma para com por é se seu sua não mais ao na no você'.split(' ')),
  la: new Set(
    'et est in ad cum non nec sed quod qui quae quam quas quid hoc sua suis ipse nisi tamen atque ut sit erat esse vel per ab'.split(
      ' ',
    ),
  ),
};

/** The language of a piece of text (null when it is too short to tell). */
export function detectLanguage(text: string, declared?: string | null): Lang | null {
  const sample = text.slice(0, 20_000);
  const kana = (sample.match(/[\u3040-\u30ff]/g) ?? []).length;
  const han = (sample.match(/[\u3400-\u9fff]/g) ?? []).length;
  const letters = (sample.match(/\p{L}/gu) ?? []).length || 1;
  if ((kana + han) / letters > 0.3) return kana > han * 0.1 ? 'ja' : 'zh';
  const words = sample.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 5) return declaredLang(declared);
  const counts = Object.entries(FUNCTION_WORDS).map(
    ([lang, set]) => [lang, words.filter((w) => set.has(w)).length] as const,
  );
  counts.sort((a, b) => b[1] - a[1]);
  const [best, second] = counts;
  if (best[1] === 0) return declaredLang(declared);
  const hint = declaredLang(declared);
  if (hint && second && best[1] - second[1] <= 1 && counts.some(([l, n]) => l === hint && n === best[1])) return hint;
  return best[0] as Lang;
}

function declaredLang(declared?: string | null): Lang | null {
  const l = (declared ?? '').toLowerCase().slice(0, 2);
  return ['en', 'de', 'fr', 'es', 'pt', 'ja', 'zh'].includes(l) ? (l as Lang) : null;
}

const ALL_FUNCTION_WORDS = new Set(
  Object.entries(FUNCTION_WORDS)
    .filter(([l]) => l !== 'la')
    .flatMap(([, s]) => [...s]),
);

/** Template filler prose: pseudo-Latin, or eight or more words without a single function word. */
export function isFillerProse(text: string): boolean {
  // Chinese and Japanese are not written in space-separated words: never word salad
  if (/[\u3040-\u30ff\u3400-\u9fff]/.test(text)) return false;
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 6) return false;
  const latin = words.filter((w) => FUNCTION_WORDS.la.has(w)).length;
  const modern = words.filter((w) => ALL_FUNCTION_WORDS.has(w) && !FUNCTION_WORDS.la.has(w)).length;
  if (latin >= 2 && latin > modern * 2) return true;
  const commas = (text.match(/[,;:/]/g) ?? []).length;
  const fn = words.filter((w) => ALL_FUNCTION_WORDS.has(w) || FUNCTION_WORDS.la.has(w)).length;
  return words.length >= 8 && commas <= 1 && fn / words.length < 0.06;
}
