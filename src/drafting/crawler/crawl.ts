/**
 * Polite, bounded site crawl for drafting a listing: the home page, then at most `maxPages - 1`
 * more pages of the same site chosen by how useful they usually are for a product profile
 * (pricing, about/team, features/tour, contact, FAQ, why, press, license, docs landing…).
 *
 * - Every request goes through the guarded fetcher (public addresses only, size and time caps).
 * - robots.txt is honoured for every URL (RFC 9309, cached per origin). Crawl-delay is honoured
 *   as stated between requests; when it is longer than `maxCrawlDelayMs` we read the home page
 *   only rather than wait (or shorten it).
 * - Same site = the origin of the home page after redirects, its www / non-www twin, and the host
 *   the home page declares as canonical (<link rel=canonical>, og:url). Links and sitemap entries
 *   on those hosts are fetched through the home page's origin (a site served from a staging host or
 *   a bare IP still reads as itself). Links to any other host are never fetched.
 * - Pages are discovered from the home page's links and from sitemap.xml (robots.txt Sitemap
 *   lines on the same site, else /sitemap.xml), then one more level of links for the high-value
 *   kinds if room is left.
 * - A total time budget bounds the whole crawl; HTML only.
 */
import { createHash } from 'node:crypto';
import {
  checkUrl,
  FetchFailed,
  FetchRefused,
  guardedFetch,
  type FetchErrorReason,
  type Resolver,
} from './guarded-fetch.ts';
import { RobotsCache, type RobotsPolicy } from './robots.ts';
import {
  baseUrlOf,
  loadHtml,
  metaContent,
  normalizeSpace,
  resolveUrl,
  titleOf,
  visibleText,
  type CheerioRoot,
} from '../extract/html.ts';

export type CrawlStage = 'robots' | 'home' | 'discover' | 'pages' | 'done';

export type CrawlFailReason = FetchErrorReason | 'robots_disallowed' | 'aborted';

export class CrawlError extends Error {
  readonly reason: CrawlFailReason;
  readonly url: string;
  readonly status: number | undefined;
  constructor(reason: CrawlFailReason, url: string, message: string, status?: number) {
    super(message);
    this.name = 'CrawlError';
    this.reason = reason;
    this.url = url;
    this.status = status;
  }
}

export interface CrawledPage {
  /** Final URL the page was read from. */
  url: string;
  title: string;
  html: string;
  /** Visible text, whitespace-normalised. */
  text: string;
  /** How the page was found. */
  source: 'home' | 'link' | 'sitemap';
  /** True when the home page links to it. */
  linkedFromHome: boolean;
}

export interface CrawlResult {
  homeUrl: string;
  /** The home page first, then the other pages in the order read. */
  pages: CrawledPage[];
  /** Pages that were planned but could not be read, with the reason. */
  errors: Array<{ url: string; reason: string; message: string }>;
  /** URLs skipped because robots.txt disallows them. */
  robotsBlocked: string[];
  /** Crawl-delay honoured, in seconds (null when robots.txt sets none). */
  crawlDelaySeconds: number | null;
  durationMs: number;
}

