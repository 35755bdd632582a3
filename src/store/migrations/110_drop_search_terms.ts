// PostgreSQL: search_terms (every word of every listing, with a trigram index) and its version sequence
// fed the typo correction's dictionary until the in-memory index (store/search/memory-index.ts) took
// that over with its own dictionary. Nothing reads them since; the search trigger stops filling them
// (an upsert per word of every listing write) and they are dropped. SQLite never had them.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    if (engine !== 'postgres') return;
    await sql`CREATE OR REPLACE FUNCTION listings_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.search := listings_search_vector(NEW.name, NEW.tagline, NEW.keywords, NEW.description);
        RETURN NEW;
      END $$`.execute(db);
    await sql`DROP TABLE IF EXISTS search_terms`.execute(db);
    await sql`DROP SEQUENCE IF EXISTS search_terms_version`.execute(db);
  };
}
