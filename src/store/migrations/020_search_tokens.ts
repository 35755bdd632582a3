// PostgreSQL: cut words for the tsvector exactly as SQLite FTS5's unicode61 tokenizer does, so both
// engines hold the same words and one typo-correction algorithm gives the same results. The default
// parser keeps "e-mail", "example.com" and "v2.0" as compound tokens (and unaccent turns "—" into
// "-"); folding ASCII punctuation to spaces after unaccent leaves plain letter/digit words.
// Also adds the sequence `search_terms_version`, bumped whenever search_terms gains a word, so the
// in-memory dictionary (store/search) knows when to reload. SQLite needs nothing here.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

// Every ASCII punctuation character: ! to /, : to @, [ to `, { to ~.
const PUNCT = '[!-/:-@\\[-`{-~]+';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    if (engine !== 'postgres') return;
    await sql`CREATE SEQUENCE IF NOT EXISTS search_terms_version`.execute(db);
    await sql
      .raw(`CREATE OR REPLACE FUNCTION listings_search_text(t text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS
      $$ SELECT regexp_replace(unaccent(coalesce(t, '')), '${PUNCT}', ' ', 'g') $$`)
      .execute(db);
    // The vector of one listing (weights: A name, B tagline and keywords, C description); bulk loads
    // (seed/synthetic.ts) call it directly with the trigger switched off.
    await sql`CREATE OR REPLACE FUNCTION listings_search_vector(name text, tagline text, keywords text, description text) RETURNS tsvector
      LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT
        setweight(to_tsvector('simple', listings_search_text(name)), 'A') ||
        setweight(to_tsvector('simple', listings_search_text(tagline)), 'B') ||
        setweight(to_tsvector('simple', listings_search_text(keywords)), 'B') ||
        setweight(to_tsvector('simple', listings_search_text(description)), 'C') $$`.execute(db);
    await sql`CREATE OR REPLACE FUNCTION listings_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.search := listings_search_vector(NEW.name, NEW.tagline, NEW.keywords, NEW.description);
        INSERT INTO search_terms(term) SELECT lexeme FROM unnest(NEW.search) ON CONFLICT DO NOTHING;
        IF FOUND THEN PERFORM nextval('search_terms_version'); END IF;
        RETURN NEW;
      END $$`.execute(db);
    // Re-cut the words of existing listings and rebuild the dictionary from them.
    await sql`DELETE FROM search_terms`.execute(db);
    await sql`UPDATE listings SET name = name`.execute(db);
  };
}