export interface CrawlOptions {
  allowHosts?: readonly string[];
  resolve?: Resolver;
  /** Pages read at most, home page included (default 12). */
  maxPages?: number;
  /** Size cap per page (default 2 MiB). */
  maxBytesPerPage?: number;
  /** Time cap per request (default 10 s). */
  pageTimeoutMs?: number;
  /** Time cap for the whole crawl (default 45 s). */
  totalTimeMs?: number;
  /** Longest crawl-delay we wait for between requests (default 10 s); beyond it only the home page is read. */
  maxCrawlDelayMs?: number;
  /** Parallel requests when robots.txt sets no crawl-delay (default 3). */
  concurrency?: number;
  /** Read sitemap.xml to find pages (default true). */
  useSitemap?: boolean;
  robots?: RobotsCache;
  userAgent?: string;
  signal?: AbortSignal;
  onProgress?: (stage: CrawlStage, pagesRead: number, pagesPlanned: number) => void;
  /** Clock and sleep, injectable for tests. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultRobots = new RobotsCache();

// ---------------------------------------------------------------------------------------------
// Page usefulness

interface ScoreRule {
  re: RegExp;
  score: number;
}

/** Path / link-text patterns and how useful such a page usually is for a product profile. */
const RULES: readonly ScoreRule[] = [
  {
    re: /\b(?:pric(?:e|es|ing)|plans?|tarif(?:s|fs)?|preise|precios|prix|upgrade|premium|subscriptions?)\b/,
    score: 100,
  },
  {
    re: /\b(?:about(?:-?us)?|team|company|our-?story|story|who-?we-?are|mission|founders?|people|ueber-?uns|a-?propos)\b/,
    score: 80,
  },
  {
    re: /\b(?:features?|product|products|tour|how-?it-?works|solutions?|overview|capabilities|benefits|use-?cases?)\b/,
    score: 70,
  },
  { re: /\b(?:contact(?:-?us)?|get-?in-?touch|support|kontakt|impressum|imprint)\b/, score: 60 },
  { re: /\b(?:faqs?|questions|help)\b/, score: 55 },
  { re: /\bwhy\b/, score: 50 },
  { re: /\b(?:licen[cs]e|licensing|open-?source)\b/, score: 40 },
  { re: /\b(?:press|media|newsroom|press-?kit|brand)\b/, score: 35 },
  { re: /\b(?:download|downloads|get|install)\b/, score: 30 },
  { re: /\b(?:community|social)\b/, score: 30 },
  { re: /\b(?:docs?|documentation|manual|guide|getting-?started)\b/, score: 25 },
  { re: /\b(?:announc\w*|launch\w*|changelog|releases?|roadmap)\b/, score: 20 },
  { re: /\b(?:blog|news)\b/, score: 10 },
];

const SKIP_PATH =
  /\b(?:log-?in|sign-?in|sign-?up|register|logout|cart|checkout|account|auth|oauth|wp-admin|wp-login|admin|search|feed|rss)\b/;
const LOW_PATH =
  /\b(?:privacy|terms|tos|cookies?|legal|gdpr|dpa|security\.txt|sitemap|tag|tags|category|categories|author|page\/\d+)\b|\/\d{4}\/\d{2}\//;
const NON_HTML_EXT =
  /\.(?:pdf|png|jpe?g|gif|webp|svg|ico|bmp|tiff?|mp4|m4v|mov|webm|avi|mp3|wav|ogg|flac|zip|tar|gz|tgz|bz2|xz|7z|rar|dmg|exe|msi|pkg|deb|rpm|apk|appimage|iso|css|js|mjs|json|xml|txt|csv|xlsx?|docx?|pptx?|woff2?|ttf|otf|eot|rss|atom)$/i;

export function pageUsefulness(url: string, linkText = ''): number {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return -1;
  }
  const path = decodeURIComponent(u.pathname)
    .toLowerCase()
    .replace(/\/index\.(?:html?|php|aspx?)$/, '/');
  if (NON_HTML_EXT.test(path)) return -1;
  const words = `${path.replace(/[/_.]+/g, ' ')} ${linkText.toLowerCase()}`;
  if (SKIP_PATH.test(path)) return -1;
  const segments = path.split('/').filter(Boolean);
  let score = 15;
  for (const r of RULES) if (r.re.test(words)) score = Math.max(score, r.score);
  if (LOW_PATH.test(path)) score = Math.min(score, 5);
  // Deep pages (blog posts, docs leaves) are rarely about the product as a whole.
  score -= Math.max(0, segments.length - 1) * 8;
  // Language variants duplicate the default pages.
  if (segments.length > 0 && /^[a-z]{2}(?:[-_][a-z]{2})?$/.test(segments[0]) && segments.length > 1) score -= 30;
  if (u.search) score -= 10;
  return score;
}

// ---------------------------------------------------------------------------------------------
// Same-site handling

function wwwTwin(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : `www.${host}`;
}

class Site {
  readonly origin: string;
  readonly hosts = new Set<string>();
  constructor(homeUrl: string, requestedUrl: string) {
    const home = new URL(homeUrl);
    this.origin = home.origin;
    for (const h of [home.host, new URL(requestedUrl).host]) {
      this.hosts.add(h);
      this.hosts.add(wwwTwin(h));
    }
  }
  addDeclaredHost(url: string | null): void {
    if (!url) return;
    try {
      const u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return;
      this.hosts.add(u.host);
      this.hosts.add(wwwTwin(u.host));
    } catch {
      /* ignore */
    }
  }
  /** The URL to fetch for a same-site link (on the home page's origin), or null. */
  toFetchUrl(url: string): string | null {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return null;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (!this.hosts.has(u.host)) return null;
    const out = new URL(u.pathname + u.search, this.origin);
    return out.href;
  }
}

