/**
 * The categories classifier: it learns from the directory itself, nothing is hard-coded per
 * category. Each category of the tree the admin maintains becomes a document made of its name and
 * its description (and FAQ), each weighted ×3, and the text of the live listings filed under it
 * (name, tagline, descriptions, features); a parent's document holds its children's too, and a
 * parent's own text also competes beside its children as the category "in general" (so what the
 * parent's description names but no child covers is found there). Words are stemmed with Porter's
 * stemmer (the `stemmer` package). A site's identity text (home title, meta descriptions, JSON-LD
 * categories, h1/h2, the lead of the home page; of the other pages only those that describe the
 * product; the product's own name counted once) is compared
 * with every document by the cosine of TF-IDF vectors — hand-written here (about 150 lines): no
 * model to download, and the IDF statistics come from our own tree, so it follows every change the
 * admin makes. (BM25 is kept as an option; on the corpus its long parent documents won on
 * incidental words.)
 *
 * The category's own name, as the admin wrote it, weighs twice more: a site that calls itself by a
 * category's name of two or more words ("the ultimate note-taking app") in its home title, meta
 * descriptions, structured data or h1 scores ×2 there; a site that says only the head of such a name
 * (its last word) and never its qualifier ("writer" but never "AI", for AI Writing) scores ×0.6 there.
 * The kinds of product the description lists count as names too: its items (between punctuation,
 * "and", "or"; cut at stop words, so "text editors for prose" is "text editors", and "covers" and
 * "includes" are stop words) of two or more words, from the description's statements only (not the
 * FAQ after it). A site that calls itself
 * "cloud storage" or "command-line" in those same places scores ×2 in the category whose description
 * lists "cloud storage" or "command-line tools".
 *
 * Spelling: a word the site writes closed that the tree only ever writes open ("cheatsheet" where
 * the tree's names and descriptions say "cheat sheets"; both words of three letters or more, neither
 * a stop word, and never the tree's own whole word) is read as the tree's two words.
 *
 * Decision (primary first):
 *   - only categories sharing at least `minTerms` (2) distinct words with the site compete (one
 *     shared word is a coincidence), or one word of their own name;
 *   - a child category (or a parent "in general") wins when its score is at least `leadRatio`
 *     (1.15) × the runner-up's;
 *   - else a top-level category wins when it leads the others by `parentLeadRatio` (1.15), scoring
 *     0.7 × its best child + 0.3 × its own document;
 *   - else, or below `minScore`, or with fewer than `minTerms` shared terms: categories stay empty
 *     and the maker picks. A site not written in the tree's language needs twice the score.
 *   After the primary come its parent (for a child) and a close runner-up child, at most 3.
 *   A category without children is a leaf wherever it sits (a flat tree works too).
 * Evidence: the site sentences that contributed most to the chosen category's score, verbatim.
 */
import { stemmer as porter } from 'stemmer';
import { textOf } from './extract/html.ts';
import { detectLanguage, type Lang } from './extract/language.ts';
import { leafBlocks, type ParsedPage } from './extract/page.ts';
import { sentences } from './extract/text.ts';
import type { Evidence } from './extract/types.ts';

export interface CategoryInput {
  slug: string;
  name: string;
  description: string;
  /** slug of the parent category; null for a top-level one */
  parent: string | null;
}

export interface ListingInput {
  /** slugs of the categories the listing is filed under (primary first) */
  categories: string[];
  /** name, tagline, description, features… joined */
  text: string;
}

interface Doc {
  cat: CategoryInput;
  tf: Map<string, number>;
  len: number;
  isParent: boolean;
  /** the words of the category's own name (the admin's label for it) */
  nameTerms: Set<string>;
  /** the category's name as phrases: "Calendar & Scheduling" is ["calendar"] and ["schedul"], "Note-taking" is ["note", "take"] */
  namePhrases: string[][];
  /** a top-level category's own text (name, description, listings filed directly under it), scored beside the children as "in general" */
  general?: boolean;
  /** the kinds of product the description lists, as phrases: "cloud storage", "command line" */
  kindPhrases: string[][];
}

