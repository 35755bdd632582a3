/**
 * HTML helpers shared by the crawler and the extractor: parsing, visible text with sensible word
 * boundaries, and the "markup" text (attribute values, <title>, JSON-LD) that evidence quotes taken
 * from attributes are checked against.
 */
import { createRequire } from 'node:module';
import type * as Cheerio from 'cheerio';
import type { AnyNode, Element } from 'domhandler';

export type CheerioRoot = Cheerio.CheerioAPI;

// cheerio (with parse5 and htmlparser2, ~8 MB resident) is loaded by the first page parsed (a draft,
// a claim or badge check), not at start; require() keeps loadHtml synchronous for its many callers.
const require = createRequire(import.meta.url);
let cheerio: typeof Cheerio | undefined;

export function loadHtml(html: string): CheerioRoot {
  cheerio ??= require('cheerio') as typeof Cheerio;
  return cheerio.load(html);
}

/** Elements whose content is never visible text. */
export const INVISIBLE_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'head',
  'iframe',
  'object',
  'canvas',
  'math',
  'select',
  'option',
  'textarea',
]);

/** Elements that start a new line of text (so their words do not run together). */
export const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'br',
  'button',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'label',
  'legend',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
  'img',
  'input',
]);

/** Collapse whitespace (incl. NBSP and zero-width characters) to single spaces and trim. */
export function normalizeSpace(s: string): string {
  return s
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g, ' ')
    .trim();
}

/**
 * Only the `hidden` attribute hides text here. Inline `display:none` is kept on purpose: carousels,
 * tabs and accordions hide most of their slides that way, and their text is shown to visitors.
 */
function isHidden(el: Element): boolean {
  return 'hidden' in (el.attribs ?? {});
}

/**
 * Visible text of a node: text nodes joined, with a space at every block boundary and <br>, and
 * nothing from scripts, styles, templates or hidden elements. Whitespace is normalised.
 */
export function textOf(node: AnyNode | AnyNode[] | undefined): string {
  if (!node) return '';
  const parts: string[] = [];
  const walk = (n: AnyNode): void => {
    if (n.type === 'text') {
      parts.push((n as unknown as { data: string }).data);
      return;
    }
    if (n.type !== 'tag' && n.type !== 'root' && n.type !== 'script' && n.type !== 'style') return;
    if (n.type === 'script' || n.type === 'style') return;
    const el = n as Element;
    const name = el.name?.toLowerCase();
    if (name && (INVISIBLE_TAGS.has(name) || isHidden(el))) return;
    const block = name ? BLOCK_TAGS.has(name) : false;
    if (block) parts.push(' ');
    for (const c of el.children ?? []) walk(c as AnyNode);
    if (block) parts.push(' ');
  };
  for (const n of Array.isArray(node) ? node : [node]) walk(n);
  return normalizeSpace(parts.join(''));
}

/** Visible text of a whole document (the body, or everything when there is no body). */
export function visibleText($: CheerioRoot): string {
  const body = $('body').get(0);
  return body ? textOf(body) : textOf($.root().get(0));
}

export function visibleTextOfHtml(html: string): string {
  return visibleText(loadHtml(html));
}

/** The document title, or '' (whitespace-normalised). */
export function titleOf($: CheerioRoot): string {
  return normalizeSpace($('head > title').first().text() || $('title').first().text());
}

/**
 * Markup text: <title>, every attribute value and every JSON-LD block, one per line. Evidence for
 * values read from attributes (meta content, href, src, alt, class…) is checked against this.
 */
export function markupText($: CheerioRoot): string {
  const out: string[] = [titleOf($)];
  $('*').each((_, el) => {
    const attribs = (el as Element).attribs;
    if (!attribs) return;
    for (const v of Object.values(attribs)) if (v) out.push(normalizeSpace(v));
  });
  $('script[type="application/ld+json"]').each((_, el) => {
    out.push(normalizeSpace($(el).text()));
  });
  return out.join('\n');
}

/** The first `<meta>` content for any of the given name/property keys, normalised; '' when none. */
export function metaContent($: CheerioRoot, ...keys: string[]): string {
  for (const k of keys) {
    const el = $(`meta[name="${k}" i], meta[property="${k}" i], meta[itemprop="${k}" i]`).first();
    const v = normalizeSpace(el.attr('content') ?? '');
    if (v) return v;
  }
  return '';
}

/** Resolve `href` against `base`; null for javascript:, data: and unparsable values. */
export function resolveUrl(href: string | undefined, base: string): string | null {
  if (!href) return null;
  const h = href.trim();
  if (!h || /^(?:javascript|data|vbscript|about|blob):/i.test(h)) return null;
  try {
    return new URL(h, base).href;
  } catch {
    return null;
  }
}

/** The <base href> of a document resolved against its URL, or the URL itself. */
export function baseUrlOf($: CheerioRoot, pageUrl: string): string {
  const b = $('base[href]').first().attr('href');
  return (b && resolveUrl(b, pageUrl)) || pageUrl;
}
