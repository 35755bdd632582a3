/**
 * A crawled page parsed once for the extractor: DOM, visible text, JSON-LD, page kind, and
 * whether it looks like a leftover template page (placeholder emails, links to mysite.com,
 * lorem ipsum, random stock portraits, CMS editor links) that must not be trusted.
 */
import type { Cheerio } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { haystackOf, type PageHaystack } from './evidence.ts';
import { loadHtml, metaContent, normalizeSpace, textOf, titleOf, visibleText, type CheerioRoot } from './html.ts';
import type { SourcePage } from './types.ts';
import { detectLanguage, isFillerProse, type Lang } from './language.ts';

export type PageKind =
  | 'home'
  | 'pricing'
  | 'about'
  | 'contact'
  | 'faq'
  | 'features'
  | 'why'
  | 'license'
  | 'legal'
  | 'blog'
  | 'docs'
  | 'download'
  | 'community'
  | 'other';

export type JsonLdNode = Record<string, unknown> & { '@type'?: unknown };

export interface ParsedPage {
  url: string;
  index: number;
  isHome: boolean;
  kind: PageKind;
  $: CheerioRoot;
  text: string;
  title: string;
  jsonld: JsonLdNode[];
  /** Why the page looks like an unfilled template (empty when it does not). */
  placeholderSignals: string[];
  haystack: PageHaystack;
  source: SourcePage;
  /** The language the page is written in (detected from its text; <html lang> breaks ties). */
  lang: Lang | null;
}

const KIND_RULES: Array<[PageKind, RegExp]> = [
  ['pricing', /\b(?:pric(?:e|es|ing)|plans?|tarifs?|preise|precios|prix|subscriptions?|upgrade|premium)\b/],
  ['faq', /\b(?:faqs?|frequently[- ]asked|questions)\b/],
  ['contact', /\b(?:contact(?:-?us)?|get[- ]in[- ]touch|kontakt|support|impressum|imprint)\b/],
  [
    'about',
    /\b(?:about(?:-?us)?|team|company|our[- ]story|who[- ]we[- ]are|mission|founders?|ueber[- ]uns|a[- ]propos)\b/,
  ],
  [
    'features',
    /\b(?:features?|tour|how[- ]it[- ]works|product|overview|capabilities|benefits|use[- ]cases?|services?|funktionen|leistungen|fonctionnalit[eé]s|servicios|funcionalidades|servi[cç]os)\b|サービス|機能|功能|服务/,
  ],
  ['why', /\bwhy\b/],
  ['license', /\blicen[cs]e\b/],
  ['legal', /\b(?:privacy|terms|cookies?|legal|gdpr|imprint|impressum|dpa|eula)\b/],
  ['blog', /\b(?:blog|news|posts?|articles?|changelog|releases?)\b/],
  ['download', /\b(?:downloads?|install(?:ation|ing)?|get[- ]started|setup)\b/],
  ['community', /\b(?:community|forums?|discuss(?:ion)?|contribut\w*|get[- ]involved|social)\b/],
  ['docs', /\b(?:docs?|documentation|manual|guides?|api|reference)\b/],
];

function kindOf(url: string, title: string, h1: string, isHome: boolean): PageKind {
  if (isHome) return 'home';
  let path = '';
  try {
    path = decodeURIComponent(new URL(url).pathname)
      .toLowerCase()
      .replace(/\/index\.(?:html?|php)$/, '/');
  } catch {
    /* keep '' */
  }
  const pathWords = path.replace(/[/_.-]+/g, ' ');
  for (const [kind, re] of KIND_RULES) if (re.test(pathWords)) return kind;
  const heading = `${title} ${h1}`.toLowerCase();
  for (const [kind, re] of KIND_RULES) if (re.test(heading)) return kind;
  return 'other';
}

function flattenJsonLd(data: unknown, out: JsonLdNode[], depth = 0): void {
  if (depth > 4 || data === null || typeof data !== 'object') return;
  if (Array.isArray(data)) {
    for (const d of data) flattenJsonLd(d, out, depth + 1);
    return;
  }
  const node = data as JsonLdNode;
  if (Array.isArray(node['@graph'])) flattenJsonLd(node['@graph'], out, depth + 1);
  if (node['@type'] !== undefined) out.push(node);
}