function canonicalKey(url: string): string {
  const u = new URL(url);
  let path = u.pathname.replace(/\/index\.(?:html?|php)$/i, '/');
  if (path.length > 1) path = path.replace(/\/+$/, '');
  return `${u.origin}${path || '/'}${u.search}`;
}

interface Candidate {
  url: string;
  score: number;
  source: 'link' | 'sitemap';
  linkedFromHome: boolean;
}

function linksOf($: CheerioRoot, pageUrl: string): Array<{ url: string; text: string }> {
  const base = baseUrlOf($, pageUrl);
  const out: Array<{ url: string; text: string }> = [];
  $('a[href], area[href]').each((_, el) => {
    const a = $(el);
    const href = resolveUrl(a.attr('href'), base);
    if (!href) return;
    const u = new URL(href);
    u.hash = '';
    out.push({ url: u.href, text: normalizeSpace(a.text() || a.attr('title') || a.attr('aria-label') || '') });
  });
  return out;
}

function sitemapLocs(xml: string): { urls: string[]; sitemaps: string[] } {
  const isIndex = /<sitemapindex[\s>]/i.test(xml);
  const locs: string[] = [];
  const re = /<loc>\s*(?:<!\[CDATA\[)?\s*([^<\]]+?)\s*(?:\]\]>)?\s*<\/loc>/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(xml)) !== null && locs.length < 5000) {
    locs.push(
      m[1]
        .replace(/&amp;/g, '&')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'"),
    );
  }
  return isIndex ? { urls: [], sitemaps: locs } : { urls: locs, sitemaps: [] };
}

function mapFetchError(e: unknown, url: string): CrawlError {
  if (e instanceof CrawlError) return e;
  if (e instanceof FetchRefused) return new CrawlError(e.reason, url, e.message);
  if (e instanceof FetchFailed) return new CrawlError(e.reason, url, e.message, e.status);
  return new CrawlError('unreachable', url, (e as Error)?.message ?? String(e));
}

// ---------------------------------------------------------------------------------------------

