/**
 * pricing_model and pricing_summary.
 *
 * Prices are read only in a pricing context — a pricing/plans page, or a section whose heading or
 * id says pricing/plans — and never where the context speaks of sponsors, donations, backers or
 * grants (sponsor tiers are not prices). Statements "X is free / open source / released under the
 * MIT license" are read from any trusted page when they are about the product.
 *
 * Model, in order:
 *   paid tiers and a free tier ($0 / "Free" plan)      → Freemium
 *   paid tiers, usage wording (per request, per GB…)  → Usage-based
 *   paid tiers, one-time wording (lifetime, pay once)  → One-time
 *   paid tiers with a billing period                   → Subscription
 *   paid tiers, period not stated                      → no model (the summary still lists them)
 *   no paid tiers, open-source statement or license    → Open source
 *   no paid tiers, "is free" / "free software" …       → Free
 * The summary lists the tiers as stated (a period only when the page gives one), or says
 * "Free" / "Free and open source" only when the site says free; a license is named only when stated.
 */
import type { Element } from 'domhandler';
import { ev, nameSource, type Ctx } from './context.ts';
import { normalizeForMatch } from './evidence.ts';
import { textOf } from './html.ts';
import {
  docOrder,
  headingChain,
  isFillerText,
  jsonLdTypes,
  leafBlocks,
  precedingHeading,
  type ParsedPage,
} from './page.ts';
import { sentences, wordCount } from './text.ts';
import { found, notFound, type Evidence, type FieldDraft, type PricingModel } from './types.ts';

const MONEY =
  /(?:(?:US|CA|AU|NZ)?\$|€|£|¥|₹|(?:USD|EUR|GBP|CHF|CAD|AUD)\s?)\s?(?:\d{1,3}(?:[,.\s]\d{3})+|\d+)(?:[.,]\d{1,2})?(?!\d)|(?:\d{1,3}(?:[,.]\d{3})+|\d+)(?:[.,]\d{1,2})?\s?(?:€|\$|USD|EUR|GBP|CHF|kr|zł|円|元|R\$)/;
/** A billing period stated in words, in the drafting languages. */
const PERIOD_WORDS =
  /\b(?:per (?:month|year)|a month|a year|monthly|yearly|annually|billed|monatlich\w*|jährlich\w*|pro (?:monat|jahr)|im monat|abo(?:nnement)?|par (?:mois|an)|mensuel\w*|annuel\w*|abonnement|al mes|por mes|al año|por año|mensual\w*|anual\w*|suscripci[oó]n|por m[eê]s|por ano|assinatura)\b|月額|年額|月払い|年払い|每月|每年/i;
const COST_WORDS =
  /\b(?:price|prices|pricing|cost|costs|fee|fees|kosten|preis\w*|gebühr\w*|prix|tarif\w*|coût\w*|precio\w*|costo\w*|tarifa\w*|preço\w*|custo\w*|vorauszahlung|prepa(?:id|yment))\b|料金|価格|价格|费用/i;
const NOT_PRICE_CONTEXT =
  /\b(?:sponsor\w*|donat\w*|backers?|patrons?|supporters?|tip jar|contribut\w*|grants?|fund(?:ing|ed|raise\w*)?|raised|pledge\w*|bount\w*|salar\w*|budget|prize|award|revenue|valuation|investors?|savings?|save up to|worth|earn\w*)\b/i;
/** A saving or discount badge ("SAVE $1598", "20% off") is not a price. */
const SAVING = /\b(?:save|saving|you save|discount\w*|off|rabatt|sparen|spare|économisez|ahorra\w*|economize)\b/i;
const MONTHLY = /(?:per|a|\/|every)\s*(?:month|mo)\b|\bmonthly\b|\/\s?m\b|\bmo\.\b|per user per month/i;
const YEARLY = /(?:per|a|\/|every)\s*(?:year|yr|annum)\b|\b(?:yearly|annually|annual)\b/i;
const ONE_TIME =
  /\b(?:one[- ]time|lifetime|pay once|buy once|once,? (?:and )?(?:own|use) (?:it )?forever|single payment|perpetual licen[cs]e)\b/i;
const USAGE =
  /\b(?:per|\/)\s?(?:\d[\d,.]*\s?k?\s)?(?:requests?|calls?|events?|api calls?|gb|tb|mb|minutes?|hours?|credits?|tokens?|messages?|emails?|sms|executions?|runs?|builds?|units?)\b|\bpay[- ]as[- ]you[- ]go\b|\busage[- ]based\b|\bmetered\b/i;

