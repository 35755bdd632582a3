/**
 * The evidence gate: the last step of drafting, for the rules and the model alike. A quote being on
 * the page is not enough — the value must say what its quotes say. Every checkable fact in a value
 * must appear in that value's own quotes:
 *
 * - numbers (thousands separators and decimal commas folded: "5,000" = "5000", "9,99" = "9.99");
 * - amounts: the number, its currency (symbol, code or word) and its period (month, year, …, in
 *   the languages of language.ts) in one and the same quote;
 * - years (as numbers);
 * - email addresses (exactly, case-insensitive);
 * - URLs (the whole URL, its path, or its identifying last segment / query value);
 * - place names: the `country` code needs one of that country's names (in any of the supported
 *   languages), demonyms or a known city of it in a quote; `city` and any country or known city
 *   named inside a text value must be in a quote.
 *
 * A value that fails becomes not_found (for list fields: the item is dropped). Categories are not
 * gated: their values are names of the directory's own tree, and their evidence is the site text
 * that decided them.
 */
import { normalizeForMatch } from './evidence.ts';
import { CALLING_CODES, countries, DEMONYMS, KNOWN_CITIES, REGIONS_OF, US_STATES } from './places.ts';
import { LIST_FIELDS, notFound, type Evidence, type FieldDraft, type ProfileFields } from './types.ts';

