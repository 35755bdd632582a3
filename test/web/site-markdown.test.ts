// The blog's Markdown renderer: the Markdown we use becomes markup, anything else stays text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as cheerio from 'cheerio';
import { inline, renderMarkdown } from '../../src/web/pages/markdown.ts';

const render = (md: string, opts = {}) => cheerio.load(renderMarkdown(md, opts).value, null, false);

test('headings, paragraphs, lists, quotes, rules, tables and code', () => {
  const $ = render(
    '# Title\n\nIntro line one\nline two.\n\n## Part\n\n- a\n- b\n  continued\n\n3. three\n4. four\n\n> quoted *text*\n\n---\n\n| h1 | h2 |\n|:---|---:|\n| x | y |\n\n```js\nlet a = 1 < 2;\n```',
    { topLevel: 2 },
  );
  assert.equal($('h2').first().text(), 'Title');
  assert.equal($('h3').text(), 'Part');
  assert.equal($('p').first().text(), 'Intro line one line two.');
  assert.deepEqual(
    $('ul li')
      .map((_, el) => $(el).text())
      .get(),
    ['a', 'b continued'],
  );
  assert.equal($('ol').attr('start'), '3');
  assert.equal($('ol li').length, 2);
  assert.equal($('blockquote em').text(), 'text');
  assert.equal($('hr').length, 1);
  assert.deepEqual(
    $('th')
      .map((_, el) => $(el).text())
      .get(),
    ['h1', 'h2'],
  );
  assert.equal($('td').last().text(), 'y');
  assert.equal($('pre code').text(), 'let a = 1 < 2;');
});

test('the title heading is dropped when the page shows it, and sections move up a level', () => {
  const $ = render('# My post\n\nText.\n\n## Section', { topLevel: 2, dropTitle: 'My post' });
  assert.equal($('h1, h2, h3').length, 1);
  assert.equal($('h2').text(), 'Section');
  const other = render('# Something else\n\n## Section', { topLevel: 2, dropTitle: 'My post' });
  assert.equal(other('h2').text(), 'Something else');
});

test('raw HTML is text, links are http(s) only and cannot break out of the attribute', () => {
  const $ = render(
    '<script>alert(1)</script> <img src=x onerror=alert(1)>\n\n[a](javascript:alert(1)) [b](data:text/html,hi) [c](https://ok.example/"onmouseover="x) [d](http://ok.example/p_(1))',
  );
  assert.equal($('script, img').length, 0);
  assert.match($('p').first().text(), /<script>alert\(1\)<\/script> <img src=x onerror=alert\(1\)>/);
  const links = $('a');
  assert.deepEqual(links.map((_, el) => $(el).text()).get(), ['c', 'd']);
  assert.equal(links.first().attr('href'), 'https://ok.example/%22onmouseover=%22x');
  assert.equal(links.first().attr('onmouseover'), undefined);
  assert.equal(links.last().attr('href'), 'http://ok.example/p_(1)');
  assert.match($('p').last().text(), /^a b c d$/);
});

test('emphasis and code spans; underscores inside words stay', () => {
  assert.equal(
    inline('**bold** and *em* and _em2_ and `a<b>` and snake_case_word'),
    '<strong>bold</strong> and <em>em</em> and <em>em2</em> and <code>a&lt;b&gt;</code> and snake_case_word',
  );
  assert.equal(inline('2 * 3 * 4'), '2 * 3 * 4');
  assert.equal(
    inline('[**x**](https://a.example)'),
    '<a href="https://a.example/" rel="nofollow noopener"><strong>x</strong></a>',
  );
});
