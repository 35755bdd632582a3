/**
 * Drafting benchmark (no assertions): drafts every corpus site through the real crawler and
 * guarded fetcher on loopback, prints the time per site and a precision/recall table per field,
 * and times a synthetic 10-page site against the 10 s budget for drafting without an LLM.
 *
 *   node_modules/.bin/node bench/drafting.ts
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crawlSite } from '../src/drafting/crawler/crawl.ts';
import { RobotsCache } from '../src/drafting/crawler/robots.ts';
import { extractProfile, completeness } from '../src/drafting/extract/index.ts';
import {
  CORPUS_DIR,
  corpusAvailable,
  corpusSites,
  draftCorpusSite,
  formatTable,
  loadLabels,
  scoreSite,
  summarize,
  type SiteScore,
} from '../test/drafting/support/corpus.ts';
import { serveRoutes, html } from '../test/drafting/support/static-site.ts';

const BUDGET_MS = 10_000;

export interface DraftingBenchResult {
  sites: Array<{ site: string; pages: number; crawlMs: number; extractMs: number; completeness: number }>;
  scores: SiteScore[];
  tenPage: { pages: number; crawlMs: number; extractMs: number; totalMs: number; budgetMs: number };
}

async function tenPageSite(): Promise<DraftingBenchResult['tenPage']> {
  // A home page plus nine linked pages, built from real corpus pages (20–40 KB each).
  const sources = [
    'exceptionless/index.html',
    'exceptionless/pricing/index.html',
    'exceptionless/tour/index.html',
    'exceptionless/why/index.html',
    'exceptionless/contact/index.html',
    'openscad/downloads.html',
    'openscad/libraries.html',
    'ladybird/index.html',
    'raylib/index.html',
    'photovault/index.html',
  ];
  const bodies = await Promise.all(sources.map((s) => readFile(join(CORPUS_DIR, 'sites', s), 'utf8')));
  const names = ['pricing', 'tour', 'why', 'contact', 'about', 'features', 'faq', 'press', 'docs'];
  const links = names.map((n) => `<a href="/${n}">${n}</a>`).join(' ');
  const routes: Record<string, ReturnType<typeof html>> = {
    '/': html(bodies[0].replace('</body>', `<nav>${links}</nav></body>`)),
  };
  names.forEach((n, i) => {
    routes[`/${n}`] = html(bodies[i + 1]);
    routes[`/${n}/`] = html(bodies[i + 1]);
  });
  const server = await serveRoutes(routes);
  try {
    const t0 = performance.now();
    const crawl = await crawlSite(`${server.origin}/`, {
      allowHosts: [server.host],
      robots: new RobotsCache(),
      maxPages: 10,
    });
    const t1 = performance.now();
    extractProfile(crawl.pages);
    const t2 = performance.now();
    return { pages: crawl.pages.length, crawlMs: t1 - t0, extractMs: t2 - t1, totalMs: t2 - t0, budgetMs: BUDGET_MS };
  } finally {
    await server.close();
  }
}

export async function benchDrafting(log: (s: string) => void = console.log): Promise<DraftingBenchResult> {
  const result: DraftingBenchResult = {
    sites: [],
    scores: [],
    tenPage: { pages: 0, crawlMs: 0, extractMs: 0, totalMs: 0, budgetMs: BUDGET_MS },
  };
  if (corpusAvailable()) {
    log('site            pages  crawl ms  draft ms  completeness');
    for (const site of await corpusSites()) {
      const d = await draftCorpusSite(site);
      const c = completeness(d.draft).percent;
      result.sites.push({
        site,
        pages: d.crawl.pages.length,
        crawlMs: d.crawlMs,
        extractMs: d.extractMs,
        completeness: c,
      });
      result.scores.push(scoreSite(d, await loadLabels(site)));
      log(
        `${site.padEnd(16)}${String(d.crawl.pages.length).padStart(5)}${d.crawlMs.toFixed(0).padStart(10)}${d.extractMs.toFixed(0).padStart(10)}${`${c}%`.padStart(14)}`,
      );
    }
    log('');
    log(formatTable(summarize(result.scores)));
    log(
      '(features precision counts only items that match a labelled feature; labels list the main features, not all of them)',
    );
    log('');
    result.tenPage = await tenPageSite();
    const t = result.tenPage;
    log(
      `10-page site: ${t.pages} pages, crawl ${t.crawlMs.toFixed(0)} ms + draft ${t.extractMs.toFixed(0)} ms = ${t.totalMs.toFixed(0)} ms (${((100 * t.totalMs) / t.budgetMs).toFixed(1)}% of the ${t.budgetMs / 1000} s budget)`,
    );
  } else {
    log(`corpus not found at ${CORPUS_DIR}; set LAUNCHLIST_CORPUS`);
  }
  return result;
}

if (import.meta.main) {
  await benchDrafting();
}
