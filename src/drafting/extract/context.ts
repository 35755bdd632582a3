/** Shared state of one extraction run. */
import type { Evidence } from './types.ts';
import type { ParsedPage } from './page.ts';
import { metaContent, resolveUrl } from './html.ts';

export interface Ctx {
  /** Trusted pages: the home page first, placeholder/template pages removed. */
  pages: ParsedPage[];
  home: ParsedPage;
  /** Product name once known (set after the name rule ran). */
  name: string | null;
  /** The name and other forms of it used on the site, longest first. */
  nameAliases: string[];
  /** Host names that belong to the site: crawled host, canonical/og:url host, their www twins. */
  siteHosts: string[];
  /** Category names offered by the directory (for `categories`). */
  categoryNames: readonly string[];
}

/** A candidate value with its evidence and a score. */
export interface Candidate<V = string> {
  value: V;
  evidence: Evidence[];
  score: number;
}

/** A regex source matching the product name or any of its aliases (null when unknown). */
export function nameSource(ctx: Pick<Ctx, 'name' | 'nameAliases'>): string | null {
  const all = [...new Set([...(ctx.nameAliases ?? []), ...(ctx.name ? [ctx.name] : [])])]
    .filter(Boolean)
    .sort((a, b) => b.length - a.length);
  if (all.length === 0) return null;
  return `(?:${all.map((a) => a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
}

export function ev(page: ParsedPage, quote: string): Evidence {
  return { quote, url: page.url };
}

function wwwTwin(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : `www.${host}`;
}

export function siteHostsOf(home: ParsedPage): string[] {
  const hosts = new Set<string>();
  const add = (u: string | null): void => {
    if (!u) return;
    try {
      const h = new URL(u).hostname.toLowerCase();
      hosts.add(h);
      hosts.add(wwwTwin(h));
    } catch {
      /* ignore */
    }
  };
  add(home.url);
  add(resolveUrl(home.$('link[rel~="canonical" i]').first().attr('href'), home.url));
  add(resolveUrl(metaContent(home.$, 'og:url'), home.url));
  return [...hosts];
}

/** Registrable-ish domain: the last two labels (three for common second-level suffixes). */
export function baseDomain(host: string): string {
  const parts = host.toLowerCase().replace(/\.$/, '').split('.');
  if (parts.length <= 2) return parts.join('.');
  const sld = parts.at(-2) as string;
  const twoLevel = /^(?:co|com|net|org|gov|edu|ac|ltd|plc|me)$/.test(sld) && (parts.at(-1) as string).length === 2;
  return parts.slice(twoLevel ? -3 : -2).join('.');
}
