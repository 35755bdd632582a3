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
  type DraftedSite,
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

/** Evidence quotes of a draft (fields, socials, FAQs, founders, milestones). */
function countQuotes(d: DraftedSite): number {
  let n = 0;
  for (const f of Object.values(d.draft.fields)) n += f.evidence.length;
  for (const e of Object.values(d.draft.socials_evidence)) n += e?.length ?? 0;
  for (const x of [...d.draft.faqs, ...d.draft.founders, ...d.draft.milestones]) n += x.evidence.length;
  return n;
}

export async function benchDrafting(log: (s: string) => void = console.log): Promise<DraftingBenchResult> {
  const result: DraftingBenchResult = {
    sites: [],
    scores: [],
    tenPage: { pages: 0, crawlMs: 0, extractMs: 0, totalMs: 0, budgetMs: BUDGET_MS },
  };
  if (corpusAvailable()) {
    const rows: string[][] = [];
    const tot = { inv: 0, wrong: 0, qv: 0, qt: 0, sf: 0, sl: 0, ff: 0, fl: 0, ca: 0, cn: 0, worst: 0 };
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
      const s = scoreSite(d, await loadLabels(site));
      result.scores.push(s);
      const fields = Object.values(s.fields);
      const inv = s.inventions.length;
      const wrong = fields.filter((f) => f.labelled && f.produced && !f.correct).length;
      const stated = fields.filter((f) => f.labelled).length;
      const found = fields.filter((f) => f.labelled && f.correct).length;
      const quotes = countQuotes(d);
      const ms = d.crawlMs + d.extractMs;
      tot.inv += inv;
      tot.wrong += wrong;
      tot.qv += quotes - s.unverifiedQuotes.length;
      tot.qt += quotes;
      tot.sf += found;
      tot.sl += stated;
      tot.ff += s.features.found;
      tot.fl += s.features.labelled;
      if (s.category.ok !== null) {
        tot.cn++;
        if (s.category.ok) tot.ca++;
      }
      tot.worst = Math.max(tot.worst, ms);
      rows.push([
        site,
        String(inv),
        String(wrong),
        `${quotes - s.unverifiedQuotes.length}/${quotes}`,
        `${found}/${stated}`,
        `${s.features.found}/${s.features.labelled}`,
        s.category.ok === null
          ? `– (${s.category.primary ?? 'none'})`
          : `${s.category.ok ? 'yes' : 'no'} (${s.category.primary ?? 'none'})`,
        `${(ms / 1000).toFixed(2)} s`,
      ]);
    }
    const pct = (a: number, b: number): string => (b ? `${Math.round((100 * a) / b)} %` : '–');
    rows.push([
      'total',
      String(tot.inv),
      String(tot.wrong),
      `${tot.qv}/${tot.qt}`,
      `${tot.sf}/${tot.sl} (${pct(tot.sf, tot.sl)})`,
      `${tot.ff}/${tot.fl} (${pct(tot.ff, tot.fl)})`,
      `${tot.ca}/${tot.cn} (${pct(tot.ca, tot.cn)})`,
      `max ${(tot.worst / 1000).toFixed(2)} s`,
    ]);
    const head = [
      'site',
      'invented',
      'wrong values',
      'quotes verbatim',
      'stated facts found',
      'features found',
      'category acceptable (primary)',
      'time to ready',
    ];
    log(`| ${head.join(' | ')} |`);
    log(`|${head.map(() => '---').join('|')}|`);
    for (const r of rows) log(`| ${r.join(' | ')} |`);
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
