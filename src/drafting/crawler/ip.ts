/**
 * Address classification for the guarded fetcher: is an IP address a public unicast address that
 * a user-supplied URL may reach? Everything that is not clearly public is refused.
 *
 * IPv4 refused: 0/8 "this network", 10/8, 100.64/10 (CGNAT), 127/8, 169.254/16 (link-local, incl.
 * cloud metadata 169.254.169.254), 172.16/12, 192.0.0/24 (IETF), 192.0.2/24, 198.51.100/24,
 * 203.0.113/24 (documentation), 192.88.99/24 (6to4 relay anycast), 192.168/16, 198.18/15
 * (benchmarking), 224/4 (multicast), 240/4 (reserved, incl. 255.255.255.255 broadcast).
 *
 * IPv6: only global unicast 2000::/3 is allowed, minus documentation (2001:db8::/32, 3fff::/20),
 * IETF protocol assignments 2001::/23 (Teredo, benchmarking, ORCHID…), SRv6 5f00::/16.
 * Forms that embed an IPv4 address are judged by the embedded address: IPv4-mapped ::ffff:a.b.c.d,
 * IPv4-compatible ::a.b.c.d, SIIT ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4
 * 2002::/16. Everything else (::, ::1, fc00::/7, fe80::/10, fec0::/10, ff00::/8, 100::/64 …) is refused.
 */
import { isIPv4, isIPv6 } from 'node:net';

type V4Range = readonly [base: number, prefix: number];

function v4ToInt(ip: string): number {
  const parts = ip.split('.').map((p) => Number(p));
  return (((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3]) >>> 0;
}

const V4_BLOCKED: readonly V4Range[] = (
  [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const
).map(([ip, prefix]) => [v4ToInt(ip), prefix] as const);

function inV4Range(addr: number, [base, prefix]: V4Range): boolean {
  if (prefix === 0) return true;
  const mask = prefix === 32 ? 0xffffffff : ~((1 << (32 - prefix)) - 1) >>> 0;
  return (addr & mask) >>> 0 === (base & mask) >>> 0;
}

export function isPublicIPv4(ip: string): boolean {
  if (!isIPv4(ip)) return false;
  const n = v4ToInt(ip);
  return !V4_BLOCKED.some((r) => inV4Range(n, r));
}

/** Parse an IPv6 address (with optional zone id and optional trailing dotted IPv4) into 16 bytes. */
export function parseIPv6(input: string): Uint8Array | null {
  let ip = input;
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  if (!isIPv6(ip)) return null;
  const lastColon = ip.lastIndexOf(':');
  const last = ip.slice(lastColon + 1);
  if (last.includes('.')) {
    if (!isIPv4(last)) return null;
    const n = v4ToInt(last);
    ip = `${ip.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const doubleColon = ip.indexOf('::');
  const head = doubleColon >= 0 ? ip.slice(0, doubleColon) : ip;
  const rest = doubleColon >= 0 ? ip.slice(doubleColon + 2) : null;
  const toWords = (s: string): number[] => (s ? s.split(':').map((h) => parseInt(h, 16)) : []);
  const headWords = toWords(head);
  const restWords = rest === null ? [] : toWords(rest);
  const fill = 8 - headWords.length - restWords.length;
  if (rest === null ? fill !== 0 : fill < 1) return null;
  const words = [...headWords, ...new Array<number>(rest === null ? 0 : fill).fill(0), ...restWords];
  if (words.length !== 8 || words.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return null;
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[i * 2] = w >> 8;
    bytes[i * 2 + 1] = w & 0xff;
  });
  return bytes;
}

function bytesToV4(b: Uint8Array, offset: number): string {
  return `${b[offset]}.${b[offset + 1]}.${b[offset + 2]}.${b[offset + 3]}`;
}

function allZero(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] !== 0) return false;
  return true;
}

/** If the IPv6 address embeds an IPv4 address in a well-known translation form, return it. */
export function embeddedIPv4(b: Uint8Array): string | null {
  // ::ffff:a.b.c.d (IPv4-mapped)
  if (allZero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return bytesToV4(b, 12);
  // ::ffff:0:a.b.c.d (SIIT IPv4-translated)
  if (allZero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) return bytesToV4(b, 12);
  // ::a.b.c.d (IPv4-compatible, deprecated) — but not :: and ::1
  if (allZero(b, 0, 12) && !(allZero(b, 12, 15) && b[15] <= 1)) return bytesToV4(b, 12);
  // 64:ff9b::/96 (NAT64 well-known prefix)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && allZero(b, 4, 12)) return bytesToV4(b, 12);
  // 64:ff9b:1::/48 (local-use NAT64): the IPv4 address sits in the last 32 bits
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b[4] === 0x00 && b[5] === 0x01) {
    return bytesToV4(b, 12);
  }
  // 2002::/16 (6to4): bits 16..47
  if (b[0] === 0x20 && b[1] === 0x02) return bytesToV4(b, 2);
  return null;
}

export function isPublicIPv6(ip: string): boolean {
  const b = parseIPv6(ip);
  if (!b) return false;
  const v4 = embeddedIPv4(b);
  if (v4 !== null) {
    // NAT64 / 6to4 / mapped forms are only as public as the IPv4 address they carry; the
    // IPv4-mapped, -compatible and SIIT forms are never routed on the public IPv6 internet
    // but a dual-stack socket would reach the embedded IPv4 host, so judge by it.
    return isPublicIPv4(v4);
  }
  // Only global unicast 2000::/3.
  if ((b[0] & 0xe0) !== 0x20) return false;
  // 2001::/23 IETF protocol assignments (Teredo 2001::/32, benchmarking, ORCHID, …)
  if (b[0] === 0x20 && b[1] === 0x01 && (b[2] & 0xfe) === 0x00) return false;
  // 2001:db8::/32 documentation
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return false;
  // 3fff::/20 documentation
  if (b[0] === 0x3f && b[1] === 0xff && (b[2] & 0xf0) === 0x00) return false;
  // 5f00::/16 SRv6 SIDs
  if (b[0] === 0x5f && b[1] === 0x00) return false;
  return true;
}

/** True when `ip` (IPv4 or IPv6, brackets allowed) is a public unicast address. */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIPv4(bare)) return isPublicIPv4(bare);
  if (parseIPv6(bare)) return isPublicIPv6(bare);
  return false;
}

/** True when the string is an IP literal (IPv4 dotted quad or IPv6, brackets allowed). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIPv4(bare) || isIPv6(bare.split('%')[0]);
}
