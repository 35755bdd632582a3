import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { MockLanguageModelV4 } from 'ai/test';
import { draftSite } from '../../src/drafting/draft.ts';
import { CrawlError } from '../../src/drafting/crawler/crawl.ts';
import { RobotsCache } from '../../src/drafting/crawler/robots.ts';
import { serveStaticSite } from './support/static-site.ts';
import { CORPUS_DIR, corpusAvailable } from './support/corpus.ts';

function mock(proposal: unknown): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: 'text', text: JSON.stringify(proposal) }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

describe('draftSite (crawl + rules + optional LLM)', { skip: !corpusAvailable() && 'corpus not found' }, () => {
  test('drafts a real site end to end; LLM proposals are verified against the crawled pages', async () => {
    const server = await serveStaticSite(join(CORPUS_DIR, 'sites', 'min'));
    try {
      const home = `${server.origin}/`;
      const progress: string[] = [];
      const r = await draftSite(home, {
        allowHosts: [server.host],
        robots: new RobotsCache(),
        categoryNames: ['Browsers', 'Productivity'],
        onProgress: (stage) => progress.push(stage),
        llm: {
          model: mock({
            categories: [
              { name: 'Browsers', quotes: [{ quote: 'A focused, fast browser.', url: home }] },
              { name: 'Crypto wallets', quotes: [{ quote: 'A focused, fast browser.', url: home }] },
            ],
            tagline: {
              value: 'The browser with built-in VPN',
              quotes: [{ quote: 'Min includes a free VPN', url: home }],
            },
          }),
        },
      });
      assert.equal(r.draft.fields.name.value, 'Min');
      assert.deepEqual(r.draft.fields.categories.value, ['Browsers']);
      assert.equal(
        r.draft.fields.tagline.value,
        'A fast, minimal browser that protects your privacy',
        'the fabricated tagline was dropped; the rules tagline stands',
      );
      assert.deepEqual(r.llm.dropped.map((d) => d.reason).sort(), ['category_not_allowed', 'quote_not_found']);
      assert.ok(r.completeness.percent > 0 && r.completeness.percent < 100);
      assert.ok(r.missing.includes('founded_year'));
      assert.equal(progress.at(-1), 'done');
      assert.equal(r.crawl.pages[0].url, home);
    } finally {
      await server.close();
    }
  });

  test('a home page that cannot be read fails with a reason', async () => {
    await assert.rejects(
      draftSite('http://127.0.0.1:1/', { allowHosts: ['127.0.0.1:1'], robots: new RobotsCache() }),
      (e: unknown) => e instanceof CrawlError && e.reason === 'unreachable',
    );
  });
});
