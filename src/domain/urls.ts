// Website addresses → the normalised host a listing is known by (listings.domain), and the site key
// (registrable domain + path) duplicates are recognised by.
// Pure: no I/O (tldts carries the Public Suffix List compiled in). "https://www.Example.com/pricing?x=1",
// "http://example.com", "example.com/" and "WWW.EXAMPLE.COM." all normalise to "example.com".
import { getDomain } from 'tldts';

/**
 * The host of a website address, lower-cased, without `www.`, port, trailing dot, path, query or
 * credentials; internationalised names in their ASCII (punycode) form. Returns null when the input
 * names no plausible host (empty, spaces inside, no dot, bad characters).
 */
export function normaliseDomain(input: string): string | null {
  let s = input.trim();
  if (!s) return null;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) s = 'http://' + s.replace(/^\/\//, '');
  let host: string;
  try {
    host = new URL(s).hostname;
  } catch {
    return null;
  }
  host = host.toLowerCase().replace(/\.+$/, '');
  if (host.startsWith('[')) return null; // IP literals are not websites of a product
  while (host.startsWith('www.')) host = host.slice(4);
  if (!host.includes('.') || host.length > 253) return null;
  if (!/^[a-z0-9.-]+$/.test(host) || host.split('.').some((label) => !label || label.length > 63)) return null;
  return host;
}

/**
 * The website a listing stands for, as duplicates are recognised: its registrable domain (eTLD+1 by the
 * Public Suffix List, private suffixes included, so `alice.github.io` and `bob.github.io` are two sites
 * while `www.example.co.uk` and `app.example.co.uk` are one), with the port when one other than 80/443 is
 * written (another port is another origin), and its path: lower-cased, repeated and trailing slashes and a
 * final index.html dropped, no query or fragment ("" for the homepage). A host that is itself a public
 * suffix or an IP address keeps its whole name. Null when the address names no plausible host
 * (normaliseDomain).
 */
export interface SiteKey {
  domain: string;
  port: string;
  path: string;
}

export function siteKeyOf(input: string): SiteKey | null {
  const host = normaliseDomain(input);
  if (!host) return null;
  let s = input.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) s = 'http://' + s.replace(/^\/\//, '');
  let path = '';
  let port = '';
  try {
    const u = new URL(s);
    path = decodeSafe(u.pathname);
    port = u.port === '80' || u.port === '443' ? '' : u.port;
  } catch {
    return null;
  }
  path = path
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/\/(index\.html?)?$/, '')
    .replace(/\/+$/, '');
  const domain = getDomain(host, { allowPrivateDomains: true }) ?? host;
  return { domain, port, path };
}

/** Two addresses of the same website (siteKeyOf). */
export function sameSite(a: SiteKey, b: SiteKey): boolean {
  return a.domain === b.domain && a.port === b.port && a.path === b.path;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