export interface CategoryModel {
  docs: Doc[];
  /** the language the tree is written in */
  lang: Lang | null;
  idf: Map<string, number>;
  /** words the tree only ever writes as two ("cheat sheets"), by the stem of the word in one: the two words' terms */
  compounds: Map<string, string[]>;
  maxIdf: number;
  avgLeaf: number;
  avgParent: number;
}

// English plus the other drafting languages' most common function words; web boilerplate too.
const STOP = new Set(
  (
    'a an and are as at be by for from has have in is it its of on or our the this that to we with you your their they them can will all any not no more most into than then so do does just also get use using used make new one only out over own such very' +
    ' app apps tool tools product products software service services platform free online website web site page home learn more read click here sign up login log download team teams way best easy simple fast help helps' +
    ' what why how who when where which about contact question questions frequently ask asked answer faq feature features pricing price prices plan plans start started try now today us me my time real great new all every need want like just first' +
    // how a description lists what a category holds ("It covers X, Y and Z")
    ' cover covers covered covering include includes included including' +
    ' der die das und ist mit für von zu den dem ein eine einer sie wir ihr ihre le la les et des du un une pour avec est en el los las y para con por una que o em os as um uma com não'
  ).split(' '),
);

/** Porter's stemmer (the tree is English): "developers", "development" and "develop" are one term. */
function stem(t: string): string {
  return /^[a-z]+$/.test(t) ? porter(t) : t;
}

/**
 * Word tokens (stemmed, stop words out); CJK runs become character bigrams. With `compounds`, a word
 * the tree only writes as two ("cheatsheet" for its "cheat sheets") becomes the tree's two terms.
 */
export function classifierTokens(s: string, compounds?: ReadonlyMap<string, string[]>): string[] {
  const out: string[] = [];
  const norm = s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase();
  for (const m of norm.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    if (/[\u3040-\u30ff\u3400-\u9fff]/.test(w)) {
      for (let i = 0; i + 1 < w.length; i++) out.push(w.slice(i, i + 2));
      continue;
    }
    if (w.length < 2 || STOP.has(w) || /^\d+$/.test(w)) continue;
    // a word whose stem is a stop word keeps its own form ("productivity" is not "product")
    const st = stem(w);
    const parts = compounds?.get(st);
    if (parts) out.push(...parts);
    else out.push(STOP.has(st) ? w : st);
  }
  return out;
}

/** A category's name split into the phrases it joins ("A & B", "A, B", "A and B", "A / B"). */
function namePhrases(name: string): string[][] {
  return name
    .split(/\s*(?:&|,|\/|\band\b|\bund\b|\bet\b|\by\b)\s*/i)
    .map((part) => classifierTokens(part))
    .filter((p) => p.length >= 2);
}

/**
 * The kinds of product a description lists ("file transfer, sync and cloud storage", "command-line
 * tools") as phrases of two or more terms: its items (between punctuation, "and", "or") cut at stop
 * words, so "text editors for prose" gives "text editors". Only the description's statements, not a
 * FAQ that follows it (its questions and their answers are not a list of kinds).
 */