const NUMBER = /\d+(?:[.,'\u00a0\u202f ]\d+)*/g;

/** Canonical forms of a number token ("1,234" → 1234 and 1.234; "9,99" → 9.99). */
function numberForms(tok: string): string[] {
  const t = tok.replace(/[\u00a0\u202f' ]/g, (m) => (m === ' ' ? ' ' : ','));
  const out = new Set<string>();
  const strip = (s: string): string => s.replace(/^0+(?=\d)/, '').replace(/\.0+$/, '');
  const digits = t.replace(/[.,\s]/g, '');
  // grouping separators only
  if (/^\d{1,3}(?:[.,\s]\d{3})+$/.test(t)) out.add(strip(digits));
  // one decimal separator
  const dec = /^(\d+(?:[.,\s]\d{3})*)[.,](\d{1,2}|\d{4,})$/.exec(t);
  if (dec) out.add(strip(`${dec[1].replace(/[.,\s]/g, '')}.${dec[2]}`));
  if (/^\d+$/.test(t)) out.add(strip(t));
  if (out.size === 0) out.add(strip(t.replace(/,/g, '.')));
  return [...out];
}

function numbersIn(s: string): Array<{ raw: string; forms: string[]; index: number }> {
  const out: Array<{ raw: string; forms: string[]; index: number }> = [];
  for (const m of s.matchAll(NUMBER)) {
    // a space-separated group is only a thousands group when it is exactly 3 digits
    const raw = m[0].trim();
    for (const part of raw.split(/ (?!\d{3}(?:\D|$))/)) {
      if (!part) continue;
      out.push({ raw: part, forms: numberForms(part), index: m.index ?? 0 });
    }
  }
  return out;
}

const CURRENCIES: Array<[RegExp, RegExp]> = [
  [/\$|\busd\b|\bus\$|dollars?\b/, /\$|\busd\b|dollar|dólar|dolar|美元|ドル/],
  [/€|\beur\b|\beuros?\b/, /€|\beur\b|euro/],
  [/£|\bgbp\b|\bpounds?\b/, /£|\bgbp\b|pound|pfund|livre|libra/],
  [/¥|円|\bjpy\b|\byen\b|\bcny\b|\brmb\b|元/, /¥|円|\bjpy\b|\byen\b|\bcny\b|\brmb\b|元|人民币/],
  [/₹|\binr\b|\brupees?\b/, /₹|\binr\b|rupee/],
  [/\bchf\b/, /\bchf\b|franken|francs?\b/],
  [/\bcad\b|\bc\$/, /\bcad\b|c\$|\$/],
  [/\baud\b|\ba\$/, /\baud\b|a\$|\$/],
  [/\bsek\b|\bnok\b|\bdkk\b|\bkr\b/, /\bsek\b|\bnok\b|\bdkk\b|\bkr\b|kronor|kroner/],
  [/\bbrl\b|r\$/, /\bbrl\b|r\$|reais|real\b/],
  [/\bpln\b|zł/, /\bpln\b|zł|złot/],
];

export const PERIODS: Array<[string, RegExp]> = [
  [
    'month',
    /\/\s*mo\b|\bmo(?:nth)?s?\b|monthly|\bper month|\bmonat|monatlich|\bmois\b|mensuel|\bmes\b|mensual|\bmês\b|mensal|月/,
  ],
  [
    'year',
    /\/\s*y(?:ea)?r\b|\byears?\b|\byr\b|yearly|annual|annually|\bjahr|jährlich|\ban\b|annuel|\baño\b|anual|\bano\b|年/,
  ],
  ['week', /\bweek|weekly|\bwoche|semaine|semana|週|周/],
  ['day', /\/\s*day\b|\bper day|\bdaily|\bpro tag\b|\bpar jour\b|\bpor día\b|\bpor dia\b|日/],
  ['hour', /\/\s*h(?:ou)?r\b|\bper hour|hourly|stunde|heure|\bhora\b|時間|小时/],
  [
    'user',
    /\bper (?:user|seat|member|employee|end-user)|\/\s*(?:user|seat|member)|pro (?:nutzer|mitarbeiter)|par utilisateur|por usuario|por usuário/,
  ],
];

/** The amounts in a value: the index range of each number that has a currency next to it. */
function amountsIn(s: string): Array<{ forms: string[]; currency: RegExp; periods: RegExp[] }> {
  const out: Array<{ forms: string[]; currency: RegExp; periods: RegExp[] }> = [];
  for (const n of numbersIn(s)) {
    const before = s.slice(Math.max(0, n.index - 4), n.index);
    const after = s.slice(n.index + n.raw.length, n.index + n.raw.length + 6);
    const around = `${before} ${after}`;
    const cur = CURRENCIES.find(([own]) => own.test(around));
    if (!cur) continue;
    const tail = s.slice(n.index + n.raw.length, n.index + n.raw.length + 30).split(/[;,\n]| and | or /)[0];
    const periods = PERIODS.filter(([, re]) => re.test(tail)).map(([, re]) => re);
    out.push({ forms: n.forms, currency: cur[1], periods });
  }
  return out;
}

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const URL_RE = /\bhttps?:\/\/[^\s"'<>)]+|\bwww\.[^\s"'<>)]+/gi;

function urlKeys(u: string): string[] {
  const keys = [u];
  try {
    const url = new URL(u, 'http://x.invalid/');
    const path = decodeURIComponent(url.pathname);
    keys.push(`${url.host}${path}`.replace(/\/$/, ''));
    if (path.length > 1) keys.push(path.replace(/\/$/, ''));
    const segs = path.split('/').filter((s) => s.length >= 4);
    if (segs.length) keys.push(segs[segs.length - 1]);
    for (const v of url.searchParams.values()) if (v.length >= 6) keys.push(v);
  } catch {
    /* keep the raw form */
  }
  return keys.map((k) => normalizeForMatch(k)).filter((k) => k.length >= 4);
}

const LANGS = ['en', 'de', 'fr', 'es', 'pt', 'ja', 'zh', 'it', 'nl'];
let countryNamesByCode: Map<string, string[]> | null = null;

/** ISO code → its names (in the supported languages), demonyms, known cities and US states. */
export function countryNames(): Map<string, string[]> {
  if (countryNamesByCode) return countryNamesByCode;
  const m = new Map<string, string[]>();
  const add = (code: string, name: string): void => {
    const k = normalizeForMatch(name);
    if (k.length < 2) return;
    const list = m.get(code) ?? [];
    if (!list.includes(k)) list.push(k);
    m.set(code, list);
  };
  for (const [name, code] of countries()) add(code, name);
  for (const lang of LANGS) {
    const dn = new Intl.DisplayNames([lang], { type: 'region' });
    for (const code of new Set(countries().values())) {
      try {
        const n = dn.of(code);
        if (n && n !== code) add(code, n);
      } catch {
        /* skip */
      }
    }
  }
  for (const [d, code] of Object.entries(DEMONYMS)) add(code, d);
  for (const [c, code] of Object.entries(KNOWN_CITIES)) add(code, c);
  for (const s of Object.values(US_STATES)) add('US', s);
  for (const [code, regions] of Object.entries(REGIONS_OF)) for (const r of regions) add(code, r);
  countryNamesByCode = m;
  return m;
}

function containsWord(hay: string, needle: string): boolean {
  const i = hay.indexOf(needle);
  if (i < 0) return false;
  // CJK names have no word boundaries
  if (/[\u3040-\u30ff\u3400-\u9fff]/.test(needle)) return true;
  const re = new RegExp(
    `(?:^|[^\\p{L}\\p{N}])${needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[^\\p{L}\\p{N}])`,
    'u',
  );
  return re.test(hay);
}

let placeIndex: Array<[string, RegExp]> | null = null;
/** Country names (English) and known cities, for spotting a place named inside a text value. */
function places(): Array<[string, RegExp]> {
  if (placeIndex) return placeIndex;
  const names = new Set<string>();
  for (const n of countries().keys()) if (n.length >= 4 && !/[()]/.test(n)) names.add(n);
  for (const c of Object.keys(KNOWN_CITIES)) if (c.length >= 4) names.add(c);
  placeIndex = [...names].map((n) => [
    n,
    new RegExp(`(?:^|[^\\p{L}])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[^\\p{L}])`, 'u'),
  ]);
  return placeIndex;
}

export interface GateFailure {
  kind: 'number' | 'amount' | 'email' | 'url' | 'place' | 'country';
  fact: string;
}

/**
 * Why a value is not backed by its quotes (empty when every fact in it is in them). `field` picks
 * the special rules for `country`, `city` and URL fields.
 */
export function gateFailures(field: string, value: string, quotes: readonly string[]): GateFailure[] {
  const fails: GateFailure[] = [];
  const q = quotes.map((x) => normalizeForMatch(x));
  const all = q.join(' \n ');
  const v = normalizeForMatch(value);
  if (field === 'country') {
    const code = value.trim().toUpperCase();
    const names = countryNames().get(code) ?? [];
    const phone = Object.entries(CALLING_CODES).some(
      ([cc, c]) => c === code && new RegExp(`(?:\\+|\\b00)\\s?${cc}[\\s\\d()./-]{6,}`).test(quotes.join(' ')),
    );
    const ok = phone || names.some((n) => containsWord(all, n)) || new RegExp(`\\b${code}\\b`).test(quotes.join(' '));
    if (!ok) fails.push({ kind: 'country', fact: value });
    return fails;
  }
  if (field === 'city') {
    if (!containsWord(all, v)) fails.push({ kind: 'place', fact: value });
    return fails;
  }
  if (field === 'logo_url' || field === 'demo_video_url') {
    if (!urlKeys(value).some((k) => all.includes(k))) fails.push({ kind: 'url', fact: value });
    return fails;
  }
  // emails
  for (const e of v.match(EMAIL) ?? []) if (!all.includes(e)) fails.push({ kind: 'email', fact: e });
  const withoutEmails = v.replace(EMAIL, ' ');
  // URLs
  for (const u of withoutEmails.match(URL_RE) ?? []) {
    const clean = u.replace(/[.,;:!?]+$/, '');
    if (!urlKeys(clean).some((k) => all.includes(k))) fails.push({ kind: 'url', fact: clean });
  }
  const plain = withoutEmails.replace(URL_RE, ' ');
  // numbers (years included)
  const quoteNumbers = q.map((x) => new Set(numbersIn(x).flatMap((n) => n.forms)));
  const anyNumbers = new Set(quoteNumbers.flatMap((s) => [...s]));
  for (const n of numbersIn(plain)) {
    if (!n.forms.some((f) => anyNumbers.has(f))) fails.push({ kind: 'number', fact: n.raw });
  }
  // amounts: number + currency + period in one quote
  for (const a of amountsIn(plain)) {
    const ok = q.some(
      (x, i) => a.forms.some((f) => quoteNumbers[i].has(f)) && a.currency.test(x) && a.periods.every((p) => p.test(x)),
    );
    if (!ok) fails.push({ kind: 'amount', fact: a.forms[0] });
  }
  // place names inside text
  for (const [name, re] of places()) if (re.test(plain) && !re.test(all)) fails.push({ kind: 'place', fact: name });
  return fails;
}

export interface GateDrop {
  field: string;
  value: string;
  failures: GateFailure[];
}

/** Gate one field. List fields are gated item by item (quotes with `item` belong to that item). */
export function gateField(field: string, d: FieldDraft, drops: GateDrop[] = []): FieldDraft {
  if (d.state !== 'ai' || d.value === null || field === 'categories') return d;
  if (Array.isArray(d.value)) {
    const kept: string[] = [];
    const ev: Evidence[] = [];
    d.value.forEach((item, i) => {
      const own = d.evidence.filter((e) => e.item === i);
      const quotes = (own.length ? own : d.evidence.filter((e) => e.item === undefined)).map((e) => e.quote);
      const fails = gateFailures(field, item, quotes);
      if (fails.length) {
        drops.push({ field, value: item, failures: fails });
        return;
      }
      const ni = kept.length;
      kept.push(item);
      for (const e of own.length ? own : []) ev.push({ ...e, item: ni });
    });
    for (const e of d.evidence) if (e.item === undefined && kept.length) ev.push(e);
    if (kept.length === 0) return notFound();
    return { value: kept, state: 'ai', evidence: ev };
  }
  const fails = gateFailures(
    field,
    d.value,
    d.evidence.map((e) => e.quote),
  );
  if (fails.length) {
    drops.push({ field, value: d.value, failures: fails });
    return notFound();
  }
  return d;
}

/** Gate every field of a draft; returns the gated fields and what was dropped. */
export function gateFields(fields: ProfileFields): { fields: ProfileFields; dropped: GateDrop[] } {
  const dropped: GateDrop[] = [];
  const out = { ...fields };
  for (const f of Object.keys(fields) as Array<keyof ProfileFields>) {
    const g = gateField(f, fields[f], dropped);
    out[f] = g;
    if (LIST_FIELDS.has(f) && g.state === 'ai' && (!Array.isArray(g.value) || g.value.length === 0))
      out[f] = notFound();
  }
  return { fields: out, dropped };
}

let codeByName: Map<string, string> | null = null;
/** ISO code of a country named in any of the supported languages ("Österreich", "Canadá", "日本"), or null. */
export function countryCodeAnyLanguage(name: string): string | null {
  if (!codeByName) {
    codeByName = new Map();
    for (const [code, names] of countryNames()) for (const n of names) if (!codeByName.has(n)) codeByName.set(n, code);
    // cities and demonyms are in countryNames() for the gate; a place name here must be a country
    for (const c of Object.keys(KNOWN_CITIES)) codeByName.delete(normalizeForMatch(c));
    for (const s of Object.values(US_STATES)) codeByName.delete(normalizeForMatch(s));
    for (const rs of Object.values(REGIONS_OF)) for (const r of rs) codeByName.delete(normalizeForMatch(r));
  }
  const k = normalizeForMatch(name).replace(/[.,;:!]+$/, '');
  return codeByName.get(k) ?? codeByName.get(k.replace(/^the\s+/, '')) ?? null;
}
