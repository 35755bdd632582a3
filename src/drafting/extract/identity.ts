/**
 * Name, tagline, short description and description — from the home page's structured data,
 * meta tags, <title>, hero heading and "<Name> is …" sentences.
 */
import type { AnyNode, Element } from 'domhandler';
import { ev, nameSource, type Candidate, type Ctx } from './context.ts';
import { normalizeForMatch } from './evidence.ts';
import { metaContent, normalizeSpace, textOf } from './html.ts';
import { inChrome, jsonLdTypes, type ParsedPage } from './page.ts';
import {
  capitalizeFirst,
  clip,
  coverage,
  escapeRegExp,
  sentences,
  similarity,
  squash,
  trimPunct,
  wordCount,
} from './text.ts';
import { found, notFound, type Evidence, type FieldDraft } from './types.ts';

const TITLE_SEPARATORS = /\s+[|–—·•:»]\s+|\s+-\s+|\s+::\s+/;
const GENERIC_NAMES = new Set([
  'home',
  'homepage',
  'welcome',
  'index',
  'untitled',
  'landing page',
  'main',
  'start',
  'default',
  'website',
  'official website',
  'official site',
]);
const PRODUCT_TYPES = new Set([
  'SoftwareApplication',
  'MobileApplication',
  'WebApplication',
  'Product',
  'Service',
  'VideoGame',
  'SoftwareSourceCode',
]);
const ORG_TYPES = new Set([
  'Organization',
  'Corporation',
  'LocalBusiness',
  'NGO',
  'Brand',
  'OnlineBusiness',
  'NewsMediaOrganization',
]);

/** A theme's or template's own name ("Hydra Template", "Hugo Shard Theme"): a leftover, never the product. */
export const TEMPLATE_NAME = /\b(?:theme|template|starter(?: kit)?|boilerplate)\b/i;

function titleSegments(title: string): string[] {
  const segs = title
    .split(TITLE_SEPARATORS)
    .map((s) => s.trim())
    .filter(Boolean);
  return segs.filter((s) => !TEMPLATE_NAME.test(s) || segs.length === 1);
}

/** "Acme, the KPI dashboard": a comma separates name and slogan when the title has no other separator. */
function commaSegments(title: string): string[] | null {
  if (TITLE_SEPARATORS.test(title)) return null;
  const m = /^([^,]{2,40}),\s+(.{8,})$/.exec(title);
  return m && wordCount(m[1]) <= 4 ? [m[1].trim(), m[2].trim()] : null;
}

function plausibleName(s: string): boolean {
  const t = s.trim();
  if (!t || t.length > 60 || wordCount(t) > 6 || wordCount(t) === 0) return false;
  if (GENERIC_NAMES.has(t.toLowerCase())) return false;
  if (/[.!?]$/.test(t) && wordCount(t) > 3) return false;
  return true;
}

/** Slogans read like sentences ("Automate your team's work"); names rarely contain these words. */
function phraseLike(s: string): boolean {
  return (
    wordCount(s) >= 3 &&
    /\b(?:your|you|our|the|for|with|and|to|of|in|on|a|an|that|is|are|every|all|more|less|without)\b/i.test(s)
  );
}

const LEGAL_SUFFIX =
  /[,\s]+(?:inc|llc|ltd|limited|gmbh|ug|ag|corp|corporation|co|sas|sarl|s\.?a|b\.?v|a\.?b|oy|as|aps|pty|plc|srl|s\.?r\.?l|kg)\.?$/i;

/** The first h1 of the page body that is not in navigation or the footer. */
export function heroHeading(page: ParsedPage): Element | null {
  const $ = page.$;
  for (const el of $('h1').toArray()) {
    if (inChrome($, el)) continue;
    if (!textOf(el)) continue;
    return el;
  }
  return null;
}