function kindPhrases(description: string): string[][] {
  const faq = description.search(/[^.!?]*\?/);
  const statements = faq < 0 ? description : description.slice(0, faq);
  const out: string[][] = [];
  for (const item of statements.split(/[^\p{L}\p{N}\s'-]+|\band\b|\bor\b/iu)) {
    let run: string[] = [];
    for (const w of [...item.split(/[\s-]+/), '']) {
      const t = classifierTokens(w);
      if (t.length) {
        run.push(...t);
        continue;
      }
      if (run.length >= 2) out.push(run);
      run = [];
    }
  }
  return out;
}

/**
 * Words the tree writes as two ("cheat sheets", "mind maps") and never as one, by the stem of the
 * word in one ("cheatsheet"): the two words' terms. A site writing the closed compound then matches
 * the tree's open one. Both words are content words of three letters or more; a word the tree
 * also uses whole ("backend") stays whole.
 */
function compoundsOf(texts: Iterable<string>, vocabulary: ReadonlyMap<string, number>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const text of texts) {
    for (const part of text.toLowerCase().split(/[^\p{L}\p{N}\s-]+/u)) {
      const words = part.split(/[\s-]+/);
      for (let i = 0; i + 1 < words.length; i++) {
        const [a, b] = [words[i], words[i + 1]];
        if (a.length < 3 || b.length < 3 || !/^[a-z]+$/.test(a + b) || seen.has(a + b)) continue;
        seen.add(a + b);
        const joined = stem(a + b);
        const terms = classifierTokens(`${a} ${b}`);
        if (terms.length === 2 && !vocabulary.has(joined) && !STOP.has(a + b)) out.set(joined, terms);
      }
    }
  }
  return out;
}

/** Whether a phrase (a run of tokens) occurs in a token list. */
function hasPhrase(tokens: readonly string[], phrase: readonly string[]): boolean {
  for (let i = 0; i + phrase.length <= tokens.length; i++) if (phrase.every((t, j) => tokens[i + j] === t)) return true;
  return false;
}

function addTokens(tf: Map<string, number>, text: string, weight = 1): number {
  let n = 0;
  for (const t of classifierTokens(text)) {
    tf.set(t, (tf.get(t) ?? 0) + weight);
    n += weight;
  }
  return n;
}

/** Build the model from the category tree and the live listings filed under it. */
export function buildCategoryModel(
  categories: readonly CategoryInput[],
  listings: readonly ListingInput[] = [],
): CategoryModel {
  const parents = new Set(categories.map((c) => c.parent).filter((p): p is string => !!p));
  const docs = new Map<string, Doc>();
  for (const c of categories) {
    const tf = new Map<string, number>();
    // the admin's name and description say what the category is: each weighs 3 × a listing's text
    let len = addTokens(tf, c.name, 3);
    len += addTokens(tf, c.description, 3);
    docs.set(c.slug, {
      cat: c,
      tf,
      len,
      isParent: parents.has(c.slug),
      nameTerms: new Set(classifierTokens(c.name)),
      namePhrases: namePhrases(c.name),
      kindPhrases: kindPhrases(c.description),
    });
  }
  for (const l of listings) {
    // a listing's text counts once per category it is filed under; capped so one long listing cannot dominate
    const text = l.text.slice(0, 1500);
    for (const slug of new Set(l.categories)) {
      const d = docs.get(slug);
      if (d) d.len += addTokens(d.tf, text);
    }
  }
  // a top-level category's own text also competes with the children, as the category "in general":
  // a site about something the parent's description names but no child covers (a game engine in
  // Developer Tools, say) matches it there
  const generals: Doc[] = [];
  for (const d of docs.values())
    if (d.isParent)
      generals.push({
        cat: d.cat,
        tf: new Map(d.tf),
        len: d.len,
        isParent: false,
        general: true,
        nameTerms: d.nameTerms,
        namePhrases: d.namePhrases,
        kindPhrases: d.kindPhrases,
      });
  // parents also hold their children's documents
  for (const d of docs.values()) {
    const p = d.cat.parent ? docs.get(d.cat.parent) : undefined;
    if (!p) continue;
    for (const [t, n] of d.tf) p.tf.set(t, (p.tf.get(t) ?? 0) + n);
    p.len += d.len;
  }
  const leaves = [...[...docs.values()].filter((d) => !d.isParent), ...generals];
  const df = new Map<string, number>();
  for (const d of leaves) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const N = Math.max(1, leaves.length);
  const idf = new Map<string, number>();
  for (const [t, n] of df) idf.set(t, Math.log(1 + (N - n + 0.5) / (n + 0.5)));
  const all = [...docs.values(), ...generals];
  const avg = (xs: Doc[]): number => (xs.length ? xs.reduce((a, d) => a + d.len, 0) / xs.length : 1);
  const lang = detectLanguage(categories.map((c) => `${c.name}. ${c.description}`).join(' '));
  const maxIdf = Math.max(1, ...idf.values());
  // from the admin's own words only (names and descriptions): cheap, and not every pair of words in a listing
  const compounds = compoundsOf(
    categories.map((c) => `${c.name}. ${c.description}`),
    idf,
  );
  return {
    docs: all,
    lang,
    idf,
    compounds,
    maxIdf,
    avgLeaf: avg(leaves),
    avgParent: avg(all.filter((d) => d.isParent)),
  };
}

const K1 = 1.2;
const B = 0.75;

function bm25(model: CategoryModel, d: Doc, query: Map<string, number>): { score: number; terms: Map<string, number> } {
  const avg = d.isParent ? model.avgParent : model.avgLeaf;
  let score = 0;
  const terms = new Map<string, number>();
  for (const [t, qw] of query) {
    const f = d.tf.get(t);
    const idf = model.idf.get(t);
    if (!f || !idf) continue;
    const s = qw * idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.len) / avg)));
    score += s;
    terms.set(t, s);
  }
  return { score, terms };
}

