// Public pages shared by their visitors for a moment (SHARED_CACHE_MS, at most 1 s).
//
// A page is rendered once for everyone, with holes where it depends on who looks (web/personal.ts),
// and kept for SHARED_CACHE_MS. Each request then fills the holes: signed out, with the same markup for
// everyone (no database read at all); signed in, with the person's own header, vote and follow state,
// claim box and CSRF token. So nothing personal is ever shared, and a signed-in page costs the
// person's own few reads, not the whole page's.
//
// Freshness: a change shows to everyone within SHARED_CACHE_MS (each instance keeps its own pages;
// a listing's profile on PostgreSQL can add PROFILE_FRESH_MS when the change was made through another
// instance). A page is kept for the bound from the read time of the oldest shared result it shows
// (operations/result-cache.ts), not from its render: built from a result read near the end of its own
// bound, it would otherwise show a change up to twice the bound late. The person who made a change sees
// it on their next request: the forms that change something set a short-lived `ll_fresh` cookie
// (markFresh), and a request carrying it is rendered afresh (and refreshes the shared page), on whichever
// instance it lands.
//
// A page with a version (an archived launch week: store/week-stamps.ts, read from the database at most
// every 250 ms per process and at once after its own writes, so every instance sees it move) is kept
// for as long as its version is the current one,
// and rendered afresh, its reads skipping the shared result cache, as soon as it moves.
//
// HTTP caching: every page carries an ETag and Last-Modified and answers If-None-Match /
// If-Modified-Since with 304. Signed out: `Cache-Control: public, max-age=…` (a CDN may keep it as long);
// signed in: `private, no-cache` (a shared cache never stores it).
import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import type { AppDeps } from '../deps.ts';
import { getWebContext, type WebContext } from './context.ts';
import { cacheCounts } from '../ops/cache-stats.ts';
import { AskedBefore } from '../operations/result-cache.ts';
import { documentHeaders } from './security-headers.ts';
import { acceptedEncoding, addVary, compressKept, type Encoding } from './compression.ts';
import {
  askedOf,
  fill,
  filled,
  filledText,
  fillSignedOut,
  holesOf,
  signedOutText,
  type Holes,
  type Slot,
  type SlotRenderers,
  Slots,
} from './personal.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set while a page is rendered for the shared cache: the handler's send() fills `result` instead of sending. */
    pageRender?: {
      slots: Slots;
      result?: { text: string; status: number };
      /** The page is kept for the requests that follow (asked for once, it is answered and dropped). */
      kept: boolean;
      /** Runs on every later request served from the kept page (set by a handler when `kept`). */
      onHit?: () => void;
      /**
       * The page is kept by its version (SharedOptions.stamp): its reads skip the shared result cache,
       * which could hold what the page showed before its version moved.
       */
      fresh?: boolean;
      /**
       * The earliest time a shared result this page was built from was read (web/pages/shared.ts read()):
       * the page is kept for the bound from then, not from its render, so a change shows within the bound
       * however the two caches' ages fall.
       */
      dataAt?: number;
      /** Called by send() once the page's text is in `result`. */
      rendered?: () => void;
    };
  }
}

/** The cookie the site's forms set after a change, so the person's next pages are rendered afresh. */
export const FRESH_COOKIE = 'll_fresh';
/** How long after a change the person's own pages skip the shared ones (longer than any cache's age). */
export const FRESH_MS = 3000;

interface Cached {
  /** Its slots, in the order of their markers. */
  slots: readonly Slot[];
  /**
   * The bytes its split parts hold of their own (a kept page's until its signed-out bytes are made, whose
   * views they then become; a page answered once is never split).
   */
  readonly heldBytes: number;
  /**
   * The page as this signed-in person sees it: a kept page's parts copied around their slots (filled), a
   * page answered once filled in its text (filledText); its validator hashes what was filled in.
   */
  personal: (web: WebContext) => Promise<{ bytes: Buffer; etag: () => string }>;
  /**
   * The page as everyone signed out sees it, as UTF-8 bytes and their ETag, made once, on first use: a
   * page served from the cache to everyone signed out is written as these bytes, with no text encoded
   * (and no buffer allocated) per request; a page rendered once for one signed-in visitor never makes them.
   */
  signedOut: () => Promise<{ bytes: Buffer; etag: string }>;
  /**
   * A kept page's signed-out bytes compressed for `encoding`, made once per encoding and kept with the page
   * (`held` is told their size); undefined for a page answered once, which is compressed per request.
   */
  encoded?: (encoding: Encoding, held: (bytes: number) => void) => Promise<Buffer>;
  modified: string;
  /**
   * What a kept page's next render may take over when it turns out the same (see Prior): its signed-out
   * ETag, Last-Modified and compressed copies, once made; undefined before its signed-out bytes are.
   */
  prior?: () => Prior | undefined;
  /** Runs on every request served from the cache (a listing page counts a view). */
  onHit?: () => void;
  /** The earliest read time of the shared results it was built from (see pageRender.dataAt). */
  dataAt?: number;
}

