// The public website's latest-updates page (/updates), compare page, alternatives page, search
// filters, robots.txt and sitemap.xml, over a small fixture with known answers: what a visitor sees,
// what stays text, and bad input answered by a 4xx page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as cheerio from 'cheerio';
import { testApp, type TestApp } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { makeUser } from '../jobs/support/users.ts';
import { week } from '../support/seed-fixtures.ts';
import { parseRobots } from '../../src/drafting/crawler/robots.ts';
import { sitemapSlugs } from '../../src/store/repos/sitemap.ts';

let t: TestApp;
const EVIL = '<script>alert("x")</script> & co';
const MINUTE = 60_000;
/** 35 updates (more than a page of 30) on live listings, the newest first: "Update 35" … "Update 1". */
const UPDATES = 35;
const START = Date.UTC(2025, 0, 6, 9, 0, 0);
/** Live games in France: one more than a search page of 20. */
const BULK = 21;
const at = (i: number) => new Date(START + i * MINUTE).toISOString();

before(async () => {
  t = await testApp({}, async (store) => {
    const db = store.db;
    await category(db, 'tools', { name: 'Tools', attributes: ['open_source', 'api'] });
    await category(db, 'notes', { name: 'Notes', parent: 'tools', attributes: ['offline'] });
    await category(db, 'finance', { name: 'Finance' });
    const alpha = await listing(db, {
      slug: 'alpha',
      name: 'Alpha',
      tagline: 'Alpha tagline',
      category: 'tools',
      votes: 30,
      facts: { open_source: true, api: 'REST' },
    });
    const bravo = await listing(db, {
      slug: 'bravo',
      name: 'Bravo',
      tagline: 'Bravo tagline',
      category: 'notes',
      votes: 20,
      country: 'DE',
      stage: 'growing',
      pricing_model: 'Subscription',
      facts: { offline: true },
    });
    const hidden = await listing(db, { slug: 'hidden', name: 'Hidden', category: 'tools', status: 'draft' });
    await listing(db, { slug: 'soon', name: 'Soon', category: 'tools', status: 'scheduled', launch_week: week(1) });
    await listing(db, { slug: 'evil', name: EVIL, tagline: EVIL, category: 'finance', votes: 5 });
    await listing(db, { slug: 'delta', name: 'Delta', category: 'tools', votes: 10 });
    await listing(db, { slug: 'echo', name: 'Echo', category: 'tools', votes: 15 });
    await category(db, 'games', { name: 'Games' });
    for (let i = 1; i <= BULK; i++)
      await listing(db, { slug: `game-${i}`, name: `Game ${i}`, category: 'games', country: 'FR', launched_at: at(i) });
    const founder = (slug: string) =>
      db
        .insertInto('founders')
        .values({
          slug,
          name: slug,
          title: null,
          bio: null,
          country: null,
          socials: '{}',
          avatar_url: null,
          user_id: null,
          created_at: at(0),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    await db
      .insertInto('listing_founders')
      .values([
        { listing_id: alpha, founder_id: (await founder('ada')).id, position: 0 },
        { listing_id: hidden, founder_id: (await founder('ghost')).id, position: 0 },
      ])
      .execute();
    const post = (slug: string, published_at: string) => ({
      slug,
      title: slug,
      excerpt: 'Excerpt.',
      author: 'Tester',
      tags: '[]',
      body_md: 'Text.',
      faqs: '[]',
      published_at,
      created_at: at(0),
    });
    await db
      .insertInto('blog_posts')
      .values([post('hello-world', at(1)), post('not-yet', new Date(Date.now() + 7 * 24 * 3_600_000).toISOString())])
      .execute();
    await db
      .updateTable('listings')
      .set({ launch_week: week(-1) })
      .where('id', '=', alpha)
      .execute();
    await db
      .updateTable('listings')
      .set({ launch_week: week(0) })
      .where('id', '=', bravo)
      .execute();
    await db
      .insertInto('alternatives')
      .values({ listing_id: alpha, alternative_id: bravo, approved: true, position: 0 })
      .execute();
    for (let i = 1; i <= UPDATES; i++) {
      await db
        .insertInto('updates')
        .values({
          listing_id: i % 2 ? alpha : bravo,
          title: `Update ${i}`,
          body: `Body of update ${i}.`,
          created_at: at(i),
        })
        .execute();
    }
    await db
      .insertInto('updates')
      .values({ listing_id: hidden, title: 'Secret draft update', body: 'Never public.', created_at: at(UPDATES + 10) })
      .execute();
  });
});
after(async () => {
  await t.cleanup();
});

async function page(url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
  return { res, $: cheerio.load(res.body) };
}

const titles = ($: cheerio.CheerioAPI) =>
  $('main article.update h2')
    .map((_, el) => $(el).text())
    .get();
/** Where the page's headings skip a level (h1 → h3): each as "1→3"; none on a well-formed page. */
const headingSkips = ($: cheerio.CheerioAPI): string[] => {
  const levels = $('h1, h2, h3, h4, h5, h6')
    .map((_, el) => Number((el as { tagName: string }).tagName[1]))
    .get() as number[];
  return levels.flatMap((l, i) => (i && l > levels[i - 1] + 1 ? [`${levels[i - 1]}→${l}`] : []));
};

// ------------------------------------------------------------------ /updates

describe('latest updates', () => {
  test('updates of live listings, newest first, 30 a page, each with its date and a link to its listing', async () => {
    const { res, $ } = await page('/updates');
    assert.equal(res.statusCode, 200);
    assert.equal($('h1').text(), 'Latest updates');
    const expected = Array.from({ length: 30 }, (_, i) => `Update ${UPDATES - i}`);
    assert.deepEqual(titles($), expected);
    assert.doesNotMatch($('main').text(), /Secret draft update/, "a draft listing's update is not public");
    const first = $('main article.update').first();
    assert.equal(first.find('a[href="/listings/alpha"]').text(), 'Alpha', 'update 35 is about Alpha');
    assert.equal(first.find('time').attr('datetime'), at(UPDATES));
    assert.equal(first.find('time').text(), '6 Jan 2025');
    assert.equal(first.find('p').last().text(), `Body of update ${UPDATES}.`);
    assert.equal($('main article.update').eq(1).find('a[href="/listings/bravo"]').length, 1);
    assert.match($('.pager').text(), /Page 1 of 2/);
    assert.equal($('.pager a[rel=next]').attr('href'), '/updates?page=2');

    const two = await page('/updates?page=2');
    assert.equal(two.res.statusCode, 200);
    assert.deepEqual(titles(two.$), ['Update 5', 'Update 4', 'Update 3', 'Update 2', 'Update 1']);
    assert.equal(two.$('.pager a[rel=prev]').attr('href'), '/updates?page=1');
    assert.equal(two.$('.pager a[rel=next]').length, 0);
    assert.equal(two.$('meta[name=robots]').attr('content'), 'noindex');
  });

  test('an update posted with post_listing_update leads the page; its text stays text and keeps its line breaks', async () => {
    const maker = await makeUser(t.store.db);
    const id = (
      await t.store.db.selectFrom('listings').select('id').where('slug', '=', 'bravo').executeTakeFirstOrThrow()
    ).id;
    await t.store.db.updateTable('listings').set({ owner_id: maker.id }).where('id', '=', id).execute();
    const posted = await t.app.inject({
      method: 'POST',
      url: `/api/v1/me/listings/${id}/updates`,
      headers: maker.auth,
      payload: { title: `Version 2 ${EVIL}`, body: `Line one <b>bold?</b>\nline two\n\nNew paragraph` },
    });
    assert.equal(posted.statusCode, 201, posted.body);
    try {
      const { res, $ } = await page('/updates');
      const first = $('main article.update').first();
      assert.equal(first.find('h2').text(), `Version 2 ${EVIL}`);
      assert.equal($('script').length, 0);
      assert.doesNotMatch(res.body, /<b>bold/);
      const paras = first.find('p:not(.meta)');
      assert.equal(paras.length, 2, 'a blank line starts a new paragraph');
      assert.equal(paras.first().find('br').length, 1, 'a single line break is kept');
      assert.equal(paras.first().text(), 'Line one <b>bold?</b>line two');
      assert.equal(paras.last().text(), 'New paragraph');
      assert.equal(first.find('a[href="/listings/bravo"]').text(), 'Bravo');
      assert.equal(titles($).length, 30);
      assert.match($('.pager').text(), /Page 1 of 2/);
    } finally {
      await t.store.db
        .deleteFrom('updates')
        .where('listing_id', '=', id)
        .where('title', 'like', 'Version 2%')
        .execute();
    }
  });

  test("the site navigation and a listing's updates section lead to the page", async () => {
    const { $ } = await page('/updates');
    assert.equal($('header nav a[href="/updates"]').attr('aria-current'), 'page');
    const home = await page('/');
    assert.equal(home.$('header nav a[href="/updates"]').text(), 'Updates');
    const alpha = await page('/listings/alpha');
    assert.equal(alpha.$('#updates-h').parent().find('a[href="/updates"]').length, 1);
    assert.equal(alpha.$('#updates-h').parent().find('article.update h3').first().text(), 'Update 35');
  });

  test('a page that is not a number from 1 to 1000 is a 400 page naming it', async () => {
    for (const bad of ['abc', '0', '1001', '1.5']) {
      const { res, $ } = await page(`/updates?page=${bad}`);
      assert.equal(res.statusCode, 400, bad);
      assert.match(res.headers['content-type'] as string, /text\/html/);
      assert.match($('main li').text(), /^page /, bad);
    }
    assert.deepEqual(titles((await page('/updates?page=')).$).slice(0, 1), ['Update 35'], 'an empty page is the first');
    const empty = await page('/updates?page=9');
    assert.equal(empty.res.statusCode, 200);
    assert.match(empty.$('main').text(), /No updates on this page/);
  });
});

// ------------------------------------------------------------------ /compare

describe('compare', () => {
  test('two live listings side by side: the facts compare_listings gives, in its order, unstated ones said so', async () => {
    const api = (await t.app.inject({ method: 'GET', url: '/api/v1/compare?a=alpha&b=bravo' })).json();
    const { res, $ } = await page('/compare?a=alpha&b=bravo');
    assert.equal(res.statusCode, 200);
    assert.equal($('h1').text(), 'Alpha vs Bravo');
    assert.deepEqual(
      $('table thead th a')
        .map((_, el) => $(el).attr('href'))
        .get(),
      ['/listings/alpha', '/listings/bravo'],
    );
    const rows = new Map(
      $('table tbody tr')
        .map((_, tr) => [
          [
            $(tr).find('th').text(),
            $(tr)
              .find('td')
              .map((_i, td) => $(td).text())
              .get(),
          ],
        ])
        .get() as Array<[string, string[]]>,
    );
    const labels = $('table tbody tr th')
      .map((_, el) => $(el).text())
      .get();
    assert.deepEqual(
      labels.slice(-api.attributes.length),
      api.attributes.map((c: { label: string }) => c.label),
      'every attribute of compare_listings, in its order',
    );
    assert.deepEqual(rows.get('Country'), ['United States', 'Germany']);
    assert.deepEqual(rows.get('Stage'), ['Launched', 'Growing']);
    assert.deepEqual(rows.get('Pricing model'), ['Freemium', 'Subscription']);
    assert.deepEqual(rows.get('Open source'), ['Yes', 'Not stated']);
    assert.deepEqual(rows.get('API'), ['REST', 'Not stated']);
    assert.deepEqual(rows.get('Offline'), ['Not stated', 'Yes']);
    assert.deepEqual(rows.get('Tagline'), ['Alpha tagline', 'Bravo tagline']);
    assert.deepEqual(rows.get('Votes'), ['30', '20']);
    assert.equal(
      $('a')
        .filter((_, el) => $(el).text() === 'Swap the columns')
        .attr('href'),
      '/compare?a=bravo&b=alpha',
    );
  });

  test('without two products: a form of two text inputs, keeping what was given; the listing page links to it', async () => {
    const empty = await page('/compare');
    assert.equal(empty.res.statusCode, 200);
    assert.equal(empty.$('table').length, 0);
    assert.equal(empty.$('form[action="/compare"] input[type=text][name=a]').val(), '');
    assert.equal(empty.$('form[action="/compare"] input[type=text][name=b]').val(), '');
    assert.equal(
      empty.$('label[for=compare-a]').length + empty.$('label[for=compare-b]').length,
      2,
      'both inputs are labelled',
    );

    const listingPage = await page('/listings/alpha');
    const href = listingPage
      .$('a')
      .filter((_, el) => /^Compare Alpha with/.test(listingPage.$(el).text()))
      .attr('href');
    assert.equal(href, '/compare?a=alpha');
    const one = await page(href!);
    assert.equal(one.res.statusCode, 200);
    assert.equal(one.$('input[name=a]').val(), 'alpha');
    assert.equal(one.$('input[name=b]').val(), '');
    assert.equal(one.$('table').length, 0);
    assert.equal(
      one.$('a[href="/compare?a=alpha&b=bravo"]').text(),
      'Bravo',
      'its alternatives are offered as the other product',
    );
  });

  test('an unknown, non-live or malformed slug: the form again with the reason, a 400, never a 500', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['/compare?a=alpha&b=nope', 'b', /Second product: no live listing "nope"/],
      ['/compare?a=soon&b=alpha', 'a', /First product: no live listing "soon"/],
      ['/compare?a=hidden&b=alpha', 'a', /First product: no live listing "hidden"/],
      ['/compare?a=alpha&b=Not%20A%20Slug', 'b', /Second product: must match/],
      [`/compare?a=${'x'.repeat(300)}&b=alpha`, 'a', /First product: must match/],
    ];
    for (const [url, side, reason] of cases) {
      const { res, $ } = await page(url);
      assert.equal(res.statusCode, 400, url);
      assert.match(res.headers['content-type'] as string, /text\/html/);
      assert.match($('#compare-error').text(), reason, url);
      assert.equal($(`input[name=${side}]`).attr('aria-invalid'), 'true', url);
      assert.equal($(`input[name=${side === 'a' ? 'b' : 'a'}]`).attr('aria-invalid'), undefined, url);
      assert.equal($('table').length, 0);
    }
    const kept = await page('/compare?a=alpha&b=nope');
    assert.equal(kept.$('input[name=a]').val(), 'alpha');
    assert.equal(kept.$('input[name=b]').val(), 'nope');
  });

  test('names and taglines stay text', async () => {
    const { res, $ } = await page('/compare?a=evil&b=alpha');
    assert.equal(res.statusCode, 200);
    assert.equal($('script').length, 0);
    assert.equal($('h1').text(), `${EVIL} vs Alpha`);
    const typed = await page('/compare?a=%3Cscript%3Ex&b=alpha');
    assert.equal(typed.res.statusCode, 400);
    assert.equal(typed.$('script').length, 0);
    assert.equal(typed.$('input[name=a]').val(), '<script>x');
  });
});