const normCache = new WeakMap<Doc, number>();
/** Cosine of TF-IDF vectors (sublinear tf): independent of how long the category's document is. */
function cosine(
  model: CategoryModel,
  d: Doc,
  query: Map<string, number>,
): { score: number; terms: Map<string, number> } {
  let dn = normCache.get(d);
  if (dn === undefined) {
    dn = 0;
    for (const [t, f] of d.tf) {
      const w = (1 + Math.log(f)) * (model.idf.get(t) ?? 0);
      dn += w * w;
    }
    dn = Math.sqrt(dn) || 1;
    normCache.set(d, dn);
  }
  let qn = 0;
  let dot = 0;
  const terms = new Map<string, number>();
  // a word the tree never uses still counts in the site's norm (with the rarest word's weight): a site
  // whose words are mostly unknown to the tree (another language, another trade) scores low
  const unknownIdf = model.maxIdf;
  for (const [t, qw] of query) {
    const idf = model.idf.get(t) ?? 0;
    const qv = qw * (idf || unknownIdf);
    qn += qv * qv;
    const f = d.tf.get(t);
    if (!f || !idf) continue;
    const s = qv * (1 + Math.log(f)) * idf;
    dot += s;
    terms.set(t, s);
  }
  const denom = (Math.sqrt(qn) || 1) * dn;
  for (const [t, v] of terms) terms.set(t, v / denom);
  return { score: dot / denom, terms };
}

export interface SiteText {
  /** the text and where it is (for evidence) */
  text: string;
  url: string;
  weight: number;
}

const DESCRIBING: ReadonlySet<string> = new Set(['features', 'about', 'why', 'faq', 'docs', 'other']);

/** The parts of a site that say what it is: title, meta description, headings, lead paragraphs. */
export function siteTexts(pages: readonly ParsedPage[]): SiteText[] {
  const out: SiteText[] = [];
  // Beside the home page, the pages that say what the product is; legal, licence, contact, pricing, blog,
  // download and community pages talk about policies, money, news and people (a privacy policy made a
  // note-taking app read as a security product)
  const describing = pages.filter((p) => p.isHome || DESCRIBING.has(p.kind));
  for (const page of describing.slice(0, 6)) {
    const w = page.isHome ? 1 : 0.3;
    const $ = page.$;
    // other pages' titles repeat the site's name and say which page it is: the home page's title only
    if (page.title && page.isHome) out.push({ text: page.title, url: page.url, weight: 3 });
    for (const k of ['description', 'og:description', 'keywords']) {
      const v = $(`meta[name="${k}" i], meta[property="${k}" i]`).first().attr('content') ?? '';
      if (v) out.push({ text: v, url: page.url, weight: 2 * w });
    }
    // what the site says it is, in structured data: applicationCategory, genre, keywords
    for (const n of page.jsonld) {
      for (const k of ['applicationCategory', 'applicationSubCategory', 'genre', 'keywords', 'category']) {
        const v = n[k];
        const vals = Array.isArray(v) ? v : [v];
        for (const x of vals)
          if (typeof x === 'string' && x.length <= 200)
            out.push({ text: x.replace(/Application$/, ''), url: page.url, weight: 2 * w });
      }
    }
    $('h1, h2').each((_, el) => {
      const t = textOf(el);
      if (t && t.length <= 200) out.push({ text: t, url: page.url, weight: (el.name === 'h1' ? 2 : 1) * w });
    });
    if (!page.isHome) continue;
    // the lead of the home page: its first blocks of prose
    let used = 0;
    for (const b of leafBlocks(page)) {
      if (b.chrome || /^h[1-6]$/.test(b.el.name) || b.text.length < 30) continue;
      if (used > 1500) break;
      used += b.text.length;
      out.push({ text: b.text, url: page.url, weight: 0.5 });
    }
  }
  return out;
}