interface Entry {
  at: number;
  /**
   * The version of what the page shows, for a page that has one (an archived launch week): the page is
   * kept for as long as its version is the current one, not only for the bound.
   */
  stamp?: string;
  page: Promise<Cached | null>;
  /** The page, once rendered (for what its next render may take over when it ran out: Prior). */
  done?: Cached;
  /** Estimated memory of the kept page (set once rendered). */
  bytes: number;
}

/**
 * A kept page that ran out of its bound, as far as its next render needs it: most pages are rendered
 * again unchanged (nothing they show changed within the second). When the new render's signed-out bytes
 * hash the same, it keeps the old Last-Modified (so If-Modified-Since still answers 304) and the
 * compressed copies (brotli 6 of a ~30 KB category page is ~1 ms, every second, for each page asked for).
 */
interface Prior {
  etag: string;
  modified: string;
  encoded: ReadonlyMap<Encoding, Buffer>;
}

/** At most this many pages' Prior are held (each its ETag and compressed copies: a few KB). */
const MAX_PRIOR = 512;

/**
 * The pages kept for SHARED_CACHE_MS. Bounded by memory, not by count (a listing page is ~50 KB, the
 * home page more): past `maxBytes` the least recently used go first, and pages older than the bound are
 * swept at most once per bound, so a crawl through 100,000 listing pages never holds more than a
 * second's worth of them nor more than `maxBytes`.
 */
export class PageCache {
  readonly #entries = new Map<string, Entry>();
  /** Pages asked for once within the bound, not kept yet. */
  readonly #asked = new AskedBefore();
  readonly #maxBytes: number;
  #bytes = 0;
  #sweptAt = 0;
  /** What the pages that ran out leave for their next render (at most MAX_PRIOR, none older than twice the bound). */
  readonly #prior = new Map<string, { at: number; prior: Prior }>();
  /** How the pages' slots render (the page modules hold the markup of buttons and boxes). */
  readonly renderers: SlotRenderers;
  constructor(renderers: SlotRenderers, maxBytes = 48 * 1024 * 1024) {
    this.renderers = renderers;
    this.#maxBytes = maxBytes;
  }
  get(key: string, ttlMs: number, now: number, stamp?: string): Entry | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    // a page with a version is good while its version is the current one; any other, for the bound
    if (stamp !== undefined && e.stamp !== undefined ? e.stamp !== stamp : now - e.at >= ttlMs) {
      if (e.stamp === undefined) this.#expire(key, e, ttlMs);
      else this.#drop(key, e);
      return undefined;
    }
    // Most recently used last: the first evicted are the least recently used.
    this.#entries.delete(key);
    this.#entries.set(key, e);
    return e;
  }
  set(key: string, e: Entry, ttlMs: number, now: number): void {
    const old = this.#entries.get(key);
    if (old) this.#drop(key, old);
    this.#entries.set(key, e);
    this.sweep(ttlMs, now);
  }
  /** Drops what is older than the bound, at most once per bound (a page with a version: when it is asked for). */
  sweep(ttlMs: number, now: number): void {
    if (now - this.#sweptAt < ttlMs) return;
    this.#sweptAt = now;
    this.#asked.sweep(ttlMs, now);
    for (const [k, x] of this.#entries) if (x.stamp === undefined && now - x.at >= ttlMs) this.#expire(k, x, ttlMs);
    for (const [k, p] of this.#prior) if (now - p.at >= 2 * ttlMs) this.#prior.delete(k);
  }
  /** What the page kept under `key` left when it ran out, taken (once) by its next render. */
  takePrior(key: string): Prior | undefined {
    const p = this.#prior.get(key);
    if (p) this.#prior.delete(key);
    return p?.prior;
  }
  /**
   * True when `key` was asked for already within the bound: only then is the page kept. A page asked for
   * once (a crawler's walk through 100,000 listings) is rendered as if there were no cache: keeping it
   * for a second would only move it to the old generation of the heap to die there, which on such a walk
   * doubled the server's resident memory for no hit.
   */
  admit(key: string, ttlMs: number, now: number): boolean {
    return this.#asked.again(key, ttlMs, now);
  }
  /**
   * Counts a kept page's memory once it is known (and again as it grows: its compressed copies), evicting
   * the least recently used past the budget.
   */
  sized(key: string, e: Entry, bytes: number): void {
    if (this.#entries.get(key) !== e) return;
    e.bytes += bytes;
    this.#bytes += bytes;
    for (const [k, x] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#drop(k, x);
    }
  }
  delete(key: string, e: Entry): void {
    if (this.#entries.get(key) === e) this.#drop(key, e);
  }
  get size(): number {
    return this.#entries.size;
  }
  get bytes(): number {
    return this.#bytes;
  }
  /**
   * Drops a page past the bound. It was kept because it was asked for: it is noted as asked at the time it
   * ran out, so a request within the bound after keeps it again at once (admit()), rather than being
   * answered once and rendered a second time to be kept.
   */
  #expire(key: string, e: Entry, ttlMs: number): void {
    this.#drop(key, e);
    this.#asked.note(key, e.at + ttlMs);
    const prior = e.done?.prior?.();
    if (prior) {
      if (this.#prior.size >= MAX_PRIOR) this.#prior.delete(this.#prior.keys().next().value!);
      this.#prior.set(key, { at: e.at + ttlMs, prior });
    }
  }
  #drop(key: string, e: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= e.bytes;
  }
}

/**
 * A form a signed-in person posts to the site (a vote, a follow, an edit, publishing, an update …) may
 * change what pages show: the answer marks the browser fresh, so its next pages skip the shared ones.
 */
export function markFreshAfterForms(app: FastifyInstance, deps: AppDeps): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    if (
      req.method === 'POST' &&
      reply.statusCode < 400 &&
      req.cookies?.[SESSION_COOKIE] !== undefined &&
      !/^\/(?:api|mcp|oauth)\//.test(req.url)
    )
      markFresh(deps, reply);
    done(null, payload);
  });
}

