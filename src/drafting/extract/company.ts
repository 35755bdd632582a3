/**
 * contact_email, socials, country, city, founded_year.
 */
import type { Element } from 'domhandler';
import { baseDomain, ev, nameSource, type Ctx } from './context.ts';
import { metaContent, normalizeSpace, resolveUrl, textOf } from './html.ts';
import {
  countryCode,
  countryOfPhone,
  DEMONYMS,
  LANGS_OF_COUNTRY,
  isUsState,
  KNOWN_CITIES,
  REGIONS_OF,
  US_STATES,
} from './places.ts';
import { countryCodeAnyLanguage } from './gate.ts';
import {
  headingChain,
  inChrome,
  inTestimonial,
  isPlaceholderEmail,
  jsonLdTypes,
  leafBlocks,
  precedingHeading,
  type ParsedPage,
} from './page.ts';
import { sentences, squash, wordCount } from './text.ts';
import { found, notFound, type Evidence, type FieldDraft, type SocialPlatform } from './types.ts';

// ---------------------------------------------------------------------------------------------
// Email

const EMAIL_RE = /[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}/g;
const GOOD_LOCAL =
  /^(?:hello|hi|hey|contact|info|team|support|help|inquiries|enquiries|office|mail|general|kontakt|contacto|contato|bonjour|hallo|hola|ola)$/i;
/** Addresses for one audience (press, sales, partners…): fine when the site has nothing general. */
const ROLE_LOCAL = /^(?:press|media|pr|sales|partners?|partnerships|marketing|investors?|ir|events?|sponsors?)$/i;
const BAD_LOCAL =
  /^(?:no-?reply|do-?not-?reply|mailer-daemon|postmaster|abuse|privacy|dpo|gdpr|legal|security|unsubscribe|webmaster|hostmaster|root|admin|billing|jobs|careers|hr)$/i;

export function extractEmail(ctx: Ctx): FieldDraft<string> {
  const cands = new Map<string, { email: string; score: number; evidence: Evidence[] }>();
  const domains = new Set(ctx.siteHosts.map(baseDomain));
  const add = (page: ParsedPage, email: string, quote: string, context: string, el: Element | null): void => {
    const e = email.toLowerCase().replace(/^mailto:/, '');
    if (isPlaceholderEmail(e)) return;
    if (/\.(?:png|jpe?g|gif|webp|svg|css|js)$/i.test(e) || /@\d+x\./.test(e)) return;
    const [local, domain] = e.split('@');
    if (!local || !domain) return;
    let score = 1;
    if (domains.has(baseDomain(domain))) score += 3;
    if (GOOD_LOCAL.test(local)) score += 2;
    else if (ROLE_LOCAL.test(local)) score += 0.5;
    if (BAD_LOCAL.test(local)) score -= 3;
    if (page.kind === 'contact') score += 2;
    if (/\b(?:contact|e-?mail us|write to us|reach us|get in touch|inquir|enquir|questions?)\b/i.test(context))
      score += 2;
    if (el && inChrome(page.$, el)) score += 0.5;
    if (/\b(?:maintained by|author|developer|personal)\b/i.test(context) && !domains.has(baseDomain(domain)))
      score -= 1;
    const prev = cands.get(e);
    if (prev) {
      prev.score += 0.5;
      if (prev.evidence.length < 3 && !prev.evidence.some((x) => x.quote === quote))
        prev.evidence.push(ev(page, quote));
      prev.score = Math.max(prev.score, score + 0.5);
    } else cands.set(e, { email: e, score, evidence: [ev(page, quote)] });
  };
  for (const page of ctx.pages) {
    const $ = page.$;
    $('a[href^="mailto:" i]').each((_, el) => {
      const href = ($(el).attr('href') ?? '').trim();
      const addr = decodeURIComponent(href.slice(7).split('?')[0]).trim();
      if (!/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(addr)) return;
      const context = `${textOf(el)} ${textOf((el as Element).parent as Element)}`;
      add(page, addr, href.split('?')[0], context, el as Element);
    });
    for (const b of leafBlocks(page)) {
      const ms = b.text.match(EMAIL_RE);
      if (!ms) continue;
      for (const m of ms) add(page, m, m, b.text, b.el);
    }
  }
  const best = [...cands.values()].sort((a, b) => b.score - a.score)[0];
  if (!best || best.score < 1) return notFound<string>();
  return found(best.email, best.evidence);
}

