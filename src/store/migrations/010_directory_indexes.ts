// Indexes for the public directory reads (store/repos/categories.ts, launches.ts): live listings per
// primary category, the extra (non-primary) categories, and the launch sections and leaderboards that
// order live listings by views, followers, Domain Rating and revenue.
import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(_engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema
      .createIndex('listings_status_primary_category')
      .on('listings')
      .columns(['status', 'primary_category_id', 'votes_count', 'launched_at'])
      .execute();
    await db.schema.createIndex('listings_status_views').on('listings').columns(['status', 'views_count']).execute();
    await db.schema
      .createIndex('listings_status_followers')
      .on('listings')
      .columns(['status', 'followers_count'])
      .execute();
    await db.schema
      .createIndex('listings_status_domain_rating')
      .on('listings')
      .columns(['status', 'domain_rating'])
      .execute();
    await db.schema
      .createIndex('listings_status_revenue')
      .on('listings')
      .columns(['status', 'revenue_cents'])
      .execute();
    await db.schema
      .createIndex('listing_categories_extra')
      .on('listing_categories')
      .columns(['is_primary', 'category_id', 'listing_id'])
      .execute();
  };
}
