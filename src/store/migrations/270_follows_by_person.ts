// A person's follows by person: every signed-in page reads the person's votes and follows among the
// page's listings (repos/votes.ts reactionsAmong), and the follows' only index led by the listing, so
// PostgreSQL read the whole follows table for each signed-in page view (a scan that grows with the
// directory: 0.6 of the statement's ~1 ms at 10,000 listings). Votes have had votes_user from the start.
import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(_engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema.createIndex('follows_user').on('follows').columns(['user_id', 'listing_id']).execute();
  };
}
