// The change feed of the in-memory search index (store/search/feed.ts): which listings' words, status
// or votes changed since a reader last looked, and which listings were deleted.
//
//   SQLite      search_version(rev), one row, bumped by every such change; listings.search_rev is the
//               rev of the listing's last change and search_deletions(rev, listing_id) records deletions.
//               Writers are serialised, so revs are committed in order: a reader that saw rev r has
//               every change up to r and asks for search_rev > r.
//   PostgreSQL  listings.search_xid is the id of the transaction that last changed the listing
//               (pg_current_xact_id) and search_deletions(xid, listing_id) records deletions. Transactions
//               commit out of order, so a reader remembers the xmin of its snapshot (every transaction
//               below it has ended) and next asks for search_xid >= that xmin: rows of transactions still
//               running then are read once they commit, and a row read twice is applied twice, harmlessly.
//               No counter row is shared between writers, so writes never queue on it.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/** The listings columns the index holds: a change to any of them is fed to the index. */
export const SEARCH_FEED_COLUMNS = ['name', 'tagline', 'description', 'keywords', 'status', 'votes_count'] as const;

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    const columns = SEARCH_FEED_COLUMNS.join(', ');
    if (engine === 'sqlite') {
      await sql`CREATE TABLE search_version (id INTEGER PRIMARY KEY CHECK (id = 1), rev INTEGER NOT NULL)`.execute(db);
      await sql`INSERT INTO search_version (id, rev) VALUES (1, 0)`.execute(db);
      await sql`ALTER TABLE listings ADD COLUMN search_rev INTEGER NOT NULL DEFAULT 0`.execute(db);
      await sql`CREATE INDEX listings_search_rev ON listings (search_rev)`.execute(db);
      await sql`CREATE TABLE search_deletions (rev INTEGER PRIMARY KEY, listing_id INTEGER NOT NULL)`.execute(db);
      const stamp =
        'UPDATE search_version SET rev = rev + 1 WHERE id = 1; UPDATE listings SET search_rev = (SELECT rev FROM search_version WHERE id = 1) WHERE id = NEW.id;';
      await sql.raw(`CREATE TRIGGER listings_search_feed_ai AFTER INSERT ON listings BEGIN ${stamp} END`).execute(db);
      await sql
        .raw(`CREATE TRIGGER listings_search_feed_au AFTER UPDATE OF ${columns} ON listings BEGIN ${stamp} END`)
        .execute(db);
      await sql
        .raw(`CREATE TRIGGER listings_search_feed_ad AFTER DELETE ON listings BEGIN
        UPDATE search_version SET rev = rev + 1 WHERE id = 1;
        INSERT INTO search_deletions (rev, listing_id) VALUES ((SELECT rev FROM search_version WHERE id = 1), OLD.id); END`)
        .execute(db);
      return;
    }
    await sql`ALTER TABLE listings ADD COLUMN search_xid bigint NOT NULL DEFAULT 0`.execute(db);
    await sql`CREATE INDEX listings_search_xid ON listings (search_xid)`.execute(db);
    await sql`CREATE TABLE search_deletions (xid bigint NOT NULL, listing_id integer NOT NULL)`.execute(db);
    await sql`CREATE INDEX search_deletions_xid ON search_deletions (xid)`.execute(db);
    await sql`CREATE OR REPLACE FUNCTION listings_search_feed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN NEW.search_xid := pg_current_xact_id()::text::bigint; RETURN NEW; END $$`.execute(db);
    await sql`CREATE OR REPLACE FUNCTION listings_search_feed_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO search_deletions (xid, listing_id) VALUES (pg_current_xact_id()::text::bigint, OLD.id); RETURN NULL; END $$`.execute(
      db,
    );
    await sql`CREATE TRIGGER listings_search_feed_bi BEFORE INSERT ON listings FOR EACH ROW EXECUTE FUNCTION listings_search_feed()`.execute(
      db,
    );
    await sql
      .raw(
        `CREATE TRIGGER listings_search_feed_bu BEFORE UPDATE OF ${columns} ON listings FOR EACH ROW EXECUTE FUNCTION listings_search_feed()`,
      )
      .execute(db);
    await sql`CREATE TRIGGER listings_search_feed_ad AFTER DELETE ON listings FOR EACH ROW EXECUTE FUNCTION listings_search_feed_delete()`.execute(
      db,
    );
  };
}