export async function crawlSite(inputUrl: string, opts: CrawlOptions = {}): Promise<CrawlResult> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const started = now();
  const maxPages = Math.max(1, opts.maxPages ?? 12);
  const totalTimeMs = opts.totalTimeMs ?? 45_000;
  const deadline = started + totalTimeMs;
  const pageTimeoutMs = opts.pageTimeoutMs ?? 10_000;
  const maxBytes = opts.maxBytesPerPage ?? 2 * 1024 * 1024;
  const maxCrawlDelayMs = opts.maxCrawlDelayMs ?? 10_000;
  const robotsCache = opts.robots ?? defaultRobots;
  const progress = opts.onProgress ?? (() => {});
  const fetchOpts = { allowHosts: opts.allowHosts, resolve: opts.resolve, userAgent: opts.userAgent };

  const errors: CrawlResult['errors'] = [];
  const robotsBlocked: string[] = [];

  // Normalise the input: a bare domain means https.
  let start = inputUrl.trim();
  if (!/^[a-z][a-z0-9+.-]*:/i.test(start)) start = `https://${start}`;
  try {
    start = checkUrl(start, opts.allowHosts ?? []).href;
  } catch (e) {
    throw mapFetchError(e, start);
  }

  const remaining = (): number => deadline - now();
  const timeoutFor = (): number => Math.max(1, Math.min(pageTimeoutMs, remaining()));
  const checkAbort = (): void => {
    if (opts.signal?.aborted) throw new CrawlError('aborted', start, 'the crawl was cancelled');
  };

  // robots.txt
  progress('robots', 0, 0);
  const robotsFor = async (url: string): Promise<RobotsPolicy> =>
    robotsCache.get(url, { ...fetchOpts, timeoutMs: Math.min(10_000, timeoutFor()), signal: opts.signal });
  const assertRobots = async (url: string): Promise<RobotsPolicy> => {
    const policy = await robotsFor(url);
    if (policy.status === 'unreachable' && policy.httpStatus === null && policy.error) {
      throw new CrawlError(
        policy.error === 'too_many_redirects' ? 'unreachable' : policy.error,
        url,
        `could not reach ${new URL(url).origin} (${policy.error})`,
      );
    }
    if (!policy.isAllowed(url)) {
      const why =
        policy.status === 'unreachable'
          ? `robots.txt answered HTTP ${policy.httpStatus}, which means no crawling`
          : 'robots.txt disallows it';
      throw new CrawlError('robots_disallowed', url, `not reading ${url}: ${why}`);
    }
    return policy;
  };
  checkAbort();
  let robots = await assertRobots(start);

  // Home page
  progress('home', 0, 1);
  let homeRes: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    homeRes = await guardedFetch(start, {
      ...fetchOpts,
      accept: 'html',
      maxBytes,
      timeoutMs: timeoutFor(),
      signal: opts.signal,
    });
  } catch (e) {
    if (opts.signal?.aborted) throw new CrawlError('aborted', start, 'the crawl was cancelled');
    throw mapFetchError(e, start);
  }
  const homeUrl = homeRes.url;
  if (new URL(homeUrl).origin !== new URL(start).origin) robots = await assertRobots(homeUrl);
  const site = new Site(homeUrl, start);
  const $home = loadHtml(homeRes.body);
  site.addDeclaredHost(resolveUrl($home('link[rel~="canonical" i]').first().attr('href'), homeUrl));
  site.addDeclaredHost(resolveUrl(metaContent($home, 'og:url'), homeUrl));

  const pages: CrawledPage[] = [
    {
      url: homeUrl,
      title: titleOf($home) || metaContent($home, 'og:title', 'twitter:title'),
      html: homeRes.body,
      text: visibleText($home),
      source: 'home',
      linkedFromHome: true,
    },
  ];
  const seen = new Set<string>([canonicalKey(start), canonicalKey(homeUrl)]);
  const bodies = new Set<string>([createHash('sha1').update(homeRes.body).digest('hex')]);

  const delaySec = robots.crawlDelaySeconds;
  const delayMs = delaySec ? delaySec * 1000 : 0;
  const politeOnlyHome = delayMs > maxCrawlDelayMs;
  let lastRequestAt = now();
  const concurrency = delayMs > 0 ? 1 : Math.max(1, opts.concurrency ?? 3);
  const waitTurn = async (): Promise<boolean> => {
    if (delayMs > 0) {
      const wait = lastRequestAt + delayMs - now();
      if (wait > 0) {
        if (now() + wait >= deadline) return false;
        await sleep(wait);
      }
    }
    if (remaining() <= 50) return false;
    lastRequestAt = now();
    return true;
  };

  if (maxPages === 1 || politeOnlyHome) {
    if (politeOnlyHome)
      errors.push({
        url: homeUrl,
        reason: 'crawl_delay',
        message: `robots.txt asks for ${delaySec} s between requests; only the home page was read`,
      });
    progress('done', 1, 1);
    return { homeUrl, pages, errors, robotsBlocked, crawlDelaySeconds: delaySec, durationMs: now() - started };
  }

  // Discover
  progress('discover', 1, maxPages);
  const candidates = new Map<string, Candidate>();
  const addCandidate = (raw: string, text: string, source: Candidate['source'], fromHome: boolean): void => {
    const url = site.toFetchUrl(raw);
    if (!url) return;
    const key = canonicalKey(url);
    if (seen.has(key)) return;
    const base = pageUsefulness(url, text);
    if (base < 0) return;
    const score = base + (fromHome ? 15 : 0);
    const prev = candidates.get(key);
    if (!prev || prev.score < score)
      candidates.set(key, {
        url: prev?.linkedFromHome && !fromHome ? prev.url : url,
        score,
        source: fromHome || prev?.source === 'link' ? 'link' : source,
        linkedFromHome: fromHome || !!prev?.linkedFromHome,
      });
  };
  for (const l of linksOf($home, homeUrl)) addCandidate(l.url, l.text, 'link', true);
  // The URL the home page declares for itself (canonical, og:url) is a page of the site too: when it
  // is not the home page (a copied head, a script-built navigation) it is often the only link there is.
  for (const declared of [
    resolveUrl($home('link[rel~="canonical" i]').first().attr('href'), homeUrl),
    resolveUrl(metaContent($home, 'og:url'), homeUrl),
  ])
    if (declared) addCandidate(declared, '', 'link', true);

  if (opts.useSitemap !== false && remaining() > 1000) {
    const sitemapUrls = new Set<string>();
    for (const s of robots.sitemaps) {
      const u = site.toFetchUrl(s);
      if (u) sitemapUrls.add(u);
    }
    if (sitemapUrls.size === 0) sitemapUrls.add(new URL('/sitemap.xml', site.origin).href);
    const queue = [...sitemapUrls].slice(0, 3);
    let fetchedMaps = 0;
    while (queue.length > 0 && fetchedMaps < 4) {
      const sm = queue.shift() as string;
      checkAbort();
      if (!robots.isAllowed(sm)) continue;
      if (!(await waitTurn())) break;
      fetchedMaps++;
      try {
        const r = await guardedFetch(sm, {
          ...fetchOpts,
          accept: 'any',
          maxBytes: 1024 * 1024,
          truncate: true,
          timeoutMs: timeoutFor(),
          signal: opts.signal,
        });
        if (/gzip/.test(r.contentType) || r.status !== 200) continue;
        const { urls, sitemaps } = sitemapLocs(r.body);
        for (const u of urls) addCandidate(u, '', 'sitemap', false);
        for (const child of sitemaps) {
          const c = site.toFetchUrl(child);
          if (c && queue.length < 3) queue.push(c);
        }
      } catch {
        // a missing or broken sitemap is normal
      }
    }
  }

  const plan = (limit: number): Candidate[] =>
    [...candidates.values()]
      .filter((c) => !seen.has(canonicalKey(c.url)))
      .sort(
        (a, b) =>
          b.score - a.score || Number(b.linkedFromHome) - Number(a.linkedFromHome) || a.url.length - b.url.length,
      )
      .slice(0, limit);

  let planned = 1 + Math.min(maxPages - 1, candidates.size);
  progress('pages', 1, planned);

  const readPage = async (c: Candidate): Promise<void> => {
    const key = canonicalKey(c.url);
    if (seen.has(key)) return;
    seen.add(key);
    if (!robots.isAllowed(c.url)) {
      robotsBlocked.push(c.url);
      return;
    }
    if (!(await waitTurn())) {
      errors.push({ url: c.url, reason: 'time_budget', message: 'the crawl time budget ran out before this page' });
      return;
    }
    try {
      const r = await guardedFetch(c.url, {
        ...fetchOpts,
        accept: 'html',
        maxBytes,
        timeoutMs: timeoutFor(),
        signal: opts.signal,
      });
      // Redirects that leave the site are not followed into the draft.
      if (!site.toFetchUrl(r.url)) {
        errors.push({ url: c.url, reason: 'off_site_redirect', message: `redirected off the site to ${r.url}` });
        return;
      }
      const finalKey = canonicalKey(r.url);
      const hash = createHash('sha1').update(r.body).digest('hex');
      if (
        (finalKey !== key && seen.has(finalKey) && pages.some((p) => canonicalKey(p.url) === finalKey)) ||
        bodies.has(hash)
      )
        return;
      seen.add(finalKey);
      bodies.add(hash);
      const $ = loadHtml(r.body);
      pages.push({
        url: r.url,
        title: titleOf($) || metaContent($, 'og:title', 'twitter:title'),
        html: r.body,
        text: visibleText($),
        source: c.source,
        linkedFromHome: c.linkedFromHome,
      });
      // One more level: remember this page's links for a second pass.
      for (const l of linksOf($, r.url)) addCandidate(l.url, l.text, 'link', false);
    } catch (e) {
      const err = mapFetchError(e, c.url);
      errors.push({ url: c.url, reason: err.reason, message: err.message });
    } finally {
      progress('pages', pages.length, planned);
    }
  };

  const runBatch = async (batch: Candidate[]): Promise<void> => {
    let i = 0;
    const worker = async (): Promise<void> => {
      while (i < batch.length && pages.length < maxPages) {
        checkAbort();
        const c = batch[i++];
        await readPage(c);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, worker));
  };

  await runBatch(plan(maxPages - 1));
  // Second level: only the kinds of page that usually carry profile facts.
  if (pages.length < maxPages && remaining() > 500) {
    const more = plan(maxPages - pages.length).filter((c) => c.score >= 50);
    if (more.length > 0) {
      planned = pages.length + more.length;
      await runBatch(more);
    }
  }
  checkAbort();
  progress('done', pages.length, pages.length);
  return { homeUrl, pages, errors, robotsBlocked, crawlDelaySeconds: delaySec, durationMs: now() - started };
}