// ------------------------------------------------------------------ /listings/{slug}/alternatives

describe('alternatives', () => {
  test("get_alternatives as a page: the maker's picks first and marked, then the category's most voted, each comparable", async () => {
    const api = (await t.app.inject({ method: 'GET', url: '/api/v1/listings/alpha/alternatives' })).json();
    assert.deepEqual(
      api.items.map((i: { slug: string; approved: boolean }) => [i.slug, i.approved]),
      [
        ['bravo', true],
        ['echo', false],
        ['delta', false],
      ],
    );
    const { res, $ } = await page('/listings/alpha/alternatives');
    assert.equal(res.statusCode, 200);
    assert.equal($('h1').text(), 'Alternatives to Alpha');
    assert.equal($('link[rel=canonical]').attr('href'), `${t.config.publicUrl}/listings/alpha/alternatives`);
    const rows = $('main .items > li');
    assert.deepEqual(
      rows
        .find('h2 a')
        .map((_, el) => $(el).text())
        .get(),
      ['Bravo', 'Echo', 'Delta'],
      'names are headings right under the h1',
    );
    assert.deepEqual(headingSkips($), []);
    assert.deepEqual(rows.map((_, li) => $(li).find('.tag-ok').text()).get(), ['Approved by the maker', '', '']);
    assert.equal(rows.eq(1).find('a[href="/compare?a=alpha&b=echo"]').text(), 'Compare with Alpha');
    assert.match($('.lede').text(), /1 product named by Alpha's maker comes first/);

    const listingPage = await page('/listings/alpha');
    const section = listingPage.$('#alt-h').parent();
    assert.equal(section.find('a[href="/listings/alpha/alternatives"]').length, 1);
    assert.equal(section.find('#l-bravo .tag-ok').text(), 'Approved by the maker');
  });

  test("a listing that is unknown, not live or not a slug is the site's 404 page", async () => {
    for (const url of [
      '/listings/no-such/alternatives',
      '/listings/hidden/alternatives',
      '/listings/soon/alternatives',
      '/listings/UPPER/alternatives',
    ]) {
      const { res, $ } = await page(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(res.headers['content-type'] as string, /text\/html/);
      assert.equal($('h1').text(), 'Page not found', url);
    }
  });

  test('a listing with none says so; names stay text', async () => {
    const { res, $ } = await page('/listings/evil/alternatives');
    assert.equal(res.statusCode, 200);
    assert.equal($('h1').text(), `Alternatives to ${EVIL}`);
    assert.equal($('script').length, 0);
    assert.match($('main').text(), /No alternatives yet/);
  });
});

// ------------------------------------------------------------------ /search filters

describe('search filters', () => {
  const apiNames = async (query: string) =>
    (
      (await t.app.inject({ method: 'GET', url: `/api/v1/listings?per_page=20&${query}` })).json().items as Array<{
        name: string;
      }>
    ).map((i) => i.name);
  const shown = ($: cheerio.CheerioAPI) =>
    $('main .items > li h2 a')
      .map((_, el) => $(el).text())
      .get();
  const selected = ($: cheerio.CheerioAPI, name: string) =>
    $(`form[action="/search"] select[name=${name}] option[selected]`)
      .map((_, el) => $(el).attr('value'))
      .get();

  test('category (from the tree), country, stage, pricing model and sort go to search_listings; the chosen values stay selected', async () => {
    const { res, $ } = await page('/search?category=tools&country=de');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(shown($), ['Bravo'], 'Tools includes its subcategory Notes; only Bravo is in Germany');
    assert.deepEqual(shown($), await apiNames('category=tools&country=de'));
    assert.deepEqual(headingSkips($), [], 'result names are headings right under the h1');
    assert.deepEqual(selected($, 'category'), ['tools']);
    assert.deepEqual(selected($, 'country'), ['DE'], 'a lower-case country code selects its country');
    assert.match($('[role=status]').text(), /^1 product is live in Tools\./);
    assert.equal($('meta[name=robots]').attr('content'), 'noindex');
    const options = $('select[name=category] option')
      .map((_, el) => [[$(el).attr('value'), $(el).text()]])
      .get() as unknown as Array<[string, string]>;
    for (const [slug, label] of [
      ['', 'Any category'],
      ['tools', 'Tools'],
      ['notes', 'Tools › Notes'],
      ['finance', 'Finance'],
      ['games', 'Games'],
    ]) {
      assert.ok(
        options.some(([v, text]) => v === slug && text === label),
        `option ${label}`,
      );
    }

    const two = await page('/search?stage=launched&pricing_model=freemium&sort=votes');
    assert.deepEqual(shown(two.$), await apiNames('stage=launched&pricing_model=freemium&sort=votes'));
    assert.deepEqual(shown(two.$).slice(0, 3), ['Alpha', 'Echo', 'Delta'], 'most votes first');
    assert.ok(!shown(two.$).includes('Bravo'), 'Bravo is growing, on a subscription');
    assert.deepEqual(selected(two.$, 'stage'), ['launched']);
    assert.deepEqual(selected(two.$, 'pricing_model'), ['Freemium']);
    assert.deepEqual(selected(two.$, 'sort'), ['votes']);
    assert.deepEqual(selected(two.$, 'status'), ['live']);

    const other = await page('/search?stage=established');
    assert.equal(other.res.statusCode, 200);
    assert.deepEqual(selected(other.$, 'stage'), ['established'], 'a stage the list does not offer is kept');
  });

  test('status=upcoming lists the listings scheduled to launch', async () => {
    const { res, $ } = await page('/search?status=upcoming');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(shown($), ['Soon']);
    assert.deepEqual(shown($), await apiNames('status=upcoming'));
    assert.equal($('h1').text(), 'Upcoming products');
    assert.deepEqual(selected($, 'status'), ['upcoming']);
    assert.match($('[role=status]').text(), /^1 product is upcoming/);
  });

  test('pagination keeps every filter', async () => {
    const { $ } = await page('/search?category=games&country=FR&sort=newest');
    assert.equal(shown($).length, 20);
    assert.equal(shown($)[0], `Game ${BULK}`, 'newest first');
    const next = $('.pager a[rel=next]').attr('href')!;
    const params = new URL(next, 'http://x').searchParams;
    assert.deepEqual(Object.fromEntries(params), { category: 'games', country: 'FR', sort: 'newest', page: '2' });
    const two = await page(next);
    assert.deepEqual(shown(two.$), ['Game 1']);
    assert.deepEqual(selected(two.$, 'category'), ['games']);
    assert.deepEqual(selected(two.$, 'sort'), ['newest']);
    const back = new URL(two.$('.pager a[rel=prev]').attr('href')!, 'http://x').searchParams;
    assert.equal(back.get('category'), 'games');
    assert.equal(back.get('country'), 'FR');
  });

  test('a value search_listings refuses is a 400 page naming it, never a 500', async () => {
    const cases: Array<[string, RegExp]> = [
      ['country=zzz', /country\s*must be a two-letter country code/],
      ['category=no-such', /category/],
      ['category=Not%20a%20slug', /category\s*must match/],
      ['sort=best', /sort/],
      ['status=gone', /status/],
      [`stage=${'x'.repeat(41)}`, /stage/],
      ['pricing_model=' + 'y'.repeat(41), /pricing_model/],
    ];
    for (const [query, reason] of cases) {
      const { res, $ } = await page(`/search?${query}`);
      assert.equal(res.statusCode, 400, query);
      assert.match(res.headers['content-type'] as string, /text\/html/, query);
      assert.match($('main').text(), reason, query);
    }
    const none = await page('/search?country=JP');
    assert.equal(none.res.statusCode, 200);
    assert.match(none.$('[role=status]').text(), /No product matches/);
    assert.equal(
      none
        .$('[role=status] a')
        .filter((_, el) => none.$(el).text() === 'clear the filters')
        .attr('href'),
      '/search',
    );
  });
});

// ------------------------------------------------------------------ robots.txt and sitemap.xml

describe('robots.txt and sitemap.xml', () => {
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const locs = (xml: string) => {
    const $ = cheerio.load(xml, { xml: true });
    return $('urlset > url > loc')
      .map((_, el) => $(el).text())
      .get();
  };

  test('robots.txt lets crawlers read the public pages, keeps them out of personal, admin and one-time pages, and names the sitemap', async () => {
    const res = await get('/robots.txt');
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/plain/);
    const base = t.config.publicUrl;
    const robots = parseRobots(base, res.body);
    for (const p of [
      '/',
      '/listings/alpha',
      '/search?q=x',
      '/updates',
      '/compare?a=alpha&b=bravo',
      '/categories/tools',
      '/founders/ada',
      '/blog/hello-world',
      '/launches/weeks/this',
      '/docs',
    ]) {
      assert.equal(robots.isAllowed(base + p), true, p);
    }
    for (const p of [
      '/account',
      '/account/api-keys',
      '/admin/edits',
      '/checkout/abc',
      '/oauth/interaction/x',
      '/claims/verify/token',
      '/invites/token',
    ]) {
      assert.equal(robots.isAllowed(base + p), false, p);
    }
    assert.deepEqual(robots.sitemaps, [`${base}/sitemap.xml`]);
  });

  test('sitemap.xml: absolute URLs of the home page, categories, live listings, public founders, published posts and launch weeks, each a page that exists', async () => {
    const res = await get('/sitemap.xml');
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^application\/xml/);
    assert.match(
      res.body,
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const base = t.config.publicUrl;
    const urls = locs(res.body);
    assert.equal(new Set(urls).size, urls.length, 'each URL once');
    const paths = urls.map((u) => {
      assert.ok(u.startsWith(base + '/'), u);
      return u.slice(base.length);
    });
    const expected = [
      '/',
      '/categories',
      '/founders',
      '/blog',
      '/updates',
      '/categories/tools',
      '/categories/notes',
      '/categories/finance',
      '/categories/games',
      '/listings/alpha',
      '/listings/bravo',
      '/listings/evil',
      '/listings/delta',
      '/listings/echo',
      '/listings/game-1',
      `/listings/game-${BULK}`,
      '/founders/ada',
      '/blog/hello-world',
      `/launches/weeks/${week(-1)}`,
      `/launches/weeks/${week(0)}`,
    ];
    for (const p of expected) assert.ok(paths.includes(p), `lists ${p}`);
    for (const p of [
      '/listings/hidden',
      '/listings/soon',
      '/founders/ghost',
      '/blog/not-yet',
      `/launches/weeks/${week(1)}`,
    ])
      assert.ok(!paths.includes(p), `leaves out ${p}`);
    assert.equal(paths.filter((p) => p.startsWith('/listings/')).length, 5 + BULK, 'every live listing');
    for (const p of paths) {
      const page = await t.app.inject({ method: 'GET', url: p, headers: { accept: 'text/html' } });
      assert.equal(page.statusCode, 200, p);
    }
  });

  test('sitemap.xml escapes what it prints', async () => {
    const id = (
      await t.store.db
        .insertInto('categories')
        .values({
          slug: 'a&b<c>',
          name: 'Odd',
          parent_id: null,
          description: '',
          faqs: '[]',
          attributes: '[]',
          position: 99,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    try {
      const res = await get('/sitemap.xml');
      assert.ok(res.body.includes('/categories/a&amp;b&lt;c&gt;</loc>'));
      assert.doesNotMatch(res.body, /&(?!amp;|lt;|gt;|quot;|#\d+;)/, 'no bare ampersand');
      assert.ok(locs(res.body).includes(`${t.config.publicUrl}/categories/a&b<c>`));
    } finally {
      await t.store.db.deleteFrom('categories').where('id', '=', id).execute();
    }
  });

  test('the sitemap stays within its cap: the smaller kinds first, then listings, then founders', async () => {
    const all = await sitemapSlugs(t.store.db, new Date(), 50_000);
    assert.deepEqual(all.categories, ['tools', 'notes', 'finance', 'games']);
    const count = (s: typeof all) => Object.values(s).reduce((n, list) => n + list.length, 0);
    const cap = all.categories.length + all.weeks.length + all.posts.length + 3;
    const capped = await sitemapSlugs(t.store.db, new Date(), cap);
    assert.equal(count(capped), cap);
    assert.deepEqual(capped.listings, all.listings.slice(0, 3));
    assert.deepEqual(capped.founders, []);
    assert.equal(count(await sitemapSlugs(t.store.db, new Date(), 2)), 2);
  });
});
