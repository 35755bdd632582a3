import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as cheerio from 'cheerio';
import { testApp, type TestApp } from '../support/app.ts';
import { addCategory, addListing, inWeek, week } from '../support/seed-fixtures.ts';
import { homepageHasBadge } from '../../src/domain/badges.ts';

let t: TestApp;
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url });
  return {
    status: r.statusCode,
    headers: r.headers,
    text: r.body,
    body: r.headers['content-type']?.startsWith('application/json') ? r.json() : undefined,
  };
};

before(async () => {
  t = await testApp({ PUBLIC_URL: 'https://launchlist.example' }, async ({ db }) => {
    await addCategory(db, 'cat');
    const star = await addListing(db, {
      slug: 'star',
      name: 'Star & <Co>',
      category: 'cat',
      launch_week: week(-1),
      launched_at: inWeek(-1, 1),
      unlocked: ['story', 'featured'],
      verified_at: new Date().toISOString(),
    });
    await db
      .insertInto('awards')
      .values([
        {
          kind: 'launch_of_the_week',
          week: week(-1),
          rank: 1,
          listing_id: star,
          votes: 40,
          created_at: new Date().toISOString(),
        },
        {
          kind: 'launch_of_the_week',
          week: week(-3),
          rank: 1,
          listing_id: star,
          votes: 22,
          created_at: new Date().toISOString(),
        },
      ])
      .execute();
    await addListing(db, { slug: 'plain', category: 'cat' });
    await addListing(db, { slug: 'queued', category: 'cat', status: 'awaiting_badge', launch_week: week(4) });
    await addListing(db, { slug: 'secret', category: 'cat', status: 'draft' });
  });
});
after(async () => {
  await t.cleanup();
});

test('get_badges: the badges a live listing may show, with embed HTML and SVG URLs in the chosen style', async () => {
  const { status, body } = await get('/api/v1/listings/star/badges?shape=pill&mode=dark&size=l');
  assert.equal(status, 200);
  assert.deepEqual(
    body.badges.map((b: any) => b.key),
    ['listed', 'launched', 'featured', 'verified', 'launch_of_the_week_1'],
  );
  assert.deepEqual(body.style, { shape: 'pill', mode: 'dark', size: 'l' });
  assert.equal(body.listing_url, 'https://launchlist.example/listings/star');
  assert.equal(body.listing.name, 'Star & <Co>');
  const listed = body.badges[0];
  assert.equal(listed.svg_url, 'https://launchlist.example/badges/star/listed.svg?shape=pill&mode=dark&size=l');
  const $ = cheerio.load(listed.html);
  assert.equal($('a').attr('href'), 'https://launchlist.example/listings/star?ref=badge');
  assert.equal($('img').attr('src'), listed.svg_url);
  assert.equal($('img').attr('alt'), 'Listed on Launchlist: Star & <Co>');
  assert.equal(Number($('img').attr('width')), listed.width);
  assert.doesNotMatch(listed.html, /<Co>/, 'the name is escaped in the HTML');
  assert.equal(
    homepageHasBadge(`<html><body><footer>${listed.html}</footer></body></html>`, 'https://launchlist.example', 'star'),
    true,
    'pasting the HTML passes the badge check',
  );
  const lotw = body.badges.find((b: any) => b.key === 'launch_of_the_week_1');
  assert.deepEqual(
    lotw.awards.map((a: any) => a.week),
    [week(-1), week(-3)],
  );
});

test('get_badges: variants list every shape × mode × size, defaults are standard/auto/m with a <picture>', async () => {
  const { body } = await get('/api/v1/listings/star/badges');
  assert.deepEqual(body.style, { shape: 'standard', mode: 'auto', size: 'm' });
  const v = body.badges[0].variants;
  const urls = new Set<string>();
  for (const shape of ['standard', 'outline', 'pill', 'banner', 'square'])
    for (const mode of ['light', 'dark', 'auto'])
      for (const size of ['s', 'm', 'l']) {
        assert.equal(
          v[shape][mode][size],
          `https://launchlist.example/badges/star/listed.svg?shape=${shape}&mode=${mode}&size=${size}`,
        );
        urls.add(v[shape][mode][size]);
      }
  assert.equal(urls.size, 45);
  const $ = cheerio.load(body.badges[0].html);
  assert.equal($('picture source').attr('media'), '(prefers-color-scheme: dark)');
  assert.match($('picture source').attr('srcset') ?? '', /mode=dark/);
  assert.match($('picture img').attr('src') ?? '', /mode=light/);
});

