// OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, used by MCP):
// the client_id is an HTTPS URL whose JSON document is the client's registration. It is fetched through
// THE guarded fetcher (public addresses only, size/time caps, no redirects), validated and cached.
// http:// client ids are refused unless the test-only setting allows them (and the host is also in
// FETCH_ALLOW_HOSTS, since the guarded fetcher refuses loopback addresses otherwise).
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { errors, type AdapterPayload } from 'oidc-provider';
import { cacheCounts } from '../../ops/cache-stats.ts';
import {
  guardedFetch,
  isFetchError,
  type GuardedFetchOptions,
  type GuardedResponse,
} from '../../drafting/crawler/guarded-fetch.ts';

export const CIMD_MAX_BYTES = 10 * 1024;
export const CIMD_TIMEOUT_MS = 5_000;
const CACHE_MIN_S = 60;
const CACHE_DEFAULT_S = 300;
const CACHE_MAX_S = 24 * 3600;
const CACHE_ENTRIES = 500;

const SHARED_SECRET_METHODS = new Set(['client_secret_basic', 'client_secret_post', 'client_secret_jwt']);
const URI_PROPS = [
  'client_uri',
  'logo_uri',
  'policy_uri',
  'tos_uri',
  'jwks_uri',
  'initiate_login_uri',
  'sector_identifier_uri',
];
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);

export interface CimdOptions {
  allowHosts: readonly string[];
  /** Test-only: accept http:// client ids. Off in production. */
  allowHttp: boolean;
  fetch?: (url: string, opts: GuardedFetchOptions) => Promise<GuardedResponse>;
  /**
   * Shares the cache between instances (REDIS_URL): a document one instance fetched is used by the
   * others for the rest of its cache time, so a client's document is fetched once per cache time, not
   * once per instance. This process keeps its own copy too; a Redis error falls back to it.
   */
  redis?: Redis;
}

const REDIS_PREFIX = 'launchlist-cimd:';
const redisKey = (id: string) => REDIS_PREFIX + createHash('sha256').update(id).digest('base64url');

/** True when the id has the shape of a client ID metadata document URL (checked before any fetch). */
export function looksLikeClientIdUrl(id: string): boolean {
  return /^https?:\/\//i.test(id);
}

function refuse(description: string): never {
  throw new errors.InvalidClient(`client_id metadata document ${description}`);
}

export function checkClientIdUrl(id: string, allowHttp: boolean): URL {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\s\\\x00-\x20\x7f]/.test(id)) refuse('URL must not contain spaces, backslashes or control characters');
  let u: URL;
  try {
    u = new URL(id);
  } catch {
    return refuse('client_id is not a valid URL');
  }
  if (u.protocol !== 'https:' && !(allowHttp && u.protocol === 'http:')) refuse('client_id must be an https:// URL');
  if (u.username || u.password) refuse('client_id must not contain a user name or password');
  if (id.includes('#')) refuse('client_id must not contain a fragment');
  if (u.pathname === '/' || u.pathname === '')
    refuse('client_id must have a path (e.g. https://app.example/oauth/client.json)');
  if (
    id
      .split(/[?#]/)[0]
      .split('/')
      .some((seg) => /^(?:\.|%2e){1,2}$/i.test(seg))
  )
    refuse('client_id must not contain dot segments');
  if (u.href !== id) refuse('client_id must be in normalised form');
  return u;
}

function cacheSeconds(headers: Record<string, string>): number {
  const m = /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(headers['cache-control'] ?? '');
  const s = m ? Number(m[1]) : CACHE_DEFAULT_S;
  return Math.max(CACHE_MIN_S, Math.min(CACHE_MAX_S, s));
}

/** Validates a fetched document; returns the client metadata oidc-provider will register in memory. */
export function validateMetadata(id: string, doc: unknown, allowHttp: boolean): AdapterPayload {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) refuse('is not a JSON object');
  const m = { ...(doc as Record<string, unknown>) };
  if (m.client_id !== id)
    refuse(`client_id (${JSON.stringify(m.client_id)}) does not match the URL it was fetched from`);
  if ('client_secret' in m || 'client_secret_expires_at' in m)
    refuse('must not contain client_secret or client_secret_expires_at');
  m.token_endpoint_auth_method ??= 'none';
  if (typeof m.token_endpoint_auth_method !== 'string' || SHARED_SECRET_METHODS.has(m.token_endpoint_auth_method)) {
    refuse('must not use a shared-secret token_endpoint_auth_method (use none or private_key_jwt)');
  }
  if (
    !Array.isArray(m.redirect_uris) ||
    m.redirect_uris.length === 0 ||
    !m.redirect_uris.every((u) => typeof u === 'string')
  ) {
    refuse('must list redirect_uris');
  }
  for (const prop of URI_PROPS) {
    if (m[prop] === undefined) continue;
    let u: URL | null = null;
    try {
      u = new URL(String(m[prop]));
    } catch {
      /* refused below */
    }
    if (!u || !(u.protocol === 'https:' || (allowHttp && u.protocol === 'http:')))
      refuse(`${prop} must be an https:// URL`);
  }
  // Like the reference implementation: keep the values we support rather than refusing the client.
  const grants = Array.isArray(m.grant_types)
    ? (m.grant_types as unknown[]).filter((g): g is string => typeof g === 'string' && GRANT_TYPES.has(g))
    : ['authorization_code', 'refresh_token'];
  if (!grants.includes('authorization_code')) refuse('grant_types must include authorization_code');
  m.grant_types = grants;
  if (m.response_types !== undefined) {
    if (!Array.isArray(m.response_types) || !m.response_types.includes('code'))
      refuse('response_types must include code');
    m.response_types = ['code'];
  }
  return m as AdapterPayload;
}

