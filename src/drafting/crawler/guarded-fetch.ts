/**
 * THE guarded fetcher: every feature that fetches a user-supplied URL goes through `guardedFetch`.
 *
 * Rules (DESIGN.md, security rules):
 * - only http: and https:, no credentials in the URL;
 * - only public unicast addresses (see ./ip.ts). Checked
 *   1. on the URL before each request (IP literals, after WHATWG URL normalisation, so decimal /
 *      octal / hex forms like http://2130706433/ or http://0x7f.1/ are already dotted quads),
 *   2. on every redirect hop (redirects are followed by hand, never by the HTTP client),
 *   3. at connect time: the undici Agent resolves DNS itself through a `lookup` that refuses any
 *      non-public result, and the connected socket's remote address is checked again, so a DNS
 *      answer that changes between check and connect (rebinding) cannot slip through.
 *   `allowHosts` entries ("host" or "host:port", from the FETCH_ALLOW_HOSTS setting) are exempt
 *   from the public-address rule only — never from the scheme, size, time or redirect rules.
 * - caps: body size (default 2 MiB, counted after decompression; reading stops beyond it),
 *   total time (default 15 s, across all redirect hops), redirects (default 5).
 * - `accept: 'html'` refuses anything that is not text/html or application/xhtml+xml.
 *
 * Errors are typed: `FetchRefused` (our policy said no) and `FetchFailed` (the remote side failed),
 * both with a machine-readable `reason`.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { Socket } from 'node:net';
import zlib from 'node:zlib';
import { pipeline, type Readable } from 'node:stream';
import type { Agent, buildConnector as BuildConnector, request as Request } from 'undici';
import { isIpLiteral, isPublicAddress } from './ip.ts';

type Undici = typeof import('undici');
let undici: Promise<Undici> | undefined;
/** undici (~6 MB resident) is loaded by the first fetch of a user-supplied URL, not at start. */
const loadUndici = (): Promise<Undici> => (undici ??= import('undici'));

export const DEFAULT_USER_AGENT = 'LaunchlistBot/1.0 (+https://launchlist.dev/bot)';
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_REDIRECTS = 5;

export type RefusedReason =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'credentials_not_allowed'
  | 'address_not_public'
  | 'too_large'
  | 'not_html'
  | 'too_many_redirects';
export type FailedReason = 'timeout' | 'unreachable' | 'http_error' | 'bad_redirect';
export type FetchErrorReason = RefusedReason | FailedReason;

export class FetchRefused extends Error {
  readonly reason: RefusedReason;
  readonly url: string;
  constructor(reason: RefusedReason, url: string, message?: string) {
    super(message ?? `refused to fetch ${url}: ${reason}`);
    this.name = 'FetchRefused';
    this.reason = reason;
    this.url = url;
  }
}

export class FetchFailed extends Error {
  readonly reason: FailedReason;
  readonly url: string;
  readonly status: number | undefined;
  constructor(reason: FailedReason, url: string, message?: string, status?: number, cause?: unknown) {
    super(message ?? `fetch of ${url} failed: ${reason}`, cause === undefined ? undefined : { cause });
    this.name = 'FetchFailed';
    this.reason = reason;
    this.url = url;
    this.status = status;
  }
}

export function isFetchError(e: unknown): e is FetchRefused | FetchFailed {
  return e instanceof FetchRefused || e instanceof FetchFailed;
}

/** Resolves a host name to all its addresses (injectable so tests can simulate DNS answers). */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family }));