test('get_badges: a listing awaiting its badge gets listed and upcoming (not launched); drafts and unknown listings are 404', async () => {
  const queued = await get('/api/v1/listings/queued/badges');
  assert.equal(queued.status, 200);
  assert.deepEqual(
    queued.body.badges.map((b: any) => b.key),
    ['listed', 'upcoming'],
  );
  const plain = await get('/api/v1/listings/plain/badges');
  assert.deepEqual(
    plain.body.badges.map((b: any) => b.key),
    ['listed', 'launched'],
  );
  for (const slug of ['secret', 'nope']) {
    const r = await get(`/api/v1/listings/${slug}/badges`);
    assert.equal(r.status, 404, slug);
    assert.equal(r.body.error.code, 'not_found');
  }
  for (const q of ['shape=round', 'mode=sepia', 'size=xl']) {
    const r = await get('/api/v1/listings/star/badges?' + q);
    assert.equal(r.status, 400, q);
    assert.equal(r.body.error.details[0].path, 'query.' + q.split('=')[0]);
  }
  assert.equal((await get('/api/v1/listings/BAD/badges')).status, 400);
});

test('SVG endpoint: real SVG images, auto mode switches with the colour scheme, cacheable', async () => {
  const r = await get('/badges/star/launched.svg?shape=banner&mode=auto&size=l');
  assert.equal(r.status, 200);
  assert.match(String(r.headers['content-type']), /^image\/svg\+xml/);
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  const $ = cheerio.load(r.text, { xml: true });
  assert.equal($('svg').attr('width'), '450');
  assert.match($('style').text(), /@media \(prefers-color-scheme: dark\)/);
  assert.match(r.text, /Star &amp; &lt;Co&gt;/, 'the listing name is escaped');
  const light = await get('/badges/star/launched.svg?mode=light');
  assert.doesNotMatch(light.text, /prefers-color-scheme/);
  const small = await get('/badges/star/listed.svg?size=s');
  assert.ok(Number(cheerio.load(small.text, { xml: true })('svg').attr('width')) < 250);
  const again = await t.app.inject({
    url: '/badges/star/launched.svg?mode=light',
    headers: { 'if-none-match': String(light.headers.etag) },
  });
  assert.equal(again.statusCode, 304);
  const award = await get('/badges/star/launch_of_the_week_1.svg?shape=square');
  assert.equal(award.status, 200);
  assert.match(award.text, />#1</);
});

test('SVG endpoint: JSON 404 for unknown listings and badges it may not show, 400 for a bad style', async () => {
  for (const url of [
    '/badges/nope/listed.svg',
    '/badges/secret/listed.svg',
    '/badges/star/platinum.svg',
    '/badges/star/upcoming.svg',
    '/badges/plain/featured.svg',
    '/badges/plain/launch_of_the_week_2.svg',
    '/badges/queued/launched.svg',
    '/badges/star/listed.png',
  ]) {
    const r = await get(url);
    assert.equal(r.status, 404, url);
    assert.equal(r.body.error.code, 'not_found', url);
  }
  for (const q of ['shape=hexagon', 'mode=neon', 'size=xxl']) {
    const r = await get('/badges/star/listed.svg?' + q);
    assert.equal(r.status, 400, q);
    assert.equal(r.body.error.details[0].path, 'query.' + q.split('=')[0]);
  }
  const queued = await get('/badges/queued/listed.svg');
  assert.equal(queued.status, 200, 'a free listing can show its badge before it goes live');
});
