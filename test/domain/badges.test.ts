import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as cheerio from 'cheerio';
import {
  BADGE_KINDS,
  BADGE_MODES,
  BADGE_SHAPES,
  BADGE_SIZES,
  badgeDimensions,
  badgeEmbedHtml,
  badgeSvgUrl,
  homepageHasBadge,
  renderBadgeSvg,
} from '../../src/domain/badges.ts';

const BASE = 'https://launchlist.example';

test('every badge × shape × mode × size renders a well-formed SVG with the right size and viewBox', () => {
  const seen = new Set<string>();
  for (const kind of BADGE_KINDS)
    for (const shape of BADGE_SHAPES)
      for (const mode of BADGE_MODES)
        for (const size of BADGE_SIZES) {
          const svg = renderBadgeSvg({ kind, shape, mode, size, listingName: 'Inkwell' });
          const $ = cheerio.load(svg, { xml: true });
          const root = $('svg');
          assert.equal(root.length, 1, `${kind}/${shape}/${mode}/${size}: one <svg> root`);
          assert.equal(root.attr('xmlns'), 'http://www.w3.org/2000/svg');
          const { width, height } = badgeDimensions(shape, size);
          assert.equal(Number(root.attr('width')), width);
          assert.equal(Number(root.attr('height')), height);
          assert.match(root.attr('viewBox') ?? '', /^0 0 \d+ \d+$/);
          assert.ok($('text').length >= 1, 'has text');
          assert.match($('style').text(), /font-family:-apple-system/);
          assert.ok($('title').text().includes('Inkwell'));
          seen.add(svg);
        }
  assert.equal(seen.size, BADGE_KINDS.length * 5 * 3 * 3, 'every combination is a different image');
  assert.ok(badgeDimensions('standard', 's').width < badgeDimensions('standard', 'm').width);
  assert.ok(badgeDimensions('standard', 'm').width < badgeDimensions('standard', 'l').width);
});

test('modes: light and dark are fixed; auto switches with prefers-color-scheme', () => {
  const light = renderBadgeSvg({ kind: 'listed', shape: 'standard', mode: 'light', size: 'm', listingName: 'X' });
  const dark = renderBadgeSvg({ kind: 'listed', shape: 'standard', mode: 'dark', size: 'm', listingName: 'X' });
  const auto = renderBadgeSvg({ kind: 'listed', shape: 'standard', mode: 'auto', size: 'm', listingName: 'X' });
  assert.doesNotMatch(light, /prefers-color-scheme/);
  assert.doesNotMatch(dark, /prefers-color-scheme/);
  assert.match(auto, /@media \(prefers-color-scheme: dark\)\{/);
  assert.match(light, /\.bg\{fill:#FFFFFF\}/);
  assert.match(dark, /\.bg\{fill:#111827\}/);
});

test('the listing name is escaped and long names are kept inside the banner', () => {
  const svg = renderBadgeSvg({
    kind: 'launched',
    shape: 'banner',
    mode: 'light',
    size: 'm',
    listingName: 'Tom & Jerry <script>alert(1)</script> "quoted" and a very long product name indeed',
  });
  assert.doesNotMatch(svg, /<script>/);
  assert.match(svg, /Tom &amp; Jerry &lt;script&gt;/);
  const $ = cheerio.load(svg, { xml: true });
  const name = $('text.ttl').text();
  assert.ok(name.endsWith('…'), `long name is shortened: ${name}`);
  assert.ok(Number($('text.ttl').attr('font-size')) < 20, 'and its font shrinks first');
  const award = renderBadgeSvg({
    kind: 'launch_of_the_week_2',
    shape: 'square',
    mode: 'light',
    size: 'm',
    listingName: 'X',
  });
  assert.match(award, />#2</);
});

test('embed HTML: a link to the listing around the image; auto mode uses <picture> with a dark source', () => {
  const html = badgeEmbedHtml({
    publicUrl: BASE,
    slug: 'inkwell',
    kind: 'listed',
    listingName: 'Ink & Well',
    shape: 'pill',
    mode: 'auto',
    size: 'l',
  });
  const $ = cheerio.load(html);
  const a = $('a');
  assert.equal(a.attr('href'), `${BASE}/listings/inkwell?ref=badge`);
  assert.equal($('picture source').attr('media'), '(prefers-color-scheme: dark)');
  assert.equal(
    $('picture source').attr('srcset'),
    badgeSvgUrl(BASE, 'inkwell', 'listed', { shape: 'pill', mode: 'dark', size: 'l' }),
  );
  assert.equal(
    $('img').attr('src'),
    badgeSvgUrl(BASE, 'inkwell', 'listed', { shape: 'pill', mode: 'light', size: 'l' }),
  );
  assert.equal($('img').attr('alt'), 'Listed on Launchlist: Ink & Well');
  assert.equal(Number($('img').attr('width')), badgeDimensions('pill', 'l').width);
  assert.match(html, /&amp;mode=light/, 'ampersands in URLs are escaped in the HTML');
  const light = badgeEmbedHtml({
    publicUrl: BASE,
    slug: 'inkwell',
    kind: 'listed',
    listingName: 'Ink',
    shape: 'standard',
    mode: 'light',
    size: 'm',
  });
  assert.doesNotMatch(light, /<picture>/);
});

test('homepageHasBadge finds a link to the listing or an embedded badge image', () => {
  const yes = [
    badgeEmbedHtml({
      publicUrl: BASE,
      slug: 'inkwell',
      kind: 'listed',
      listingName: 'Ink',
      shape: 'standard',
      mode: 'auto',
      size: 'm',
    }),
    '<footer><a href="https://launchlist.example/listings/inkwell">Ink on Launchlist</a></footer>',
    '<a href="http://www.launchlist.example/listings/inkwell/?utm_source=x">x</a>',
    "<a href='//launchlist.example/listings/inkwell#top'>x</a>",
    '<img src="https://launchlist.example/badges/inkwell/launched.svg?shape=pill&amp;mode=dark&amp;size=s" alt="">',
    '<picture><source srcset="https://launchlist.example/badges/inkwell/listed.svg?mode=dark 1x, https://cdn.example/x.png 2x"><img src="/x.png"></picture>',
    '<A HREF=https://LAUNCHLIST.EXAMPLE/listings/inkwell>x</A>',
  ];
  for (const html of yes) assert.equal(homepageHasBadge(html, BASE, 'inkwell'), true, html);
  const no = [
    '<a href="https://launchlist.example/listings/inkwell-pro">another listing</a>',
    '<a href="https://launchlist.example/listings/ink">prefix</a>',
    '<!-- <a href="https://launchlist.example/listings/inkwell">hidden</a> -->',
    '<script>document.write(\'<a href="https://launchlist.example/listings/inkwell">x</a>\')</script>',
    '<a href="https://evil.example/listings/inkwell">other host</a>',
    '<a href="https://launchlist.example.evil.example/listings/inkwell">look-alike host</a>',
    '<p>We are on launchlist.example/listings/inkwell</p>',
    '<img src="https://launchlist.example/badges/other/listed.svg">',
    '',
  ];
  for (const html of no) assert.equal(homepageHasBadge(html, BASE, 'inkwell'), false, html);
  assert.equal(
    homepageHasBadge('<a href="https://launchlist.example/listings/inkwell">x</a>', 'not a url', 'inkwell'),
    false,
  );
});
