// Recurring jobs run once however many instances start together (issue #20, item 9): one queued run
// per recurring kind (migration 160). On PostgreSQL the pool's connections race for real here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshStore } from '../support/app.ts';
import { AWARDS_COMPUTE, ensureAwardsScheduled } from '../../src/jobs/awards.ts';
import { LISTINGS_ADVANCE, ensureListingsAdvanceScheduled } from '../../src/jobs/listings.ts';
import { enqueue, enqueueOnce } from '../../src/jobs/queue.ts';

test('instances scheduling the recurring jobs at the same moment queue one run of each', async () => {
  const t = await freshStore();
  try {
    const db = t.store.db;
    const made = await Promise.all([
      ...Array.from({ length: 8 }, () => ensureAwardsScheduled(db)),
      ...Array.from({ length: 8 }, () => ensureListingsAdvanceScheduled(db)),
    ]);
    assert.equal(made.filter(Boolean).length, 2, 'one of each was queued');
    const rows = await db
      .selectFrom('jobs')
      .select(['kind', (eb) => eb.fn.countAll().as('n')])
      .where('status', '=', 'queued')
      .groupBy('kind')
      .execute();
    assert.deepEqual(Object.fromEntries(rows.map((r) => [r.kind, Number(r.n)])), {
      [AWARDS_COMPUTE]: 1,
      [LISTINGS_ADVANCE]: 1,
    });
    // A second queued run of a recurring kind is refused by the database itself …
    assert.equal(await enqueueOnce(db, AWARDS_COMPUTE), undefined);
    await assert.rejects(enqueue(db, AWARDS_COMPUTE, {}));
    // … while other kinds queue as many as they like.
    await enqueue(db, 'mail.deliver', { n: 1 });
    await enqueue(db, 'mail.deliver', { n: 2 });
  } finally {
    await t.cleanup();
  }
});