export interface PriceTier {
  name: string | null;
  price: string;
  amount: number;
  period: 'month' | 'year' | 'one-time' | null;
  usage: boolean;
  evidence: Evidence[];
}

function amountOf(price: string): number {
  const m = /\d[\d,.\s]*/.exec(price);
  if (!m) return NaN;
  let n = m[0].replace(/\s/g, '');
  // "1.234,56" or "1,234.56" or "19,99"
  if (/^\d{1,3}(?:\.\d{3})+,\d{1,2}$/.test(n)) n = n.replace(/\./g, '').replace(',', '.');
  else if (/^\d+,\d{1,2}$/.test(n)) n = n.replace(',', '.');
  else n = n.replace(/,/g, '');
  return Number(n);
}

function classId(el: Element): string {
  return `${el.attribs?.class ?? ''} ${el.attribs?.id ?? ''}`.toLowerCase();
}

function sectionHeadingText(page: ParsedPage, el: Element): string {
  const h = precedingHeading(page.$, el);
  return h ? textOf(h.get(0)) : '';
}

/** Is this element in a pricing context (and not in a sponsor/donation one)? */
function pricingContext(page: ParsedPage, el: Element): boolean {
  const $ = page.$;
  const ancestors = $(el).parents().toArray() as Element[];
  const heading = sectionHeadingText(page, el);
  const ancestorTags = ancestors.slice(0, 6).map(classId).join(' ');
  if (NOT_PRICE_CONTEXT.test(heading) || NOT_PRICE_CONTEXT.test(ancestorTags)) return false;
  // the enclosing table caption / FAQ question mentioning sponsors
  const card =
    ancestors
      .slice(0, 4)
      .map((a) => textOf(a))
      .find((t) => t.length < 600) ?? '';
  if (NOT_PRICE_CONTEXT.test(card)) return false;
  // a theme's demo pricing table ("Plan description", "Feature Feature Feature")
  const cardWide = ancestors
    .slice(0, 5)
    .map((a) => textOf(a))
    .filter((t) => t.length < 1500);
  if (cardWide.some(isFillerText)) return false;
  if (page.kind === 'pricing') return true;
  if (/\b(?:pric(?:e|es|ing)|plans?)\b/i.test(heading)) return true;
  // a plan card's own heading ("Pro") under a section headed "Pricing" / "Preise" / "料金"
  if (
    headingChain(page, el).some((h) =>
      /\b(?:pric(?:e|es|ing)|plans?|preise|tarifs?|precios|preços|planes|planos)\b|料金|価格|价格/i.test(h.text),
    )
  )
    return true;
  return ancestors.some((a) => /\b(?:pricing|plans?|price-?table|prices)\b/.test(classId(a)));
}

function tierName(page: ParsedPage, priceEl: Element): string | null {
  const $ = page.$;
  let cur: Element | null = priceEl;
  for (let depth = 0; depth < 4 && cur; depth++) {
    const parent: Element | null = (cur.parent as Element | null) ?? null;
    if (parent?.type !== 'tag') break;
    const candidates = $(parent)
      .find(
        'h1, h2, h3, h4, h5, h6, strong, b, [class*="title" i], [class*="name" i], [class*="plan" i], [class*="tier" i]',
      )
      .toArray() as Element[];
    // the closest one before the price element
    const before = candidates.filter(
      (c) => c !== priceEl && !$(c).find(priceEl).length && $(priceEl).closest(c).length === 0,
    );
    const ordered = before.filter((c) => docOrder(page, c) < docOrder(page, priceEl));
    for (const c of ordered.reverse()) {
      const t = textOf(c);
      if (
        t &&
        /\p{L}/u.test(t) &&
        !/^(?:get started|start|try|buy|sign up|subscribe|choose|select|order|contact)\b/i.test(t) &&
        wordCount(t) <= 4 &&
        !MONEY.test(t) &&
        t.length <= 40 &&
        !/^(?:(?:our\s+)?(?:pricing|prices|plans?)(?:\s+(?:&|and)\s+(?:pricing|plans?))?|pricing plans|choose (?:a|your) plan|simple pricing)$/i.test(
          t,
        )
      ) {
        return t.replace(/[:\s]+$/, '');
      }
    }
    cur = parent;
  }
  return null;
}

