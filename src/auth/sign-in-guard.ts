// Sign-in limits that slow guessing without handing strangers a way to lock a person out.
//
// Every count is a fixed window of 15 minutes, shared by all instances through Redis when REDIS_URL is
// set (AttemptLimiter). A "network" is the client's address, or its /64 for IPv6 (one subscriber's
// prefix: counting single IPv6 addresses would give a guesser 2^64 fresh "networks").
//
//   - one address (e-mail) from one network: 10 attempts;
//   - one network, all addresses: 50 attempts (a sign-in that succeeds is taken back off this count,
//     so colleagues behind one office address never pause it by signing in rightly);
//   - one address from networks it has never signed in from: 30 attempts, across all of them (stops
//     guessing spread over many networks).
//
// What a stranger cannot do is pause the person: the 30-attempt count covers only attempts from places
// the person has not signed in from. When a sign-in succeeds, the network is remembered as the person's
// for 30 days, and the browser gets a device cookie (HMAC-signed, bound to the address): an attempt
// from a remembered network is held to its own 10-per-network count only, and one carrying the
// person's device cookie to 10 per device, whatever network it comes from and however many wrong tries
// strangers made elsewhere. The right password from the person's own network or browser goes through;
// strangers pause only their own networks, and the 30 slots of "new places". A person who is away from
// every known place while someone guesses at their address waits out the window or resets the password
// by e-mail (the reset link signs in and remembers that browser).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import { AttemptLimiter } from './rate-limit.ts';

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const KNOWN_FOR_MS = 30 * 86_400_000;
export const DEVICE_COOKIE = 'll_device';
export const DEVICE_COOKIE_MAX_AGE_MS = 365 * 86_400_000;

/** The network an address belongs to for counting: the IPv4 address itself, or the /64 of an IPv6 one. */
export function networkOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip)) return ip;
  // Expand "::" and keep the first four groups.
  const [head, tail] = ip.toLowerCase().split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

const hashOf = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 22);

/** Keys with an expiry, in Redis when there is one (shared by every instance), else in this process. */
export class SharedMarks {
  readonly #redis: Redis | undefined;
  readonly #prefix: string;
  #here = new Map<string, number>();
  constructor(name: string, redis?: Redis) {
    this.#redis = redis;
    this.#prefix = `launchlist-mark:${name}:`;
  }
  async mark(key: string, ttlMs: number, now = Date.now()): Promise<void> {
    if (this.#here.size > 100_000) for (const [k, until] of this.#here) if (until <= now) this.#here.delete(k);
    this.#here.set(key, now + ttlMs);
    await this.#redis?.set(this.#prefix + key, '1', 'PX', ttlMs).catch(() => {});
  }
  async has(key: string, now = Date.now()): Promise<boolean> {
    if (this.#redis) {
      try {
        return (await this.#redis.exists(this.#prefix + key)) === 1;
      } catch {
        // this process's own marks, below
      }
    }
    const until = this.#here.get(key);
    return until !== undefined && until > now;
  }
}

export interface AttemptContext {
  ip: string;
  email: string;
  /** The device cookie the browser sent, if any. */
  deviceCookie?: string;
}

export interface AttemptVerdict {
  /** Seconds to wait (429) or 0. */
  wait: number;
  /** Where the attempt comes from, for the person: their browser, a network they signed in from, or elsewhere. */
  from: 'device' | 'known_network' | 'elsewhere';
}

export class SignInGuard {
  /** One address from one network. */
  readonly pair: AttemptLimiter;
  /** One network, all addresses (also password resets and sign-ups). */
  readonly network: AttemptLimiter;
  /** One address from networks it never signed in from. */
  readonly elsewhere: AttemptLimiter;
  /** One device cookie. */
  readonly device: AttemptLimiter;
  readonly known: SharedMarks;
  readonly #key: Buffer;

  constructor(opts: { key: Buffer | string; redis?: Redis; windowMs?: number }) {
    const w = opts.windowMs ?? SIGN_IN_WINDOW_MS;
    const redis = opts.redis;
    this.pair = new AttemptLimiter(10, w, { redis, name: 'sign-in' });
    this.network = new AttemptLimiter(50, w, { redis, name: 'ip' });
    this.elsewhere = new AttemptLimiter(30, w, { redis, name: 'email' });
    this.device = new AttemptLimiter(10, w, { redis, name: 'device' });
    this.known = new SharedMarks('known-network', redis);
    this.#key = createHash('sha256').update('device-cookie\0').update(opts.key).digest();
  }

  #sign(id: string, who: string): string {
    return createHmac('sha256', this.#key)
      .update(`${id}|${hashOf(who)}`)
      .digest('base64url');
  }

  /** A device cookie's value for this address (a new random id, signed together with the address). */
  deviceCookieFor(email: string): string {
    const id = randomBytes(12).toString('base64url');
    return `${id}.${this.#sign(id, email.toLowerCase())}`;
  }

  /** The device id when the cookie was issued by this server for this address, else null. */
  deviceOf(cookie: string | undefined, email: string): string | null {
    if (!cookie) return null;
    const dot = cookie.indexOf('.');
    if (dot < 1) return null;
    const id = cookie.slice(0, dot);
    const sig = Buffer.from(cookie.slice(dot + 1));
    const want = Buffer.from(this.#sign(id, email.toLowerCase()));
    return sig.length === want.length && timingSafeEqual(sig, want) ? id : null;
  }

  /** Counts one attempt before the password is checked; `wait` > 0 refuses it (the password is not checked). */
  async attempt(c: AttemptContext): Promise<AttemptVerdict> {
    const who = c.email.toLowerCase();
    const net = networkOf(c.ip);
    const device = this.deviceOf(c.deviceCookie, who);
    if (device) return { wait: await this.device.hit(`dev:${device}`), from: 'device' };
    const known = await this.known.has(`${hashOf(who)}|${net}`);
    const counts = [this.network.hit(`ip:${net}`), this.pair.hit(`${net}|${who}`)];
    if (!known) counts.push(this.elsewhere.hit(`email:${who}`));
    return { wait: Math.max(...(await Promise.all(counts))), from: known ? 'known_network' : 'elsewhere' };
  }

  /**
   * A sign-in succeeded: that address's count on that network (and device) starts again, the attempt is
   * taken off the network's count (and off the count from elsewhere when it was counted there), and the
   * network is remembered as the person's. Returns the device cookie to set. The other attempts from
   * elsewhere are left to run out: a person signing in must not hand a guesser 30 fresh tries.
   */
  async succeeded(c: AttemptContext): Promise<string> {
    const who = c.email.toLowerCase();
    const net = networkOf(c.ip);
    const device = this.deviceOf(c.deviceCookie, who);
    const place = `${hashOf(who)}|${net}`;
    // The attempt counted as one from elsewhere (attempt() above): it was the person's, so it comes back off.
    const wasElsewhere = !device && !(await this.known.has(place));
    await Promise.all([
      this.pair.reset(`${net}|${who}`),
      this.network.forgive(`ip:${net}`),
      wasElsewhere ? this.elsewhere.forgive(`email:${who}`) : undefined,
      device ? this.device.reset(`dev:${device}`) : undefined,
      this.known.mark(place, KNOWN_FOR_MS),
    ]);
    return device && c.deviceCookie ? c.deviceCookie : this.deviceCookieFor(who);
  }
}
