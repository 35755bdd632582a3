// Full-text search indexes. Both engines tokenise the same way (unicode words, lower-cased, accents
// folded, no stemming) so that the typo-correction dictionary holds real words and results agree.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    if (engine === 'sqlite') {
      await sql`CREATE VIRTUAL TABLE listings_fts USING fts5(name, tagline, description, keywords, content='listings', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`.execute(
        db,
      );
      await sql`CREATE VIRTUAL TABLE listings_fts_vocab USING fts5vocab(listings_fts, row)`.execute(db);
      await sql`CREATE TRIGGER listings_fts_ai AFTER INSERT ON listings BEGIN
        INSERT INTO listings_fts(rowid, name, tagline, description, keywords) VALUES (new.id, new.name, new.tagline, new.description, new.keywords); END`.execute(
        db,
      );
      await sql`CREATE TRIGGER listings_fts_ad AFTER DELETE ON listings BEGIN
        INSERT INTO listings_fts(listings_fts, rowid, name, tagline, description, keywords) VALUES ('delete', old.id, old.name, old.tagline, old.description, old.keywords); END`.execute(
        db,
      );
      await sql`CREATE TRIGGER listings_fts_au AFTER UPDATE OF name, tagline, description, keywords ON listings BEGIN
        INSERT INTO listings_fts(listings_fts, rowid, name, tagline, description, keywords) VALUES ('delete', old.id, old.name, old.tagline, old.description, old.keywords);
        INSERT INTO listings_fts(rowid, name, tagline, description, keywords) VALUES (new.id, new.name, new.tagline, new.description, new.keywords); END`.execute(
        db,
      );
      return;
    }
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE EXTENSION IF NOT EXISTS unaccent`.execute(db);
    // unaccent() is not IMMUTABLE, so a generated column cannot call it; a trigger keeps the vector.
    await sql`ALTER TABLE listings ADD COLUMN search tsvector`.execute(db);
    await sql`CREATE INDEX listings_search ON listings USING gin (search)`.execute(db);
    await sql`CREATE TABLE search_terms (term text PRIMARY KEY)`.execute(db);
    await sql`CREATE INDEX search_terms_trgm ON search_terms USING gin (term gin_trgm_ops)`.execute(db);
    await sql`CREATE FUNCTION listings_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.search :=
          setweight(to_tsvector('simple', unaccent(coalesce(NEW.name, ''))), 'A') ||
          setweight(to_tsvector('simple', unaccent(coalesce(NEW.tagline, ''))), 'B') ||
          setweight(to_tsvector('simple', unaccent(coalesce(NEW.keywords, ''))), 'B') ||
          setweight(to_tsvector('simple', unaccent(coalesce(NEW.description, ''))), 'C');
        INSERT INTO search_terms(term) SELECT lexeme FROM unnest(NEW.search) ON CONFLICT DO NOTHING;
        RETURN NEW;
      END $$`.execute(db);
    await sql`CREATE TRIGGER listings_search_biu BEFORE INSERT OR UPDATE OF name, tagline, description, keywords ON listings
      FOR EACH ROW EXECUTE FUNCTION listings_search_update()`.execute(db);
  };
}