// ---------------------------------------------------------------------------------------------
// Socials

type Platform = SocialPlatform | 'community';

interface SocialHit {
  platform: Platform;
  href: string;
  key: string;
  /** For GitHub: owner/repo root */
  root: string;
  deep: boolean;
  handle: string;
}

function classifySocial(href: string): SocialHit | null {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  const host = u.hostname.toLowerCase().replace(/^(?:www|m|mobile|web)\./, '');
  const segs = u.pathname.split('/').filter(Boolean);
  const s0 = (segs[0] ?? '').toLowerCase();
  const mk = (platform: Platform, handle: string, rootSegs: number): SocialHit => ({
    platform,
    href,
    key: `${host}/${segs.slice(0, rootSegs).join('/').toLowerCase()}`,
    root: `${u.protocol}//${u.host}/${segs.slice(0, rootSegs).join('/')}`,
    deep: segs.length > rootSegs,
    handle,
  });
  if (segs.length === 0 && host !== 'discord.gg') return null;
  switch (true) {
    case host === 'linkedin.com' || host.endsWith('.linkedin.com'):
      if (/^(?:company|in|school|showcase|groups)$/.test(s0) && segs[1]) return mk('linkedin', segs[1], 2);
      return null;
    case host === 'twitter.com' || host === 'x.com':
      if (/^(?:intent|share|home|search|hashtag|i|explore|settings|login|signup|messages|notifications)$/.test(s0))
        return null;
      return mk('x', segs[0], 1);
    case host === 'facebook.com' || host === 'fb.com' || host === 'fb.me':
      if (/^(?:sharer|sharer\.php|share|dialog|plugins|tr|login|photo\.php|events|watch)$/.test(s0)) return null;
      if (s0 === 'groups' || s0 === 'pages') return mk('facebook', segs[1] ?? '', 2);
      return mk('facebook', segs[0], 1);
    case host === 'instagram.com':
      if (/^(?:p|reel|reels|explore|stories|accounts)$/.test(s0)) return null;
      return mk('instagram', segs[0], 1);
    case host === 'tiktok.com':
      return s0.startsWith('@') ? mk('tiktok', segs[0], 1) : null;
    case host === 'youtube.com':
      if (/^(?:c|channel|user)$/.test(s0) && segs[1]) return mk('youtube', segs[1], 2);
      if (s0.startsWith('@')) return mk('youtube', segs[0], 1);
      return null;
    case host === 'threads.net' || host === 'threads.com':
      return s0.startsWith('@') ? mk('threads', segs[0], 1) : null;
    case /(?:^|\.)pinterest\.[a-z.]+$/.test(host):
      if (/^(?:pin|search|ideas)$/.test(s0)) return null;
      return mk('pinterest', segs[0], 1);
    case host === 'github.com':
      if (
        /^(?:sponsors|features|pricing|about|login|join|marketplace|topics|collections|orgs|settings|apps|site|security|enterprise|explore|trending)$/.test(
          s0,
        )
      ) {
        return s0 === 'orgs' && segs[1] ? mk('github', segs[1], 2) : null;
      }
      return mk('github', segs[0], Math.min(2, segs.length));
    case host === 'reddit.com' || host === 'old.reddit.com':
      if (/^(?:r|user|u)$/.test(s0) && segs[1]) return mk('reddit', segs[1], 2);
      return null;
    case host === 'medium.com':
      if (/^(?:m|p|tag|search)$/.test(s0)) return null;
      return mk('medium', segs[0], 1);
    case host.endsWith('.medium.com'):
      return {
        platform: 'medium',
        href,
        key: host,
        root: `${u.protocol}//${u.host}`,
        deep: segs.length > 0,
        handle: host.split('.')[0],
      };
    case host === 'producthunt.com':
      if (/^(?:products|posts|@\w+)$/.test(s0) || s0.startsWith('@'))
        return mk('productlaunch', segs[1] ?? segs[0], s0.startsWith('@') ? 1 : 2);
      return null;
    case host === 'discord.gg' || (host === 'discord.com' && s0 === 'invite'):
      return {
        platform: 'community',
        href,
        key: `${host}${u.pathname}`.toLowerCase(),
        root: href,
        deep: false,
        handle: segs.at(-1) ?? '',
      };
    case host === 'bsky.app' && s0 === 'profile':
      return mk('community', segs[1] ?? '', 2);
    case host === 'twitch.tv':
      return mk('community', segs[0], 1);
    case host === 't.me' || host === 'matrix.to':
      return {
        platform: 'community',
        href,
        key: `${host}${u.pathname}${u.hash}`.toLowerCase(),
        root: href,
        deep: false,
        handle: '',
      };
    case s0.startsWith('@') &&
      segs.length === 1 &&
      /^(?:mastodon\.|fosstodon\.org|floss\.social|hachyderm\.io|mas\.to|mstdn\.|infosec\.exchange|techhub\.social|social\.)/.test(
        host,
      ):
      return mk('community', segs[0], 1);
    default:
      return null;
  }
}

