// The leaderboards' totals (how many live listings have counted votes, a Domain Rating, a revenue figure)
// are kept like the category counts (migration 200, store/membership.ts): a 'boards' counter moves
// whenever a listing enters or leaves one of those sets other than by going live or not (which moves
// 'membership'), and a total is counted again only when one of the two moved. A vote moves it only when
// it is a listing's first counted vote (its weighted total leaves 0), not on every vote.
//
// The Domain Rating and revenue boards list by rating (revenue) descending, then id ascending: indexes
// in exactly that order let a page be read from the index with no sort. Ratings are whole numbers, so
// ~1,000 listings share each value at 100,000 listings, and the old (status, domain_rating) index left
// every page to sort the whole group of its first rating (~4 ms). The table is analysed afterwards.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

const BUMP = "UPDATE directory_stamps SET n = n + 1 WHERE name = 'boards'";
const LISTING_MOVED =
  '((OLD.domain_rating IS NULL) <> (NEW.domain_rating IS NULL) OR (coalesce(OLD.revenue_cents, 0) > 0) <> (coalesce(NEW.revenue_cents, 0) > 0))';
const TOTAL_MOVED = '((OLD.weighted > 0) <> (NEW.weighted > 0))';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.insertInto('directory_stamps').values({ name: 'boards', n: 1 }).execute();
    if (engine === 'sqlite') {
      for (const t of [
        `CREATE TRIGGER listings_boards_au AFTER UPDATE OF domain_rating, revenue_cents ON listings WHEN ${LISTING_MOVED} BEGIN ${BUMP}; END`,
        `CREATE TRIGGER listing_vote_totals_boards_ai AFTER INSERT ON listing_vote_totals WHEN NEW.weighted > 0 BEGIN ${BUMP}; END`,
        `CREATE TRIGGER listing_vote_totals_boards_au AFTER UPDATE OF weighted ON listing_vote_totals WHEN ${TOTAL_MOVED} BEGIN ${BUMP}; END`,
        `CREATE TRIGGER listing_vote_totals_boards_ad AFTER DELETE ON listing_vote_totals WHEN OLD.weighted > 0 BEGIN ${BUMP}; END`,
      ])
        await sql.raw(t).execute(db);
    } else {
      // deferred to the commit, as the membership counter is (migration 200): no transaction holds the
      // counter's row while it does other work
      await sql
        .raw(`CREATE OR REPLACE FUNCTION directory_boards_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN ${BUMP}; RETURN NULL; END $$`)
        .execute(db);
      const deferred = (name: string, event: string, table: string, when: string) =>
        `CREATE CONSTRAINT TRIGGER ${name} AFTER ${event} ON ${table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ${when} EXECUTE FUNCTION directory_boards_bump()`;
      for (const t of [
        deferred('listings_boards_au', 'UPDATE OF domain_rating, revenue_cents', 'listings', LISTING_MOVED),
        deferred('listing_vote_totals_boards_ai', 'INSERT', 'listing_vote_totals', '(NEW.weighted > 0)'),
        deferred('listing_vote_totals_boards_au', 'UPDATE OF weighted', 'listing_vote_totals', TOTAL_MOVED),
        deferred('listing_vote_totals_boards_ad', 'DELETE', 'listing_vote_totals', '(OLD.weighted > 0)'),
      ])
        await sql.raw(t).execute(db);
    }
    for (const [name, column] of [
      ['listings_status_domain_rating', 'domain_rating'],
      ['listings_status_revenue', 'revenue_cents'],
    ]) {
      await db.schema.dropIndex(name).execute();
      await sql.raw(`CREATE INDEX ${name} ON listings (status, ${column} DESC, id)`).execute(db);
    }
    // statistics for the new indexes: without them, where the table has statistics for the others
    // (a seeded or analysed database), SQLite's planner took the new index for every "status = 'live'"
    // read (the all-time board went from 0.2 to 120 ms at 100,000 listings)
    await sql`ANALYZE listings`.execute(db);
  };
}
