// Views leave the listings row: listing_view_totals(listing_id, views), one narrow row per listing
// (made by a trigger when the listing is inserted, removed with it).
//
// The view counter (store/view-counter.ts) writes every viewed listing's total every 30 s. In the listings
// row that rewrote ~2 KB of text and three indexes per listing (the covering indexes of get_listing and
// of search, and status+views): ~25 µs a listing on SQLite, 0.5 s for 20,000, and on PostgreSQL a new
// version of each wide row, dead tuples and cleared visibility-map bits that sent get_listing's
// index-only scans back to the heap until the next vacuum. A narrow row costs ~0.5 µs and leaves the
// listings pages alone. Readers join it on listing_id (a primary-key lookup in a table of ~16 bytes a
// row); most_viewed orders by its own index.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema
      .createTable('listing_view_totals')
      .addColumn('listing_id', 'integer', (c) => c.primaryKey().references('listings.id').onDelete('cascade'))
      .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`INSERT INTO listing_view_totals (listing_id, views) SELECT id, views_count FROM listings`.execute(db);
    await db.schema.createIndex('listing_view_totals_views').on('listing_view_totals').columns(['views']).execute();
    if (engine === 'sqlite') {
      await sql`CREATE TRIGGER listings_view_totals_ai AFTER INSERT ON listings BEGIN INSERT INTO listing_view_totals (listing_id, views) VALUES (NEW.id, 0); END`.execute(
        db,
      );
    } else {
      await sql`CREATE OR REPLACE FUNCTION listings_view_totals_insert() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO listing_view_totals (listing_id, views) VALUES (NEW.id, 0); RETURN NULL; END $$`.execute(db);
      await sql`CREATE TRIGGER listings_view_totals_ai AFTER INSERT ON listings FOR EACH ROW EXECUTE FUNCTION listings_view_totals_insert()`.execute(
        db,
      );
    }
    // The indexes that carried views_count go with it; the covering ones come back without it.
    await sql`DROP INDEX IF EXISTS listings_status_views`.execute(db);
    await sql`DROP INDEX IF EXISTS listings_slug_profile`.execute(db);
    await sql`DROP INDEX IF EXISTS listings_search_cover`.execute(db);
    await db.schema.alterTable('listings').dropColumn('views_count').execute();
    await db.schema
      .createIndex('listings_slug_profile')
      .on('listings')
      .columns(['slug', 'status', 'id', 'profile_rev', 'votes_count', 'followers_count'])
      .execute();
    if (engine === 'sqlite')
      await sql`CREATE INDEX listings_search_cover ON listings (id, status, votes_count, followers_count, launched_at, launch_week)`.execute(
        db,
      );
  };
}