export interface Classification {
  /** category slugs, primary first (empty when not confident) */
  slugs: string[];
  names: string[];
  evidence: Evidence[];
  /** every category's score, best first (for the bench and debugging) */
  scores: Array<{ slug: string; score: number }>;
}

export interface ClassifyOptions {
  /** the winner must score at least this many times the runner-up (default 1.15) */
  leadRatio?: number;
  /** the same for a top-level category when no child leads (default 1.15) */
  parentLeadRatio?: number;
  /** distinct site terms a category must share with the site to compete (default 2), unless one of them is in the category's name */
  minTerms?: number;
  /** the winner's cosine must be at least this (default 0.05; a top-level category 70 % of it) */
  minScore?: number;
  /** false when the site is not written in the tree's language */
  sameLanguage?: boolean;
  /** 'cosine' (default) or 'bm25' */
  scorer?: 'cosine' | 'bm25';
  /** the product's name (its words are left out of the query) */
  name?: string | null;
}

/** Site texts at least this heavy identify the site (the home page's title, meta descriptions, structured data and h1). */
const NAMED_WEIGHT = 2;
/** A category the site names itself by (its name, or a kind its description lists) scores this many times its cosine. */
const NAMED_BOOST = 2;
/** …and a category whose name's qualifier the site never says, this many times. */
const QUALIFIER_MISSING = 0.6;

