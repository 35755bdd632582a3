/**
 * robots.txt per RFC 9309, parsed by `robots-parser`, fetched through the guarded fetcher.
 *
 * - Our product token is `LaunchlistBot`; groups for it win over `*` (robots-parser picks the most
 *   specific matching group). Allow/Disallow: the longest matching pattern wins, Allow on a tie.
 * - Crawl-delay (non-standard but widely used) is returned in seconds.
 * - HTTP 2xx: the file is parsed. 4xx (incl. 404, and too many redirects): "unavailable" —
 *   everything is allowed. 5xx, 429 and network failures: "unreachable" — everything is
 *   disallowed (RFC 9309 §2.3.1.3–4).
 * - /robots.txt itself is always allowed. At most 500 KiB is parsed (§2.5).
 * - Results are cached per origin in an in-memory LRU with a TTL (24 h by default, §2.4; errors
 *   are kept for a shorter time) and an injectable clock.
 */
import robotsParserModule from 'robots-parser';
import { FetchFailed, FetchRefused, guardedFetch, type FetchErrorReason, type Resolver } from './guarded-fetch.ts';

interface ParsedRobots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}
// robots-parser is CommonJS: its default import is the parser function itself.
const robotsParser = robotsParserModule as unknown as (url: string, contents: string) => ParsedRobots;

export const ROBOTS_UA = 'LaunchlistBot';
export const ROBOTS_MAX_BYTES = 500 * 1024;

export type RobotsStatus = 'parsed' | 'unavailable' | 'unreachable';

export interface RobotsPolicy {
  origin: string;
  robotsUrl: string;
  status: RobotsStatus;
  /** HTTP status of the robots.txt answer, null when none was received. */
  httpStatus: number | null;
  /** Why robots.txt could not be read, when status is 'unreachable' without an HTTP answer. */
  error: FetchErrorReason | null;
  /** Crawl-delay for our user agent in seconds, null when none is set. */
  crawlDelaySeconds: number | null;
  /** Sitemap URLs named in robots.txt (absolute, as written). */
  sitemaps: string[];
  fetchedAt: number;
  isAllowed(url: string): boolean;
}

export interface RobotsFetchOptions {
  allowHosts?: readonly string[];
  resolve?: Resolver;
  timeoutMs?: number;
  signal?: AbortSignal;
  userAgent?: string;
}