export function createCimdResolver(opts: CimdOptions): (id: string) => Promise<AdapterPayload | undefined> {
  const cache = new Map<string, { expires: number; metadata: AdapterPayload }>();
  const pending = new Map<string, Promise<AdapterPayload>>();
  const fetcher = opts.fetch ?? guardedFetch;

  async function load(id: string): Promise<AdapterPayload> {
    let res: GuardedResponse;
    try {
      res = await fetcher(id, {
        allowHosts: opts.allowHosts,
        maxBytes: CIMD_MAX_BYTES,
        timeoutMs: CIMD_TIMEOUT_MS,
        maxRedirects: 0,
        accept: 'text',
        headers: { accept: 'application/json' },
      });
    } catch (e) {
      if (isFetchError(e)) refuse(`could not be fetched: ${e.message}`);
      throw e;
    }
    if (res.status !== 200) refuse(`could not be fetched: HTTP ${res.status}`);
    let doc: unknown;
    try {
      doc = JSON.parse(res.body);
    } catch {
      return refuse('is not valid JSON');
    }
    const metadata = validateMetadata(id, doc, opts.allowHttp);
    const ms = cacheSeconds(res.headers) * 1000;
    keep(id, metadata, Date.now() + ms);
    await opts.redis?.set(redisKey(id), JSON.stringify(metadata), 'PX', ms).catch(() => {});
    return metadata;
  }

  function keep(id: string, metadata: AdapterPayload, expires: number): void {
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(id, { expires, metadata });
  }

  /** Another instance's copy, kept here for the time it has left. */
  async function shared(id: string): Promise<AdapterPayload | undefined> {
    if (!opts.redis) return undefined;
    try {
      const [[, text], [, ttl]] = (await opts.redis.multi().get(redisKey(id)).pttl(redisKey(id)).exec()) as [
        [unknown, string | null],
        [unknown, number],
      ];
      if (!text || ttl <= 0) return undefined;
      // Validated again: what Redis holds is only as trusted as whoever can write to it.
      const metadata = validateMetadata(id, JSON.parse(text), opts.allowHttp);
      keep(id, metadata, Date.now() + ttl);
      return metadata;
    } catch {
      return undefined;
    }
  }

  return async (id: string) => {
    if (!looksLikeClientIdUrl(id)) return undefined;
    checkClientIdUrl(id, opts.allowHttp);
    const hit = cache.get(id);
    if (hit && hit.expires > Date.now()) {
      cacheCounts.cimd.hit++;
      return hit.metadata;
    }
    let p = pending.get(id);
    if (!p) {
      p = shared(id)
        .then((m) => {
          if (m) cacheCounts.cimd.hit++;
          else cacheCounts.cimd.miss++;
          return m ?? load(id);
        })
        .finally(() => pending.delete(id));
      pending.set(id, p);
    }
    return p;
  };
}