export function classifySite(
  model: CategoryModel,
  texts: readonly SiteText[],
  opts: ClassifyOptions = {},
): Classification {
  const leadRatio = opts.leadRatio ?? 1.15;
  const parentLeadRatio = opts.parentLeadRatio ?? 1.15;
  const minTerms = opts.minTerms ?? 2;
  // the tree is written in one language; a site in another shares few words with it by chance, so it must score higher
  const minScore = (opts.minScore ?? 0.05) * (opts.sameLanguage === false ? 2 : 1);
  // a word the tree only writes as two ("cheatsheet") is read as the tree's two words
  const tokens = (s: string): string[] => classifierTokens(s, model.compounds);
  const q = new Map<string, number>();
  for (const t of texts) for (const tok of tokens(t.text)) q.set(tok, (q.get(tok) ?? 0) + t.weight);
  // the product's own name is everywhere on its site: its brand (the name's first word) counts as if
  // said once; the words after it say what the product is ("Korge Game Engine", "Streamline Writer")
  const brand = classifierTokens(opts.name ?? '')[0];
  for (const b of brand ? (model.compounds.get(brand) ?? [brand]) : [])
    if (q.has(b)) q.set(b, Math.min(q.get(b) as number, 1));
  // sublinear query weights: a word repeated all over the site does not drown the others
  for (const [t, n] of q) q.set(t, 1 + Math.log(n));
  // the site calling itself by a category's name ("the ultimate note-taking app") in what identifies it
  // (home title, meta descriptions, structured data, main heading) is the strongest single evidence
  const identity = texts.filter((t) => t.weight >= NAMED_WEIGHT).map((t) => tokens(t.text));
  const says = (p: readonly string[]): boolean => identity.some((toks) => hasPhrase(toks, p));
  // …and so is calling itself by a kind of product the category's description lists ("Backup and
  // migrate files between cloud storage services" for "…file transfer, sync and cloud storage…"): the
  // admin wrote those kinds as what the category holds
  const named = (d: Doc): boolean => d.namePhrases.some(says) || d.kindPhrases.some(says);
  // a site that says the head of a category's name (an English compound's last word) but never its
  // qualifier is not of that kind: a "writer" that never says "AI" is not AI Writing, printing that is
  // not "3D" is not 3D Printing
  const qualifierMissing = (d: Doc): boolean =>
    d.namePhrases.some((p) => q.has(p[p.length - 1]) && p.slice(0, -1).some((t) => !q.has(t)));
  const scored = model.docs
    .map((d) => {
      const r = opts.scorer === 'bm25' ? bm25(model, d, q) : cosine(model, d, q);
      if (named(d)) return { d, score: r.score * NAMED_BOOST, terms: r.terms };
      if (qualifierMissing(d)) return { d, score: r.score * QUALIFIER_MISSING, terms: r.terms };
      return { d, ...r };
    })
    .sort((a, b) => b.score - a.score);
  // a category that shares a single word with the site is a coincidence, not a match (a "stream of
  // consciousness" writing app is not 3D printing because a printer streams): it does not compete,
  // unless that word is in the category's own name (a category just created is little more than its name)
  const matches = (s: (typeof scored)[number]) =>
    s.terms.size >= minTerms || [...s.terms.keys()].some((t) => s.d.nameTerms.has(t));
  const leaves = scored.filter((s) => !s.d.isParent && matches(s));
  // a top-level category scores by its best child (0.7) and its own name and description (0.3), so
  // the tree's two levels agree; its matched terms are the best child's and its own
  const parents = scored
    .filter((s) => s.d.isParent)
    .map((p) => {
      const child = leaves.find((l) => l.d.cat.parent === p.d.cat.slug || (l.d.general && l.d.cat === p.d.cat));
      const terms = new Map(p.terms);
      if (child) for (const [t, v] of child.terms) terms.set(t, Math.max(terms.get(t) ?? 0, v));
      return { ...p, score: 0.7 * (child?.score ?? 0) + 0.3 * p.score, terms };
    })
    .sort((a, b) => b.score - a.score);
  const confident = (list: typeof scored, ratio: number, min: number): (typeof scored)[number] | null => {
    const [a, b] = list;
    if (!a || a.score < min || !matches(a)) return null;
    if (b && a.score < ratio * b.score) return null;
    return a;
  };
  const out: Classification = {
    slugs: [],
    names: [],
    evidence: [],
    scores: [...leaves, ...parents].map((s) => ({ slug: s.d.cat.slug, score: s.score })),
  };
  // a child when it clearly leads all other children; else a top-level category when it leads the others
  const chosen = confident(leaves, leadRatio, minScore) ?? confident(parents, parentLeadRatio, minScore * 0.7);
  if (!chosen) return out;
  const list = [chosen.d.cat];
  if (!chosen.d.isParent && !chosen.d.general && chosen.d.cat.parent) {
    const p = parents.find((x) => x.d.cat.slug === chosen.d.cat.parent);
    if (p) list.push(p.d.cat);
  }
  const runner = leaves.find((x) => x.d !== chosen.d);
  if (runner && !chosen.d.isParent && !chosen.d.general && !runner.d.general && runner.score >= 0.85 * chosen.score)
    list.push(runner.d.cat);
  out.slugs = list.slice(0, 3).map((c) => c.slug);
  out.names = list.slice(0, 3).map((c) => c.name);
  // evidence: the site sentences that carry most of the winner's matched terms
  const cands: Array<{ quote: string; url: string; s: number }> = [];
  for (const t of texts) {
    for (const s of sentences(t.text)) {
      if (s.length < 8 || s.length > 300) continue;
      const toks = new Set(tokens(s));
      let v = 0;
      for (const tok of toks) v += chosen.terms.get(tok) ?? 0;
      if (v > 0) cands.push({ quote: s, url: t.url, s: v * t.weight });
    }
  }
  cands.sort((a, b) => b.s - a.s);
  const seen = new Set<string>();
  for (const c of cands) {
    if (seen.has(c.quote)) continue;
    seen.add(c.quote);
    out.evidence.push({ quote: c.quote, url: c.url });
    if (out.evidence.length >= 2) break;
  }
  if (out.evidence.length === 0) return { ...out, slugs: [], names: [] };
  return out;
}
