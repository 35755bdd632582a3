/**
 * Evidence checking. A quote counts as found when, after normalisation, it is a substring of the
 * page's visible text or of its markup text (attribute values, <title>, JSON-LD).
 *
 * Normalisation (both sides): Unicode NFKC, lower case, typographic quotes → ' and ", dashes
 * (‐ ‑ ‒ – — ―, minus) → -, … → ..., every run of whitespace → one space, trimmed. Nothing else:
 * no stemming, no punctuation stripping, so a quote must really be on the page.
 */
import { loadHtml, markupText, visibleText } from './html.ts';
import { found, notFound, type Evidence, type FieldDraft, type SourcePage } from './types.ts';

export function normalizeForMatch(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201a\u201b\u2032\u00b4`]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/g, '"')
    .replace(/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Normalised haystacks of one page. */
export interface PageHaystack {
  url: string;
  text: string;
  markup: string;
}

const haystackCache = new WeakMap<object, PageHaystack>();

/** Build (and cache per page object) the normalised text and markup of a page. */
export function haystackOf(page: SourcePage | PageHaystack): PageHaystack {
  if ('markup' in page && typeof page.markup === 'string' && !('html' in page)) return page as PageHaystack;
  const cached = haystackCache.get(page);
  if (cached) return cached;
  const p = page as SourcePage;
  const $ = loadHtml(p.html);
  const h: PageHaystack = {
    url: p.url,
    text: normalizeForMatch(p.text ?? visibleText($)),
    markup: normalizeForMatch(markupText($)),
  };
  haystackCache.set(page, h);
  return h;
}

/** Minimum length of a quote, so that "a" or "the" never counts as evidence. */
export const MIN_QUOTE_LENGTH = 3;

/**
 * Where a quote is found: the page with the quoted URL first, then any other page. Returns the
 * URL of the page that holds it, or null.
 */
export function locateQuote(
  quote: string,
  url: string | null,
  pages: ReadonlyArray<SourcePage | PageHaystack>,
): string | null {
  const q = normalizeForMatch(quote);
  if (q.length < MIN_QUOTE_LENGTH) return null;
  const hay = pages.map(haystackOf);
  const ordered = url ? [...hay.filter((h) => h.url === url), ...hay.filter((h) => h.url !== url)] : hay;
  for (const h of ordered) if (h.text.includes(q) || h.markup.includes(q)) return h.url;
  return null;
}

/**
 * Keep a proposed value only when it has evidence and every quote is found on the crawled pages
 * (whitespace-normalised, case-insensitive). Quotes found on a different crawled page than the
 * one named get that page's URL. Otherwise the value is dropped: `{value: null, state: 'not_found'}`.
 */
export function verifyEvidence<V extends string | string[]>(
  value: V | null | undefined,
  evidence: ReadonlyArray<{ quote: string; url?: string | null }> | null | undefined,
  pages: ReadonlyArray<SourcePage | PageHaystack>,
): FieldDraft<V> {
  if (value === null || value === undefined) return notFound<V>();
  if (typeof value === 'string' && value.trim() === '') return notFound<V>();
  if (Array.isArray(value) && value.length === 0) return notFound<V>();
  if (!evidence || evidence.length === 0) return notFound<V>();
  const verified: Evidence[] = [];
  for (const e of evidence) {
    if (!e || typeof e.quote !== 'string') return notFound<V>();
    const where = locateQuote(e.quote, e.url ?? null, pages);
    if (!where) return notFound<V>();
    if (!verified.some((v) => v.url === where && v.quote === e.quote)) verified.push({ quote: e.quote, url: where });
  }
  return found<V>(value, verified);
}

/**
 * For list fields proposed item by item: keep the items whose own quotes all verify. The result
 * holds the kept items and the union of their evidence; `dropped` lists the rest.
 */
export function verifyItems(
  items: ReadonlyArray<{ value: string; evidence: ReadonlyArray<{ quote: string; url?: string | null }> }>,
  pages: ReadonlyArray<SourcePage | PageHaystack>,
): { field: FieldDraft<string[]>; dropped: string[] } {
  const kept: string[] = [];
  const ev: Evidence[] = [];
  const dropped: string[] = [];
  for (const item of items) {
    const v = verifyEvidence(item.value, item.evidence, pages);
    if (v.state === 'ai' && typeof v.value === 'string' && !kept.includes(v.value)) {
      const index = kept.length;
      kept.push(v.value);
      for (const e of v.evidence) ev.push({ quote: e.quote, url: e.url, item: index });
    } else if (v.state !== 'ai') dropped.push(item.value);
  }
  return { field: kept.length ? found(kept, ev) : notFound<string[]>(), dropped };
}
