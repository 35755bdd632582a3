/** Small text utilities for the rules-based drafter. */

const ABBREV = /(?:\b(?:e\.g|i\.e|etc|vs|approx|inc|ltd|co|corp|mr|mrs|ms|dr|st|no|fig|jr|sr|u\.s|a\.m|p\.m)\.)$/i;

/**
 * Split text into sentences (keeps the end punctuation; avoids common abbreviations). A sentence
 * ends at . ! ? … followed by a space — so "bindings.json", "`.mp4`" and "v1.2" stay whole — or at
 * the Chinese/Japanese 。！？.
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  const parts = text.split(/(?<=[.!?…]["'”’)\]]*)\s+|(?<=[。！？]["'”’)\]」』]*)(?![。！？"'”’)\]」』])/);
  let buf = '';
  for (const part of parts) {
    if (!part) continue;
    buf = buf ? `${buf}${/[。！？」』]$/.test(buf) ? '' : ' '}${part}` : part;
    const t = buf.trim();
    if (!t) continue;
    if (ABBREV.test(t) || /\b[A-Z]\.$/.test(t) || /\d\.$/.test(t)) continue; // "e.g." / "U.S." / "v1." keep going
    out.push(t);
    buf = '';
  }
  if (buf.trim()) out.push(buf.trim());
  return out;
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u2e80-\u2fdf]/g;

/** Words; in Chinese and Japanese, which have no spaces, every two characters count as one word. */
export function wordCount(s: string): number {
  const cjk = (s.match(CJK) ?? []).length;
  const rest = s.replace(CJK, ' ');
  return rest.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length + Math.ceil(cjk / 2);
}

/** Lower-case letters and digits of any script, accents dropped (for comparing names). */
export function squash(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Latin-script words (accents dropped); Chinese and Japanese runs as character bigrams. */
export function tokens(s: string): string[] {
  const norm = s.normalize('NFKC').toLowerCase();
  const out = norm
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 0);
  for (const run of norm.match(/[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+/g) ?? []) {
    if (run.length === 1) out.push(run);
    for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
  }
  return out;
}

const STOP = new Set(
  'a an and are as at be by for from has have in is it its of on or our the this that to we with you your their they them can will all any not no more most'.split(
    ' ',
  ),
);

export function contentTokens(s: string): string[] {
  return tokens(s).filter((t) => !STOP.has(t) && t.length > 1);
}

/** Share of a's content tokens that also occur in b (0..1). */
export function coverage(a: string, b: string): number {
  const ta = contentTokens(a);
  if (ta.length === 0) return 0;
  const tb = new Set(contentTokens(b));
  return ta.filter((t) => tb.has(t)).length / ta.length;
}

/** Jaccard similarity of content tokens. */
export function similarity(a: string, b: string): number {
  const ta = new Set(contentTokens(a));
  const tb = new Set(contentTokens(b));
  if (ta.size === 0 || tb.size === 0) return 0;
  let inter = 0;
  for (const t of ta) if (tb.has(t)) inter++;
  return inter / (ta.size + tb.size - inter);
}

/** Trim to at most `max` characters at a sentence (or else word) boundary; null if nothing fits. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const s of sentences(text)) {
    if ((out ? out.length + 1 : 0) + s.length > max) break;
    out = out ? `${out} ${s}` : s;
  }
  if (out) return out;
  const cut = text.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max / 2 ? cut.slice(0, sp) : cut).replace(/[\s,;:–—-]+$/, '')}…`;
}

export function capitalizeFirst(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** Drop trailing sentence punctuation and surrounding quotes / spaces. */
export function trimPunct(s: string): string {
  return s.replace(/^[\s"'“”‘’«»]+/, '').replace(/[\s"'“”‘’«».,;:!]+$/, '');
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
