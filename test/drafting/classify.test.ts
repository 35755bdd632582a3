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

test('one word in common is a coincidence: a category must share two with the site to be chosen', () => {
  const m = buildCategoryModel(tree, listings);
  // "backups" is the only word this site shares with anything in the tree
  assert.deepEqual(classifySite(m, text('We knit wool backups for your winter sweaters.')).slugs, []);
  assert.equal(classifySite(m, text('Hosted Postgres with SQL console and nightly backups.')).slugs[0], 'db');
});

test("a parent's own description is a category of its own ('in general'): what no child covers is found there", () => {
  const m = buildCategoryModel(
    tree.map((c) =>
      c.slug === 'dev' ? { ...c, description: `${c.description} Also game engines, libraries and SDKs.` } : c,
    ),
    listings,
  );
  assert.deepEqual(classifySite(m, text('A game engine and libraries for Kotlin: an SDK for games.')).slugs, ['dev']);
});

test('besides the home page, only pages that describe the product are read: not a privacy policy', async () => {
  const { parsePage } = await import('../../src/drafting/extract/page.ts');
  const { siteTexts } = await import('../../src/drafting/classify.ts');
  const page = (url: string, h1: string, p: string, isHome: boolean, i: number) =>
    parsePage({ url, html: `<html><body><main><h1>${h1}</h1><p>${p}</p></main></body></html>` }, i, isHome);
  const texts = siteTexts([
    page('https://x.test/', 'Markdown notes that sync', 'Write notes with backlinks in offline notebooks.', true, 0),
    page('https://x.test/features', 'Backlinks and daily notes', 'Every note links to the notes it names.', false, 1),
    page(
      'https://x.test/privacy',
      'Privacy policy',
      'We process personal data and secure it with encryption.',
      false,
      2,
    ),
  ]).map((t) => t.text);
  assert.ok(texts.some((t) => /daily notes/.test(t)));
  assert.ok(!texts.some((t) => /privacy|personal data/i.test(t)), texts.join(' | '));
});

test("a site that names itself by a category's name (in its title, descriptions or h1) is filed there", () => {
  const tree2 = [
    ...tree,
    { slug: 'art', name: 'Illustrations', description: 'Vector illustrations and drawing tools.', parent: 'dev' },
  ];
  const more = [...listings, { categories: ['art'], text: 'Inkpot. Vector drawing with pencil and colours' }];
  const m = buildCategoryModel(tree2, more);
  const body = {
    text: 'Draw vector shapes with your pencil, choose colours, sketch freely.',
    url: 'https://x.test/',
    weight: 1,
  };
  const says = 'The note taking app for your tablet';
  // the same words in the page's body are one signal among others; in its title they say what it is
  assert.equal(classifySite(m, [body, { text: says, url: 'https://x.test/', weight: 0.5 }]).slugs[0], 'art');
  assert.equal(classifySite(m, [body, { text: says, url: 'https://x.test/', weight: 3 }]).slugs[0], 'notes');
});

test("a site that says a category's head word but never its qualifier is not of that kind", () => {
  const tree2 = [
    ...tree,
    { slug: 'ai', name: 'AI', description: 'Machine learning products.', parent: null },
    { slug: 'aiw', name: 'AI Writing', description: 'AI writers that draft text for you.', parent: 'ai' },
  ];
  const more = [
    ...listings,
    { categories: ['aiw'], text: 'Draftbot. An AI writer for blog drafts. Tone, drafts, writer' },
  ];
  const m = buildCategoryModel(tree2, more);
  assert.equal(classifySite(m, text('An AI writer that drafts your blog for you.')).slugs[0], 'aiw');
  // "write" and "drafts" are AI Writing's words too, but this site never says AI: its notes decide
  assert.equal(classifySite(m, text('Write drafts in markdown notes with backlinks.')).slugs[0], 'notes');
});