/** After a change made through the site: this browser's next pages skip the shared cache (any instance). */
function markFresh(deps: AppDeps, reply: FastifyReply): void {
  reply.setCookie(FRESH_COOKIE, String(Date.now()), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.publicUrl.startsWith('https:'),
    maxAge: Math.ceil(FRESH_MS / 1000),
  });
}

/** True when this browser has just changed something (its pages and reads skip the shared caches). */
export function justChanged(req: FastifyRequest, now = Date.now()): boolean {
  const v = req.cookies?.[FRESH_COOKIE];
  const at = v ? Number(v) : Number.NaN;
  return Number.isFinite(at) && now - at < FRESH_MS && at <= now + 1000;
}

/** Query parameters that make a page one person's (a notice after their own action): never shared. */
const PERSONAL_QUERY = /[?&]notice=/;

export interface SharedOptions {
  /**
   * The version of what the page shows (an archived launch week: store/week-stamps.ts), or undefined
   * when it has none: a page with a version is kept for as long as that version is the current one
   * (within the cache's memory budget), not only for SHARED_CACHE_MS. Each request asks for it.
   */
  stamp?: (req: FastifyRequest) => Promise<string | undefined>;
}

/**
 * Wraps a public page's handler: served from the shared cache when it holds the page (holes filled for
 * this visitor), else rendered once for everyone, kept, and filled. A handler that answers anything
 * but a page through send() (a redirect, a 404) is not cached.
 */
