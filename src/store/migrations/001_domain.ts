// The whole domain model. Later changes add new migration files; this one is never edited once released.
import { sql, type Kysely, type CreateTableBuilder } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    const pg = engine === 'postgres';
    const ts = pg ? 'timestamptz' : 'text';
    const bool = pg ? 'boolean' : 'integer';
    const json = 'text';
    const F = pg ? sql`false` : sql`0`;
    const T = pg ? sql`true` : sql`1`;
    const table = (name: string) => db.schema.createTable(name);
    const withId = <N extends string>(t: CreateTableBuilder<N, never>) =>
      pg
        ? t.addColumn('id', 'serial', (c) => c.primaryKey())
        : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

    await withId(table('users'))
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
      .addColumn('email_verified_at', ts)
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
    await table('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('csrf', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('expires_at', ts, (c) => c.notNull())
      .execute();
    await table('email_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('expires_at', ts, (c) => c.notNull())
      .addColumn('used_at', ts)
      .execute();
    await withId(table('api_keys'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('prefix', 'text', (c) => c.notNull().unique())
      .addColumn('secret_hash', 'text', (c) => c.notNull())
      .addColumn('scopes', json, (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('last_used_at', ts)
      .addColumn('revoked_at', ts)
      .execute();
    await table('oauth_store')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('payload', json, (c) => c.notNull())
      .addColumn('grant_id', 'text')
      .addColumn('user_code', 'text')
      .addColumn('uid', 'text')
      .addColumn('expires_at', ts)
      .addColumn('consumed_at', ts)
      .addPrimaryKeyConstraint('oauth_store_pk', ['model', 'id'])
      .execute();
    await db.schema.createIndex('oauth_store_grant').on('oauth_store').column('grant_id').execute();
    await db.schema.createIndex('oauth_store_uid').on('oauth_store').column('uid').execute();

    await withId(table('categories'))
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('parent_id', 'integer', (c) => c.references('categories.id'))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('faqs', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('attributes', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    await withId(table('listings'))
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('owner_id', 'integer', (c) => c.references('users.id'))
      .addColumn('draft_id', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('tagline', 'text')
      .addColumn('short_description', 'text')
      .addColumn('description', 'text')
      .addColumn('stage', 'text')
      .addColumn('pricing_model', 'text')
      .addColumn('pricing_summary', 'text')
      .addColumn('country', 'text')
      .addColumn('city', 'text')
      .addColumn('founded_year', 'integer')
      .addColumn('contact_email', 'text')
      .addColumn('demo_video_url', 'text')
      .addColumn('logo_url', 'text')
      .addColumn('features', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('usps', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('keywords', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('tags', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('socials', json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('faqs', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('not_found', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('facts', json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('media', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('headline', 'text')
      .addColumn('summary', 'text')
      .addColumn('seo_title', 'text')
      .addColumn('seo_description', 'text')
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
      .addColumn('plan', 'text', (c) => c.notNull().defaultTo('none'))
      .addColumn('launch_week', 'text')
      .addColumn('launched_at', ts)
      .addColumn('primary_category_id', 'integer', (c) => c.references('categories.id'))
      .addColumn('unlocked', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('verified_at', ts)
      .addColumn('badge_seen_at', ts)
      .addColumn('domain_rating', 'integer')
      .addColumn('revenue_cents', 'bigint')
      .addColumn('votes_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('views_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('followers_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    for (const [name, cols] of [
      ['listings_status_week', ['status', 'launch_week']],
      ['listings_domain', ['domain']],
      ['listings_owner', ['owner_id']],
      ['listings_primary_category', ['primary_category_id', 'status']],
      ['listings_status_votes', ['status', 'votes_count']],
      ['listings_status_launched', ['status', 'launched_at']],
    ] as const)
      await db.schema
        .createIndex(name)
        .on('listings')
        .columns([...cols])
        .execute();

    await table('listing_categories')
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id'))
      .addColumn('is_primary', bool, (c) => c.notNull().defaultTo(F))
      .addPrimaryKeyConstraint('listing_categories_pk', ['listing_id', 'category_id'])
      .execute();
    await db.schema.createIndex('listing_categories_category').on('listing_categories').column('category_id').execute();
    await withId(table('listing_versions'))
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.references('users.id'))
      .addColumn('before', json, (c) => c.notNull())
      .addColumn('after', json, (c) => c.notNull())
      .addColumn('apply_to', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('reviewed_at', ts)
      .addColumn('reviewed_by', 'integer', (c) => c.references('users.id'))
      .execute();
    await table('alternatives')
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('alternative_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('approved', bool, (c) => c.notNull().defaultTo(F))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('alternatives_pk', ['listing_id', 'alternative_id'])
      .execute();
    await withId(table('founders'))
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('bio', 'text')
      .addColumn('country', 'text')
      .addColumn('socials', json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('avatar_url', 'text')
      .addColumn('user_id', 'integer', (c) => c.references('users.id'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
    await table('listing_founders')
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('founder_id', 'integer', (c) => c.notNull().references('founders.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('listing_founders_pk', ['listing_id', 'founder_id'])
      .execute();
    await db.schema.createIndex('listing_founders_founder').on('listing_founders').column('founder_id').execute();
    await withId(table('votes'))
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addUniqueConstraint('votes_one_per_person', ['listing_id', 'user_id'])
      .execute();
    await db.schema.createIndex('votes_created').on('votes').columns(['created_at', 'listing_id']).execute();
    await table('follows')
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('follows_pk', ['listing_id', 'user_id'])
      .execute();
    await table('listing_views')
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('listing_views_pk', ['listing_id', 'day'])
      .execute();
    await withId(table('reviews'))
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.references('users.id'))
      .addColumn('author_name', 'text', (c) => c.notNull())
      .addColumn('rating', 'integer', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('genuine', bool, (c) => c.notNull().defaultTo(T))
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('reviews_listing').on('reviews').column('listing_id').execute();
    await withId(table('updates'))
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('updates_listing').on('updates').columns(['listing_id', 'created_at']).execute();
    await withId(table('milestones'))
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('url', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('milestones_listing').on('milestones').column('listing_id').execute();
    let story = table('stories').addColumn('listing_id', 'integer', (c) =>
      c.primaryKey().references('listings.id').onDelete('cascade'),
    );
    for (const k of [
      'title',
      'story',
      'why_started',
      'problem',
      'journey',
      'challenges',
      'achievements',
      'lessons',
      'whats_next',
    ])
      story = story.addColumn(k, 'text');
    await story.addColumn('updated_at', ts, (c) => c.notNull()).execute();
    await withId(table('interview_questions'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('active', bool, (c) => c.notNull().defaultTo(T))
      .execute();
    await table('interview_answers')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('question_id', 'integer', (c) => c.notNull().references('interview_questions.id'))
      .addColumn('answer', 'text', (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('interview_answers_pk', ['user_id', 'question_id'])
      .execute();
    await withId(table('blog_posts'))
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('excerpt', 'text', (c) => c.notNull())
      .addColumn('body_md', 'text', (c) => c.notNull())
      .addColumn('faqs', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('author', 'text', (c) => c.notNull())
      .addColumn('tags', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('published_at', ts)
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
    await withId(table('awards'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('week', 'text', (c) => c.notNull())
      .addColumn('rank', 'integer', (c) => c.notNull())
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('votes', 'integer', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addUniqueConstraint('awards_one_per_rank', ['kind', 'week', 'rank'])
      .execute();
    await withId(table('badge_checks'))
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('checked_at', ts, (c) => c.notNull())
      .addColumn('found', bool, (c) => c.notNull())
      .addColumn('detail', 'text')
      .execute();
    await table('domain_ratings')
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('rating', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('domain_ratings_pk', ['listing_id', 'date'])
      .execute();
    await table('revenue_figures')
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('revenue_cents', 'bigint', (c) => c.notNull())
      .addColumn('verified', bool, (c) => c.notNull().defaultTo(F))
      .addPrimaryKeyConstraint('revenue_figures_pk', ['listing_id', 'month'])
      .execute();
    await withId(table('billboard_contributions'))
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('amount_cents', 'bigint', (c) => c.notNull())
      .addColumn('order_id', 'integer')
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('billboard_listing').on('billboard_contributions').column('listing_id').execute();
    await table('products')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('price_cents', 'bigint', (c) => c.notNull())
      .addColumn('needs_listing', bool, (c) => c.notNull())
      .addColumn('options', json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('active', bool, (c) => c.notNull().defaultTo(T))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    await table('promo_codes')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('percent_off', 'integer')
      .addColumn('amount_off_cents', 'bigint')
      .addColumn('product_codes', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('max_redemptions', 'integer')
      .addColumn('redemptions', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', ts)
      .addColumn('active', bool, (c) => c.notNull().defaultTo(T))
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
    await withId(table('orders'))
      .addColumn('number', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull().defaultTo('usd'))
      .addColumn('subtotal_cents', 'bigint', (c) => c.notNull())
      .addColumn('discount_cents', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('vat_cents', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('total_cents', 'bigint', (c) => c.notNull())
      .addColumn('vat_rate_bp', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('billing_country', 'text')
      .addColumn('vat_number', 'text')
      .addColumn('reverse_charge', bool, (c) => c.notNull().defaultTo(F))
      .addColumn('promo_code', 'text')
      .addColumn('checkout_token', 'text', (c) => c.notNull().unique())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('provider_ref', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('paid_at', ts)
      .addColumn('expires_at', ts)
      .execute();
    await db.schema.createIndex('orders_user').on('orders').columns(['user_id', 'created_at']).execute();
    await withId(table('order_lines'))
      .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
      .addColumn('product_code', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('listing_id', 'integer', (c) => c.references('listings.id'))
      .addColumn('week', 'text')
      .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('unit_cents', 'bigint', (c) => c.notNull())
      .addColumn('amount_cents', 'bigint', (c) => c.notNull())
      .addColumn('options', json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('fulfilled_at', ts)
      .execute();
    await withId(table('claims'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('token', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('verified_at', ts)
      .addColumn('checked_at', ts)
      .addColumn('last_error', 'text')
      .execute();
    await table('drafts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('stage', 'text')
      .addColumn('pages_read', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('pages_planned', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addColumn('fields', json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('faqs', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('founders', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('company_socials', json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('founder_socials', json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('story', json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('milestones', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('competitor', json, (c) => c.notNull().defaultTo('null'))
      .addColumn('seo', json, (c) => c.notNull().defaultTo('{}'))
      .addColumn('pages', json, (c) => c.notNull().defaultTo('[]'))
      .addColumn('listing_id', 'integer', (c) => c.references('listings.id'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('drafts_user').on('drafts').columns(['user_id', 'created_at']).execute();
    await withId(table('draft_invites'))
      .addColumn('draft_id', 'text', (c) => c.notNull().references('drafts.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
    await withId(table('jobs'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('payload', json, (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('run_at', ts, (c) => c.notNull())
      .addColumn('locked_by', 'text')
      .addColumn('locked_until', ts)
      .addColumn('last_error', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('jobs_ready').on('jobs').columns(['status', 'run_at']).execute();
    await table('idempotency_keys')
      .addColumn('principal', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('operation', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('expires_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['principal', 'key'])
      .execute();
    await table('settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', json, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    await table('sites')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .execute();
    await withId(table('mail_outbox'))
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('html', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('sent_at', ts)
      .addColumn('error', 'text')
      .execute();
  };
}
