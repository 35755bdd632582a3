/** The categories classifier learns from the tree and the listings it is given; nothing per category. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCategoryModel, classifySite, classifierTokens } from '../../src/drafting/classify.ts';

const tree = [
  { slug: 'dev', name: 'Developer Tools', description: 'Tools for writing, testing and shipping code.', parent: null },
  {
    slug: 'ci',
    name: 'CI & Deploy',
    description: 'Continuous integration, builds and deployment pipelines.',
    parent: 'dev',
  },
  { slug: 'db', name: 'Databases', description: 'Hosted databases, SQL query tools and backups.', parent: 'dev' },
  { slug: 'prod', name: 'Productivity', description: 'Notes, tasks and calendars.', parent: null },
  { slug: 'notes', name: 'Note Taking', description: 'Apps for capturing and finding notes.', parent: 'prod' },
  { slug: 'cal', name: 'Calendars', description: 'Booking pages and meeting schedulers.', parent: 'prod' },
];
const listings = [
  { categories: ['notes'], text: 'Jotter. Markdown notes that sync. Backlinks, daily notes, offline notebooks' },
  { categories: ['cal'], text: 'Slotly. Booking links for meetings. Calendar sync, reminders, time zones' },
  { categories: ['ci'], text: 'Shipit. Pipelines for every push. Build cache, deploy previews, rollbacks' },
  { categories: ['db'], text: 'Rowbase. Postgres in one click. Backups, branching, SQL console' },
];
const text = (t: string) => [{ text: t, url: 'https://x.test/', weight: 1 }];

test('the primary category comes first, with its parent, and evidence from the site', () => {
  const m = buildCategoryModel(tree, listings);
  const c = classifySite(
    m,
    text('Write markdown notes with backlinks. Your notebooks sync offline. Find any note fast.'),
  );
  assert.deepEqual(c.slugs.slice(0, 2), ['notes', 'prod']);
  assert.ok(c.evidence.length > 0 && c.evidence.every((e) => /notes?|notebooks/i.test(e.quote)));
});

test('it follows the tree it is given (a new category is learnt from its listings)', () => {
  const withBooks = [...tree, { slug: 'books', name: 'Reading', description: 'Ebook readers.', parent: 'prod' }];
  const more = [...listings, { categories: ['books'], text: 'Pager. Ebook reader with highlights and epub library' }];
  const c = classifySite(
    buildCategoryModel(withBooks, more),
    text('An epub ebook reader: highlights, library, reader themes.'),
  );
  assert.equal(c.slugs[0], 'books');
});

test('low confidence leaves categories empty', () => {
  const m = buildCategoryModel(tree, listings);
  assert.deepEqual(classifySite(m, text('We sell handmade ceramic mugs and bowls.')).slugs, []);
});

test("tokens: stop words out, Porter's stemming, CJK bigrams", () => {
  assert.deepEqual(classifierTokens('The notes and Databases'), ['note', 'databas']);
  // one term for a word's forms: a site about "developers" matches a category about "development"
  assert.deepEqual(classifierTokens('developers development'), ['develop', 'develop']);
  assert.deepEqual(classifierTokens('ペット'), ['ペッ', 'ット']);
});
