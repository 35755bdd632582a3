// What the website records about a vote as it is cast (issue #21): keyed hashes of the voter's network
// and user agent (never the raw address or header), the account's age and confirmation, and how long
// after the page was served the vote came, read from a signed page time the vote form carries.
// The key is derived from the server secrets, so every instance hashes alike and survives restarts.
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { Config } from '../config.ts';
import type { Services } from '../operations/context.ts';
import type { VoteWeightSettings } from '../domain/vote-weight.ts';
import type { VoteCastContext } from '../store/repos/votes.ts';

const keys = new WeakMap<object, KeyObject>();

/**
 * The vote-context key (from the server secrets), as a KeyObject made once: an HMAC given the key as a
 * Buffer checks and imports it on every call (~14 µs here, against ~2 µs with a KeyObject), and a
 * signed-in page signs its vote forms' page time with it on every request.
 */
export function voteKey(services: Pick<Services, 'secrets'>): KeyObject {
  const { secrets } = services;
  let k = keys.get(secrets);
  if (!k)
    keys.set(
      secrets,
      (k = createSecretKey(createHmac('sha256', secrets.csrfKey).update('launchlist vote context v1').digest())),
    );
  return k;
}

/** The vote weight settings of this configuration (domain/vote-weight.ts). */
export function voteWeightsOf(config: Config): VoteWeightSettings {
  return {
    unconfirmedWeight: config.VOTE_WEIGHT_UNCONFIRMED,
    newAccountHours: config.VOTE_NEW_ACCOUNT_HOURS,
    newAccountWeight: config.VOTE_WEIGHT_NEW_ACCOUNT,
    minPageMs: config.VOTE_MIN_PAGE_MS,
    hastyWeight: config.VOTE_WEIGHT_HASTY,
    underReviewWeight: config.VOTE_WEIGHT_UNDER_REVIEW,
  };
}

/** The network an address belongs to: its /24 (IPv4, IPv4-mapped IPv6 too) or its /48 (IPv6). */
export function networkOf(ip: string): string | null {
  let a = ip.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) a = mapped[1] as string;
  if (isIPv4(a)) return a.split('.').slice(0, 3).join('.') + '.0/24';
  if (isIPv6(a)) {
    const noZone = a.split('%')[0] as string;
    const [head, tail] = noZone.split('::') as [string, string | undefined];
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
    return (
      groups
        .slice(0, 3)
        .map((g) => Number.parseInt(g || '0', 16).toString(16))
        .join(':') + '::/48'
    );
  }
  return null;
}

const mac = (key: KeyObject, label: string, value: string) =>
  createHmac('sha256', key).update(`${label}\0${value}`).digest('base64url').slice(0, 22);

/**
 * The hashes of networks and browsers seen lately, by key: a voter's next votes come from the same
 * network and browser, and an HMAC (its key prepared each time) was a twentieth of a vote's time.
 */
const recent = new WeakMap<KeyObject, Map<string, string>>();
const RECENT_MAX = 4096;

function macRecent(key: KeyObject, label: string, value: string): string {
  let m = recent.get(key);
  if (!m) recent.set(key, (m = new Map()));
  const k = `${label}\0${value}`;
  let h = m.get(k);
  if (h === undefined) {
    h = mac(key, label, value);
    if (m.size >= RECENT_MAX) m.clear();
    m.set(k, h);
  }
  return h;
}

export function networkHash(key: KeyObject, ip: string): string | null {
  const n = networkOf(ip);
  return n ? macRecent(key, 'net', n) : null;
}

export function userAgentHash(key: KeyObject, ua: string | undefined): string | null {
  // a header longer than any browser's is hashed each time, not kept
  return ua ? (ua.length <= 512 ? macRecent(key, 'ua', ua) : mac(key, 'ua', ua)) : null;
}

/** The signed page time a vote form carries: `<ms>.<mac>`, bound to the person it was served to. */
export function pageStamp(key: KeyObject, at: number, userId: number): string {
  return `${at}.${mac(key, 'page', `${at}\0${userId}`)}`;
}

/**
 * ms between the stamped page time and `now`, or null when the stamp is missing, forged, made for
 * another person or in the future.
 */
export function pageMsOf(key: KeyObject, stamp: unknown, userId: number, now: number): number | null {
  if (typeof stamp !== 'string') return null;
  const m = /^(\d{1,15})\.([\w-]{22})$/.exec(stamp);
  if (!m) return null;
  const want = Buffer.from(mac(key, 'page', `${m[1]}\0${userId}`));
  const got = Buffer.from(m[2] as string);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
  const ms = now - Number(m[1]);
  return ms < 0 ? null : Math.min(ms, 2_000_000_000);
}

/** The context of a vote cast now by this person from this request. */
export function voteContextOf(
  key: KeyObject,
  user: { id: number; created_at: string; email_verified: boolean },
  req: { ip: string; headers: Record<string, string | string[] | undefined> },
  stamp: unknown,
  now: Date,
): VoteCastContext {
  const ua = req.headers['user-agent'];
  return {
    accountAgeHours: Math.max(0, (now.getTime() - Date.parse(user.created_at)) / 3_600_000),
    emailConfirmed: user.email_verified,
    netHash: networkHash(key, req.ip),
    uaHash: userAgentHash(key, Array.isArray(ua) ? ua[0] : ua),
    pageMs: pageMsOf(key, stamp, user.id, now.getTime()),
  };
}

/**
 * Fair first hours: the seed of this visitor's shuffled order of a week's launches. Signed in, from
 * the account; signed out, from keyed hashes of the network and user agent (no cookie is set), so a
 * visitor sees the same order on every request of the week and different visitors different ones.
 */
export function visitorSeed(
  key: KeyObject,
  req: { ip: string; headers: Record<string, string | string[] | undefined> },
  userId: number | null,
  week: string,
): number {
  const ua = req.headers['user-agent'];
  const who = userId !== null ? `u:${userId}` : `a:${req.ip}\0${Array.isArray(ua) ? ua[0] : (ua ?? '')}`;
  return createHmac('sha256', key).update(`shuffle\0${week}\0${who}`).digest().readUInt32BE(0);
}
