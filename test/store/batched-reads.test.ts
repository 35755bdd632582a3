// Listing pages that arrive at the same moment read their listing's own row for the alternatives and the
// claim box together (store/prepared.ts BatchedRead): each still gets its own listing, or nothing for a
// listing that is not shown, exactly as a read on its own gives it. On PostgreSQL the reads that arrive
// together are one statement each, not one per page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { freshStore, type TestDb } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { alternativesOf } from '../../src/store/repos/listings.ts';
import { publicListingBySlug } from '../../src/store/repos/claims.ts';
import { countingNamed } from '../support/named-statements.ts';

let t: TestDb;
before(async () => {
  t = await freshStore();
  await category(t.store.db, 'tools', { name: 'Tools' });
  await category(t.store.db, 'garden', { name: 'Garden' });
  await listing(t.store.db, { slug: 'anvil', name: 'Anvil', category: 'tools', votes: 3 });
  await listing(t.store.db, { slug: 'bellows', name: 'Bellows', category: 'tools', votes: 7 });
  await listing(t.store.db, { slug: 'chisel', name: 'Chisel', category: 'tools', votes: 1 });
  await listing(t.store.db, { slug: 'rake', name: 'Rake', category: 'garden' });
  await listing(t.store.db, { slug: 'soon', name: 'Soon', category: 'tools', status: 'scheduled' });
  await listing(t.store.db, { slug: 'drafted', name: 'Drafted', category: 'tools', status: 'draft' });
});
after(async () => {
  await t.cleanup();
});

const SLUGS = ['anvil', 'rake', 'drafted', 'no-such-listing', 'bellows', 'soon'];

test("listing pages at the same moment each get their own listing's alternatives (PostgreSQL: its row read in one statement)", async () => {
  const db = t.store.db;
  const { value: together, named } = await countingNamed(t, () => Promise.all(SLUGS.map((s) => alternativesOf(db, s))));
  // each on its own, read through the query builder (in a transaction, where no batch runs)
  const alone = await db.transaction().execute(async (trx) => Promise.all(SLUGS.map((s) => alternativesOf(trx, s))));
  assert.deepEqual(together, alone);
  assert.deepEqual(
    together.map((a) => a && [a.listing.slug, a.listing.primary_category?.slug, a.items.map((i) => i.slug)]),
    [
      ['anvil', 'tools', ['bellows', 'chisel']],
      ['rake', 'garden', []],
      undefined, // a draft has no alternatives page
      undefined,
      ['bellows', 'tools', ['anvil', 'chisel']],
      undefined, // nor a listing not live yet
    ],
  );
  if (t.store.pgPool) assert.equal(named.get('ll_alternatives_self_batch'), 1, 'the six reads were one statement');
});

test('claim boxes at the same moment each get their own listing (PostgreSQL: in one statement)', async () => {
  const db = t.store.db;
  const { value: together, named } = await countingNamed(t, () =>
    Promise.all(SLUGS.map((s) => publicListingBySlug(db, s))),
  );
  const alone = await db
    .transaction()
    .execute(async (trx) => Promise.all(SLUGS.map((s) => publicListingBySlug(trx, s))));
  assert.deepEqual(together, alone);
  // live and scheduled listings can be claimed; a draft and an unknown slug are nobody's to claim
  assert.deepEqual(
    together.map((l) => l && [l.slug, l.status, l.owner_id]),
    [
      ['anvil', 'live', null],
      ['rake', 'live', null],
      undefined,
      undefined,
      ['bellows', 'live', null],
      ['soon', 'scheduled', null],
    ],
  );
  if (t.store.pgPool) assert.equal(named.get('ll_claim_listing_batch'), 1, 'the six reads were one statement');
});
