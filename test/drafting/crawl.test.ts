import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { crawlSite, CrawlError, pageUsefulness } from '../../src/drafting/crawler/crawl.ts';
import { RobotsCache } from '../../src/drafting/crawler/robots.ts';
import { serveRoutes, html, text, type RunningServer } from './support/static-site.ts';

const page = (title: string, body: string, head = ''): string =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;

async function crawlFails(p: Promise<unknown>, reason: string): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof CrawlError, String(e));
    assert.equal(e.reason, reason, e.message);
    return true;
  });
}

describe('crawlSite', () => {
  let site: RunningServer;
  let external: RunningServer;
  before(async () => {
    external = await serveRoutes({ '/page': html(page('External', '<p>not ours</p>')) });
    site = await serveRoutes({
      '/robots.txt': text(
        'User-agent: *\nDisallow: /private\nCrawl-delay: 1\nSitemap: https://www.acme.example/sitemap.xml\n',
      ),
      '/': html(
        page(
          'Acme',
          `<nav><a href="/pricing">Pricing</a> <a href="/about">About us</a> <a href="/private/secret">Secret</a>
           <a href="https://www.acme.example/features#top">Features</a> <a href="${external.origin}/page">Partner</a>
           <a href="/logo.png">Logo</a> <a href="mailto:hi@acme.example">Mail</a> <a href="/blog/2020/01/02/old-post">Old post</a></nav><h1>Acme</h1>`,
          '<link rel="canonical" href="https://www.acme.example/">',
        ),
      ),
      '/sitemap.xml': text(
        '<?xml version="1.0"?><urlset><url><loc>https://www.acme.example/faq</loc></url><url><loc>http://localhost:4000/trap</loc></url><url><loc>https://acme.example/pricing</loc></url></urlset>',
        200,
        'application/xml',
      ),
      '/pricing': html(page('Pricing', '<h1>Pricing</h1><p>$10 per month</p>')),
      '/about': html(page('About', '<h1>About</h1>')),
      '/features': html(page('Features', '<h1>Features</h1>')),
      '/faq': html(page('FAQ', '<h1>FAQ</h1>')),
      '/trap': html(page('Trap', '<h1>Trap</h1>')),
      '/private/secret': html(page('Secret', '<h1>Secret</h1>')),
      '/blog/2020/01/02/old-post': html(page('Old', '<h1>Old</h1>')),
    });
  });
  after(async () => {
    await site.close();
    await external.close();
  });

  test('reads the home page and useful same-site pages, honouring robots.txt and crawl-delay', async () => {
    let clock = 0;
    const waits: number[] = [];
    const progress: string[] = [];
    const r = await crawlSite(`${site.origin}/`, {
      allowHosts: [site.host, external.host],
      robots: new RobotsCache(),
      maxPages: 5,
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
      onProgress: (stage, read, planned) => progress.push(`${stage}:${read}/${planned}`),
    });
    const paths = r.pages.map((p) => new URL(p.url).pathname);
    assert.equal(paths[0], '/');
    assert.deepEqual(new Set(paths), new Set(['/', '/pricing', '/about', '/features', '/faq']));
    assert.equal(r.pages.find((p) => p.url.endsWith('/faq'))?.source, 'sitemap');
    assert.equal(r.pages.find((p) => p.url.endsWith('/pricing'))?.linkedFromHome, true);
    assert.ok(
      r.pages.every((p) => p.url.startsWith(site.origin)),
      'canonical-host links are read through the site origin',
    );
    assert.equal(external.requests.length, 0, 'other hosts are never fetched');
    assert.ok(!site.requests.includes('/trap'), 'sitemap entries on foreign hosts are ignored');
    assert.ok(!site.requests.includes('/private/secret'), 'robots.txt disallow honoured');
    assert.ok(!site.requests.includes('/logo.png'), 'non-HTML links are not fetched');
    assert.equal(r.crawlDelaySeconds, 1);
    // sitemap + 4 pages, each at least 1 s after the previous request
    assert.ok(waits.length >= 4, `waited ${waits.length} times`);
    assert.ok(waits.every((w) => w <= 1000 && w > 0));
    assert.equal(progress[0], 'robots:0/0');
    assert.equal(progress.at(-1), 'done:5/5');
    assert.ok(r.pages[1].text.length > 0 && r.pages[1].title.length > 0);
  });

  test('robots-disallowed pages are reported when they would have been planned', async () => {
    const r = await crawlSite(`${site.origin}/`, {
      allowHosts: [site.host],
      robots: new RobotsCache(),
      maxPages: 12,
      sleep: async () => {},
    });
    assert.ok(r.robotsBlocked.some((u) => u.endsWith('/private/secret')));
  });

  test('usefulness ranks pricing/about/features above legal pages and posts', () => {
    const s = (p: string, t = ''): number => pageUsefulness(`https://x.example${p}`, t);
    assert.ok(s('/pricing') > s('/about') && s('/about') > s('/features') && s('/features') > s('/privacy'));
    assert.ok(s('/blog/2021/03/04/hello') < s('/faq'));
    assert.equal(s('/brochure.pdf'), -1);
    assert.equal(s('/login'), -1);
    assert.ok(s('/p/123', 'Plans & Pricing') >= 90, 'link text counts');
  });
});