function originOf(url: string): string {
  return new URL(url).origin;
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

function isRobotsPath(url: string): boolean {
  try {
    return new URL(url).pathname === '/robots.txt';
  } catch {
    return false;
  }
}

/** Parse a robots.txt body (2xx answer) for `origin`. */
export function parseRobots(
  originOrUrl: string,
  body: string,
  fetchedAt = Date.now(),
  httpStatus: number | null = 200,
): RobotsPolicy {
  const origin = originOf(originOrUrl);
  const robotsUrl = `${origin}/robots.txt`;
  const robots = robotsParser(robotsUrl, body.slice(0, ROBOTS_MAX_BYTES));
  const delay = robots.getCrawlDelay(ROBOTS_UA);
  return {
    origin,
    robotsUrl,
    status: 'parsed',
    httpStatus,
    error: null,
    crawlDelaySeconds: typeof delay === 'number' && Number.isFinite(delay) && delay >= 0 ? delay : null,
    sitemaps: robots.getSitemaps(),
    fetchedAt,
    isAllowed(url: string): boolean {
      if (!sameOrigin(url, origin)) return false;
      if (isRobotsPath(url)) return true;
      return robots.isAllowed(url, ROBOTS_UA) !== false;
    },
  };
}

function blanket(
  origin: string,
  status: 'unavailable' | 'unreachable',
  httpStatus: number | null,
  error: FetchErrorReason | null,
  fetchedAt: number,
): RobotsPolicy {
  return {
    origin,
    robotsUrl: `${origin}/robots.txt`,
    status,
    httpStatus,
    error,
    crawlDelaySeconds: null,
    sitemaps: [],
    fetchedAt,
    isAllowed(url: string): boolean {
      if (!sameOrigin(url, origin)) return false;
      if (isRobotsPath(url)) return true;
      return status === 'unavailable';
    },
  };
}

/** Fetch and interpret robots.txt for the origin of `url`. Never throws for remote failures. */
export async function fetchRobots(
  url: string,
  opts: RobotsFetchOptions = {},
  now: () => number = Date.now,
): Promise<RobotsPolicy> {
  const origin = originOf(url);
  try {
    const res = await guardedFetch(`${origin}/robots.txt`, {
      allowHosts: opts.allowHosts,
      resolve: opts.resolve,
      timeoutMs: opts.timeoutMs ?? 10_000,
      signal: opts.signal,
      userAgent: opts.userAgent,
      maxBytes: ROBOTS_MAX_BYTES,
      truncate: true,
      allowErrorStatus: true,
      accept: 'any',
    });
    if (res.status >= 200 && res.status < 300) return parseRobots(origin, res.body, now(), res.status);
    if (res.status === 429 || res.status >= 500) return blanket(origin, 'unreachable', res.status, null, now());
    return blanket(origin, 'unavailable', res.status, null, now());
  } catch (e) {
    if (e instanceof FetchRefused && e.reason === 'too_many_redirects')
      return blanket(origin, 'unavailable', null, e.reason, now());
    if (e instanceof FetchRefused || e instanceof FetchFailed)
      return blanket(origin, 'unreachable', e instanceof FetchFailed ? (e.status ?? null) : null, e.reason, now());
    return blanket(origin, 'unreachable', null, 'unreachable', now());
  }
}

export interface RobotsCacheOptions {
  /** How long a fetched robots.txt is trusted (default 24 h). */
  ttlMs?: number;
  /** How long an 'unreachable' result is kept (default 10 min). */
  errorTtlMs?: number;
  /** Origins kept at most (least recently used are dropped; default 1000). */
  maxEntries?: number;
  /** Clock (ms), injectable for tests. */
  now?: () => number;
  /** Loader, injectable for tests; defaults to fetchRobots through the guarded fetcher. */
  load?: (origin: string, opts: RobotsFetchOptions) => Promise<RobotsPolicy>;
}

/** Per-origin robots.txt cache: LRU with TTL; concurrent look-ups of one origin share one fetch. */
export class RobotsCache {
  readonly #ttlMs: number;
  readonly #errorTtlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  readonly #load: (origin: string, opts: RobotsFetchOptions) => Promise<RobotsPolicy>;
  readonly #entries = new Map<string, { policy: RobotsPolicy; expires: number }>();
  readonly #inflight = new Map<string, Promise<RobotsPolicy>>();

  constructor(opts: RobotsCacheOptions = {}) {
    this.#ttlMs = opts.ttlMs ?? 24 * 60 * 60 * 1000;
    this.#errorTtlMs = opts.errorTtlMs ?? 10 * 60 * 1000;
    this.#maxEntries = opts.maxEntries ?? 1000;
    this.#now = opts.now ?? Date.now;
    this.#load = opts.load ?? ((origin, o) => fetchRobots(origin, o, this.#now));
  }

  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
  }

  /** The robots policy for the origin of `url` (cached). */
  async get(url: string, opts: RobotsFetchOptions = {}): Promise<RobotsPolicy> {
    const origin = originOf(url);
    const hit = this.#entries.get(origin);
    if (hit) {
      if (hit.expires > this.#now()) {
        this.#entries.delete(origin);
        this.#entries.set(origin, hit); // most recently used goes last
        return hit.policy;
      }
      this.#entries.delete(origin);
    }
    const pending = this.#inflight.get(origin);
    if (pending) return pending;
    const p = this.#load(origin, opts)
      .then((policy) => {
        const ttl = policy.status === 'unreachable' ? this.#errorTtlMs : this.#ttlMs;
        this.#entries.set(origin, { policy, expires: this.#now() + ttl });
        while (this.#entries.size > this.#maxEntries) {
          const oldest = this.#entries.keys().next().value as string;
          this.#entries.delete(oldest);
        }
        return policy;
      })
      .finally(() => this.#inflight.delete(origin));
    this.#inflight.set(origin, p);
    return p;
  }

  async isAllowed(url: string, opts: RobotsFetchOptions = {}): Promise<boolean> {
    return (await this.get(url, opts)).isAllowed(url);
  }
}
