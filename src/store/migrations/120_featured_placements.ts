// The featured product's placement: a listing shown, labelled as paid, at the top of the home page and
// of its categories' pages for the product's `days` (list_products options; 7 when it names none).
// One row per placement bought. `starts_at`/`ends_at` are set at payment when the listing is live then;
// for a listing not live yet they stay NULL and the placement runs from the day it goes live
// (listings.launched_at), so a placement bought ahead of a launch is not spent before it.
// The existing 'featured' entry of listings.unlocked keeps meaning "may show the Featured badge".
import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    const pg = engine === 'postgres';
    const ts = pg ? 'timestamptz' : 'text';
    await db.schema
      .createTable('featured_placements')
      .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('order_id', 'integer')
      .addColumn('days', 'integer', (c) => c.notNull())
      .addColumn('starts_at', ts)
      .addColumn('ends_at', ts)
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('featured_placements_listing').on('featured_placements').column('listing_id').execute();
    await db.schema.createIndex('featured_placements_ends').on('featured_placements').column('ends_at').execute();
  };
}