const NOT_OURS_CONTEXT =
  /\b(?:sponsor\w*|partners?|customers?|clients?|testimonials?|as seen|featured (?:in|on)|press|backers?|supporters?|investors?|integrations?|powered by|built with|credits?|thanks|reviews?|users voice|what (?:our )?(?:users|customers) say)\b/i;

export interface SocialsResult {
  socials: Partial<Record<SocialPlatform, string>>;
  evidence: Partial<Record<SocialPlatform, Evidence[]>>;
}

export function extractSocials(ctx: Ctx): SocialsResult {
  const name = ctx.name ? squash(ctx.name) : '';
  const hostTokens = ctx.siteHosts.map((h) => squash(baseDomain(h).split('.')[0])).filter((t) => t.length >= 3);
  const twitterHandles = new Set<string>();
  for (const k of ['twitter:site', 'twitter:creator']) {
    const v = metaContent(ctx.home.$, k).replace(/^@/, '').toLowerCase();
    if (v) twitterHandles.add(v);
  }
  interface Scored {
    hit: SocialHit;
    score: number;
    count: number;
    evidence: Evidence[];
  }
  const byKey = new Map<string, Scored>();
  for (const page of ctx.pages) {
    const $ = page.$;
    $('a[href], link[rel~="me" i][href]').each((_, node) => {
      const el = node as Element;
      const href = resolveUrl($(el).attr('href'), page.url);
      if (!href) return;
      const hit = classifySocial(href);
      if (!hit) return;
      let score = 1;
      const classes = ($(el).parents().toArray() as Element[])
        .slice(0, 5)
        .map((p) => `${p.attribs?.class ?? ''} ${p.attribs?.id ?? ''}`)
        .join(' ');
      const heading = precedingHeading($, el);
      const headingText = heading ? textOf(heading.get(0)) : '';
      const ownText = `${textOf(el)} ${$(el).attr('title') ?? ''} ${$(el).attr('aria-label') ?? ''} ${$(el).find('img').attr('alt') ?? ''}`;
      if (
        inChrome($, el) ||
        el.name === 'link' ||
        /\b(?:social|follow|connect|community|networks?|footer)\b/i.test(classes)
      )
        score += 2;
      if (NOT_OURS_CONTEXT.test(classes) || NOT_OURS_CONTEXT.test(headingText)) score -= 4;
      const h = squash(hit.handle);
      const rootSquash = squash(hit.key);
      if (name && h && (h.includes(name) || (name.includes(h) && h.length >= 3))) score += 2;
      else if (name && rootSquash.includes(name)) score += 1;
      if (hostTokens.some((t) => h.includes(t))) score += 1;
      if (hit.platform === 'x' && twitterHandles.has(hit.handle.toLowerCase())) score += 3;
      if (/\b(?:follow|join|our|us on)\b/i.test(ownText)) score += 0.5;
      if (hit.deep) score -= 1;
      const prev = byKey.get(hit.key);
      if (prev) {
        prev.count++;
        prev.score = Math.max(prev.score, score) + 0.25;
        if (!prev.hit.deep || hit.deep) {
          /* keep the shallower href */
        } else prev.hit = hit;
        if (prev.evidence.length < 3 && !prev.evidence.some((e) => e.quote === $(el).attr('href')))
          prev.evidence.push(ev(page, ($(el).attr('href') ?? '').trim()));
      } else byKey.set(hit.key, { hit, score, count: 1, evidence: [ev(page, ($(el).attr('href') ?? '').trim())] });
    });
  }
  // GitHub: a repository whose name is the product's name wins over the owner's other repos.
  for (const s of byKey.values()) {
    if (s.hit.platform === 'github' && name) {
      const repo = squash(s.hit.key.split('/')[2] ?? '');
      if (repo && repo === name) s.score += 2;
    }
  }
  const socials: Partial<Record<SocialPlatform, string>> = {};
  const evidence: Partial<Record<SocialPlatform, Evidence[]>> = {};
  const best = new Map<Platform, Scored>();
  for (const s of byKey.values()) {
    if (s.score < 1) continue;
    const cur = best.get(s.hit.platform);
    if (!cur || s.score > cur.score || (s.score === cur.score && s.count > cur.count)) best.set(s.hit.platform, s);
  }
  for (const [platform, s] of best) {
    const key = (platform === 'community' ? 'custom' : platform) as SocialPlatform;
    // The value is a link as written on the site; for a deep link, its root (a prefix of it).
    const value = s.hit.deep ? s.hit.root : s.hit.href;
    const quotes = s.hit.deep
      ? [{ quote: s.hit.root.replace(/^https?:\/\//, ''), url: s.evidence[0].url }]
      : s.evidence;
    socials[key] = value;
    evidence[key] = quotes;
  }
  // The site itself, when it declares a canonical address.
  const canonical =
    resolveUrl(ctx.home.$('link[rel~="canonical" i]').first().attr('href'), ctx.home.url) ??
    resolveUrl(metaContent(ctx.home.$, 'og:url'), ctx.home.url);
  if (canonical && /^https?:/.test(canonical)) {
    const raw = ctx.home.$('link[rel~="canonical" i]').first().attr('href') ?? metaContent(ctx.home.$, 'og:url');
    if (raw && /^https?:\/\//i.test(raw.trim())) {
      socials.website = raw.trim();
      evidence.website = [ev(ctx.home, raw.trim())];
    }
  }
  return { socials, evidence };
}

// ---------------------------------------------------------------------------------------------
// Location

export interface LocationResult {
  country: FieldDraft<string>;
  city: FieldDraft<string>;
}

const ORG_NOUN =
  '(?:company|startup|start-up|business|non-?profit|not-for-profit|charity|foundation|corporation|corp\\.?|llc|gmbh|ltd\\.?|inc\\.?|agency|studio|team|organi[sz]ation|software (?:company|house|studio)|cooperative|co-op|firm|b\\.v\\.|s\\.a\\.|ab|as|oy|ug)';

function aboutUs(sentence: string, name: string | null): boolean {
  if (/\b(?:we|we're|we are|our|us)\b/i.test(sentence)) return true;
  if (name && new RegExp(`\\b${name}\\b`, 'i').test(sentence)) return true;
  return false;
}

const HQ_WORDS =
  /\b(?:hq|headquarters?|head office|main office|registered office|hauptsitz|firmensitz|sitz|siège(?: social)?|sede (?:central|social)|matriz)\b|本社|总部|本部/i;
const STREET_WORD =
  /^(?:street|st\.?|avenue|ave\.?|road|rd\.?|boulevard|blvd\.?|drive|dr\.?|lane|ln\.?|way|court|ct\.?|place|pl\.?|parkway|pkwy\.?|highway|hwy\.?|suite|ste\.?|floor|fl\.?|square|sq\.?|terrace|plaza)$/i;
const PLACE = "([A-ZÀ-Ýa-zß-ÿ][\\w'À-ÿ-]*(?:\\s+[A-ZÀ-Ý][\\w'À-ÿ-]*){0,2})";
/** "made / built / developed in <place>[, <country>]" in the drafting languages, any case. */
const MADE_IN = new RegExp(
  `\\b(?:made|built|crafted|designed|developed|hergestellt|entwickelt|gemacht|fabriqué|conçu|développé|hecho|desarrollado|fabricado|feito|desenvolvido)\\s+(?:with\\s+\\S+\\s+)?(?:love\\s+|liebe\\s+|amour\\s+|amor\\s+)?(?:in|en|em|à|au|aux|im)\\s+(?:the\\s+)?${PLACE}(?:,\\s*${PLACE})?`,
  'iu',
);
const FROM_COUNTRY =
  /\b(?:[Ii]['’]?m|I am|[Ww]e['’]?re|[Ww]e are)\b[^.!?]{0,60}?\bfrom\s+(?:the\s+)?([A-Z][\w'À-ÿ-]*(?:\s+[A-Z][\w'À-ÿ-]*){0,2})/u;

/** The country named by the first 1–3 words of a place ("Canada and more" → CA). */
function leadingCountry(place: string | undefined): string | null {
  if (!place) return null;
  const words = place.split(/\s+/);
  for (let n = Math.min(3, words.length); n >= 1; n--) {
    const c = countryCodeAnyLanguage(words.slice(0, n).join(' '));
    if (c) return c;
  }
  return null;
}

export function extractLocation(ctx: Ctx): LocationResult {
  let country: { code: string; evidence: Evidence[]; score: number } | null = null;
  let city: { name: string; evidence: Evidence[]; score: number } | null = null;
  const offerCountry = (code: string | null, evidence: Evidence, score: number): void => {
    if (!code) return;
    if (!country || score > country.score) country = { code, evidence: [evidence], score };
  };
  const offerCity = (name: string, evidence: Evidence, score: number): void => {
    const n = normalizeSpace(name);
    if (!n || wordCount(n) > 4 || !/^[A-ZÀ-Ý]/.test(n)) return;
    if (!city || score > city.score) city = { name: n, evidence: [evidence], score };
  };

  for (const page of ctx.pages) {
    // JSON-LD postal address of the organisation
    for (const n of page.jsonld) {
      if (!jsonLdTypes(n).some((t) => /Organization|Corporation|LocalBusiness|NGO|OnlineBusiness/.test(t))) continue;
      const addrs = (Array.isArray(n.address) ? n.address : [n.address]).filter(
        (a): a is Record<string, unknown> => !!a && typeof a === 'object',
      );
      for (const a of addrs) {
        const c =
          typeof a.addressCountry === 'string'
            ? a.addressCountry
            : typeof (a.addressCountry as Record<string, unknown>)?.name === 'string'
              ? ((a.addressCountry as Record<string, unknown>).name as string)
              : '';
        if (c) offerCountry(/^[A-Z]{2}$/.test(c) ? c : countryCode(c), ev(page, c), 5);
        if (typeof a.addressLocality === 'string' && a.addressLocality)
          offerCity(a.addressLocality, ev(page, a.addressLocality), 5);
      }
    }
    if (page.kind === 'legal') continue;
    for (const b of leafBlocks(page)) {
      if (b.text.length > 2000) continue;
      if (
        !/\b(?:based|headquartered|located|registered|incorporated|made|built|developed|from|hergestellt|entwickelt|gemacht|fabriqué|conçu|développé|hecho|desarrollado|fabricado|feito|desenvolvido)\b|\b(?:a|an|the)\s+[A-Z]/i.test(
          b.text,
        ) ||
        inTestimonial(page, b.el)
      )
        continue;
      for (const s of sentences(b.text)) {
        // "based in / headquartered in / located in <City>, <Country|State>"
        const based =
          /\b(?:(?:we(?:'re| are)|is|are)\s+)?(?:proudly\s+)?(?:based|headquartered|located|registered|incorporated)\s+in\s+(?:the\s+)?([A-ZÀ-Ý][\w'.À-ÿ-]*(?:\s+[A-ZÀ-Ý][\w'.À-ÿ-]*){0,3})(?:,\s*([A-ZÀ-Ý][\w.À-ÿ-]*(?:\s+[A-ZÀ-Ý][\w.À-ÿ-]*){0,3}))?/.exec(
            s,
          );
        if (based && aboutUs(s, nameSource(ctx))) {
          const first = based[1].replace(/[.'-]+$/, '');
          const second = based[2]?.replace(/[.'-]+$/, '');
          const e = ev(page, s);
          const cFirst = countryCode(first);
          if (second) {
            const cSecond = countryCode(second) ?? (isUsState(second) ? 'US' : null);
            if (cSecond) {
              offerCountry(cSecond, e, 4);
              if (!cFirst) offerCity(first, e, 4);
            } else if (cFirst) offerCountry(cFirst, e, 4);
          } else if (cFirst) offerCountry(cFirst, e, 4);
          else if (KNOWN_CITIES[first.toLowerCase()]) {
            offerCity(first, e, 3.5);
            offerCountry(KNOWN_CITIES[first.toLowerCase()], e, 3);
          }
        }
        // "a US non-profit", "a German company", "an Australian startup"
        const demo = new RegExp(
          `\\b(?:a|an|the)\\s+((?:[A-Z][a-z]+\\s)?[A-Z][A-Za-z.]+(?:-based)?)\\s+(?:[\\w()\\-.]+\\s+){0,2}?${ORG_NOUN}\\b`,
        ).exec(s);
        if (demo && aboutUs(s, nameSource(ctx))) {
          const d = demo[1].toLowerCase();
          const code =
            DEMONYMS[d] ?? DEMONYMS[d.replace(/-based$/, '')] ?? countryCode(demo[1].replace(/-based$/, '')) ?? null;
          if (code) offerCountry(code, ev(page, s), 3);
        }
        // "Made with ♥ in Berlin" / "made in Edmonton, Canada" / "Entwickelt in Österreich" / "Hecho en México"
        const made = MADE_IN.exec(s);
        if (made) {
          const place = made[1];
          const code = leadingCountry(place);
          const afterCode = leadingCountry(made[2]);
          if (code) offerCountry(code, ev(page, s), 2);
          else if (afterCode) {
            offerCountry(afterCode, ev(page, s), 2.5);
            offerCity(place, ev(page, s), 2.5);
          } else if (KNOWN_CITIES[place.toLowerCase()]) {
            offerCity(place, ev(page, s), 2);
            offerCountry(KNOWN_CITIES[place.toLowerCase()], ev(page, s), 1.5);
          }
        }
        // "I'm a software developer from China" / "we are a team from Portugal"
        const from = FROM_COUNTRY.exec(s);
        if (from) {
          const code = leadingCountry(from[1]);
          if (code) offerCountry(code, ev(page, s), 2);
        }
      }
    }
    // Postal addresses on contact / about pages and in the footer
    const $ = page.$;
    const addressBlocks: Array<{ t: string; bonus: number }> = [];
    $('address, [itemtype*="PostalAddress" i], [class*="address" i]').each((_, el) => {
      const t = textOf(el);
      if (!t || t.length >= 300) return;
      // of several offices, the one the site calls its headquarters wins
      const h = precedingHeading($, el);
      const label =
        (el as Element).prev && (el as Element).prev?.type === 'text' ? '' : textOf((el as Element).prev as Element);
      const around = `${t} ${h ? textOf(h.get(0)) : ''} ${label.length < 80 ? label : ''}`;
      addressBlocks.push({ t, bonus: HQ_WORDS.test(around) ? 1 : 0 });
    });
    for (const { t, bonus } of addressBlocks) {
      const parts = t
        .split(/\s*(?:,|\n|·|\|)\s*/)
        .map((p) => p.trim())
        .filter(Boolean);
      const last = parts.at(-1) ?? '';
      const code = countryCode(last.replace(/\.$/, ''));
      if (code && parts.length >= 2) {
        offerCountry(code, ev(page, last), 3.5 + bonus);
        const prev = parts.at(-2) as string;
        const cityName = prev
          .replace(/^\d{3,6}\s+/, '')
          .replace(/\s+\d{3,6}$/, '')
          .replace(/\s+[A-Z]{2}\s+\d{5}(?:-\d{4})?$/, '');
        if (!/\d/.test(cityName) && !countryCode(cityName)) offerCity(cityName, ev(page, prev), 3.5 + bonus);
      }
    }
    // "Hauptstraße 5, 10115 Berlin, Germany" style addresses on contact / about pages and the home page
    if (page.kind === 'contact' || page.kind === 'about' || page.isHome) {
      for (const b of leafBlocks(page)) {
        if (b.text.length > 400) continue;
        // an imprint's address line on its own: "17109 Demmin" (postcode and city, no country)
        const line =
          page.kind === 'contact'
            ? /^(?:[A-Z]{1,2}-)?\d{4,5}\s+([A-ZÀ-Ý][\wÀ-ÿ.'-]+(?:[ -][A-ZÀ-Ý][\wÀ-ÿ.'-]+)?)$/.exec(b.text)
            : null;
        if (line && !countryCodeAnyLanguage(line[1])) offerCity(line[1], ev(page, b.text), 2.5);
        const m =
          /\b\d{4,5}\s+([A-ZÀ-Ý][\wÀ-ÿ.'-]+(?:[ -][A-ZÀ-Ý][\wÀ-ÿ.'-]+)?),\s*(\p{Lu}[\p{L} .]+?)\s*(?:$|[,.|·])/u.exec(
            b.text,
          );
        if (!m) continue;
        const code = countryCodeAnyLanguage(m[2]);
        if (!code) continue;
        offerCountry(code, ev(page, m[0].replace(/[,.|·\s]+$/, '')), 3);
        offerCity(m[1], ev(page, m[0].replace(/[,.|·\s]+$/, '')), 3);
      }
    }
    // "Springfield, IL 62701" style US addresses anywhere
    const us = /\b([A-Z][a-zA-Z .'-]{2,30}),\s+([A-Z]{2})\s+\d{5}(?:-\d{4})?\b/.exec(page.text);
    if (us && US_STATES[us[2]] && (page.kind === 'contact' || page.kind === 'about' || page.isHome)) {
      offerCountry('US', ev(page, us[0]), 3);
      // "123 Race Street San Jose, CA 95126": the city is what follows the street
      const words = (
        us[1]
          .trim()
          .split(/\s{2,}/)
          .pop() as string
      ).split(/\s+/);
      const street = words.reduce((at, w, i) => (STREET_WORD.test(w) ? i : at), -1);
      const cityWords = words.slice(street + 1);
      if (cityWords.length > 0 && cityWords.length <= 3) offerCity(cityWords.join(' '), ev(page, us[0]), 3);
    }
  }
  // Weakest signals, only when nothing else places the business: a prefecture/province in an address
  // (Japanese and Chinese addresses name no country), then the calling code of the site's own phone number.
  for (const page of ctx.pages) {
    if (country) break;
    if (!(page.isHome || page.kind === 'contact' || page.kind === 'about')) continue;
    for (const b of leafBlocks(page)) {
      if (b.text.length > 300 || inTestimonial(page, b.el)) continue;
      for (const [code, regions] of Object.entries(REGIONS_OF)) {
        const r = regions.find((x) => new RegExp(`${x}[^\\s、。,]{1,12}[市区町村郡]`).test(b.text));
        if (r) {
          const m = new RegExp(`${r}[^\\s、。,]{1,40}`).exec(b.text);
          if (m) offerCountry(code, ev(page, m[0]), 1.5);
        }
      }
      if (country) break;
    }
  }
  for (const page of ctx.pages) {
    if (country) break;
    if (!(page.isHome || page.kind === 'contact' || page.kind === 'about')) continue;
    const phones = new Set<string>();
    page.$('a[href^="tel:" i]').each((_, a) => {
      const t = textOf(a as Element);
      if (t && countryOfPhone(t)) phones.add(t);
    });
    const codes = new Set([...phones].map((p) => countryOfPhone(p)));
    const only = codes.size === 1 ? ([...codes][0] as string) : null;
    // a calling code is trusted only when the page is written in a language of that country
    if (only && page.lang && (LANGS_OF_COUNTRY[only] ?? []).includes(page.lang)) {
      const p = [...phones][0];
      offerCountry(countryOfPhone(p) as string, ev(page, p), 1);
    }
  }
  const c = country as { code: string; evidence: Evidence[]; score: number } | null;
  const ci = city as { name: string; evidence: Evidence[]; score: number } | null;
  return {
    country: c ? found(c.code, c.evidence) : notFound<string>(),
    city: ci ? found(ci.name, ci.evidence) : notFound<string>(),
  };
}

// ---------------------------------------------------------------------------------------------
// Founded year

const FOUNDED_INTL = new RegExp(
  [
    // de / fr / es / pt: verb (then up to 3 words) then the year
    '\\b(?:gegründet|gründete|gründeten|fondée?s?|créée?s?|fundad[ao]s?|fundó|fundou|criad[ao]s?)\\b(?:\\s+[\\wÀ-ÿ.]+){0,3}?\\s+(?:im\\s+jahr\\s+|en\\s+|em\\s+|in\\s+)?((?:18|19|20)\\d{2})\\b',
    // de word order: "wurde 2015 in Wien gegründet"
    '\\b((?:18|19|20)\\d{2})(?:\\s+[\\wÀ-ÿ.]+){0,3}?\\s+gegründet\\b',
    // ja / zh: year then 設立/創業/創立/成立 (or 成立于 + year)
    '((?:18|19|20)\\d{2})\\s*年\\s*(?:\\d{1,2}\\s*月\\s*)?(?:\\d{1,2}\\s*日\\s*)?(?:に)?(?:設立|創業|創立|成立|创立|创建)',
    '(?:成立|创立|创建|設立|創業)(?:于|於)?\\s*((?:18|19|20)\\d{2})\\s*年',
  ].join('|'),
  'i',
);

export function extractFounded(ctx: Ctx): FieldDraft<string> {
  const thisYear = new Date().getUTCFullYear();
  const ok = (y: number): boolean => y >= 1800 && y <= thisYear;
  for (const page of ctx.pages) {
    for (const n of page.jsonld) {
      if (!jsonLdTypes(n).some((t) => /Organization|Corporation|LocalBusiness|NGO|OnlineBusiness/.test(t))) continue;
      const fd = typeof n.foundingDate === 'string' ? n.foundingDate : '';
      const m = /\b(1[89]\d{2}|20\d{2})\b/.exec(fd);
      if (m && ok(Number(m[1]))) return found(m[1], [ev(page, fd)]);
    }
  }
  const name = nameSource(ctx);
  for (const page of ctx.pages) {
    if (page.kind === 'legal' || page.kind === 'blog') continue;
    for (const b of leafBlocks(page)) {
      if (b.text.length > 2000) continue;
      if (!/(?:18|19|20)\d{2}/.test(b.text) || inTestimonial(page, b.el)) continue;
      // Short badges: "Founded in 2015", "Est. 2012", "Since 1998"
      const badge = /^(?:founded(?:\s+in)?|established(?:\s+in)?|est\.?|since)\s*:?\s*((?:18|19|20)\d{2})$/i.exec(
        b.text,
      );
      if (badge && ok(Number(badge[1]))) return found(badge[1], [ev(page, b.text)]);
      // the other drafting languages: "gegründet 2015", "fondée en 2012", "fundada en 2010", "desde 2008",
      // "2015年設立", "成立于2015年" — about the business (a subject or no other year-bearing noun)
      for (const s of sentences(b.text)) {
        const m = FOUNDED_INTL.exec(s);
        const y = m ? (m[1] ?? m[2] ?? m[3] ?? m[4]) : null;
        if (y && ok(Number(y)) && (aboutUs(s, name) || wordCount(s) <= 8 || /[\u3040-\u9fff]/.test(s)))
          return found(y, [ev(page, s)]);
      }
      if (
        headingChain(page, b.el).some((h) =>
          /\b(?:blog|news|posts?|articles?|case stud\w*|customers?|stories|press)\b/i.test(h.text),
        )
      )
        continue;
      const subj = `(?:${name ? `${name}|` : ''}we|our (?:company|team|studio|business|project)|the (?:company|business|project|studio)|this project)`;
      const YEAR = '((?:18|19|20)\\d{2})';
      const A = new RegExp(
        `\\b${subj}\\s+(?:was\\s+|were\\s+|has been\\s+|have been\\s+)?(?:first\\s+|originally\\s+|officially\\s+)?(?:founded|established|incorporated|started|launched|created|born|began|begun)\\s+(?:back\\s+)?(?:in|during|on)\\s+(?:(?:early|mid|late)\\s+)?(?:[A-Za-z]+\\s+)?(?:\\d{1,2}(?:st|nd|rd|th)?,?\\s+)?${YEAR}\\b`,
        'i',
      );
      const B = new RegExp(
        `^(?:founded|established|started|launched|incorporated)\\s+in\\s+${YEAR},?\\s+${subj}\\b`,
        'i',
      );
      const C = name
        ? new RegExp(
            `\\b${name},\\s+(?:which was\\s+|first\\s+)?(?:founded|established|started|launched)\\s+in\\s+${YEAR}\\b`,
            'i',
          )
        : null;
      for (const s of sentences(b.text)) {
        // "In 2019, we started Acme" / "In 2014 Jane and Omar founded the company"
        const lead =
          /^(?:[Bb]ack\s+)?[Ii]n\s+((?:18|19|20)\d{2}),?\s+(?:we|our founders?|[A-Z][\w'-]+(?:\s+(?:and|&)\s+[A-Z][\w'-]+)?)\s+(?:founded|started|launched|created|set up|established)\s+(?:the company|the business|the project|this project|[A-Z][\w-]*)/.exec(
            s,
          );
        if (
          lead &&
          ok(Number(lead[1])) &&
          (/\b(?:company|business|project|we)\b/i.test(s) || (name && new RegExp(`\\b${name}\\b`, 'i').test(s)))
        )
          return found(lead[1], [ev(page, s)]);
        if (/\b(?:previously|formerly|prior to|before joining|also founded)\b/i.test(s)) continue;
        const m = A.exec(s) ?? B.exec(s) ?? C?.exec(s) ?? null;
        if (m && ok(Number(m[1]))) return found(m[1], [ev(page, s)]);
      }
    }
  }
  return notFound<string>();
}
