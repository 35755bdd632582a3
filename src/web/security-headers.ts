// HTTP hardening headers, their values chosen by helmet (the maintained library behind @fastify/helmet).
//
//   Every answer (one synchronous hook): X-Content-Type-Options: nosniff, and Strict-Transport-Security
//     (one year, subdomains) when PUBLIC_URL is https.
//   Documents (the website's pages, checkout, /docs; documentHeaders() below): helmet's full set with our
//     Content-Security-Policy, which always carries frame-ancestors 'none' and form-action (the site
//     itself, plus the one place a page's form may lead on to: the OAuth client's redirect origin on the
//     sign-in and consent pages, the payment provider on checkout), base-uri 'none' and object-src 'none'.
//
// Why not @fastify/helmet itself: it runs two hooks per request, builds a route-options object in each
// and calls helmet(options) afresh (parsing the options, building every header) for every request.
// Measured on a bare route (server CPU per request over 100,000 requests, 20 connections): 23 µs bare,
// 42 µs with @fastify/helmet, 30 µs with helmet's full set precomputed, 24-25 µs with nosniff alone. So
// helmet computes the headers once at start-up, API answers get the two that mean something for JSON,
// and HTML documents get the full set.
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';

type Headers = ReadonlyArray<readonly [string, string]>;

/** Runs helmet's middleware once against a stand-in response and keeps the headers it set. */
export function helmetHeaders(options: HelmetOptions): Headers {
  const out = new Map<string, string>();
  const res = {
    setHeader: (k: string, v: string | number | readonly string[]) =>
      out.set(k, Array.isArray(v) ? v.join(', ') : String(v)),
    removeHeader: (k: string) => out.delete(k),
    getHeader: (k: string) => out.get(k),
  };
  helmet(options)({} as never, res as never, () => {});
  return [...out];
}

const HSTS = { maxAge: 31_536_000, includeSubDomains: true };

/** The base Content-Security-Policy directives of a page (`formAction` adds sources after 'self'). */
export function pageDirectives(formAction: readonly string[] = []): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'https:', 'data:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'", ...formAction],
  };
}

export interface DocumentOptions {
  /** Sources besides 'self' that the page's forms may lead to (origins, e.g. https://checkout.stripe.com). */
  formAction?: readonly string[];
  /** Referrer-Policy (default same-origin; no-referrer on pages whose address carries a token). */
  referrer?: 'same-origin' | 'no-referrer';
  /** Replaces the page directives wholesale (the /docs page); frame-ancestors and form-action are added when missing. */
  directives?: Record<string, string[]>;
}

export class SecurityHeaders {
  readonly https: boolean;
  readonly everyAnswer: Headers;
  #documents = new Map<string, Headers>();
  /** A page's headers with no options (most pages): kept apart, no key to make. */
  #plainDocument: Headers | undefined;
  constructor(publicUrl: string) {
    this.https = publicUrl.startsWith('https:');
    // helmet with every header off but these two.
    this.everyAnswer = helmetHeaders({
      contentSecurityPolicy: false,
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: false,
      crossOriginResourcePolicy: false,
      originAgentCluster: false,
      referrerPolicy: false,
      strictTransportSecurity: this.https ? HSTS : false,
      xContentTypeOptions: true,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xFrameOptions: false,
      xPermittedCrossDomainPolicies: false,
      xPoweredBy: false,
      xXssProtection: false,
    });
  }

  /** The headers of an HTML document (computed once per distinct option set; at most 200 kept). */
  document(opts?: DocumentOptions): Headers {
    if (opts === undefined) return (this.#plainDocument ??= this.document({}));
    const key = JSON.stringify([opts.formAction ?? [], opts.referrer ?? '', opts.directives ?? null]);
    let h = this.#documents.get(key);
    if (h) return h;
    const directives = { ...(opts.directives ?? pageDirectives(opts.formAction)) };
    directives['frame-ancestors'] ??= ["'none'"];
    directives['form-action'] ??= ["'self'", ...(opts.formAction ?? [])];
    h = helmetHeaders({
      contentSecurityPolicy: { useDefaults: false, directives },
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: { policy: 'same-origin' },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      referrerPolicy: { policy: opts.referrer ?? 'same-origin' },
      strictTransportSecurity: this.https ? HSTS : false,
      xFrameOptions: { action: 'deny' },
    });
    if (this.#documents.size >= 200) this.#documents.clear();
    this.#documents.set(key, h);
    return h;
  }
}

const KEY = 'launchlistSecurityHeaders';
type WithHeaders = { [KEY]?: SecurityHeaders };
/** For pages served by an app built without registerSecurityHeaders (a test's own Fastify): plain http. */
const plain = new SecurityHeaders('http://localhost');

/**
 * nosniff (and HSTS on https) on every answer. Set among the reply's own headers, not on the raw
 * response: a header already on the raw response sends Node's writeHead down its slow path, which sets
 * every one of the reply's headers again, one by one (~5 KB allocated and a tenth of a kept page's time).
 * The one route that hands the raw response over (auth/oauth/routes.ts handOver, to oidc-provider)
 * copies the reply's headers onto it first.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'publicUrl'>): SecurityHeaders {
  const s = new SecurityHeaders(config.publicUrl);
  app.decorate(KEY, s); // plugins' instances inherit it
  const every = s.everyAnswer;
  app.addHook('onRequest', (_req, reply, done) => {
    for (let i = 0; i < every.length; i++) reply.header(every[i][0], every[i][1]);
    done();
  });
  return s;
}

/** Sets a document's security headers on the reply (the website's pages, checkout, /docs). */
export function documentHeaders(reply: FastifyReply, opts?: DocumentOptions): FastifyReply {
  const s = (reply.server as unknown as WithHeaders)[KEY] ?? plain;
  const h = s.document(opts);
  for (let i = 0; i < h.length; i++) reply.header(h[i][0], h[i][1]);
  return reply;
}

/** The origin a form may lead on to, as a CSP source: an http(s) URL's origin; undefined for anything else. */
export function formActionSource(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const u = URL.parse(url);
  return u && (u.protocol === 'https:' || u.protocol === 'http:') ? u.origin : undefined;
}