/** The element sits in a card with a quantity field and +/− buttons (its amounts are computed by a script). */
function inCalculator(page: ParsedPage, el: Element): boolean {
  const $ = page.$;
  for (const a of $(el).parents().toArray().slice(0, 5) as Element[]) {
    const inputs = $(a)
      .find('input')
      .filter((_, i) => !/^(?:hidden|submit|email|checkbox|radio|search)$/i.test($(i).attr('type') ?? ''));
    if (inputs.length === 0) continue;
    const steppers = $(a)
      .find('button, [role="button"]')
      .filter((_, b) => /^[+\-−–]$/.test(textOf(b as Element)));
    if (steppers.length > 0 || $(a).find('input[type="number" i], input[type="range" i]').length > 0) return true;
  }
  return false;
}

export function findPriceTiers(ctx: Ctx): PriceTier[] {
  const tiers: PriceTier[] = [];
  for (const page of ctx.pages) {
    for (const b of leafBlocks(page)) {
      if (b.chrome) continue;
      const t = b.text;
      if (/^(?:free|free forever)$/i.test(t) && pricingContext(page, b.el)) {
        const name = tierName(page, b.el);
        if (name && !/^free/i.test(name) && !tiers.some((x) => x.name === name))
          tiers.push({
            name,
            price: 'Free',
            amount: 0,
            period: null,
            usage: false,
            evidence: [ev(page, name), ev(page, t)],
          });
        continue;
      }
      if (t.length > 60 || !MONEY.test(t)) continue;
      if (!pricingContext(page, b.el)) continue;
      if (SAVING.test(t)) continue;
      const m = MONEY.exec(t);
      if (!m) continue;
      const amount = amountOf(m[0]);
      if (!Number.isFinite(amount)) continue;
      const parentText = b.el.parent && (b.el.parent as Element).type === 'tag' ? textOf(b.el.parent as Element) : t;
      let around = parentText.length <= 80 ? parentText : t;
      // a bare amount ("$0") is too short to quote: take the nearest enclosing text that says more
      for (let a = b.el.parent as Element | null, i = 0; around.length < 8 && a && a.type === 'tag' && i < 3; i++) {
        const at = textOf(a);
        if (at.length <= 120 && at.includes(t)) around = at;
        a = a.parent as Element | null;
      }
      const period: PriceTier['period'] = MONTHLY.test(around)
        ? 'month'
        : YEARLY.test(around)
          ? 'year'
          : ONE_TIME.test(around)
            ? 'one-time'
            : null;
      const name = tierName(page, b.el);
      // an amount computed by a price calculator on the card (a quantity input with +/− buttons) is not a price
      if (inCalculator(page, b.el)) continue;
      if (amount > 0 && tiers.some((x) => x.amount === amount && x.price === m[0].replace(/\s+/g, ''))) continue;
      // the quote holds the amount with what the card says next to it (currency, period), never a bare "$0"
      let quote = around.includes(t) ? around : t;
      if (quote.length < 8 && name && page.haystack.text.includes(normalizeForMatch(`${name} ${quote}`)))
        quote = `${name} ${quote}`;
      const evidence = [ev(page, quote)];
      if (name) evidence.unshift(ev(page, name));
      if (tiers.some((x) => x.name === name && x.amount === amount)) continue;
      tiers.push({ name, price: m[0].replace(/\s+/g, ''), amount, period, usage: USAGE.test(around), evidence });
    }
  }
  return tiers.slice(0, 12);
}

interface Statement {
  kind:
    | 'open_source'
    | 'free'
    | 'license'
    | 'free_plan'
    | 'one_time'
    | 'usage'
    | 'funding'
    | 'regional'
    | 'subscription';
  quote: string;
  page: ParsedPage;
  license?: string;
}

const LICENSE_NAMES =
  /\b(MIT(?: License)?|Apache(?: License)?(?:,? (?:v(?:ersion)? ?)?2(?:\.0)?)?|(?:GNU )?(?:Affero |Lesser )?General Public License(?:,? v(?:ersion)? ?\d(?:\.\d)?)?|[AL]?GPL ?-?v?\d?(?:\.\d)?(?: or later)?|BSD(?:[- ]\d[- ]Clause)?(?: License)?|MPL(?:[- ]?2\.0)?|Mozilla Public License(?: 2\.0)?|ISC License|zlib(?:\/libpng)? licen[sc]e|Unlicense|CC0|EUPL(?:[- ]?1\.2)?|Eclipse Public License|Artistic License)\b/;

