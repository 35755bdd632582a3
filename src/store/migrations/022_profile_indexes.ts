// Indexes for the one-statement listing profile (store/repos/listings.ts): a listing's awards, and
// its genuine-review rating answered from the index alone.
import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(_engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema.createIndex('awards_listing').on('awards').columns(['listing_id', 'kind']).execute();
    await db.schema
      .createIndex('reviews_listing_genuine')
      .on('reviews')
      .columns(['listing_id', 'genuine', 'rating'])
      .execute();
  };
}
