/** The classifier's training data comes from the directory's database: its tree and its live listings. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { categoryModelOf } from '../../src/drafting/category-model.ts';
import { classifySite } from '../../src/drafting/classify.ts';

test('categoryModelOf reads categories and live listings; a new category is learnt after the cache', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'll-catmodel-'));
  const store = await openStore({ DATA_DIR: dir });
  try {
    const db = store.db;
    const cat = async (slug: string, name: string, description: string, parent: number | null, faq = '') =>
      Number(
        (
          await db
            .insertInto('categories')
            .values({
              slug,
              name,
              parent_id: parent,
              description,
              faqs: JSON.stringify(faq ? [{ question: faq, answer: '' }] : []),
              attributes: '[]',
              position: 0,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const prod = await cat('productivity', 'Productivity', 'Notes, tasks and calendars.', null);
    const notes = await cat('note-taking', 'Note Taking', 'Apps for capturing notes.', prod);
    await cat('calendars', 'Calendars', 'Booking pages and schedulers.', prod, 'Which scheduler fits a salon?');
    const now = new Date().toISOString();
    const listing = (slug: string, status: string, tagline: string) =>
      db
        .insertInto('listings')
        .values({
          slug,
          name: slug,
          url: `https://${slug}.example/`,
          domain: `${slug}.example`,
          tagline,
          features: JSON.stringify(['markdown backlinks', 'daily journal']),
          status,
          primary_category_id: notes,
          created_at: now,
          updated_at: now,
        } as never)
        .execute();
    await listing('jotter', 'live', 'Markdown notebooks with backlinks');
    await listing('secret', 'draft', 'Spaceship telemetry dashboards');
    const m = await categoryModelOf(db, 0);
    const doc = (slug: string) => m.docs.find((d) => d.cat.slug === slug);
    assert.ok(doc('note-taking')?.tf.has('backlink'), 'a live listing is training text of its category');
    assert.ok(!doc('note-taking')?.tf.has('spaceship'), 'a listing that is not live is not');
    assert.ok(doc('calendars')?.tf.has('salon'), "the category's FAQ is part of its text");
    // …but the kinds of product a category holds are read from its description, not from its FAQ
    assert.deepEqual(doc('calendars')?.kindPhrases, [['book', 'pages']]);
    assert.equal(doc('note-taking')?.cat.parent, 'productivity');
    const site = [
      { text: 'Write markdown notebooks with backlinks and a daily journal.', url: 'https://x/', weight: 1 },
    ];
    assert.equal(classifySite(m, site).slugs[0], 'note-taking');
    // cached within the TTL, rebuilt after it
    await cat('reading', 'Reading', 'Ebook readers and epub libraries.', prod);
    assert.equal(await categoryModelOf(db, 1000), m);
    const fresh = await categoryModelOf(db, 10 * 60_000);
    assert.ok(fresh.docs.some((d) => d.cat.slug === 'reading'));
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});