function subjectIsProduct(sentence: string, name: string | null): boolean {
  if (name && new RegExp(`\\b${name}\\b`, 'i').test(sentence)) return true;
  return (
    /^(?:it|it's|we|we're|our (?:app|software|product|code|project)|this (?:app|software|project|tool|library|site)|the (?:app|application|software|project|source code|code|tool|library|browser|editor|plugin|extension|client|server)s?)\b/i.test(
      sentence,
    ) || /\b(?:the|this) (?:app|application|software|project|source code|tool|library)\b/i.test(sentence)
  );
}

/** "X is open source", "the app is free and open-source", "X, the … open source web browser" */
function ossAboutProduct(s: string, name: string | null): boolean {
  if (/\bfree and open[- ]?source\b|\bopen[- ]?source and free\b/i.test(s)) return true;
  const subj = `(?:${name ? `${name}|` : ''}^it|^this (?:app|application|software|project|tool|library|plugin|extension)|the (?:app|application|software|project|source code|code|tool|library|plugin|extension)|our (?:app|software|product|code|project|platform))`;
  if (
    new RegExp(
      `\\b${subj}(?:'s|\\s+(?:is|are|was|has been|remains|will (?:always )?be))\\s+(?:[\\w-]+\\s+){0,3}?open[- ]?source`,
      'i',
    ).test(s)
  )
    return true;
  if (
    name &&
    new RegExp(
      `\\b${name}\\b[^.!?]{0,60}?\\bopen[- ]?source\\s+(?:[\\w-]+\\s+){0,2}?(?:app|application|software|browser|editor|tool|library|platform|project|alternative|client|engine|framework|game|modeller|modeler|cms)`,
      'i',
    ).test(s)
  )
    return true;
  return false;
}

const OSS_RE = /\bopen[- ]?source\b/i;
const OSS_NOT_ABOUT_US =
  /\bopen[- ]?source (?:libraries|components|dependencies|projects|packages|tools|community|contributors|contributions|software (?:we|that we) use|licen[cs]es? (?:of|for) (?:third|other))/i;
