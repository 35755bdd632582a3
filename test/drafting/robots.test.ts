import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parseRobots, fetchRobots, RobotsCache, type RobotsPolicy } from '../../src/drafting/crawler/robots.ts';
import { serveRoutes, text, redirect, type RunningServer } from './support/static-site.ts';

const O = 'https://example.com';

describe('parseRobots', () => {
  test('disallow and allow: the longest match wins', () => {
    const r = parseRobots(
      O,
      ['User-agent: *', 'Disallow: /private/', 'Allow: /private/press-kit', 'Disallow: /*.pdf$', 'Allow: /'].join('\n'),
    );
    assert.equal(r.isAllowed(`${O}/`), true);
    assert.equal(r.isAllowed(`${O}/pricing`), true);
    assert.equal(r.isAllowed(`${O}/private/notes`), false);
    assert.equal(r.isAllowed(`${O}/private/press-kit/logo`), true);
    assert.equal(r.isAllowed(`${O}/docs/manual.pdf`), false);
    assert.equal(r.isAllowed(`${O}/docs/manual.pdf.html`), true);
  });

  test('a group for LaunchlistBot wins over *', () => {
    const r = parseRobots(
      O,
      ['User-agent: *', 'Disallow: /', '', 'User-agent: LaunchlistBot', 'Disallow: /admin', 'Crawl-delay: 2'].join(
        '\n',
      ),
    );
    assert.equal(r.isAllowed(`${O}/pricing`), true);
    assert.equal(r.isAllowed(`${O}/admin/users`), false);
    assert.equal(r.crawlDelaySeconds, 2);
    const other = parseRobots(O, ['User-agent: GPTBot', 'Disallow: /', '', 'User-agent: *', 'Allow: /'].join('\n'));
    assert.equal(other.isAllowed(`${O}/about`), true);
    const blocked = parseRobots(O, ['User-agent: *', 'Disallow: /'].join('\n'));
    assert.equal(blocked.isAllowed(`${O}/about`), false);
    assert.equal(blocked.isAllowed(`${O}/robots.txt`), true, 'robots.txt itself is always allowed');
  });

  test('crawl-delay and sitemaps; other origins are never allowed', () => {
    const r = parseRobots(
      O,
      ['User-agent: *', 'Crawl-delay: 1.5', 'Sitemap: https://example.com/sitemap.xml'].join('\n'),
    );
    assert.equal(r.crawlDelaySeconds, 1.5);
    assert.deepEqual(r.sitemaps, ['https://example.com/sitemap.xml']);
    assert.equal(r.isAllowed('https://other.example/'), false);
    assert.equal(parseRobots(O, 'User-agent: *\nDisallow:').crawlDelaySeconds, null);
  });
});

describe('fetchRobots over HTTP', () => {
  let s404: RunningServer, s500: RunningServer, sOk: RunningServer, s429: RunningServer, sLoop: RunningServer;
  before(async () => {
    s404 = await serveRoutes({});
    s500 = await serveRoutes({ '/robots.txt': text('oops', 500) });
    s429 = await serveRoutes({ '/robots.txt': text('slow down', 429) });
    sOk = await serveRoutes({ '/robots.txt': text('User-agent: *\nDisallow: /secret\nCrawl-delay: 3\n') });
    sLoop = await serveRoutes({
      '/robots.txt': redirect('/r1'),
      '/r1': redirect('/r2'),
      '/r2': redirect('/r3'),
      '/r3': redirect('/r4'),
      '/r4': redirect('/r5'),
      '/r5': redirect('/r6'),
      '/r6': redirect('/robots.txt'),
    });
  });
  after(async () => {
    for (const s of [s404, s500, s429, sOk, sLoop]) await s.close();
  });

  test('404 → everything allowed', async () => {
    const r = await fetchRobots(s404.origin, { allowHosts: [s404.host] });
    assert.equal(r.status, 'unavailable');
    assert.equal(r.httpStatus, 404);
    assert.equal(r.isAllowed(`${s404.origin}/anything`), true);
  });

  test('500 and 429 → everything disallowed', async () => {
    const r = await fetchRobots(s500.origin, { allowHosts: [s500.host] });
    assert.equal(r.status, 'unreachable');
    assert.equal(r.isAllowed(`${s500.origin}/`), false);
    const t = await fetchRobots(s429.origin, { allowHosts: [s429.host] });
    assert.equal(t.isAllowed(`${s429.origin}/`), false);
  });

  test('unreachable host → everything disallowed', async () => {
    const r = await fetchRobots('http://127.0.0.1:1', { allowHosts: ['127.0.0.1:1'] });
    assert.equal(r.status, 'unreachable');
    assert.equal(r.error, 'unreachable');
    assert.equal(r.isAllowed('http://127.0.0.1:1/'), false);
  });

  test('too many redirects → unavailable (allowed)', async () => {
    const r = await fetchRobots(sLoop.origin, { allowHosts: [sLoop.host] });
    assert.equal(r.status, 'unavailable');
    assert.equal(r.isAllowed(`${sLoop.origin}/page`), true);
  });

  test('a served file is parsed', async () => {
    const r = await fetchRobots(`${sOk.origin}/some/page`, { allowHosts: [sOk.host] });
    assert.equal(r.status, 'parsed');
    assert.equal(r.crawlDelaySeconds, 3);
    assert.equal(r.isAllowed(`${sOk.origin}/secret/x`), false);
    assert.equal(r.isAllowed(`${sOk.origin}/public`), true);
  });
});

describe('RobotsCache', () => {
  test('caches per origin with a TTL and an injectable clock; LRU eviction', async () => {
    let now = 1_000;
    const loads: string[] = [];
    const cache = new RobotsCache({
      ttlMs: 1000,
      maxEntries: 2,
      now: () => now,
      load: async (origin) => {
        loads.push(origin);
        return parseRobots(origin, 'User-agent: *\nDisallow: /x', now);
      },
    });
    assert.equal(await cache.isAllowed('https://a.example/x/1'), false);
    assert.equal(await cache.isAllowed('https://a.example/y'), true);
    assert.deepEqual(loads, ['https://a.example']);
    now += 999;
    await cache.get('https://a.example/');
    assert.equal(loads.length, 1, 'still fresh');
    now += 2;
    await cache.get('https://a.example/');
    assert.equal(loads.length, 2, 'expired and reloaded');
    await cache.get('https://b.example/');
    await cache.get('https://a.example/'); // a is now most recently used
    await cache.get('https://c.example/'); // evicts b
    assert.equal(cache.size, 2);
    await cache.get('https://a.example/');
    assert.equal(loads.filter((o) => o === 'https://a.example').length, 2);
    await cache.get('https://b.example/');
    assert.equal(loads.filter((o) => o === 'https://b.example').length, 2, 'b was evicted');
  });

  test('concurrent look-ups share one fetch; errors expire sooner', async () => {
    let now = 0;
    let n = 0;
    const cache = new RobotsCache({
      now: () => now,
      errorTtlMs: 50,
      load: async (origin): Promise<RobotsPolicy> => {
        n++;
        await new Promise((r) => setTimeout(r, 10));
        return { ...parseRobots(origin, ''), status: 'unreachable', isAllowed: () => false };
      },
    });
    await Promise.all([
      cache.get('https://a.example/1'),
      cache.get('https://a.example/2'),
      cache.get('https://a.example/3'),
    ]);
    assert.equal(n, 1);
    now += 51;
    await cache.get('https://a.example/');
    assert.equal(n, 2);
  });
});