test('a word whose stem is a stop word keeps its own form', () => {
  // Porter's stem of "productivity" is "product", a stop word: the category's key word would vanish
  assert.deepEqual(classifierTokens('productivity products'), ['productivity']);
});

test("the product's brand counts once, the words after it say what it is", () => {
  const m = buildCategoryModel(tree, listings);
  const site = text('Booking Notes keeps notes that sync. Booking Notes. Booking Notes. Booking Notes.');
  // the brand is said on every line: it counts once; the rest of the name is what the product is
  assert.equal(classifySite(m, site, { name: 'Booking Notes' }).slugs[0], 'notes');
  assert.equal(classifySite(m, site, { name: 'Notes Booking' }).slugs[0], 'cal');
});

test("a site that calls itself by a kind of product a category's description lists is filed there", () => {
  // the admin's description of Productivity lists "cloud storage"; Databases holds backups and migrations
  const tree2 = tree.map((c) =>
    c.slug === 'prod'
      ? { ...c, description: 'Notes, tasks and calendars. It also covers cloud storage, file transfer and sync.' }
      : c.slug === 'db'
        ? { ...c, description: 'Hosted databases, SQL query tools, schema migrations and backups.' }
        : c,
  );
  const more = [
    ...listings,
    { categories: ['db'], text: 'Snapback. Backups and migrations for Postgres. Data copies, restore, migrate' },
  ];
  const m = buildCategoryModel(tree2, more);
  const body = {
    text: 'Nightly backups, migrations, restores and data copies: migrate and restore all your data.',
    url: 'https://x.test/',
    weight: 1,
  };
  const says = 'Backup and migrate your files between cloud storage services';
  // in the page's body the words are one signal among others; in its title they say what the product is
  assert.equal(classifySite(m, [body, { text: says, url: 'https://x.test/', weight: 0.5 }]).slugs[0], 'db');
  assert.equal(classifySite(m, [body, { text: says, url: 'https://x.test/', weight: 3 }]).slugs[0], 'prod');
});

test("the kinds are the description's statements, not its FAQ's questions and answers", () => {
  // a FAQ may name anything ("Is this cloud storage? No."): it is not a kind the category holds
  const tree2 = tree.map((c) =>
    c.slug === 'cal' ? { ...c, description: `${c.description} Is this cloud storage? No.` } : c,
  );
  const more = [...listings, { categories: ['prod'], text: 'Shelf. Your files in cloud storage. Sync, share' }];
  const m = buildCategoryModel(tree2, more);
  const site = [
    { text: 'Cloud storage for your files', url: 'https://x.test/', weight: 3 },
    { text: 'Your files, synced.', url: 'https://x.test/', weight: 1 },
  ];
  assert.equal(classifySite(m, site).slugs[0], 'prod');
});

test('a word the tree writes as two ("cheat sheets") matches when a site writes it as one', () => {
  const tree2 = [
    ...tree,
    { slug: 'docs', name: 'Documentation', description: 'Manuals, reference docs and cheat sheets.', parent: 'dev' },
    { slug: 'ed', name: 'Editors', description: 'Code editors, terminals and shells.', parent: 'dev' },
  ];
  const more = [
    ...listings,
    { categories: ['docs'], text: 'Refcard. Cheat sheets for every tool. Printable sheets, search' },
    { categories: ['ed'], text: 'Termstack. A terminal that remembers every command. Shell history, Linux, macOS' },
  ];
  const m = buildCategoryModel(tree2, more);
  assert.deepEqual(classifierTokens('Cheatsheets', m.compounds), ['cheat', 'sheet']);
  // a word the tree also writes whole stays whole
  assert.deepEqual(classifierTokens('notebooks', m.compounds), ['notebook']);
  const site = text('Cheatsheets for shell commands on Linux and macOS. Every cheatsheet, searchable.');
  assert.equal(classifySite(m, site).slugs[0], 'docs');
});