describe('crawlSite home page failures', () => {
  let srv: RunningServer;
  before(async () => {
    srv = await serveRoutes({
      '/robots.txt': text(
        'User-agent: *\nDisallow: /blocked\n\nUser-agent: LaunchlistBot\nDisallow: /blocked\nDisallow: /also-blocked\n',
      ),
      '/': html(page('Home', '<h1>Home</h1><a href="/a">A</a>')),
      '/a': html(page('A', '<h1>A</h1>')),
      '/blocked': html(page('B', '<h1>B</h1>')),
      '/image': text('png', 200, 'image/png'),
      '/huge': html(page('Huge', `<p>${'x'.repeat(20_000)}</p>`)),
      '/missing': html('nope', 404),
    });
  });
  after(() => srv.close());

  test('robots_disallowed', async () => {
    await crawlFails(
      crawlSite(`${srv.origin}/blocked`, { allowHosts: [srv.host], robots: new RobotsCache() }),
      'robots_disallowed',
    );
    await crawlFails(
      crawlSite(`${srv.origin}/also-blocked`, { allowHosts: [srv.host], robots: new RobotsCache() }),
      'robots_disallowed',
    );
  });

  test('robots.txt answering 5xx means no crawling', async () => {
    const s5 = await serveRoutes({ '/robots.txt': text('down', 503), '/': html(page('x', 'x')) });
    try {
      await crawlFails(
        crawlSite(`${s5.origin}/`, { allowHosts: [s5.host], robots: new RobotsCache() }),
        'robots_disallowed',
      );
      assert.ok(!s5.requests.includes('/'), 'the home page was not requested');
    } finally {
      await s5.close();
    }
  });

  test('not_html, too_large, http_error, unreachable, address_not_public, scheme_not_allowed', async () => {
    const o = { allowHosts: [srv.host], robots: new RobotsCache() };
    await crawlFails(crawlSite(`${srv.origin}/image`, o), 'not_html');
    await crawlFails(crawlSite(`${srv.origin}/huge`, { ...o, maxBytesPerPage: 5000 }), 'too_large');
    await crawlFails(crawlSite(`${srv.origin}/missing`, o), 'http_error');
    await crawlFails(
      crawlSite('http://127.0.0.1:1/', { allowHosts: ['127.0.0.1:1'], robots: new RobotsCache() }),
      'unreachable',
    );
    await crawlFails(crawlSite('http://10.0.0.1/', { robots: new RobotsCache() }), 'address_not_public');
    await crawlFails(crawlSite('ftp://example.com/', { robots: new RobotsCache() }), 'scheme_not_allowed');
  });

  test('a crawl-delay beyond the cap reads the home page only', async () => {
    const slow = await serveRoutes({
      '/robots.txt': text('User-agent: *\nCrawl-delay: 60\n'),
      '/': html(page('Home', '<a href="/about">About</a>')),
      '/about': html(page('About', 'a')),
    });
    try {
      const r = await crawlSite(`${slow.origin}/`, {
        allowHosts: [slow.host],
        robots: new RobotsCache(),
        maxCrawlDelayMs: 10_000,
      });
      assert.equal(r.pages.length, 1);
      assert.equal(r.errors[0].reason, 'crawl_delay');
      assert.ok(!slow.requests.includes('/about'));
    } finally {
      await slow.close();
    }
  });

  test('the total time budget stops the crawl', async () => {
    const routes: Record<string, ReturnType<typeof html>> = {
      '/': html(page('Home', Array.from({ length: 6 }, (_, i) => `<a href="/p${i}">P${i}</a>`).join(''))),
    };
    for (let i = 0; i < 6; i++) {
      routes[`/p${i}`] = async (_req, res) => {
        await new Promise((r) => setTimeout(r, 400));
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html' }).end(page(`P${i}`, 'x'));
      };
    }
    const s = await serveRoutes(routes);
    try {
      const t0 = Date.now();
      const r = await crawlSite(`${s.origin}/`, {
        allowHosts: [s.host],
        robots: new RobotsCache(),
        totalTimeMs: 600,
        concurrency: 1,
      });
      assert.ok(Date.now() - t0 < 1500, `took ${Date.now() - t0} ms`);
      assert.ok(r.pages.length < 7);
      assert.ok(r.errors.some((e) => e.reason === 'time_budget' || e.reason === 'timeout'));
    } finally {
      await s.close();
    }
  });
});
