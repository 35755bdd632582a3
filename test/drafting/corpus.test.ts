/**
 * Truthfulness on real websites: each corpus site is served on loopback, crawled through the real
 * guarded fetcher and drafted by the rules. Nothing the labels say is not stated may be filled in,
 * every quote must be on the site, trap values must not appear, and recall of labelled facts must
 * stay at or above the floors below (what the drafter reaches today, without site-specific rules).
 */
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  corpusAvailable,
  corpusSites,
  draftCorpusSite,
  formatTable,
  loadLabels,
  scoreSite,
  summarize,
  SCORED_FIELDS,
  type DraftedSite,
  type Labels,
  type SiteScore,
} from './support/corpus.ts';

const available = corpusAvailable();

/** Values that the labels' notes name as traps; none may appear in a drafted value (FAQs are quoted verbatim and are checked separately). */
const TRAPS: Record<string, RegExp[]> = {
  streamline: [
    /dunedin/i,
    /new zealand/i,
    /john@business\.com/i,
    /support@example\.com/i,
    /anna thompson/i,
    /robin herrera/i,
    /\$(?:25|99|299)\b/,
    /subscription/i,
    /jim james/i,
  ],
  ladybird: [/100,000/, /50,000/, /platinum/i],
  exceptionless: [/codesmith-client-logo-bar/i, /\b2013\b/],
  photovault: [/\/month|\/year|per month|per year/i, /1562839653/],
  raylib: [/x\.com\/voidsrc/i],
  min: [/sponsors\/PalmerAL/i],
  tldr: [/Moon\.png/i, /inbrowser\.app/i],
};

describe('drafting the corpus sites', { skip: !available && 'corpus not found' }, () => {
  const drafted = new Map<string, { d: DraftedSite; labels: Labels; score: SiteScore }>();
  before(async () => {
    for (const site of await corpusSites()) {
      const d = await draftCorpusSite(site);
      const labels = await loadLabels(site);
      drafted.set(site, { d, labels, score: scoreSite(d, labels) });
    }
  });

  test('every site is crawled and drafted', () => {
    assert.ok(drafted.size >= 8, `drafted ${drafted.size} sites`);
    for (const { d } of drafted.values()) {
      assert.ok(d.crawl.pages.length >= 1);
      assert.equal(d.draft.fields.name.state, 'ai', `${d.site}: a name was found`);
    }
  });

  test('nothing is filled in for a field the site does not state', () => {
    for (const { score } of drafted.values()) assert.deepEqual(score.inventions, [], `${score.site} invented values`);
  });

  test('every value carries evidence quoted verbatim from the page it names', () => {
    for (const { d, score } of drafted.values()) {
      assert.deepEqual(score.unverifiedQuotes, [], `${d.site} has quotes not on its pages`);
      for (const [k, f] of Object.entries(d.draft.fields)) {
        if (f.state === 'ai') assert.ok(f.evidence.length > 0, `${d.site}.${k} has no evidence`);
        else assert.equal(f.value, null);
      }
    }
  });

  test('no wrong value in any scored field (the issue #19 target: 0 wrong values)', () => {
    for (const { score } of drafted.values()) {
      for (const f of SCORED_FIELDS) {
        const s = score.fields[f];
        assert.ok(!s.produced || s.correct, `${score.site}.${f} is wrong`);
      }
    }
  });

  test('trap values named in the label notes never appear', () => {
    for (const [site, traps] of Object.entries(TRAPS)) {
      const entry = drafted.get(site);
      if (!entry) continue;
      const { fields, faqs, founders, socials, milestones } = entry.d.draft;
      const values = JSON.stringify({
        v: Object.values(fields).map((f) => f.value),
        founders: founders.map((x) => x.name),
        socials,
        milestones: milestones.map((m) => m.title),
      });
      for (const t of traps) assert.doesNotMatch(values, t, `${site}: ${t}`);
      if (site === 'streamline') {
        // nothing at all from the template pages, FAQs included
        assert.doesNotMatch(JSON.stringify(faqs), /business\.com|example\.com|credit cards|nonprofit pricing/i);
      }
    }
  });

  test('template leftover pages are recognised and ignored', () => {
    const s = drafted.get('streamline');
    if (!s) return;
    // they are not linked and the sitemap names another host, so they are not even read…
    assert.ok(s.d.crawl.pages.every((p) => !/\/(?:pricing|about|contact)\/$/.test(p.url)));
  });

  test('the classifier (demo category tree) picks an acceptable primary category on enough sites', () => {
    const withCats = [...drafted.values()].filter((x) => x.score.category.ok !== null);
    const ok = withCats.filter((x) => x.score.category.ok).length;
    console.log(
      `primary category acceptable: ${ok}/${withCats.length}; ${[...drafted.values()].map((x) => `${x.d.site}=${x.score.category.primary ?? '–'}`).join(' ')}`,
    );
    // the issue's target: 85 % of the sites that have acceptable categories
    assert.ok(ok / withCats.length >= 0.85, `${ok}/${withCats.length}`);
    for (const { d } of drafted.values()) {
      const f = d.draft.fields.categories;
      if (f.state === 'ai')
        assert.ok(f.evidence.length > 0, `${d.site}: categories have the site text that decided them`);
    }
  });

  test('recall of labelled facts stays at or above the floors', () => {
    const table = summarize([...drafted.values()].map((x) => x.score));
    console.log(`\n${formatTable(table)}\n`);
    const floors: Record<string, number> = {
      name: 1,
      tagline: 0.85,
      description: 0.85,
      pricing_model: 0.85,
      pricing_summary: 0.8,
      contact_email: 0.75,
      logo_url: 0.85,
      demo_video_url: 0.5,
      country: 1,
      // the issue's target (#19): features ≥ 70 %
      'features (items)': 0.7,
      'socials (links)': 0.9,
    };
    // the issue's target (#19): stated facts found ≥ 90 % (the scored single-value fields together)
    const single = table.rows.filter((r) => !r.field.includes('('));
    const stated = single.reduce((a, r) => a + r.labelled, 0);
    const found = single.reduce((a, r) => a + r.found, 0);
    assert.ok(found / stated >= 0.9, `stated facts found ${found}/${stated}`);
    for (const row of table.rows) {
      const floor = floors[row.field];
      if (floor === undefined || row.recall === null) continue;
      assert.ok(row.recall >= floor, `${row.field}: recall ${row.recall.toFixed(2)} < ${floor}`);
    }
  });
});
