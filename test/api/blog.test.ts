import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { toJson } from '../../src/store/json.ts';

let t: TestApp;
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url: '/api/v1' + url });
  return { status: r.statusCode, body: r.json() };
};
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

before(async () => {
  t = await testApp({}, async ({ db }) => {
    const post = (
      slug: string,
      title: string,
      published_at: string | null,
      body = `# ${title}\n\nSome text.`,
      excerpt = `About ${title}.`,
    ) => ({
      slug,
      title,
      excerpt,
      body_md: body,
      faqs: toJson([{ question: `Why ${slug}?`, answer: 'Because.' }]),
      author: 'Mei Chen',
      tags: toJson(['guides']),
      published_at,
      created_at: ago(30),
    });
    await db
      .insertInto('blog_posts')
      .values([
        post(
          'older-post',
          'Choosing a launch week',
          ago(10),
          '# Choosing a launch week\n\n## Timing\n\nMondays give the most time for VOTES to arrive.',
        ),
        post(
          'newer-post',
          'Badges explained',
          ago(2),
          '# Badges explained\n\nPaste the embed code.',
          'Everything about the Launchlist badge.',
        ),
        post('draft-post', 'Unfinished thoughts', null, '# Unfinished\n\nvotes votes votes'),
        post('future-post', 'Coming soon', new Date(Date.now() + 3 * DAY).toISOString(), '# Coming soon\n\nvotes'),
      ])
      .execute();
  });
});
after(async () => {
  await t.cleanup();
});

test('list_blog_posts: published posts only, newest first', async () => {
  const { status, body } = await get('/blog');
  assert.equal(status, 200);
  assert.deepEqual(
    body.items.map((p: any) => p.slug),
    ['newer-post', 'older-post'],
  );
  assert.equal(body.total, 2);
  const p = body.items[0];
  assert.deepEqual(
    [p.title, p.excerpt, p.author, p.tags],
    ['Badges explained', 'Everything about the Launchlist badge.', 'Mei Chen', ['guides']],
  );
  assert.ok(p.reading_minutes >= 1);
  assert.equal('body_markdown' in p, false, 'the list carries excerpts, not full text');
});

test('list_blog_posts: q matches title, excerpt or text, case-insensitively, among published posts', async () => {
  const slugs = async (q: string) => (await get('/blog?q=' + encodeURIComponent(q))).body.items.map((p: any) => p.slug);
  assert.deepEqual(await slugs('votes'), ['older-post'], 'body match; unpublished posts never match');
  assert.deepEqual(await slugs('LAUNCHLIST BADGE'), ['newer-post'], 'excerpt match');
  assert.deepEqual(await slugs('choosing'), ['older-post'], 'title match');
  assert.deepEqual(await slugs('nothing like this'), []);
  assert.equal((await get('/blog?q=' + 'x'.repeat(201))).status, 400);
  const p = await get('/blog?per_page=1&page=2');
  assert.deepEqual([p.body.items.map((x: any) => x.slug), p.body.has_more, p.body.total], [['older-post'], false, 2]);
  for (const q of ['page=0', 'page=1001', 'per_page=0', 'per_page=101'])
    assert.equal((await get('/blog?' + q)).status, 400, q);
});

test('get_blog_post: full Markdown and FAQs; unpublished, future and unknown posts are 404', async () => {
  const { status, body } = await get('/blog/older-post');
  assert.equal(status, 200);
  assert.match(body.body_markdown, /^# Choosing a launch week\n\n## Timing/);
  assert.deepEqual(body.faqs, [{ question: 'Why older-post?', answer: 'Because.' }]);
  for (const slug of ['draft-post', 'future-post', 'never-written']) {
    const r = await get('/blog/' + slug);
    assert.equal(r.status, 404, slug);
    assert.equal(r.body.error.code, 'not_found');
  }
  assert.equal((await get('/blog/Bad.Slug')).status, 400);
});
