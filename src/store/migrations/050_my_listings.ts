// Indexes for "My listings" and the listing lifecycle: a listing's latest badge check (the
// listings.advance job checks the least recently checked homepages first), the admin's review queue
// of listing edits (unreviewed first, newest first), and a listing's versions.
import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(_engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema
      .createIndex('badge_checks_listing')
      .on('badge_checks')
      .columns(['listing_id', 'checked_at'])
      .execute();
    await db.schema
      .createIndex('listing_versions_review')
      .on('listing_versions')
      .columns(['reviewed_at', 'created_at'])
      .execute();
    await db.schema
      .createIndex('listing_versions_listing')
      .on('listing_versions')
      .columns(['listing_id', 'created_at'])
      .execute();
  };
}