export interface GuardedFetchOptions {
  /** "host" or "host:port" entries exempt from the public-address rule (FETCH_ALLOW_HOSTS). */
  allowHosts?: readonly string[];
  /** Body cap in bytes after decompression (default 2 MiB). */
  maxBytes?: number;
  /** Total time cap across redirects, in ms (default 15 000). */
  timeoutMs?: number;
  /** Redirect hops followed at most (default 5). */
  maxRedirects?: number;
  /** 'html' refuses non-HTML responses with reason not_html; 'text' refuses binary types. */
  accept?: 'html' | 'text' | 'any';
  userAgent?: string;
  /** Return 4xx/5xx responses instead of throwing FetchFailed('http_error'). */
  allowErrorStatus?: boolean;
  /** Return the first maxBytes (truncated: true) instead of throwing FetchRefused('too_large'). */
  truncate?: boolean;
  signal?: AbortSignal;
  /** DNS resolver used at connect time (tests inject one). */
  resolve?: Resolver;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

export interface GuardedResponse {
  /** Final URL after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  /** Media type without parameters, lower-case ('' when absent). */
  contentType: string;
  /** Charset used to decode the body. */
  charset: string;
  body: string;
  /** Bytes read (after decompression). */
  bytes: number;
  truncated: boolean;
  /** URLs that answered with a redirect, in order. */
  redirects: string[];
}

// ---------------------------------------------------------------------------------------------
// Host allow-list

/** Parse the FETCH_ALLOW_HOSTS setting ("127.0.0.1:45678, localhost:3000") into entries. */
export function parseAllowHosts(setting: string | undefined | null): string[] {
  return (setting ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

interface AllowEntry {
  host: string;
  port: string | null;
}

function parseAllowEntry(entry: string): AllowEntry | null {
  const e = entry.trim().toLowerCase();
  if (!e) return null;
  try {
    const u = new URL(`http://${e}`);
    const explicitPort = /:(\d+)$/.exec(e);
    return { host: u.hostname, port: explicitPort ? explicitPort[1] : null };
  } catch {
    return null;
  }
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

function hostAllowed(entries: readonly AllowEntry[], hostname: string, port: string, protocol: string): boolean {
  const h = hostname.toLowerCase();
  const p = port || defaultPort(protocol);
  return entries.some((e) => e.host === h && (e.port === null || e.port === p));
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

// ---------------------------------------------------------------------------------------------
// Connect-time guard

const NOT_PUBLIC = Symbol('address_not_public');

class AddressNotPublicError extends Error {
  readonly [NOT_PUBLIC] = true;
  readonly code = 'ELAUNCHLIST_NOT_PUBLIC';
  constructor(host: string, address: string) {
    super(`${host} resolves to non-public address ${address}`);
  }
}

function hasNotPublicCause(e: unknown): boolean {
  let cur: unknown = e;
  for (let i = 0; i < 6 && cur && typeof cur === 'object'; i++) {
    if ((cur as Record<symbol, unknown>)[NOT_PUBLIC] === true) return true;
    if ((cur as { code?: string }).code === 'ELAUNCHLIST_NOT_PUBLIC') return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The DNS lookup the connector uses. With `requirePublic`, one non-public answer refuses the host
 * (mixed answers are a rebinding pattern): this is the check on the address actually connected.
 */
function makeLookup(resolve: Resolver, requirePublic: boolean) {
  const notFound = (hostname: string): NodeJS.ErrnoException =>
    Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return (hostname: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addrs) => {
        if (addrs.length === 0) return callback(notFound(hostname), []);
        const bad = requirePublic ? addrs.find((a) => !isPublicAddress(a.address)) : undefined;
        if (bad) return callback(new AddressNotPublicError(hostname, bad.address), []);
        const fam =
          options.family === 4 || options.family === 'IPv4'
            ? 4
            : options.family === 6 || options.family === 'IPv6'
              ? 6
              : 0;
        const list = fam ? addrs.filter((a) => a.family === fam) : addrs;
        if (list.length === 0) return callback(notFound(hostname), []);
        if (options.all)
          callback(
            null,
            list.map((a) => ({ address: a.address, family: a.family })),
          );
        else callback(null, list[0].address, list[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}

function makeAgent(
  { Agent, buildConnector }: Undici,
  allow: readonly AllowEntry[],
  resolve: Resolver,
  connectTimeoutMs: number,
): Agent {
  const guarded = buildConnector({
    timeout: connectTimeoutMs,
    lookup: makeLookup(resolve, true),
  } as BuildConnector.BuildOptions);
  // Allow-listed hosts skip the public-address rule but still resolve through the same resolver.
  const plain = buildConnector({
    timeout: connectTimeoutMs,
    lookup: makeLookup(resolve, false),
  } as BuildConnector.BuildOptions);
  const connect: BuildConnector.connector = (opts, callback) => {
    const hostname = stripBrackets(opts.hostname);
    const exempt = hostAllowed(allow, hostname, opts.port, opts.protocol);
    const connector = exempt ? plain : guarded;
    connector({ ...opts, hostname }, (err, socket) => {
      if (err || !socket) {
        callback(err ?? new Error('connect failed'), null);
        return;
      }
      if (!exempt) {
        const remote = (socket as Socket).remoteAddress;
        if (!remote || !isPublicAddress(remote)) {
          socket.destroy();
          callback(new AddressNotPublicError(hostname, remote ?? 'unknown'), null);
          return;
        }
      }
      callback(null, socket);
    });
  };
  return new Agent({ connect, keepAliveTimeout: 4_000, keepAliveMaxTimeout: 10_000, connections: 8 });
}

const agentCache = new WeakMap<Resolver, Map<string, Agent>>();

function agentFor(u: Undici, allowHosts: readonly string[], resolve: Resolver): { agent: Agent; allow: AllowEntry[] } {
  const allow = allowHosts.map(parseAllowEntry).filter((e): e is AllowEntry => e !== null);
  const key = allow
    .map((e) => `${e.host}:${e.port ?? '*'}`)
    .sort()
    .join(',');
  let byKey = agentCache.get(resolve);
  if (!byKey) {
    byKey = new Map();
    agentCache.set(resolve, byKey);
  }
  let agent = byKey.get(key);
  if (!agent) {
    agent = makeAgent(u, allow, resolve, 10_000);
    byKey.set(key, agent);
  }
  return { agent, allow };
}

// ---------------------------------------------------------------------------------------------
// URL policy

/** Throws FetchRefused when the URL may not be requested; returns the parsed URL otherwise. */
export function checkUrl(raw: string, allowHosts: readonly string[] = []): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new FetchRefused('invalid_url', raw, `not a valid absolute URL: ${raw}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new FetchRefused('scheme_not_allowed', raw, `only http and https URLs are fetched, not ${u.protocol}`);
  }
  if (u.username || u.password) {
    throw new FetchRefused('credentials_not_allowed', raw, 'URLs with user names or passwords are not fetched');
  }
  const allow = allowHosts.map(parseAllowEntry).filter((e): e is AllowEntry => e !== null);
  const host = stripBrackets(u.hostname).toLowerCase();
  if (hostAllowed(allow, host, u.port, u.protocol)) return u;
  if (isIpLiteral(host)) {
    if (!isPublicAddress(host)) throw new FetchRefused('address_not_public', raw, `${host} is not a public address`);
  } else if (host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.localdomain') {
    throw new FetchRefused('address_not_public', raw, `${host} is a loopback name`);
  }
  return u;
}

// ---------------------------------------------------------------------------------------------
// Body handling

function discard(body: Readable): void {
  body.on('error', () => {});
  if (!body.destroyed) body.destroy();
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function headerValue(h: Record<string, string | string[] | undefined>, name: string): string {
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function isHtmlType(t: string): boolean {
  return t === 'text/html' || t === 'application/xhtml+xml';
}

function isTextType(t: string): boolean {
  return (
    t === '' ||
    t.startsWith('text/') ||
    /^application\/(?:xml|json|xhtml\+xml|rss\+xml|atom\+xml|ld\+json|javascript)$/.test(t) ||
    /\+(?:xml|json)$/.test(t)
  );
}

function looksLikeHtml(buf: Buffer): boolean {
  const head = buf
    .subarray(0, 1024)
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  return /^(?:<!--[\s\S]*?-->\s*)*(?:<!doctype html|<html|<head|<body|<meta|<title)/.test(head);
}

function sniffCharset(buf: Buffer, contentTypeHeader: string, html: boolean): string {
  const m = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentTypeHeader);
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return 'utf-8';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'utf-16be';
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'utf-16le';
  if (m) return m[1].toLowerCase();
  if (html) {
    const head = buf.subarray(0, 2048).toString('latin1');
    const meta =
      /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head) ??
      /<meta[^>]+content\s*=\s*["'][^"']*charset=([\w.:-]+)/i.exec(head);
    if (meta) return meta[1].toLowerCase();
  }
  return 'utf-8';
}

function decode(buf: Buffer, charset: string): { text: string; charset: string } {
  try {
    return { text: new TextDecoder(charset).decode(buf), charset };
  } catch {
    return { text: new TextDecoder('utf-8').decode(buf), charset: 'utf-8' };
  }
}

function decompressor(encoding: string): NodeJS.ReadWriteStream | null {
  switch (encoding.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

async function readCapped(
  body: Readable,
  encoding: string,
  maxBytes: number,
  truncate: boolean,
  url: string,
): Promise<{ buf: Buffer; truncated: boolean }> {
  const dec = encoding && encoding.toLowerCase() !== 'identity' ? decompressor(encoding) : null;
  let source: AsyncIterable<Buffer> = body;
  if (dec) {
    pipeline(body, dec, () => {});
    source = dec as unknown as AsyncIterable<Buffer>;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of source) {
      const c = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      if (total + c.length > maxBytes) {
        if (!truncate) throw new FetchRefused('too_large', url, `response body exceeds ${maxBytes} bytes`);
        chunks.push(c.subarray(0, maxBytes - total));
        total = maxBytes;
        return { buf: Buffer.concat(chunks), truncated: true };
      }
      chunks.push(c);
      total += c.length;
    }
  } finally {
    discard(body);
    (dec as unknown as Readable | null)?.destroy?.();
  }
  return { buf: Buffer.concat(chunks), truncated: false };
}

// ---------------------------------------------------------------------------------------------
// The fetch

function mapError(e: unknown, url: string, signal: AbortSignal, timeoutMs: number): Error {
  if (isFetchError(e)) return e;
  if (hasNotPublicCause(e)) return new FetchRefused('address_not_public', url, (e as Error).message);
  const code = (e as { code?: string } | null)?.code ?? '';
  const name = (e as { name?: string } | null)?.name ?? '';
  if (
    signal.aborted ||
    name === 'AbortError' ||
    name === 'TimeoutError' ||
    /UND_ERR_(?:CONNECT|HEADERS|BODY)_TIMEOUT/.test(code) ||
    code === 'ETIMEDOUT'
  ) {
    return new FetchFailed('timeout', url, `no complete answer from ${url} within ${timeoutMs} ms`, undefined, e);
  }
  return new FetchFailed(
    'unreachable',
    url,
    `could not reach ${url}: ${(e as Error)?.message ?? String(e)}`,
    undefined,
    e,
  );
}

export async function guardedFetch(url: string, opts: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const allowHosts = opts.allowHosts ?? [];
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const accept = opts.accept ?? 'any';
  const resolve = opts.resolve ?? systemResolver;
  const u = await loadUndici();
  const { agent } = agentFor(u, allowHosts, resolve);
  const timeoutSignal = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeoutSignal, opts.signal]) : timeoutSignal;

  const acceptHeader =
    accept === 'html'
      ? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1'
      : accept === 'text'
        ? 'text/plain,text/*;q=0.9,*/*;q=0.1'
        : '*/*';
  const headers: Record<string, string> = {
    'user-agent': opts.userAgent ?? DEFAULT_USER_AGENT,
    accept: acceptHeader,
    'accept-encoding': 'gzip, deflate, br',
    'accept-language': 'en;q=1, *;q=0.5',
    ...opts.headers,
  };

  const redirects: string[] = [];
  let current = url;
  for (let hop = 0; ; hop++) {
    checkUrl(current, allowHosts);
    let res: Awaited<ReturnType<typeof Request>>;
    try {
      res = await u.request(current, {
        method: 'GET',
        headers,
        dispatcher: agent,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (e) {
      throw mapError(e, current, signal, timeoutMs);
    }
    const status = res.statusCode;
    const location = headerValue(res.headers, 'location');
    if (REDIRECT_STATUSES.has(status) && location) {
      discard(res.body as unknown as Readable);
      redirects.push(current);
      if (hop >= maxRedirects) {
        throw new FetchRefused('too_many_redirects', url, `more than ${maxRedirects} redirects starting at ${url}`);
      }
      let next: string;
      try {
        next = new URL(location, current).href;
      } catch {
        throw new FetchFailed('bad_redirect', current, `redirect to an invalid location: ${location}`, status);
      }
      current = next;
      continue;
    }

    const flat = flattenHeaders(res.headers);
    const ctHeader = flat['content-type'] ?? '';
    const contentType = ctHeader.split(';')[0].trim().toLowerCase();
    try {
      if (status >= 400 && !opts.allowErrorStatus) {
        throw new FetchFailed('http_error', current, `${current} answered HTTP ${status}`, status);
      }
      if (accept === 'html' && contentType && !isHtmlType(contentType)) {
        throw new FetchRefused('not_html', current, `${current} is ${contentType}, not HTML`);
      }
      if (accept === 'text' && !isTextType(contentType)) {
        throw new FetchRefused('not_html', current, `${current} is ${contentType}, not text`);
      }
      const declared = Number(flat['content-length']);
      if (!opts.truncate && Number.isFinite(declared) && declared > maxBytes && !flat['content-encoding']) {
        throw new FetchRefused('too_large', current, `${current} declares ${declared} bytes, more than ${maxBytes}`);
      }
    } catch (e) {
      discard(res.body as unknown as Readable);
      throw e;
    }

    let buf: Buffer;
    let truncated: boolean;
    try {
      ({ buf, truncated } = await readCapped(
        res.body as unknown as Readable,
        flat['content-encoding'] ?? '',
        maxBytes,
        !!opts.truncate,
        current,
      ));
    } catch (e) {
      throw mapError(e, current, signal, timeoutMs);
    }
    if (accept === 'html' && !contentType && !looksLikeHtml(buf)) {
      throw new FetchRefused('not_html', current, `${current} has no content type and does not look like HTML`);
    }
    const charset = sniffCharset(buf, ctHeader, accept === 'html' || isHtmlType(contentType));
    const decoded = decode(buf, charset);
    return {
      url: current,
      status,
      headers: flat,
      contentType,
      charset: decoded.charset,
      body: decoded.text,
      bytes: buf.length,
      truncated,
      redirects,
    };
  }
}