export function sharedPage(
  deps: AppDeps,
  cache: PageCache,
  handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  opts: SharedOptions = {},
): RouteHandlerMethod {
  return async (req, reply) => {
    const ttl = deps.config.SHARED_CACHE_MS;
    if (ttl <= 0 || PERSONAL_QUERY.test(req.url)) return handler(req, reply);
    const now = Date.now();
    const key = req.url;
    const fresh = justChanged(req, now);
    const stamp = fresh ? undefined : await opts.stamp?.(req);
    let entry = fresh ? undefined : cache.get(key, ttl, now, stamp);
    let rendering = false;
    if (entry) cacheCounts.shared_page.hit++;
    else {
      cacheCounts.shared_page.miss++;
      // a page with a version is kept at once: it serves every later request until its version moves
      if (stamp === undefined && !cache.admit(key, ttl, now)) {
        // Asked for once so far: rendered and answered the same way (headers, 304), but not kept.
        cache.sweep(ttl, now);
        const once = await render(deps, cache.renderers, req, reply, handler, { kept: false });
        return once ? sendShared(deps, req, reply, once) : reply;
      }
      rendering = true;
      const made: Entry = {
        at: now,
        stamp,
        page: render(deps, cache.renderers, req, reply, handler, {
          kept: true,
          fresh: stamp !== undefined,
          prior: stamp === undefined && !fresh ? cache.takePrior(key) : undefined,
        }),
        bytes: 0,
      };
      entry = made;
      cache.set(key, made, ttl, now);
      made.page.then(
        // the held parts' bytes, and the signed-out page's
        (p) => {
          // kept for the bound from the oldest shared result it shows, not from its render
          if (p?.dataAt !== undefined && p.dataAt < made.at) made.at = p.dataAt;
          if (p) made.done = p;
          return p
            ? p.signedOut().then(
                (out) => cache.sized(key, made, p.heldBytes + out.bytes.length + key.length),
                () => cache.delete(key, made),
              )
            : cache.delete(key, made);
        },
        () => cache.delete(key, made),
      );
    }
    const page = await entry.page;
    if (!page) {
      // Not a shareable page: the render already answered this request; a waiting one renders its own.
      if (rendering || reply.sent) return reply;
      return handler(req, reply);
    }
    if (!rendering) page.onHit?.();
    const held = entry;
    return sendShared(deps, req, reply, page, (bytes) => cache.sized(key, held, bytes));
  };
}

async function render(
  deps: AppDeps,
  renderers: SlotRenderers,
  req: FastifyRequest,
  reply: FastifyReply,
  handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  how: { kept: boolean; fresh?: boolean; prior?: Prior },
): Promise<Cached | null> {
  const r: NonNullable<FastifyRequest['pageRender']> = {
    slots: new Slots(),
    fresh: how.fresh ?? false,
    kept: how.kept,
  };
  req.pageRender = r;
  try {
    // A handler returns its reply, and a Fastify reply is a thenable that settles only once it is sent:
    // awaiting it here would wait for ever. The page is ready when send() has put its text in `result`
    // (or the handler has finished without it: a redirect or an error page it sent itself).
    const rendered = new Promise<void>((resolve) => {
      r.rendered = resolve;
    });
    await Promise.race([rendered, Promise.resolve(handler(req, reply)).then(() => undefined)]);
  } finally {
    req.pageRender = undefined;
  }
  if (!r.result || reply.sent || r.result.status !== 200) {
    if (r.result && !reply.sent) {
      // A page that is not a 200 (send() was asked for another status): answered as rendered, not kept.
      const holes = holesOf(r.result.text, r.slots.list);
      const web = await getWebContext(deps, req, reply);
      documentHeaders(reply);
      reply
        .code(r.result.status)
        .type('text/html; charset=utf-8')
        .send(await fill(deps, renderers, holes, web));
    }
    return null;
  }
  if (!how.kept) return oncePage(deps, renderers, r.result.text, r.slots.list);
  return cachedPage(deps, renderers, holesOf(r.result.text, r.slots.list), r.onHit, r.dataAt, how.prior);
}

/**
 * A page answered once and dropped (asked for once within the bound: most listing pages and searches
 * under load). Signed out, its slots are filled in its text where they stand and the text encoded once:
 * splitting it into encoded parts, for copies a kept page saves on later requests, cost a tenth of a
 * search page's time here for no later request. Signed in, the same, with the person's markup in its
 * slots (filledText).
 */
function oncePage(deps: AppDeps, renderers: SlotRenderers, text: string, slots: Slot[]): Cached {
  return {
    slots,
    heldBytes: 0,
    personal: (web) => filledText(deps, renderers, text, slots, web),
    signedOut: () =>
      signedOutText(deps, renderers, text, slots).then((page) => {
        const bytes = Buffer.from(page);
        return { bytes, etag: etagOf(bytes) };
      }),
    modified: new Date().toUTCString(),
  };
}

/**
 * A kept page. Made apart from render(), whose closures hold its whole context: a signedOut closure made
 * there kept the page's rendered text (and the render's state) alive next to its bytes, as long as the page
 * was kept (12 MB of the heap after the loads at 100,000 listings).
 */
