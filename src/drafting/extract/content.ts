/**
 * features, usps, faqs, founders, milestones, keywords, tags, categories, stage.
 */
import type { AnyNode, Element } from 'domhandler';
import { ev, nameSource, type Ctx } from './context.ts';
import { metaContent, normalizeSpace, textOf } from './html.ts';
import {
  docOrder,
  headingChain,
  inChrome,
  inTestimonial,
  jsonLdTypes,
  leafBlocks,
  linkShare,
  precedingHeading,
  type ParsedPage,
} from './page.ts';
import { isFillerProse } from './language.ts';
import { clip, contentTokens, escapeRegExp, sentences, squash, trimPunct, wordCount } from './text.ts';
import {
  found,
  notFound,
  type Evidence,
  type FaqDraft,
  type FieldDraft,
  type FounderDraft,
  type MilestoneDraft,
} from './types.ts';

// ---------------------------------------------------------------------------------------------
// Features & USPs

interface Item {
  value: string;
  evidence: Evidence[];
  score: number;
  order: number;
}

const FEATURE_HEADING =
  /\b(?:features?|what you get|what'?s included|includes?|capabilit\w*|benefits?|highlights?|key|why|what (?:it|we) (?:can )?do|how it works|tools?|everything you need|unique|advantages?|specs?|functionalit\w*)\b/i;
const SKIP_HEADING =
  /\b(?:supporters?|backers?|become a|newsletter|subscribe|sign[- ]?up|log[- ]?in|get started|contact|faqs?|frequently asked|questions?|testimonials?|what (?:our )?(?:customers|users|people) say|reviews?|users voice|pricing|plans?|sponsors?|donat\w*|support (?:us|the project|\w+ project)|get involved|join|follow|community|news|blog|announcements?|download|install\w*|licen[sc]e|copyright|about us|about me|who am i|my story|über mich|our team|staff|greetings?|service areas?|areas? (?:we serve|served)|coverage area|einsatzgebiet\w*|kontakt\w*|contacto|contato|nous contacter|preise|tarifs|precios|preços|meet the team|the team|partners|press|in (?:the )?media|awards?|recognitions?|learning resources|try \w+ now|ready to|stay in touch|quick links|legal|privacy (?:policy|notice|statement)|careers|jobs|hiring|related projects|architecture|examples?|games?|bindings|resources|contribut\w*|sign up|cookie)\b/i;
/** The same in Chinese and Japanese, which have no word boundaries. */
const SKIP_HEADING_CJK =
  /ご挨拶|挨拶|スタッフ|対応エリア|エリア|代表|お問い合わせ|問い合わせ|ご相談|联系|料金|価格|价格|よくある質問|常见问题/;
function skipHeading(t: string): boolean {
  return SKIP_HEADING.test(t) || SKIP_HEADING_CJK.test(t);
}
const CTA =
  /^(?:sign up|get started|try (?:it )?(?:for )?free|download|learn more|read more|contact us|buy now|start free|book a demo|request a demo|join|subscribe|see (?:all|more)|view (?:all|more)|click here)\b/i;
const VAGUE = /^(?:and more|more\.{0,3}|many more|coming soon|.*\bon the way\b.*)$/i;

function cleanItem(t: string): string {
  return normalizeSpace(t.replace(/^[\s•·▪◦●○■□✓✔✅☑➜→»›\-–—*]+/, '')).replace(/\s*[:–—-]\s*$/, '');
}

function isStatement(t: string, minWords = 2): boolean {
  const w = wordCount(t);
  if (w < minWords || w > 60) return false;
  if (CTA.test(t) || VAGUE.test(t)) return false;
  if (/^[\d\s$€£.,%+/-]+$/.test(t)) return false;
  if (/[?]$/.test(t)) return false;
  if (/^(?:©|copyright)/i.test(t)) return false;
  return true;
}

function headingOf(page: ParsedPage, el: Element): string {
  const h = precedingHeading(page.$, el);
  return h ? textOf(h.get(0)) : '';
}

/** True when a heading the element sits under names a section that holds no product features. */
function inSkippedSection(page: ParsedPage, el: Element, allowFaq = false): boolean {
  const hero = page
    .$('h1')
    .toArray()
    .find((e) => !inChrome(page.$, e));
  const chain = headingChain(page, el);
  // the nearest heading names the section: "Features" under a page-level "Get the installer" is features
  const nearest = chain.at(-1);
  if (nearest && FEATURE_HEADING.test(nearest.text) && !skipHeading(nearest.text)) return false;
  for (const h of chain) {
    if (h.el === hero || /\?$/.test(h.text)) continue;
    if (allowFaq && FAQ_SECTION.test(h.text)) continue;
    if (skipHeading(h.text) && !FEATURE_HEADING.test(h.text)) return true;
  }
  return false;
}

function pageWeight(page: ParsedPage): number {
  if (page.isHome) return 3;
  if (page.kind === 'features') return 2.5;
  if (page.kind === 'why' || page.kind === 'about') return 1.5;
  if (page.kind === 'pricing') return 1;
  if (page.kind === 'other') return 1;
  return 0.5;
}

function collectFeatures(ctx: Ctx): { features: Item[]; usps: Item[] } {
  const features: Item[] = [];
  const usps: Item[] = [];
  const tokenSets = new Map<Item, Set<string>>();
  const add = (list: Item[], value: string, evidence: Evidence[], score: number, order: number): void => {
    const v = clip(value, 200);
    if (isFillerProse(v) || isFillerProse(value.replace(/^[^:]{1,60}:\s/, ''))) return;
    const tv = new Set(contentTokens(v));
    for (const i of list) {
      const ti = tokenSets.get(i) as Set<string>;
      let inter = 0;
      for (const t of tv) if (ti.has(t)) inter++;
      const jaccard = tv.size && ti.size ? inter / (tv.size + ti.size - inter) : 0;
      if (jaccard > 0.7 || (tv.size > 0 && inter / tv.size > 0.9 && tv.size <= ti.size)) return;
    }
    const item = { value: v, evidence, score, order };
    tokenSets.set(item, tv);
    list.push(item);
  };
  let pageOrder = 0;
  for (const page of ctx.pages) {
    pageOrder += 10_000;
    if (!['home', 'features', 'why', 'about'].includes(page.kind)) continue;
    const $ = page.$;
    const weight = pageWeight(page);
    const usedEls = new Set<Element>();

    // A. list items in feature lists
    $('ul, ol').each((_, node) => {
      const list = node as Element;
      if (inChrome($, list)) return;
      const items = $(list).children('li').toArray() as Element[];
      if (items.length < 3) return;
      const texts = items.map((li) => cleanItem(textOf(li)));
      const linkOnly = items.filter((li) => {
        const a = $(li).find('a');
        return a.length > 0 && normalizeSpace(a.text()) === normalizeSpace($(li).text());
      }).length;
      if (linkOnly > items.length / 2) return;
      const statements = texts.filter((t) => isStatement(t));
      if (statements.length < Math.ceil(items.length * 0.6)) return;
      const heading = headingOf(page, list);
      const cls = `${$(list).attr('class') ?? ''} ${$(list).parent().attr('class') ?? ''}`;
      const featureish =
        FEATURE_HEADING.test(heading) || /feature|benefit|check/i.test(cls) || page.kind === 'features';
      if (skipHeading(heading) && !FEATURE_HEADING.test(heading)) return;
      if (inSkippedSection(page, list) || inTestimonial(page, list)) return;
      if (!featureish && !(page.isHome && statements.length >= 4 && statements.every((t) => wordCount(t) >= 3))) return;
      items.forEach((li, i) => {
        const t = texts[i];
        if (!isStatement(t)) return;
        usedEls.add(li);
        add(features, t, [ev(page, textOf(li))], 3 * weight, pageOrder + docOrder(page, li));
      });
    });

    // A2. lists written as lines: a block whose <br>-separated lines (≥ 3) all start with the same
    //     bullet (⭐ ✅ • – …) or are all bold — a list by structure, whatever its markup
    $('p, div, td, dd').each((_, node) => {
      const el = node as Element;
      if (inChrome($, el) || usedEls.has(el)) return;
      const kids = (el.children ?? []) as AnyNode[];
      if (!kids.some((k) => k.type === 'tag' && (k as Element).name === 'br')) return;
      if (kids.some((k) => k.type === 'tag' && /^(?:p|div|ul|ol|li|h[1-6]|table|section)$/.test((k as Element).name)))
        return;
      const lines: AnyNode[][] = [[]];
      for (const k of kids) {
        if (k.type === 'tag' && (k as Element).name === 'br') lines.push([]);
        else lines[lines.length - 1].push(k);
      }
      const texts = lines.map((l) => textOf(l)).filter((t) => t.length > 0);
      if (texts.length < 3) return;
      const bullet = (t: string): string => /^[^\p{L}\p{N}\s"'“(]+/u.exec(t)?.[0] ?? '';
      const lead = bullet(texts[0]) || bullet(texts[1]);
      const bulleted = lead ? texts.filter((t) => bullet(t) === lead) : [];
      const bold = lines
        .filter((l) => textOf(l))
        .filter((l) => l.some((k) => k.type === 'tag' && /^(?:strong|b)$/.test((k as Element).name)))
        .map((l) => textOf(l));
      // most lines carry the same bullet, or most lines are bold: those lines are the list
      const listed =
        bulleted.length >= 3 && bulleted.length >= texts.length * 0.75
          ? bulleted
          : bold.length >= 3 && bold.length >= texts.length * 0.75
            ? bold
            : [];
      if (listed.length === 0) return;
      if (inSkippedSection(page, el) || inTestimonial(page, el)) return;
      for (const t of listed) {
        const item = cleanItem(t.replace(/^[^\p{L}\p{N}"'“(]+/u, ''));
        if (!isStatement(item)) continue;
        add(features, item, [ev(page, t)], 3 * weight, pageOrder + docOrder(page, el));
      }
      usedEls.add(el);
    });

    // A3. repetition: ≥ 3 sibling elements of one kind (same tag, same class) — a checklist of short
    //     texts, or a grid of cards each with a short title and a sentence
    $('div, section, ul, ol, dl').each((_, node) => {
      const parent = node as Element;
      if (inChrome($, parent)) return;
      const kids = (parent.children ?? []).filter((k) => (k as AnyNode).type === 'tag') as Element[];
      if (kids.length < 3) return;
      const sig = (e: Element): string => `${e.name}.${e.attribs?.class ?? ''}`;
      const groups = new Map<string, Element[]>();
      for (const k of kids) groups.set(sig(k), [...(groups.get(sig(k)) ?? []), k]);
      for (const [, group] of groups) {
        if (group.length < 3 || group.length > 24 || group[0].name === 'li') continue;
        if (group.some((g) => usedEls.has(g))) continue;
        // a form's fields and labels are not features
        if ($(parent).closest('form').length || $(parent).find('input, select, textarea').length) continue;
        if (inSkippedSection(page, group[0]) || inTestimonial(page, group[0])) continue;
        const items: Array<{ value: string; quotes: string[]; el: Element }> = [];
        for (const g of group) {
          const blocks = leafBlocksOf(page, g);
          if (blocks.length === 0) continue;
          if (blocks.some((b) => MONEY_RE.test(b))) return; // a pricing grid
          const linkOnly = $(g).find('a').length > 0 && normalizeSpace($(g).find('a').text()) === textOf(g);
          if (linkOnly) continue;
          if (blocks.length === 1) {
            const t = cleanItem(blocks[0]);
            if (isStatement(t, 1) && wordCount(t) <= 30 && !CTA.test(t))
              items.push({ value: t, quotes: [blocks[0]], el: g });
          } else {
            const title = trimPunct(blocks[0]);
            const body = blocks.slice(1).find((b) => wordCount(b) >= 4);
            if (!body || wordCount(title) > 8 || VAGUE.test(title) || VAGUE.test(body)) continue;
            const v = `${title}: ${body}`;
            items.push({
              value: v.length <= 200 ? v : body,
              quotes: v.length <= 200 ? [body, blocks[0]] : [body],
              el: g,
            });
          }
        }
        if (items.length < 3 || items.length < group.length * 0.6) continue;
        // team and support-agent cards: every title a person's name, and the cards give roles or portraits
        const titles = group.map((g) => leafBlocksOf(page, g)[0] ?? '');
        if (
          titles.every((t) => PERSONISH.test(t)) &&
          (group.some((g) => ROLE_WORDS.test(textOf(g))) ||
            group.every((g) =>
              $(g)
                .find('img[alt]')
                .toArray()
                .some(
                  (i) =>
                    squash($(i).attr('alt') ?? '').length > 2 &&
                    squash(textOf(g)).includes(squash($(i).attr('alt') ?? '')),
                ),
            ))
        )
          continue;
        for (const it of items) {
          usedEls.add(it.el);
          add(
            features,
            it.value,
            it.quotes.map((q) => ev(page, q)),
            2.5 * weight,
            pageOrder + docOrder(page, it.el),
          );
        }
      }
    });

    // B. elements marked as features by class
    $('[class]').each((_, node) => {
      const el = node as Element;
      const tokens = (el.attribs.class ?? '').toLowerCase().split(/\s+/);
      if (
        !tokens.some((t) =>
          /^(?:[\w-]*[-_])?(?:feature|benefit)(?:[-_](?:item|card|box|block|tile|entry|text))?$/.test(t),
        )
      )
        return;
      if (inChrome($, el) || usedEls.has(el)) return;
      if ($(el).find('[class*="feature" i]').length) return; // a container of features
      const t = cleanItem(textOf(el));
      if (!isStatement(t) || wordCount(t) > 50) return;
      const h = $(el).find('h2, h3, h4, h5, h6, strong').first();
      const p = $(el).find('p').first();
      let value = t;
      if (h.length && p.length) value = `${trimPunct(textOf(h.get(0)))}: ${textOf(p.get(0))}`;
      usedEls.add(el);
      add(
        features,
        value,
        h.length && p.length ? [ev(page, textOf(p.get(0))), ev(page, textOf(h.get(0)))] : [ev(page, textOf(el))],
        3 * weight,
        pageOrder + docOrder(page, el),
      );
    });

    // C. heading + paragraph blocks
    const blocks = leafBlocks(page);
    const heroH1 = $('h1')
      .toArray()
      .find((e) => !inChrome($, e));
    $('h2, h3, h4, h5, h6, h1').each((_, node) => {
      const h = node as Element;
      if (h === heroH1 || inChrome($, h)) return;
      const ht = trimPunct(textOf(h));
      if (ctx.nameAliases.some((a) => a.toLowerCase() === ht.toLowerCase())) return;
      if (!ht || wordCount(ht) > 12 || /\?$/.test(textOf(h))) return;
      if (skipHeading(ht) && !FEATURE_HEADING.test(ht)) return;
      if (VAGUE.test(ht) || /^(?:\d+[.)]\s|step\s*\d)/i.test(ht)) return;
      // a bare section title ("Features", "Key features") introduces items; it is not one
      if (FEATURE_HEADING.test(ht) && wordCount(ht) <= 3) return;
      if (inSkippedSection(page, h) || inTestimonial(page, h)) return;
      // the first paragraph-like block after the heading, before the next heading
      const at = docOrder(page, h);
      let p: Element | null = null;
      for (const b of blocks) {
        const o = docOrder(page, b.el);
        if (o <= at || $(b.el).closest(h).length) continue;
        if (/^h[1-6]$/.test(b.el.name) || $(b.el).find('h1, h2, h3, h4, h5, h6').length) break;
        if (o - at > 40) break;
        if (
          wordCount(b.text) >= 5 &&
          /^(?:p|div|span|dd|blockquote|section|article)$/.test(b.el.name) &&
          (b.mixed || linkShare($, b.el) < 0.5)
        ) {
          p = b.el;
          break;
        }
      }
      if (!p || usedEls.has(p) || inChrome($, p)) return;
      const isUsp =
        headingChain(page, h).some((x) =>
          /\b(?:unique|why|different|advantages?|stand out|what makes)\b/i.test(x.text),
        ) || page.kind === 'why';
      // a plan card ("Team: $9 per month…") is pricing, not a feature
      if (MONEY_RE.test(textOf(p))) return;
      const ps = sentences(textOf(p)).filter((s) => wordCount(s) >= 4);
      if (ps.length === 0) return;
      const headingLevel = Number(h.name.slice(1));
      const base = (headingLevel >= 3 ? 2 : 1.5) * weight;
      const first = `${ht}: ${ps[0]}`;
      add(
        features,
        first.length <= 200 ? first : ps[0],
        [ev(page, ps[0]), ev(page, textOf(h))],
        base,
        pageOrder + docOrder(page, h),
      );
      for (const s of ps.slice(1, 3)) add(features, s, [ev(page, s)], base * 0.6, pageOrder + docOrder(page, h) + 0.5);
      if (isUsp)
        add(
          usps,
          first.length <= 200 ? first : ps[0],
          [ev(page, ps[0]), ev(page, textOf(h))],
          base,
          pageOrder + docOrder(page, h),
        );
    });
  }
  // D. capability sentences in prose (home, features, about pages): "<Name> can …", "lets you …"
  pageOrder = 0;
  for (const page of ctx.pages) {
    pageOrder += 10_000;
    // FAQ answers on pricing and FAQ pages speak of the product too ("With our … feature you can …")
    const faqOnly = page.kind === 'pricing' || page.kind === 'faq';
    if (!['home', 'features', 'about'].includes(page.kind) && !faqOnly) continue;
    const weight = pageWeight(page);
    for (const b of leafBlocks(page)) {
      if (b.chrome || !/^(?:p|div|dd|li|blockquote|span|td)$/.test(b.el.name) || b.text.length > 1500) continue;
      if (inSkippedSection(page, b.el, true) || inTestimonial(page, b.el)) continue;
      if (faqOnly && !headingChain(page, b.el).some((h) => FAQ_SECTION.test(h.text) || /\?$/.test(h.text))) continue;
      for (const s of sentences(b.text)) {
        if (!capabilitySentence(s, nameSource(ctx))) continue;
        if (faqOnly && BILLING.test(s)) continue;
        add(features, s, [ev(page, s)], 1 * weight, pageOrder + docOrder(page, b.el) + 0.7);
      }
    }
  }
  // E. comparison rows on pricing pages: first cell = feature name, other cells = ✓ / ✗ / short values
  for (const page of ctx.pages) {
    if (page.kind !== 'pricing') continue;
    const $ = page.$;
    const rows = $('tr, [class~="row"], [role="row"]').toArray() as Element[];
    const labels: Array<{ el: Element; text: string }> = [];
    for (const r of rows) {
      if (inChrome($, r)) continue;
      const cells = $(r).children().toArray() as Element[];
      if (cells.length < 2 || cells.length > 6) continue;
      const first = cleanItem(textOf(cells[0]));
      const rest = cells.slice(1).map((c) => textOf(c));
      // a row label with a number is a quantity, a duration or a fee ("60分", "2 days before: 30%"), not a feature
      if (!first || wordCount(first) > 6 || /\d/.test(first)) continue;
      if (rest.some((t) => t.length > 14)) continue;
      if ($(r).find('h1, h2, h3').length) continue;
      labels.push({ el: cells[0], text: first });
    }
    if (labels.length >= 3) {
      for (const l of labels)
        if (wordCount(l.text) >= 2 || l.text.length >= 8)
          add(features, l.text, [ev(page, textOf(l.el))], 2, 900_000 + docOrder(page, l.el));
    }
  }
  return { features, usps };
}

const MONEY_RE = /(?:\$|€|£|¥)\s?\d|\d\s?(?:€|\$|円|USD|EUR)/;
/** A card title that is a person's name ("Jane Smith") — team and support-agent cards are not features. */
/** Billing terms: on a pricing page, "you can cancel anytime" is a policy, not a feature. */
const BILLING =
  /\b(?:cancel\w*|refund\w*|billing|billed|invoice\w*|upgrade\w*|downgrade\w*|plans?|trial|subscri\w+|pay\w*|price\w*|pricing|discount\w*|coupon\w*|tax\w*|vat)\b/i;
const ROLE_WORDS =
  /\b(?:ceo|cto|coo|cfo|cpo|founder|co-?founder|engineer|developer|designer|manager|director|head of|team lead|lead \w+|advisor|intern|support agent|customer success|specialist|gründer\w*|geschäftsführer\w*|fondat\w+|fundador\w*|directeur|directora?)\b|代表|エンジニア|创始人/i;
const PERSONISH = /^\p{Lu}\p{Ll}+(?:\s\p{Lu}\.?)?\s\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?$/u;

/** The text blocks of an element, in order (verbatim, whitespace-normalised). */
function leafBlocksOf(page: ParsedPage, el: Element): string[] {
  const $ = page.$;
  const out: string[] = [];
  const walk = (e: Element): void => {
    const kids = (e.children ?? []).filter((k) => (k as AnyNode).type === 'tag') as Element[];
    const hasBlock = kids.some((k) =>
      /^(?:p|div|h[1-6]|li|ul|ol|section|article|dl|dt|dd|figure|blockquote)$/.test(k.name),
    );
    if (!hasBlock) {
      const t = textOf(e);
      if (t) out.push(t);
      return;
    }
    for (const k of kids) if (!/^(?:script|style|svg|img|picture|button|form)$/.test(k.name)) walk(k);
  };
  walk(el);
  void $;
  return out;
}

const CAPABILITY =
  /\b(?:you can|you'll be able to|lets you|let you|allows? you(?: to)?|enables? you(?: to)?|helps? you|gives you|makes it (?:easy|simple))\b/i;
const NO_NEED =
  /\bno (?:sign-?ups?|registration|account|accounts|tracking|ads|installation|credit card|subscription|login|internet connection)\s+(?:is\s+)?(?:required|needed|necessary)\b/i;

/** Privacy and offline promises stated plainly: "No tracking/analytics installed", "All saving is done locally". */
const PROMISE =
  /\bno (?:tracking|analytics|ads|advertising|telemetry|data collection|cookies)\b|\b(?:done|stored|saved|kept|processed|runs?|works?) (?:entirely |fully |completely )?(?:locally|offline|on your (?:device|computer|machine))\b|\bnever leaves? your (?:device|computer|machine)\b/i;

function capabilitySentence(raw: string, name: string | null): boolean {
  const s = raw.replace(/[‘’]/g, "'");
  const w = wordCount(s);
  if (w >= 3 && w <= 20 && NO_NEED.test(s)) return true;
  if (w >= 3 && w <= 16 && PROMISE.test(s) && !/\?$/.test(s)) return true;
  if (w < 6 || w > 45 || /\?$/.test(s) || /^(?:if|when|as for|whether)\b/i.test(s)) return false;
  if (
    /\b(?:cookies?|privacy policy|newsletter|subscribe|hiring|careers|copyright|all rights reserved|terms of)\b/i.test(
      s,
    )
  )
    return false;
  if (CAPABILITY.test(s)) return true;
  const VERB =
    '(?:can|lets|allows|enables|supports|provides|includes|offers|comes with|works|runs|reads|creates|builds|generates|integrates|syncs|blocks|protects|has (?:since )?grown|grew|is (?:a|an|the|completely|fully|available|free|open|cross-platform|compatible|self-contained|designed|built|written)|are (?:a|an|available))';
  if (name) {
    const n = name;
    if (new RegExp(`^(?:[\\w-]+\\s+){0,4}?(?:the\\s+)?${n}(?:\\s+[\\w-]+){0,2}?\\s+${VERB}\\b`, 'i').test(s))
      return true;
    if (new RegExp(`,\\s+${n}(?:\\s+[\\w-]+){0,2}?\\s+${VERB}\\b`, 'i').test(s)) return true;
  }
  return new RegExp(
    `^(?:(?:in fact|also|plus|and),?\\s+)?(?:it|it's|it is|the (?:app|application|tool|software|library|service|platform)|this (?:app|application|tool|software|library|repository|project|service|platform))\\s+(?:is\\s+)?(?:fully|completely|entirely)?\\s*${VERB.replace('(?:can|', '(?:written|can|')}\\b`,
    'i',
  ).test(s);
}

function pick(items: Item[], max: number): Item[] {
  return [...items]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, max)
    .sort((a, b) => a.order - b.order);
}

function listField(items: Item[]): FieldDraft<string[]> {
  if (items.length === 0) return notFound<string[]>();
  const evidence: Evidence[] = [];
  items.forEach((it, i) => {
    for (const e of it.evidence) evidence.push({ ...e, item: i });
  });
  return found(
    items.map((i) => i.value),
    evidence,
  );
}

export function extractFeatures(ctx: Ctx): { features: FieldDraft<string[]>; usps: FieldDraft<string[]> } {
  const { features, usps } = collectFeatures(ctx);
  return { features: listField(pick(features, 20)), usps: listField(pick(usps, 8)) };
}

// ---------------------------------------------------------------------------------------------
// FAQs

const FAQ_SECTION = /\b(?:faqs?|frequently asked|questions|q\s?&\s?a)\b/i;

export function extractFaqs(ctx: Ctx): FaqDraft[] {
  const out: FaqDraft[] = [];
  const push = (q: string, a: string, page: ParsedPage): void => {
    const question = clip(normalizeSpace(q), 300);
    const answer = clip(normalizeSpace(a), 1500);
    if (!question || !answer || wordCount(answer) < 1 || out.length >= 10) return;
    if (out.some((f) => f.question.toLowerCase() === question.toLowerCase())) return;
    out.push({ question, answer, evidence: [ev(page, normalizeSpace(q)), ev(page, normalizeSpace(a))] });
  };
  for (const page of ctx.pages) {
    // JSON-LD FAQPage
    for (const n of page.jsonld) {
      if (!jsonLdTypes(n).includes('FAQPage')) continue;
      const main = Array.isArray(n.mainEntity) ? n.mainEntity : [n.mainEntity];
      for (const q of main) {
        if (!q || typeof q !== 'object') continue;
        const qo = q as Record<string, unknown>;
        const a = qo.acceptedAnswer as Record<string, unknown> | undefined;
        const qt = typeof qo.name === 'string' ? qo.name : '';
        const at = a && typeof a.text === 'string' ? a.text.replace(/<[^>]+>/g, ' ') : '';
        if (qt && at && page.haystack.markup.includes(qt.toLowerCase().replace(/\s+/g, ' ').trim())) push(qt, at, page);
      }
    }
  }
  for (const page of ctx.pages) {
    if (page.kind === 'legal') continue;
    const $ = page.$;
    // <details><summary>
    $('details').each((_, node) => {
      const d = $(node);
      const q = normalizeSpace(d.children('summary').first().text());
      const clone = d.clone();
      clone.children('summary').remove();
      const a = textOf(clone.get(0));
      if (q.endsWith('?') && a) push(q, a, page);
    });
    // <dt>/<dd>
    $('dt').each((_, node) => {
      const q = textOf(node);
      const dd = $(node).nextAll('dd').first();
      if (q.endsWith('?') && dd.length) push(q, textOf(dd.get(0)), page);
    });
    // question-like elements inside a FAQ section (or on a FAQ page): answer = what follows
    const faqPage = page.kind === 'faq';
    for (const b of leafBlocks(page)) {
      if (b.chrome || !b.text.endsWith('?') || wordCount(b.text) < 3 || b.text.length > 300) continue;
      if (b.el.name === 'p' && !faqPage && !/question|faq|title|header|summary/i.test(b.el.attribs?.class ?? ''))
        continue;
      const heading = headingOf(page, b.el);
      const inFaq =
        faqPage ||
        FAQ_SECTION.test(heading) ||
        ($(b.el).parents().toArray() as Element[]).some((p) =>
          /faq|question|accordion/i.test(`${p.attribs?.class ?? ''} ${p.attribs?.id ?? ''}`),
        );
      if (!inFaq) continue;
      // answer: next element sibling, else the parent's next sibling
      let cur: Element | null = b.el;
      let answer = '';
      for (let up = 0; up < 3 && cur && !answer; up++) {
        let sib = (cur.next ?? null) as Element | null;
        while (sib && sib.type !== 'tag') sib = (sib.next ?? null) as Element | null;
        if (sib) {
          const t = textOf(sib);
          if (t && !t.endsWith('?')) answer = t;
          break;
        }
        cur = (cur.parent ?? null) as Element | null;
      }
      if (answer) push(b.text, answer, page);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Founders

const PERSON =
  "([A-Z][a-zà-ÿ'’-]+(?:\\s+(?:[A-Z]\\.|[A-Z][a-zà-ÿ'’-]+|(?:van|von|de|der|da|di|le|la|del)\\s+[A-Z][a-zà-ÿ'’-]+)){1,2})";
const ROLE =
  '((?:[Cc]o-?)?[Ff]ounder(?:\\s*(?:&|and|,)\\s*(?:CEO|CTO|COO|President|Chief [A-Z][a-z]+ Officer|lead developer))?|CEO|CTO|President|Maker|Creator)';

export function extractFounders(ctx: Ctx): FounderDraft[] {
  const out: FounderDraft[] = [];
  const nameRe = nameSource(ctx);
  const add = (name: string, title: string | null, quote: string, page: ParsedPage): void => {
    if (out.length >= 6) return;
    const n = normalizeSpace(name);
    if (/\b(?:the|our|this|and|with|about|team|founder|inc|ltd|llc|browser|app)\b/i.test(n)) return;
    if (ctx.name && n.toLowerCase().includes(ctx.name.toLowerCase())) return;
    const prev = out.find((f) => f.name === n);
    if (prev) {
      if (!prev.title && title) prev.title = title;
      return;
    }
    out.push({ name: n, title: title ? normalizeSpace(title) : null, bio: null, evidence: [ev(page, quote)] });
  };
  for (const page of ctx.pages) {
    for (const n of page.jsonld) {
      if (!jsonLdTypes(n).some((t) => /Organization|Corporation|LocalBusiness|NGO/.test(t))) continue;
      const fs = Array.isArray(n.founder) ? n.founder : n.founder ? [n.founder] : [];
      for (const f of fs) {
        const nm =
          typeof f === 'string'
            ? f
            : typeof (f as Record<string, unknown>)?.name === 'string'
              ? ((f as Record<string, unknown>).name as string)
              : '';
        if (nm) add(nm, 'Founder', nm, page);
      }
    }
    if (page.kind === 'legal' || page.kind === 'blog') continue;
    for (const b of leafBlocks(page)) {
      if (b.text.length > 1500) continue;
      if (!/founder|ceo|cto|president|maker|creator|made (?:with|by)/i.test(b.text) || inTestimonial(page, b.el))
        continue;
      for (const s of sentences(b.text)) {
        if (
          /\b(?:previously|formerly|former|past)\b.*\bfounder\b|\bfounder of (?!\w*\s*(?:this|it))/i.test(s) &&
          !(nameRe && new RegExp(`founder of ${nameRe}`, 'i').test(s))
        ) {
          // a founder of something else
        } else {
          let m = new RegExp(`\\b${ROLE}\\s+${PERSON}`).exec(s);
          if (m && /founder|ceo|cto|president/i.test(m[1]) && !/\bof\s*$/.test(s.slice(0, m.index)))
            add(
              m[2],
              m[1].replace(/^./, (c) => c.toUpperCase()),
              s,
              page,
            );
          m = new RegExp(`${PERSON}\\s*(?:,|\\(|[–—-])\\s*(?:our\\s+|the\\s+)?${ROLE}\\b`).exec(s);
          if (m && !new RegExp(`${ROLE}\\s+(?:of|at)\\s+(?!${nameRe ?? '$^'})`, 'i').test(s.slice(m.index)))
            add(m[1], m[2], s, page);
          m = new RegExp(`\\bfounded\\s+(?:in\\s+\\d{4}\\s+)?by\\s+${PERSON}(?:\\s+and\\s+${PERSON})?`).exec(s);
          if (m) {
            add(m[1], 'Founder', s, page);
            if (m[2]) add(m[2], 'Founder', s, page);
          }
          if (nameRe) {
            m = new RegExp(`${PERSON}\\s*[–—-]\\s*(Maker|Creator|Founder|Author|Developer)\\s+of\\s+${nameRe}\\b`).exec(
              s,
            );
            if (m) add(m[1], m[2], s, page);
            m = new RegExp(`\\b[Mm]ade\\s+(?:with\\s+(?:love|♥|❤️?|care)\\s+)?by\\s+${PERSON}\\b`).exec(s);
            if (m && (page.isHome || inChrome(page.$, b.el))) add(m[1], 'Maker', s, page);
          }
        }
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Milestones (dated announcements)

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const DATE_RE = new RegExp(
  `\\b(?:(${MONTHS.map((m) => m.slice(0, 3)).join('|')})[a-z]*\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})|(\\d{1,2})(?:st|nd|rd|th)?\\s+(${MONTHS.map((m) => m.slice(0, 3)).join('|')})[a-z]*\\.?,?\\s+(\\d{4})|(\\d{4})-(\\d{2})-(\\d{2}))\\b`,
  'i',
);

function isoDate(m: RegExpExecArray): string | null {
  let y: number, mo: number, d: number;
  if (m[1]) {
    y = Number(m[3]);
    mo = MONTHS.findIndex((x) => x.startsWith(m[1].toLowerCase())) + 1;
    d = Number(m[2]);
  } else if (m[5]) {
    y = Number(m[6]);
    mo = MONTHS.findIndex((x) => x.startsWith(m[5].toLowerCase())) + 1;
    d = Number(m[4]);
  } else {
    y = Number(m[7]);
    mo = Number(m[8]);
    d = Number(m[9]);
  }
  if (!(y >= 1990 && y <= 2100 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31)) return null;
  return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function extractMilestones(ctx: Ctx): MilestoneDraft[] {
  const out: MilestoneDraft[] = [];
  for (const page of ctx.pages) {
    if (page.isHome) continue;
    const $ = page.$;
    const h1 = $('h1')
      .toArray()
      .find((e) => !inChrome($, e)) as Element | undefined;
    if (!h1) continue;
    const title = textOf(h1);
    if (
      !/\b(?:announc\w*|launch\w*|releas\w*|introduc\w*|raise[sd]?|funding|acquir\w*|partner\w*|milestone|reach(?:ed|es)?|v\d+(?:\.\d+)*|version \d)/i.test(
        `${title} ${page.title}`,
      )
    )
      continue;
    // a date near the heading: in the heading's container, before the first paragraph
    const container = $(h1).parent();
    const near = textOf(container.get(0)).slice(0, 400);
    const m = DATE_RE.exec(near);
    if (!m) continue;
    const date = isoDate(m);
    if (!date) continue;
    out.push({
      date,
      title: clip(title, 200),
      description: null,
      url: null,
      evidence: [ev(page, m[0]), ev(page, title)],
    });
  }
  return out.slice(0, 50);
}

// ---------------------------------------------------------------------------------------------
// Keywords, tags, categories, stage

export function extractKeywords(ctx: Ctx): FieldDraft<string[]> {
  const raw = metaContent(ctx.home.$, 'keywords');
  if (!raw) return notFound<string[]>();
  const items = [
    ...new Set(
      raw
        .split(/[,;]/)
        .map((k) => normalizeSpace(k))
        .filter((k) => k && k.length <= 60),
    ),
  ].slice(0, 20);
  if (items.length === 0) return notFound<string[]>();
  return found(items, [ev(ctx.home, raw)]);
}

export function extractTags(ctx: Ctx): FieldDraft<string[]> {
  const tags: string[] = [];
  const evidence: Evidence[] = [];
  for (const n of ctx.home.jsonld) {
    if (!jsonLdTypes(n).some((t) => /Application|Product|Game|SoftwareSourceCode/.test(t))) continue;
    for (const k of ['applicationCategory', 'applicationSubCategory', 'genre', 'category', 'keywords']) {
      const v = n[k];
      const vals = (Array.isArray(v) ? v : typeof v === 'string' ? v.split(/\s*,\s*/) : []).filter(
        (x): x is string => typeof x === 'string',
      );
      for (const x of vals) {
        const t = normalizeSpace(x.replace(/&amp;/g, '&'))
          .replace(/Application$/, '')
          .trim();
        if (!t || t.length > 60 || /^https?:/.test(t)) continue;
        if (tags.includes(t)) continue;
        // the quote is the raw JSON-LD value as written
        tags.push(t);
        evidence.push({ ...ev(ctx.home, x), item: tags.length - 1 });
      }
    }
  }
  $articleTags(ctx, tags, evidence);
  return tags.length
    ? found(
        tags.slice(0, 20),
        evidence.filter((e) => (e.item ?? 0) < 20),
      )
    : notFound<string[]>();
}

function $articleTags(ctx: Ctx, tags: string[], evidence: Evidence[]): void {
  ctx.home.$('meta[property="article:tag" i]').each((_, el) => {
    const t = normalizeSpace(ctx.home.$(el).attr('content') ?? '');
    if (t && !tags.includes(t) && t.length <= 60) {
      tags.push(t);
      evidence.push({ ...ev(ctx.home, t), item: tags.length - 1 });
    }
  });
}

/** Categories: names from the directory's list that the site itself uses to describe the product. */
export function extractCategories(ctx: Ctx): FieldDraft<string[]> {
  if (ctx.categoryNames.length === 0) return notFound<string[]>();
  const home = ctx.home;
  const $ = home.$;
  const sources: string[] = [
    home.title,
    metaContent($, 'description'),
    metaContent($, 'og:description'),
    metaContent($, 'keywords'),
    ...home.jsonld.flatMap((n) =>
      ['applicationCategory', 'applicationSubCategory', 'genre', 'category'].map((k) =>
        typeof n[k] === 'string' ? (n[k] as string) : '',
      ),
    ),
    ...$('h1, h2')
      .toArray()
      .slice(0, 6)
      .map((e) => textOf(e)),
  ].filter(Boolean);
  const hits: Array<{ name: string; quote: string; pos: number }> = [];
  ctx.categoryNames.forEach((cat, pos) => {
    const re = new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegExp(cat)}(?:s|es)?(?=$|[^\\p{L}\\p{N}])`, 'iu');
    for (const s of sources) {
      if (re.test(s)) {
        hits.push({ name: cat, quote: s, pos });
        return;
      }
    }
  });
  if (hits.length === 0) return notFound<string[]>();
  const chosen = hits.slice(0, 4);
  return found(
    chosen.map((h) => h.name),
    chosen.map((h, i) => ({ ...ev(home, h.quote), item: i })),
  );
}

export function extractStage(ctx: Ctx): FieldDraft<string> {
  const name = nameSource(ctx);
  const aboutProduct = (s: string): boolean =>
    (name !== null && new RegExp(`\\b${name}\\b`, 'i').test(s)) ||
    /\b(?:we|we're|our|the app|the product|the service|this app|it)\b/i.test(s);
  for (const page of ctx.pages) {
    if (!page.isHome && page.kind !== 'about' && page.kind !== 'faq') continue;
    for (const b of leafBlocks(page)) {
      if (b.text.length > 1000) continue;
      for (const s of sentences(b.text)) {
        if (
          /\b(?:has\s+)?reached\s+(?:the\s+|its\s+)?end[- ]of[- ](?:its\s+)?life\b|\bhas been discontinued\b|\bis (?:now )?discontinued\b|\bno longer (?:available|maintained|supported|being developed)\b|\bis shutting down\b|\bhas shut down\b|\bwe(?:'re| are) (?:shutting|winding) down\b/i.test(
            s,
          ) &&
          aboutProduct(s)
        ) {
          return found('discontinued', [ev(page, s)]);
        }
      }
    }
  }
  for (const page of ctx.pages) {
    if (!page.isHome) continue;
    const top = leafBlocks(page)
      .filter((b) => !b.chrome)
      .slice(0, 8);
    for (const b of top) {
      if (b.text.length > 600) continue;
      for (const s of sentences(b.text)) {
        if (
          /\b(?:is|are|now|currently)\s+in\s+(?:public |private |open |closed |early )?(?:beta|alpha)\b|\b(?:public|private|open|closed) beta\b|\bearly access\b/i.test(
            s,
          ) &&
          aboutProduct(s)
        ) {
          return found('beta', [ev(page, s)]);
        }
        if (/\bjoin (?:the|our) wait[- ]?list\b|\blaunching soon\b/i.test(s) && wordCount(s) <= 25) {
          return found('pre-launch', [ev(page, s)]);
        }
      }
    }
  }
  return notFound<string>();
}
