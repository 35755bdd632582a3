// The materialised public profile of each listing (get_listing's fast path, store/profile-reader.ts).
//
//   listings.profile_rev        bumped by the triggers below whenever anything the public profile shows
//                               changes: the listing's own columns (all but the live counters), and its
//                               rows in the child tables, categories and founders.
//   listing_profiles(listing_id, rev, body)
//                               the profile as JSON text, without the live counters votes, followers and
//                               views (read from their columns on every request instead), and the
//                               profile_rev it was built from: fresh only while the two are equal. A table
//                               of its own, so that updating a counter does not rewrite ~2 KB of text.
//
// A profile is stored only if the listing's profile_rev still equals the rev read before building it, so
// a write that lands meanwhile leaves it stale rather than wrong.
//
// The listings trigger names its columns (SQLite has no "any column but"); they are read from the table
// here. A migration that adds a listings column must recreate it (recreateListingsTrigger): the test
// "every listings column that the profile may show bumps profile_rev" fails until it does.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/** Columns that never invalidate the cached text: the live counters (views_count until migration 100 moved it out), the cache itself, the search vector and feed (090). */
export const PROFILE_CACHE_EXCLUDED = [
  'id',
  'votes_count',
  'views_count',
  'followers_count',
  'profile_rev',
  'search',
  'search_rev',
  'search_xid',
] as const;

/** Child tables whose rows (by listing_id) are part of the public profile. */
export const PROFILE_CHILD_TABLES = [
  'listing_categories',
  'listing_founders',
  'reviews',
  'updates',
  'domain_ratings',
  'awards',
  'milestones',
  'stories',
] as const;

const BUMP = 'UPDATE listings SET profile_rev = profile_rev + 1';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema
      .alterTable('listings')
      .addColumn('profile_rev', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('listing_profiles')
      .addColumn('listing_id', 'integer', (c) => c.primaryKey().references('listings.id').onDelete('cascade'))
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .execute();
    // get_listing finds the live listing, its rev and its counters in this index alone (the listings
    // row, ~1–2 KB of text, is not read).
    await db.schema
      .createIndex('listings_slug_profile')
      .on('listings')
      .columns(['slug', 'status', 'id', 'profile_rev', 'votes_count', 'followers_count', 'views_count'])
      .execute();

    if (engine === 'sqlite') {
      for (const t of PROFILE_CHILD_TABLES) {
        await sql
          .raw(`CREATE TRIGGER ${t}_profile_ai AFTER INSERT ON ${t} BEGIN ${BUMP} WHERE id = NEW.listing_id; END`)
          .execute(db);
        await sql
          .raw(
            `CREATE TRIGGER ${t}_profile_au AFTER UPDATE ON ${t} BEGIN ${BUMP} WHERE id IN (OLD.listing_id, NEW.listing_id); END`,
          )
          .execute(db);
        await sql
          .raw(`CREATE TRIGGER ${t}_profile_ad AFTER DELETE ON ${t} BEGIN ${BUMP} WHERE id = OLD.listing_id; END`)
          .execute(db);
      }
      await sql
        .raw(
          `CREATE TRIGGER categories_profile_au AFTER UPDATE ON categories BEGIN ${BUMP} WHERE ${inCategory('NEW.id')}; END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER founders_profile_au AFTER UPDATE ON founders BEGIN ${BUMP} WHERE ${ofFounder('NEW.id')}; END`,
        )
        .execute(db);
    } else {
      await sql
        .raw(`CREATE OR REPLACE FUNCTION listings_profile_child() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP <> 'INSERT' THEN ${BUMP} WHERE id = OLD.listing_id; END IF;
          IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.listing_id IS DISTINCT FROM OLD.listing_id) THEN ${BUMP} WHERE id = NEW.listing_id; END IF;
          RETURN NULL;
        END $$`)
        .execute(db);
      for (const t of PROFILE_CHILD_TABLES) {
        await sql
          .raw(
            `CREATE TRIGGER ${t}_profile AFTER INSERT OR UPDATE OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION listings_profile_child()`,
          )
          .execute(db);
      }
      await sql
        .raw(`CREATE OR REPLACE FUNCTION listings_profile_category() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN ${BUMP} WHERE ${inCategory('NEW.id')}; RETURN NULL; END $$`)
        .execute(db);
      await sql
        .raw(
          'CREATE TRIGGER categories_profile AFTER UPDATE ON categories FOR EACH ROW EXECUTE FUNCTION listings_profile_category()',
        )
        .execute(db);
      await sql
        .raw(`CREATE OR REPLACE FUNCTION listings_profile_founder() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN ${BUMP} WHERE ${ofFounder('NEW.id')}; RETURN NULL; END $$`)
        .execute(db);
      await sql
        .raw(
          'CREATE TRIGGER founders_profile AFTER UPDATE ON founders FOR EACH ROW EXECUTE FUNCTION listings_profile_founder()',
        )
        .execute(db);
      await sql
        .raw(`CREATE OR REPLACE FUNCTION listings_profile_own() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN NEW.profile_rev := OLD.profile_rev + 1; RETURN NEW; END $$`)
        .execute(db);
    }
    await recreateListingsTrigger(db, engine);
  };
}

/** Listings whose profile shows the category (as one of theirs, or as the parent of one of theirs). */
function inCategory(id: string): string {
  return `primary_category_id = ${id} OR id IN (SELECT lc.listing_id FROM listing_categories lc JOIN categories c ON c.id = lc.category_id WHERE c.id = ${id} OR c.parent_id = ${id})`;
}

function ofFounder(id: string): string {
  return `id IN (SELECT lf.listing_id FROM listing_founders lf WHERE lf.founder_id = ${id})`;
}

/** (Re)creates the trigger that bumps profile_rev when any listings column but the excluded ones is written. */
export async function recreateListingsTrigger(db: Kysely<any>, engine: Engine): Promise<void> {
  const columns = (
    engine === 'sqlite'
      ? (await sql<{ name: string }>`SELECT name FROM pragma_table_info('listings')`.execute(db)).rows.map(
          (r) => r.name,
        )
      : (
          await sql<{
            name: string;
          }>`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'listings' AND table_schema = current_schema()`.execute(
            db,
          )
        ).rows.map((r) => r.name)
  )
    .filter((c) => !(PROFILE_CACHE_EXCLUDED as readonly string[]).includes(c))
    .sort();
  const list = columns.map((c) => `"${c}"`).join(', ');
  if (engine === 'sqlite') {
    await sql.raw('DROP TRIGGER IF EXISTS listings_profile_au').execute(db);
    await sql
      .raw(
        `CREATE TRIGGER listings_profile_au AFTER UPDATE OF ${list} ON listings BEGIN ${BUMP} WHERE id = NEW.id; END`,
      )
      .execute(db);
  } else {
    await sql.raw('DROP TRIGGER IF EXISTS listings_profile_bu ON listings').execute(db);
    await sql
      .raw(
        `CREATE TRIGGER listings_profile_bu BEFORE UPDATE OF ${list} ON listings FOR EACH ROW EXECUTE FUNCTION listings_profile_own()`,
      )
      .execute(db);
  }
}