const FREE_RE =
  /\b(?:is|are|it's|remains?|stays?)\s+(?:(?:and\s+)?(?:always|completely|totally|entirely|100%|absolutely|forever|still)\s+)*free\b(?!\s+(?:trial|to (?:try|start|sign up)|for \d+ days|shipping|consultation|quote|demo))|\bfree (?:software|forever|of charge|and open[- ]?source)\b|\b(?:available|download|use it|get it|use)\s+(?:\w+\s+){0,2}for free\b|\bat no (?:cost|charge)\b|\bno (?:cost|charge)\b(?! for (?:shipping|returns))|\bfree to use\b/i;
const NOT_FREE =
  /\bfree (?:trial|shipping|consultation|quote|demo|estimate|returns?)\b|\b(?:try|start|sign up|signup|get started|register|join)\s+(?:\w+\s+)?(?:for )?free\b/i;

export function findStatements(ctx: Ctx): Statement[] {
  const out: Statement[] = [];
  const seen = new Set<string>();
  const name = nameSource(ctx);
  for (const page of ctx.pages) {
    if (page.kind === 'legal') continue;
    for (const b of leafBlocks(page)) {
      if (b.text.length > 1500) continue;
      let headingCache: string | null = null;
      const heading = (): string => (headingCache ??= sectionHeadingText(page, b.el));
      const sponsorish = (): boolean => NOT_PRICE_CONTEXT.test(heading());
      if (
        !/open[- ]?source|free|\$\s?0|0\s?€|licen[cs]|\bfunded|supported|sustained|financed|one[- ]time|lifetime|pay once|buy once|pay[- ]as|usage[- ]based|metered|prices?\s+(?:may\s+)?var/i.test(
          b.text,
        ) &&
        !(page.kind === 'pricing' && PERIOD_WORDS.test(b.text))
      )
        continue;
      // A plan card that says just "Free" / "$0" on a pricing page is a free tier.
      if (
        page.kind === 'pricing' &&
        !b.chrome &&
        /^(?:free|free forever|free plan|\$\s?0(?:\.00)?|0\s?€|€\s?0)$/i.test(b.text) &&
        !sponsorish()
      ) {
        out.push({ kind: 'free_plan', quote: b.text, page });
      }
      for (const s of sentences(b.text)) {
        const key = `${page.url}|${s}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const short = wordCount(s) <= 6;
        if (OSS_RE.test(s) && !OSS_NOT_ABOUT_US.test(s) && ossAboutProduct(s, name)) {
          out.push({ kind: 'open_source', quote: s, page });
        }
        if (
          FREE_RE.test(s) &&
          !NOT_FREE.test(s) &&
          !sponsorish() &&
          (subjectIsProduct(s, name) || short || /\bfree and open[- ]?source\b/i.test(s))
        ) {
          out.push({ kind: 'free', quote: s, page });
        }
        const lic = LICENSE_NAMES.exec(s);
        if (
          lic &&
          (/\b(?:licen[cs]ed|released|distributed|available)\s+under\b/i.test(s) ||
            (short && /licen[cs]e/i.test(heading() + ' ' + s)))
        ) {
          out.push({ kind: 'license', quote: s, page, license: lic[1] });
        }
        if (/\bfree (?:plan|tier|version|edition|forever plan)\b|\bforever free\b/i.test(s))
          out.push({ kind: 'free_plan', quote: s, page });
        if (ONE_TIME.test(s) && (page.kind === 'pricing' || /\b(?:price|pay|purchase|buy|licen[cs]e)\b/i.test(s)))
          out.push({ kind: 'one_time', quote: s, page });
        if (page.kind === 'pricing' && PERIOD_WORDS.test(s) && COST_WORDS.test(s) && !sponsorish())
          out.push({ kind: 'subscription', quote: s, page });
        if (
          /\b(?:pay[- ]as[- ]you[- ]go|usage[- ]based (?:pricing|billing)|only pay for what you use|metered billing)\b/i.test(
            s,
          )
        )
          out.push({ kind: 'usage', quote: s, page });
        if (
          /\b(?:funded|supported|sustained|financed)\s+(?:\w+\s+){0,2}by\s+(?:[\w,&]+\s+){0,8}?(?:donations|sponsors(?:hips)?|patrons|grants|backers)\b/i.test(
            s,
          ) &&
          subjectIsProduct(s, name)
        ) {
          out.push({ kind: 'funding', quote: s, page });
        }
        if (
          /\bprices?\s+(?:may\s+)?var(?:y|ies)\s+(?:by|per|between|across)\s+(?:country|region|countries|regions|location)/i.test(
            s,
          )
        )
          out.push({ kind: 'regional', quote: s, page });
      }
    }
  }
  return out;
}

function jsonLdFree(ctx: Ctx): Evidence | null {
  for (const page of ctx.pages) {
    for (const n of page.jsonld) {
      if (!jsonLdTypes(n).some((t) => /Application|Product|Game|SoftwareSourceCode/.test(t))) continue;
      const offers = (Array.isArray(n.offers) ? n.offers : [n.offers]).filter(
        (o): o is Record<string, unknown> => !!o && typeof o === 'object',
      );
      for (const o of offers) {
        if (o.price === 0 || o.price === '0' || o.price === '0.00') {
          const raw = page.$('script[type="application/ld+json" i]').text();
          const m = /"price"\s*:\s*"?0(?:\.0+)?"?/.exec(raw);
          if (m) return ev(page, m[0]);
        }
      }
    }
  }
  return null;
}

function formatTier(t: PriceTier): string {
  const per =
    t.period === 'month' ? '/month' : t.period === 'year' ? '/year' : t.period === 'one-time' ? ' one-time' : '';
  return `${t.name ? `${t.name}: ` : ''}${t.price}${per}`;
}

export interface PricingResult {
  pricing_model: FieldDraft<string>;
  pricing_summary: FieldDraft<string>;
  tiers: PriceTier[];
}

export function extractPricing(ctx: Ctx): PricingResult {
  const tiers = findPriceTiers(ctx);
  const st = findStatements(ctx);
  const first = (k: Statement['kind']): Statement | undefined => st.find((s) => s.kind === k);
  const paid = tiers.filter((t) => t.amount > 0);
  const freeTier = tiers.find((t) => t.amount === 0) ?? null;
  const freePlanStmt = first('free_plan');
  const oss = first('open_source');
  const license = first('license');
  const free = first('free');
  const funding = first('funding');
  const regional = first('regional');

  let model: PricingModel | null = null;
  let modelEvidence: Evidence[] = [];
  if (paid.length > 0) {
    const paidEv = paid.slice(0, 3).flatMap((t) => t.evidence);
    if (freeTier || freePlanStmt) {
      model = 'Freemium';
      modelEvidence = [...(freeTier ? freeTier.evidence : [ev(freePlanStmt!.page, freePlanStmt!.quote)]), ...paidEv];
    } else if (paid.some((t) => t.usage) || first('usage')) {
      model = 'Usage-based';
      const u = first('usage');
      modelEvidence = [...paidEv, ...(u ? [ev(u.page, u.quote)] : [])];
    } else if (paid.some((t) => t.period === 'one-time') || first('one_time')) {
      model = 'One-time';
      const o = first('one_time');
      modelEvidence = [...paidEv, ...(o ? [ev(o.page, o.quote)] : [])];
    } else if (paid.some((t) => t.period === 'month' || t.period === 'year')) {
      model = 'Subscription';
      modelEvidence = paidEv;
    }
  } else if (first('subscription') && !free) {
    // no amount is readable (a price calculator, prices on request), but the pricing page speaks of billing periods
    const sub = first('subscription') as Statement;
    model = 'Subscription';
    modelEvidence = [ev(sub.page, sub.quote)];
  } else if (oss || license) {
    model = 'Open source';
    modelEvidence = [oss ? ev(oss.page, oss.quote) : ev(license!.page, license!.quote)];
  } else if (free) {
    model = 'Free';
    modelEvidence = [ev(free.page, free.quote)];
  } else if (
    freePlanStmt &&
    (st.some((s) => s.kind === 'one_time') || /\b(?:pro|premium|paid|upgrade)\b/i.test(freePlanStmt.quote))
  ) {
    model = 'Freemium';
    modelEvidence = [ev(freePlanStmt.page, freePlanStmt.quote)];
  } else {
    const ld = jsonLdFree(ctx);
    if (ld) {
      model = 'Free';
      modelEvidence = [ld];
    }
  }

  // Summary
  let summary: string | null = null;
  let summaryEvidence: Evidence[] = [];
  if (tiers.length > 0 && (paid.length > 0 || freeTier)) {
    const listed = tiers.slice(0, 8);
    summary = listed.map(formatTier).join('; ');
    summaryEvidence = listed.flatMap((t) => t.evidence);
    if (regional) {
      summary += ' (prices vary by country or region)';
      summaryEvidence.push(ev(regional.page, regional.quote));
    }
    if (oss && paid.length > 0) {
      summary += '. Also open source';
      summaryEvidence.push(ev(oss.page, oss.quote));
    }
    summary += '.';
  } else if (free) {
    const isOss = !!(oss || license || /open[- ]?source/i.test(free.quote));
    summary = isOss ? 'Free and open source' : 'Free';
    summaryEvidence = [ev(free.page, free.quote)];
    if (oss && !/open[- ]?source/i.test(free.quote)) summaryEvidence.push(ev(oss.page, oss.quote));
    if (license?.license) {
      summary += ` (${license.license})`;
      summaryEvidence.push(ev(license.page, license.quote));
    }
    if (funding) {
      const what = [
        ...new Set(
          (funding.quote.match(/donations|sponsorships?|sponsors|grants|patrons|backers/gi) ?? []).map((w) =>
            w.toLowerCase(),
          ),
        ),
      ].join(' and ');
      summary += `; funded by ${what}`;
      summaryEvidence.push(ev(funding.page, funding.quote));
    }
    summary += '.';
  }
  if (summary && summary.length > 300) summary = `${summary.slice(0, 298).replace(/[;,\s]+[^;]*$/, '')}…`;

  return {
    pricing_model: model ? found<string>(model, dedupe(modelEvidence)) : notFound<string>(),
    pricing_summary: summary ? found<string>(summary, dedupe(summaryEvidence)) : notFound<string>(),
    tiers,
  };
}

function dedupe(evs: Evidence[]): Evidence[] {
  const out: Evidence[] = [];
  for (const e of evs) if (!out.some((x) => x.url === e.url && x.quote === e.quote)) out.push(e);
  return out;
}