function cachedPage(
  deps: AppDeps,
  renderers: SlotRenderers,
  holes: Holes,
  onHit: Cached['onHit'],
  dataAt: number | undefined,
  /** What the same page's last render left (PageCache.takePrior), taken over when this one is the same. */
  prior: Prior | undefined,
): Cached {
  let signedOut: Promise<{ bytes: Buffer; etag: string }> | undefined;
  let partsAreViews = false;
  const encoded = new Map<Encoding, Promise<Buffer>>();
  // what a later render of the page may take over (its `prior`), as they are made
  let etagMade: string | undefined;
  const encodedMade = new Map<Encoding, Buffer>();
  const page: Cached = {
    slots: holes.slots,
    // once the signed-out bytes are made, the parts are views of them
    get heldBytes() {
      return partsAreViews ? 0 : holes.size;
    },
    personal: (web) => filled(deps, renderers, holes, web),
    // made once, hashed, and written as they are to everyone signed out
    signedOut: () =>
      (signedOut ??= fillSignedOut(deps, renderers, holes).then((bytes) => {
        partsAreViews = true;
        const etag = etagOf(bytes);
        etagMade = etag;
        if (prior?.etag === etag) page.modified = prior.modified;
        else prior = undefined; // changed: nothing to take over, and nothing of the last render held on to
        return { bytes, etag };
      })),
    encoded: (encoding, held) => {
      let z = encoded.get(encoding);
      if (z) cacheCounts.shared_page_compressed.hit++;
      else {
        z = page.signedOut().then(({ bytes }) => {
          // the last render's copy when the page is the same (signedOut() kept `prior` only then)
          const carried = prior?.encoded.get(encoding);
          if (carried) cacheCounts.shared_page_compressed.hit++;
          else cacheCounts.shared_page_compressed.miss++;
          const out = carried ?? compressKept(bytes, encoding);
          encodedMade.set(encoding, out);
          held(out.length);
          return out;
        });
        encoded.set(encoding, z);
      }
      return z;
    },
    prior: () =>
      etagMade === undefined ? undefined : { etag: etagMade, modified: page.modified, encoded: encodedMade },
    modified: new Date().toUTCString(),
    onHit,
    dataAt,
  };
  return page;
}

/** A signed-out page's Cache-Control for the shared pages' bound (made once per bound). */
const cacheControls = new Map<number, string>();
function publicCacheControl(ms: number): string {
  let v = cacheControls.get(ms);
  if (v === undefined) {
    const s = Math.max(1, Math.round(ms / 1000));
    cacheControls.set(ms, (v = `public, max-age=${s}, stale-while-revalidate=${s}`));
  }
  return v;
}

const etagOf = (page: string | Buffer) => `W/"${hash('sha1', page, 'base64url')}"`;

async function sendShared(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  page: Cached,
  held?: (bytes: number) => void,
): Promise<FastifyReply> {
  // With a session cookie, the person's votes and follows among the page's listings are read with the session.
  const web = await getWebContext(
    deps,
    req,
    reply,
    req.cookies?.[SESSION_COOKIE] !== undefined ? askedOf(page.slots) : undefined,
  );
  const signedIn = web.user !== null;
  // a signed-in page is made once and written as those bytes; its validator hashes what was filled in
  const personal = signedIn ? await page.personal(web) : undefined;
  const { bytes, etag } = personal ? { bytes: personal.bytes, etag: personal.etag() } : await page.signedOut();
  documentHeaders(reply);
  reply.header('Cache-Control', signedIn ? 'private, no-cache' : publicCacheControl(deps.config.SHARED_CACHE_MS));
  // the same URL is written compressed or not, as the request's Accept-Encoding asks (a CDN keeps each)
  addVary(reply, 'accept-encoding');
  if (signedIn) addVary(reply, 'Cookie');
  reply.header('ETag', etag);
  reply.header('Last-Modified', page.modified);
  const inm = req.headers['if-none-match'];
  const ims = req.headers['if-modified-since'];
  if (inm !== undefined ? inm === etag : ims !== undefined && !signedIn && Date.parse(ims) >= Date.parse(page.modified))
    return reply.code(304).send();
  reply.code(200).type('text/html; charset=utf-8');
  // a kept page signed out: its compressed copy, made once (a page answered once, or a person's, is
  // compressed per request by @fastify/compress, which leaves a body with a Content-Encoding as it is)
  if (!personal && page.encoded && held) {
    const encoding = acceptedEncoding(req);
    // made before the header is set: a failure is answered as an error page, not one labelled compressed
    if (encoding) {
      const body = await page.encoded(encoding, held);
      return reply.header('Content-Encoding', encoding).send(body);
    }
  }
  return reply.send(bytes);
}