export function jsonLdTypes(node: JsonLdNode): string[] {
  const t = node['@type'];
  const list = Array.isArray(t) ? t : [t];
  return list.filter((x): x is string => typeof x === 'string').map((x) => x.replace(/^.*[/#:]/, ''));
}

export function parseJsonLd($: CheerioRoot): JsonLdNode[] {
  const out: JsonLdNode[] = [];
  $('script[type="application/ld+json" i]').each((_, el) => {
    const raw = $(el).text().trim();
    if (!raw) return;
    try {
      flattenJsonLd(JSON.parse(raw), out);
    } catch {
      // Some sites put several objects or trailing commas in one block; try a lenient pass.
      try {
        flattenJsonLd(JSON.parse(raw.replace(/,\s*([}\]])/g, '$1')), out);
      } catch {
        /* ignore broken JSON-LD */
      }
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Template / placeholder detection

const PLACEHOLDER_DOMAIN =
  /(?:^|[@./])(?:example\.(?:com|org|net)|[\w-]+\.example|[\w-]+\.invalid|(?:your|my)[-]?(?:domain|site|website|company|business|email|name|app|brand)\.(?:com|net|org|io)|domain\.com|email\.com|company\.com|website\.com|site\.com|business\.com|yourname@|test\.com)(?:$|[/?#:])/i;
const PLACEHOLDER_IMAGE =
  /(?:source\.unsplash\.com|placehold\.(?:it|co)|via\.placeholder\.com|placeholder\.com|picsum\.photos|dummyimage\.com|placekitten\.com|lorempixel\.com|randomuser\.me)/i;
const CMS_EDITOR_LINK = /^(?:cloudcannon|forestry|tina|netlifycms|decap):/i;

/** Filler a theme ships with: lorem ipsum, "Feature Feature Feature", "Plan description", "XXXX XXX". */
const FILLER_TEXT =
  /\blorem ipsum\b|\bdolor sit amet\b|\b(feature|item|text|title|heading|subtitle|link|option|label|content|placeholder|name)(?:\s+\1){2,}\b|\b(?:plan|product|feature|item|service|section|card|tier|package) description\b/iu;
const FILLER_DIGITS = /\bX{3,}(?:[\s-]+X{2,})+\b|\b(?:555-\d{4}|123-456-7890|\(?000\)?[\s-]?000[\s-]?0000)\b/;

/** True when a piece of text is a theme's filler (the placeholder copy and numbers of a template). */
export function isFillerText(text: string): boolean {
  return FILLER_TEXT.test(text) || FILLER_DIGITS.test(text);
}

/** Signals that a page is an unfilled theme/template page. */
export function placeholderSignals($: CheerioRoot): string[] {
  const signals = new Set<string>();
  const text = visibleText($);
  if (/\blorem ipsum\b|\bdolor sit amet\b/i.test(text)) signals.add('lorem ipsum text');
  if (/\b(?:john|jane) doe\b/i.test(text)) signals.add('placeholder person name');
  const filler = FILLER_TEXT.exec(text) ?? FILLER_DIGITS.exec(text);
  if (filler) signals.add(`template filler "${filler[0].trim().slice(0, 40)}"`);
  const prose = $('p, li, h2, h3, h4')
    .toArray()
    .filter((el) => !inChrome($, el) && linkShare($, el) < 0.5)
    .map((el) => textOf(el))
    .filter((t) => isFillerProse(t));
  if (prose.length >= 2) signals.add(`template filler prose "${prose[0].slice(0, 40)}"`);
  $('a[href]').each((_, el) => {
    const a = $(el);
    if (a.closest('code, pre').length) return;
    const href = (a.attr('href') ?? '').trim();
    if (CMS_EDITOR_LINK.test(href)) signals.add(`CMS editor link ${href}`);
    const target = href.replace(/^mailto:/i, '');
    if (PLACEHOLDER_DOMAIN.test(target)) signals.add(`placeholder address ${href}`);
  });
  $('input[type="hidden"][value], input[type="email"][value]').each((_, el) => {
    const v = $(el).attr('value') ?? '';
    if (/@/.test(v) && PLACEHOLDER_DOMAIN.test(v)) signals.add(`placeholder form address ${v}`);
  });
  $('img[src]').each((_, el) => {
    const src = $(el).attr('src') ?? '';
    if (PLACEHOLDER_IMAGE.test(src)) signals.add(`stock placeholder image ${src.slice(0, 60)}`);
  });
  // Visible placeholder emails (not inside code samples)
  const emails = text.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? [];
  for (const e of emails) if (PLACEHOLDER_DOMAIN.test(e)) signals.add(`placeholder email ${e}`);
  return [...signals];
}

/** Share of an element's text that is link or button text (navigation and CTAs, not prose). */
export function linkShare($: CheerioRoot, el: AnyNode): number {
  const all = textOf(el).length;
  if (all === 0) return 0;
  const linked = $(el as Element)
    .find('a, button')
    .toArray()
    .reduce((n, a) => n + textOf(a).length, 0);
  return Math.min(1, linked / all);
}

export function isPlaceholderEmail(email: string): boolean {
  return (
    PLACEHOLDER_DOMAIN.test(email) ||
    /^(?:you|your\.?name|name|email|user|someone|john|jane|test)@/i.test(email) ||
    // a theme author's address left in a template
    /(?:themes?|templates?)[\w.-]*@|@[\w.-]*(?:themes?|templates?)\./i.test(email)
  );
}

// ---------------------------------------------------------------------------------------------

export function parsePage(src: SourcePage, index: number, isHome: boolean): ParsedPage {
  const $ = loadHtml(src.html);
  const title = titleOf($) || metaContent($, 'og:title', 'twitter:title');
  const h1 = normalizeSpace($('h1').first().text());
  const text = src.text ?? visibleText($);
  const withText: SourcePage = src.text ? src : { ...src, text };
  return {
    url: src.url,
    index,
    isHome,
    kind: kindOf(src.url, title, h1, isHome),
    $,
    text,
    title,
    jsonld: parseJsonLd($),
    placeholderSignals: isHome ? [] : placeholderSignals($),
    haystack: haystackOf(withText),
    source: withText,
    lang: detectLanguage(text, $('html').attr('lang')),
  };
}

// ---------------------------------------------------------------------------------------------
// Structural helpers

const NAV_CLASS = /(?:^|[\s_-])(?:nav|navbar|navigation|menu|menubar|breadcrumbs?|topbar|skip-link)(?:$|[\s_-])/i;
const FOOTER_CLASS = /(?:^|[\s_-])(?:footer|site-footer|colophon)(?:$|[\s_-])/i;

/** Elements that hold a page's content, whatever their class says. */
const CONTENT_TAGS = new Set(['main', 'article', 'body', 'html', 'h1', 'h2', 'h3', 'p']);

function classAndId(el: Element): string {
  return `${el.attribs?.class ?? ''} ${el.attribs?.id ?? ''}`;
}

interface ChromeFlags {
  nav: boolean;
  footer: boolean;
}

const chromeCache = new WeakMap<object, Map<Element, ChromeFlags>>();

/** Navigation / footer flags of every element of a document, computed in one walk. */
function chromeFlags($: CheerioRoot): Map<Element, ChromeFlags> {
  let map = chromeCache.get($);
  if (map) return map;
  const m = new Map<Element, ChromeFlags>();
  const walk = (node: AnyNode, inherited: ChromeFlags): void => {
    if (node.type !== 'tag' && node.type !== 'root' && node.type !== 'script' && node.type !== 'style') return;
    let flags = inherited;
    if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      const el = node as Element;
      const role = el.attribs?.role ?? '';
      const ci = classAndId(el);
      // Landmarks decide; a class name only confirms what the structure shows: a "menu" class on a
      // block that is mostly links is navigation, on <main> or a block of prose it is not.
      const nav =
        inherited.nav ||
        el.name === 'nav' ||
        role === 'navigation' ||
        role === 'menubar' ||
        role === 'menu' ||
        (NAV_CLASS.test(ci) && !CONTENT_TAGS.has(el.name) && linkShare($, el) >= 0.6);
      const footer =
        inherited.footer ||
        el.name === 'footer' ||
        role === 'contentinfo' ||
        (FOOTER_CLASS.test(ci) &&
          !CONTENT_TAGS.has(el.name) &&
          $(el).find('h1').length === 0 &&
          textOf(el).length < 4000);
      flags = nav === inherited.nav && footer === inherited.footer ? inherited : { nav, footer };
      m.set(el, flags);
    }
    for (const c of (node as Element).children ?? []) walk(c as AnyNode, flags);
  };
  walk($.root().get(0) as AnyNode, { nav: false, footer: false });
  // Cookie and consent banners: a small block that speaks of cookies and holds an accept/decline button
  $('button, a, [role="button"], input[type="button" i], input[type="submit" i]').each((_, btn) => {
    const label = `${textOf(btn)} ${$(btn).attr('value') ?? ''}`.trim();
    if (!CONSENT_BUTTON.test(label)) return;
    for (const a of $(btn).parents().toArray().slice(0, 5) as Element[]) {
      if (a.name === 'body' || a.name === 'main') break;
      const t = textOf(a);
      if (t.length > 1200) break;
      if (!COOKIE_WORDS.test(t)) continue;
      const mark = (n: AnyNode): void => {
        if (n.type !== 'tag') return;
        const f = m.get(n as Element) ?? { nav: false, footer: false };
        m.set(n as Element, { nav: f.nav, footer: true });
        for (const c of (n as Element).children ?? []) mark(c as AnyNode);
      };
      mark(a);
      break;
    }
  });
  map = m;
  chromeCache.set($, map);
  return map;
}

const COOKIE_WORDS =
  /\bcookies?\b|\bconsent\b|\btracking\b|datenschutz|einwilligung|\brgpd\b|\bgdpr\b|\bdsgvo\b|クッキー|同意/i;
const CONSENT_BUTTON =
  /^(?:accept|accept all|allow|allow all|agree|i agree|got it|ok(?:ay)?|decline|reject|reject all|deny|akzeptieren|alle akzeptieren|zustimmen|ablehnen|einverstanden|accepter|tout accepter|refuser|aceptar|rechazar|aceitar|recusar|同意する|接受)\b/i;

/** True when the element sits in navigation (nav, role=navigation, menu/navbar classes). */
export function inNav($: CheerioRoot, el: AnyNode): boolean {
  const f = chromeFlags($).get(el as Element);
  return f ? f.nav : false;
}

export function inChrome($: CheerioRoot, el: AnyNode): boolean {
  const f = chromeFlags($).get(el as Element);
  return f ? f.nav || f.footer : false;
}

/** The nearest heading before the element in document order (within `maxHops` preceding nodes). */
export function precedingHeading($: CheerioRoot, el: AnyNode): Cheerio<Element> | null {
  let cur: AnyNode | null = el;
  for (let depth = 0; depth < 6 && cur; depth++) {
    let sib: AnyNode | null = (cur as Element).prev ?? null;
    while (sib) {
      if (sib.type === 'tag') {
        const s = $(sib as Element);
        if (/^h[1-6]$/i.test((sib as Element).name)) return s as Cheerio<Element>;
        const inner = s.find('h1, h2, h3, h4, h5, h6').last();
        if (inner.length) return inner as Cheerio<Element>;
      }
      sib = (sib as Element).prev ?? null;
    }
    cur = (cur as Element).parent as AnyNode | null;
    if (cur && cur.type === 'root') break;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Leaf text blocks

export interface Block {
  el: Element;
  text: string;
  /** Inside navigation or the footer. */
  chrome: boolean;
  /** Text of a run of inline content inside a container that also holds blocks. */
  mixed: boolean;
}

const LEAF_TAGS = new Set([
  'p',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'dd',
  'dt',
  'td',
  'th',
  'blockquote',
  'figcaption',
  'summary',
  'label',
  'address',
  'div',
  'section',
  'article',
  'aside',
  'header',
  'footer',
  'main',
  'pre',
  'caption',
  'button',
]);
const BLOCK_TAGS_FOR_LEAF = new Set([
  'p',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'dd',
  'dt',
  'td',
  'th',
  'blockquote',
  'div',
  'section',
  'article',
  'ul',
  'ol',
  'dl',
  'table',
  'header',
  'footer',
  'main',
  'aside',
  'figure',
  'address',
  'pre',
  'form',
  'nav',
]);
const SKIP_SUBTREE = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);
const RUN_BREAK =
  /^(?:ul|ol|dl|table|figure|form|nav|hr|br|img|iframe|video|picture|svg|script|style|noscript|template)$/;

const blockCache = new WeakMap<object, Block[]>();

/**
 * The smallest text-bearing blocks of a page in document order: paragraphs, list items, headings,
 * cells, and divs that hold text but no other block. A container that mixes blocks with loose text
 * yields one block per run of inline content between its block children. Texts are
 * whitespace-normalised and verbatim parts of the page text.
 */
export function leafBlocks(page: ParsedPage): Block[] {
  const cached = blockCache.get(page);
  if (cached) return cached;
  const $ = page.$;
  const flags = chromeFlags($);
  const hasBlock = new Map<Element, boolean>();
  // post-order: does the element contain a block-level descendant?
  const mark = (node: AnyNode): boolean => {
    if (node.type !== 'tag' && node.type !== 'root') return false;
    const el = node as Element;
    let any = false;
    for (const c of el.children ?? []) {
      const child = c as AnyNode;
      if (child.type === 'tag') {
        const name = (child as Element).name;
        if (SKIP_SUBTREE.has(name)) continue;
        const inner = mark(child);
        if (BLOCK_TAGS_FOR_LEAF.has(name) || inner) any = true;
      }
    }
    if (node.type === 'tag') hasBlock.set(el, any);
    return any;
  };
  const body = ($('body').get(0) ?? $.root().get(0)) as AnyNode;
  mark(body);
  const out: Block[] = [];
  const visit = (node: AnyNode): void => {
    if (node.type !== 'tag' && node.type !== 'root') return;
    const el = node as Element;
    const name = node.type === 'tag' ? el.name : '';
    if (SKIP_SUBTREE.has(name)) return;
    if (node.type === 'tag' && LEAF_TAGS.has(name) && node !== body) {
      const f = flags.get(el);
      const chrome = f ? f.nav || f.footer : false;
      if (!hasBlock.get(el)) {
        const text = textOf(el);
        if (text) out.push({ el, text, chrome, mixed: false });
        return;
      }
      let run: AnyNode[] = [];
      const flush = (): void => {
        const t = textOf(run);
        if (t.length >= 2) out.push({ el, text: t, chrome, mixed: true });
        run = [];
      };
      for (const c of el.children as AnyNode[]) {
        const isBlock =
          c.type === 'tag' &&
          (LEAF_TAGS.has((c as Element).name) ||
            RUN_BREAK.test((c as Element).name) ||
            hasBlock.get(c as Element) === true);
        if (isBlock) flush();
        else run.push(c);
      }
      flush();
    }
    for (const c of el.children ?? []) visit(c as AnyNode);
  };
  visit(body);
  blockCache.set(page, out);
  return out;
}

const orderCache = new WeakMap<object, Map<Element, number>>();

/** Position of an element in document order (pre-order), for "comes before" comparisons. */
export function docOrder(page: ParsedPage, el: Element): number {
  let map = orderCache.get(page);
  if (!map) {
    map = new Map();
    let i = 0;
    for (const n of page.$('*').toArray()) map.set(n as Element, i++);
    orderCache.set(page, map);
  }
  return map.get(el) ?? -1;
}

/**
 * The outline of headings that an element sits under: for each level, the last heading before the
 * element that is not closed by a later, higher-level heading (outermost first).
 */
export function headingChain(page: ParsedPage, el: Element): Array<{ level: number; text: string; el: Element }> {
  const at = docOrder(page, el);
  const stack: Array<{ level: number; text: string; el: Element }> = [];
  for (const h of page.$('h1, h2, h3, h4, h5, h6').toArray() as Element[]) {
    const o = docOrder(page, h);
    if (o >= at) break;
    if (page.$(el).closest(h).length) break;
    const level = Number(h.name.slice(1));
    while (stack.length && stack[stack.length - 1].level >= level) stack.pop();
    stack.push({ level, text: textOf(h), el: h });
  }
  return stack;
}

const QUOTE_CLASS = /testimonial|review|quote|customer|case-?stud|client-?stor|endorse/i;
const QUOTE_HEADING =
  /\b(?:testimonials?|what (?:our )?(?:customers|users|clients|people|makers|developers) (?:say|think)|reviews?|users voice|loved by|trusted by|case stud(?:y|ies)|customer stor(?:y|ies)|wall of love|kind words)\b/i;

/** True when the element is part of a testimonial / review / customer story (someone else speaking). */
export function inTestimonial(page: ParsedPage, el: Element): boolean {
  const $ = page.$;
  if ($(el).closest('blockquote, q, cite').length) return true;
  const chain = headingChain(page, el);
  if (chain.some((h) => QUOTE_HEADING.test(h.text))) return true;
  // Answers in the site's own FAQ are the maker speaking, whatever the wrapper's class says.
  if (chain.some((h) => /\b(?:faqs?|frequently asked|questions)\b/i.test(h.text) && !/\?$/.test(h.text))) return false;
  for (const p of $(el).parents().toArray().slice(0, 8) as Element[]) {
    if (QUOTE_CLASS.test(`${p.attribs?.class ?? ''} ${p.attribs?.id ?? ''}`)) return true;
  }
  return false;
}
