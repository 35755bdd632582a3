// Website addresses → the normalised host a listing is known by (listings.domain).
// Pure: no I/O. "https://www.Example.com/pricing?x=1", "http://example.com", "example.com/" and
// "WWW.EXAMPLE.COM." all normalise to "example.com".

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