export function extractName(ctx: Ctx): { field: FieldDraft<string>; aliases: string[] } {
  const home = ctx.home;
  const $ = home.$;
  const votes = new Map<string, Candidate & { display: string }>();
  const vote = (raw: string, w: number, evidence: Evidence): void => {
    let weight = w;
    const display = normalizeSpace(raw)
      .replace(/^[\s"'“”]+|[\s"'“”:,]+$/g, '')
      .replace(LEGAL_SUFFIX, '');
    if (!plausibleName(display)) return;
    if (TEMPLATE_NAME.test(display)) return;
    if (phraseLike(display)) weight *= 0.4;
    const key = squash(display);
    if (!key) return;
    const prev = votes.get(key);
    if (prev) {
      prev.score += weight;
      if (!prev.evidence.some((e) => e.quote === evidence.quote)) prev.evidence.push(evidence);
    } else votes.set(key, { value: display, display, score: weight, evidence: [evidence] });
  };

  for (const node of home.jsonld) {
    const types = jsonLdTypes(node);
    const name = typeof node.name === 'string' ? node.name : '';
    if (!name) continue;
    if (types.some((t) => PRODUCT_TYPES.has(t))) vote(name, 3, ev(home, name));
    else if (types.includes('WebSite')) vote(name, 2.5, ev(home, name));
    else if (types.some((t) => ORG_TYPES.has(t))) vote(name, 1.5, ev(home, name));
  }
  const siteName = metaContent($, 'og:site_name');
  if (siteName) {
    const segs = titleSegments(siteName);
    vote(segs[0] ?? siteName, 4, ev(home, siteName));
  }
  const appName = metaContent($, 'application-name', 'apple-mobile-web-app-title');
  if (appName) vote(appName, 2.5, ev(home, appName));

  const title = home.title;
  const titleFromTag = normalizeSpace($('title').first().text());
  const considerTitle = (t: string, first: number, last: number, whole: number): void => {
    if (!t) return;
    const segs = titleSegments(t);
    const comma = commaSegments(t);
    if (segs.length > 1) {
      vote(segs[0], first, ev(home, segs[0]));
      vote(segs.at(-1) as string, last, ev(home, segs.at(-1) as string));
      for (const mid of segs.slice(1, -1)) vote(mid, last / 2, ev(home, mid));
    } else if (segs.length === 1 && segs[0] !== t) vote(segs[0], first, ev(home, segs[0]));
    else if (comma) vote(comma[0], first * 0.75, ev(home, comma[0]));
    else if (wordCount(t) <= 3) vote(t, whole, ev(home, t));
  };
  considerTitle(titleFromTag, 2, 1.5, 2);
  const ogTitle = metaContent($, 'og:title');
  considerTitle(ogTitle, 1.5, 1, 1.5);
  const twTitle = metaContent($, 'twitter:title');
  considerTitle(twTitle, 1, 0.5, 1);

  const h1 = heroHeading(home);
  if (h1) {
    const t = textOf(h1);
    const m =
      /^(?:welcome to|meet|introducing|this is|say hello to|hello,? (?:we are|we're))\s+(.+?)(?:[,.!:—–-]|$)/i.exec(
        t,
      ) ?? /^what is\s+(.+?)\?$/i.exec(t);
    if (m) vote(m[1], 1.5, ev(home, t));
    else if (wordCount(t) <= 4) vote(t, 1.5, ev(home, t));
  }
  // "What is X?" / "About X" headings anywhere on the home page
  $('h1, h2').each((_, el) => {
    const t = textOf(el);
    const m = /^(?:what is|about|why)\s+(.+?)\??$/i.exec(t);
    if (m && wordCount(m[1]) <= 3) vote(m[1], 0.5, ev(home, t));
  });
  // Logo alt text: "Acme logo"
  $('img[alt]').each((_, el) => {
    const alt = normalizeSpace($(el).attr('alt') ?? '');
    const m = /^(.+?)\s+logo$/i.exec(alt);
    if (m && !inChrome($, el as AnyNode)) vote(m[1], 0.75, ev(home, alt));
    else if (m) vote(m[1], 0.75, ev(home, alt));
  });
  // © 2024 Acme
  const copy =
    /(?:©|\(c\)|copyright)\s*(?:\d{4}\s*(?:[-–]\s*\d{4})?\s*)?([A-Z][\w.&' -]{1,40}?)(?:\.|,|\s+all rights|\s*$|\s+\|)/i.exec(
      home.text.slice(-2000),
    );
  if (copy) vote(copy[1].trim(), 1, ev(home, copy[0].trim()));

  // A candidate that is the site's domain name, or the start of the <title>, gains weight.
  const domainLabels = ctx.siteHosts
    .map((h) => squash(h.replace(/^www\./, '').split('.')[0]))
    .filter((l) => l.length >= 3);
  for (const c of votes.values()) {
    const k = squash(c.display);
    if (domainLabels.some((l) => l === k || (k.length >= 4 && (l.startsWith(k) || l.endsWith(k))))) c.score += 1.5;
  }
  for (const c of votes.values()) {
    if (title && squash(title).startsWith(squash(c.display)) && squash(title) !== squash(c.display)) c.score += 0.5;
  }
  const ranked = [...votes.values()].sort((a, b) => b.score - a.score || a.display.length - b.display.length);
  const best = ranked[0];
  if (!best || best.score < 1.5) return { field: notFound<string>(), aliases: [] };
  // Shorter or longer forms of the same name also seen on the page ("Streamline" / "Streamline Writer").
  const key = squash(best.display);
  if (!key) return { field: notFound<string>(), aliases: [] };
  const aliases = ranked
    .filter((c) => c !== best && c.score >= 0.75)
    .map((c) => c.display)
    .filter((d) => {
      const k = squash(d);
      return k.length >= 3 && (key.startsWith(k) || k.startsWith(key) || key.endsWith(k));
    });
  return { field: found(best.display, best.evidence.slice(0, 3)), aliases: [best.display, ...aliases] };
}

/** Title Case For Most Words (five words or more): an SEO title rather than a sentence. */
function titleCase(s: string): boolean {
  const words = s.split(/\s+/).filter((w) => /^\p{L}/u.test(w) && w.length >= 4);
  if (words.length < 4) return false;
  return words.filter((w) => /^\p{Lu}/u.test(w)).length / words.length >= 0.8;
}

const GREETING =
  /^(?:hallo|hello|hi|hey|welcome|willkommen|bienvenue|bienvenid[oa]s?|bem-vind[oa]s?|ol[aá]|hola|salut|servus|moin|ようこそ|こんにちは|欢迎|你好)\b[^.?]{0,40}[!.]?$/iu;
const WE_ARE =
  /^(?:we are|we're|this is|wir sind|das ist|nous sommes|voici|somos|nosotros somos|n[oó]s somos|este es|esta [eé])\s+/i;

/** The short lines right after the hero h1, joined (up to a link or button, 6 lines, 40 words). */
function heroRun(h1: Element): string | null {
  const parts: string[] = [];
  let sib: AnyNode | null = h1.next ?? null;
  while (sib && parts.length < 6) {
    if (sib.type === 'tag') {
      const el = sib as Element;
      if (/^(?:a|button|form|nav|img|picture|video|iframe)$/.test(el.name)) break;
      if (el.children?.some((c) => c.type === 'tag' && /^(?:a|button)$/.test((c as Element).name))) break;
      const t = textOf(el);
      if (t) {
        if (wordCount(t) > 12) break;
        parts.push(t);
      }
    }
    sib = (sib as Element).next ?? null;
  }
  const run = parts.join(' ');
  return parts.length >= 2 && wordCount(run) <= 40 ? run : null;
}

/** Hero block: the first h1 and the elements right after it (sub-heading, lead paragraph). */
function heroFollowers(_page: ParsedPage, h1: Element, max = 3): Element[] {
  const out: Element[] = [];
  let cur: AnyNode | null = h1;
  // climb while the h1 is alone in a wrapper
  while (cur && (cur as Element).next == null && (cur as Element).parent && out.length === 0) {
    const parent = (cur as Element).parent as Element;
    if (parent?.type !== 'tag' || /^(?:body|main|section|article)$/.test(parent.name)) break;
    cur = parent;
  }
  let sib: AnyNode | null = cur ? ((cur as Element).next ?? null) : null;
  while (sib && out.length < max) {
    if (sib.type === 'tag') {
      const el = sib as Element;
      const t = textOf(el);
      if (t && !/^(?:a|button|nav|form|img|picture|video|iframe|script|style)$/.test(el.name)) out.push(el);
      if (t && /^h[1-3]$/.test(el.name) && out.length > 1) break;
    }
    sib = (sib as Element).next ?? null;
  }
  return out;
}

export interface IdentityResult {
  tagline: FieldDraft<string>;
  short_description: FieldDraft<string>;
  description: FieldDraft<string>;
}

function stripNamePrefix(text: string, name: string | null): string | null {
  if (!name) return null;
  const n = escapeRegExp(name);
  const m = new RegExp(
    `^(?:welcome to|meet|introducing|this is|say hello to)\\s+(?:the\\s+)?${n}\\s*[,.:!—–-]+\\s*(.+)$`,
    'i',
  ).exec(text);
  return m ? m[1] : null;
}

function isNameOnly(text: string, name: string | null): boolean {
  if (!name) return false;
  const t = squash(text.replace(/^(?:welcome to|meet|introducing|this is)\s+/i, ''));
  return t === squash(name) || t === squash(`${name}`) || (t.length > 0 && squash(name).startsWith(t));
}

const DESC_VERB =
  '(?:is|are|was|provides|offers|lets|helps|makes|gives|brings|enables|allows|turns|keeps|delivers|connects|automates|simplifies|combines|transforms)';

function nameSentence(text: string, name: string): string | null {
  const re = new RegExp(`^(?:the\\s+)?${name}(?:\\s+\\w+)?\\s+${DESC_VERB}\\b`, 'i');
  // Japanese / Chinese: "<…> Name は、…" / "Name 是…" near the start of the sentence
  const cjk = new RegExp(`^[^。！？]{0,12}?${name}\\s*(?:は|とは|是|为|為)`, 'u');
  for (const s of sentences(text).slice(0, 3)) if ((re.test(s) || cjk.test(s)) && wordCount(s) >= 5) return s;
  return null;
}

export function extractIdentity(ctx: Ctx): IdentityResult {
  const home = ctx.home;
  const $ = home.$;
  const name = ctx.name;
  const nameRe = nameSource(ctx);
  const metaDesc = metaContent($, 'description');
  const ogDesc = metaContent($, 'og:description');
  const twDesc = metaContent($, 'twitter:description');
  const ldDesc = home.jsonld
    .filter((n) => jsonLdTypes(n).some((t) => PRODUCT_TYPES.has(t) || t === 'WebSite' || ORG_TYPES.has(t)))
    .map((n) => (typeof n.description === 'string' ? normalizeSpace(n.description) : ''))
    .find((d) => wordCount(d) >= 4);
  // a meta description that speaks of a theme or template is the template's default, not the product's
  // a description cut off with "…" loses to a complete one (often og:description holds the whole text)
  const descs = [metaDesc, ogDesc, twDesc, ldDesc ?? ''].filter((d) => wordCount(d) >= 4 && !TEMPLATE_NAME.test(d));
  const truncated = (d: string): boolean => /(?:\.\.\.|…)\s*$/.test(d);
  const descMeta = descs.find((d) => !truncated(d)) ?? descs[0] ?? '';

  // ---- tagline
  let tagline: Candidate | null = null;
  const titleTag = normalizeSpace($('title').first().text());
  const fromTitle = (t: string): string | null => {
    if (!t || !name) return null;
    const segs = titleSegments(t);
    if (segs.length <= 1 && t.split(TITLE_SEPARATORS).length > 1) return null;
    if (segs.length > 1) {
      const rest = segs.filter((s) => squash(s) !== squash(name) && !GENERIC_NAMES.has(s.toLowerCase()));
      if (rest.length === segs.length) return null; // the name is not a segment
      // one slogan segment; a page-title trail ("Pricing | Acme | Home") is not a tagline
      return rest.length === 1 ? rest[0] : null;
    }
    const comma = commaSegments(t);
    if (comma && squash(comma[0]) === squash(name)) return comma[1];
    if (squash(t).startsWith(squash(name)) && t.toLowerCase().startsWith(name.toLowerCase() + ' '))
      return t.slice(name.length).trim();
    return null;
  };
  // the <title> first, then the hero h1, and og:title (often a social-card copy) only after both
  const ogTitle = metaContent($, 'og:title');
  const fromTitles = (titles: string[]): void => {
    for (const t of titles) {
      const r = fromTitle(t);
      if (
        r &&
        wordCount(r) >= 3 &&
        wordCount(r) <= 20 &&
        !(descMeta && similarity(r, descMeta) > 0.8 && coverage(descMeta, r) > 0.8)
      ) {
        tagline = { value: r, evidence: [ev(home, t)], score: 1 };
        break;
      }
    }
  };
  fromTitles([titleTag]);
  // An SEO title ("Backup, Copy, and Migrate Files Between Cloud Storage Services") is a summary, not
  // a slogan, when the description opens with a short slogan sentence ("The smarter way to move
  // files."): that sentence is the tagline, and the title goes into the description.
  let seoTitle: { text: string; quote: string } | null = null;
  {
    const t = tagline as Candidate | null;
    const lead = descMeta ? sentences(descMeta)[0] : '';
    if (
      t &&
      titleCase(t.value) &&
      lead &&
      lead !== descMeta &&
      wordCount(lead) >= 3 &&
      wordCount(lead) <= 10 &&
      !/[,:;]/.test(lead) &&
      !titleCase(lead)
    ) {
      seoTitle = { text: t.value, quote: t.evidence[0].quote };
      tagline = { value: lead, evidence: [ev(home, lead)], score: 1 };
    }
  }
  const h1 = heroHeading(home);
  const h1Text = h1 ? textOf(h1) : '';
  const followers = h1 && !/\?$/.test(h1Text) ? heroFollowers(home, h1).filter((el) => !/\?$/.test(textOf(el))) : [];
  let usedFollower: Element | null = null;
  // A greeting h1 ("Hallo Beauty-Liebhaber!", "Welcome!") is not a tagline: the hero's next short
  // lines are ("Wir sind CALENDALL / die flexible Salonkalendersoftware. / für Friseure …").
  if (!tagline && h1 && GREETING.test(h1Text)) {
    const run = heroRun(h1);
    const m = run ? WE_ARE.exec(run) : null;
    let rest = run && m ? run.slice(m[0].length) : run;
    if (rest && name && squash(rest).startsWith(squash(name))) {
      const words = rest.split(/\s+/);
      const k = words.findIndex((_, i) => squash(words.slice(0, i + 1).join(' ')) === squash(name));
      if (k >= 0) rest = words.slice(k + 1).join(' ');
    }
    if (rest && wordCount(rest) >= 3 && wordCount(rest) <= 20 && home.haystack.text.includes(normalizeForMatch(rest)))
      tagline = { value: rest.replace(/\.\s+(?=\p{Ll})/gu, ' '), evidence: [ev(home, rest)], score: 1 };
  }
  if (!tagline && h1 && h1Text && !/\?$/.test(h1Text) && !GREETING.test(h1Text)) {
    const stripped = stripNamePrefix(h1Text, name);
    if (stripped && wordCount(stripped) >= 3 && wordCount(stripped) <= 20)
      tagline = { value: stripped, evidence: [ev(home, h1Text)], score: 1 };
    else if (!isNameOnly(h1Text, name) && wordCount(h1Text) >= 3 && wordCount(h1Text) <= 20) {
      const nm = nameRe ? new RegExp(`^(?:the\\s+)?${nameRe}\\s+(?:is|are)\\s+(.+)$`, 'i').exec(h1Text) : null;
      tagline = { value: nm ? nm[1] : h1Text, evidence: [ev(home, h1Text)], score: 1 };
    } else if (isNameOnly(h1Text, name) || wordCount(h1Text) <= 2) {
      const f = followers.find((el) => {
        const t = textOf(el);
        return wordCount(t) >= 3 && wordCount(t) <= 20;
      });
      if (f) {
        usedFollower = f;
        tagline = { value: textOf(f), evidence: [ev(home, textOf(f))], score: 1 };
      }
    }
  }
  if (!tagline) fromTitles([ogTitle]);
  if (!tagline && descMeta && wordCount(descMeta) <= 15)
    tagline = { value: descMeta, evidence: [ev(home, descMeta)], score: 0.5 };

  const taglineValue = tagline ? capitalizeFirst(trimPunct(tagline.value)) : null;

  // ---- descriptions
  const parts: Candidate[] = [];
  const addPart = (text: string, evidence: Evidence[]): void => {
    const t = normalizeSpace(text);
    if (wordCount(t) < 4) return;
    if (parts.some((p) => similarity(p.value, t) > 0.6 || coverage(t, p.value) > 0.85)) return;
    parts.push({ value: t, evidence, score: 1 });
  };
  if (seoTitle) addPart(`${seoTitle.text}.`, [ev(home, seoTitle.quote)]);
  if (descMeta) addPart(descMeta, [ev(home, descMeta)]);
  for (const f of followers) {
    if (f === usedFollower) continue;
    const t = textOf(f);
    if (wordCount(t) < 4 || wordCount(t) > 60) continue;
    if (taglineValue && similarity(t, taglineValue) > 0.7) continue;
    addPart(t, [ev(home, t)]);
    break;
  }
  if (name) {
    const searchPages = [home, ...ctx.pages.filter((p) => p.kind === 'about')];
    outer: for (const page of searchPages) {
      const blocks = page.$('h1, h2, h3, p, li, blockquote').toArray();
      for (let i = 0; i < blocks.length; i++) {
        const el = blocks[i];
        if (inChrome(page.$, el)) continue;
        const t = textOf(el);
        const s = nameSentence(t, nameRe as string);
        if (!s) continue;
        let text = s;
        const evidence = [ev(page, s)];
        // a following sentence or block that continues the description ("It is …")
        const rest = sentences(t).slice(sentences(t).indexOf(s) + 1);
        const next = rest[0] ?? (blocks[i + 1] ? textOf(blocks[i + 1]) : '');
        if (
          next &&
          /^(?:it|they)\s+(?:is|are|runs|works|supports|can|lets|helps|was)\b/i.test(next) &&
          wordCount(next) <= 40
        ) {
          const n1 = sentences(next)[0];
          text = `${s} ${n1}`;
          evidence.push(ev(page, n1));
        }
        addPart(text, evidence);
        if (page === home) break outer;
        break;
      }
    }
  }
  const short =
    parts.find((p) => p.value.length <= 300) ?? (parts[0] ? { ...parts[0], value: clip(parts[0].value, 300) } : null);
  const description = parts.length
    ? parts.map((p) => (/[.!?]$/.test(p.value) ? p.value : `${p.value}.`)).join(' ')
    : null;

  return {
    tagline: taglineValue && tagline ? found(taglineValue, tagline.evidence) : notFound<string>(),
    short_description: short ? found(short.value, short.evidence) : notFound<string>(),
    description: description
      ? found(
          clip(description, 20000),
          parts.flatMap((p) => p.evidence),
        )
      : notFound<string>(),
  };
}
