// The in-memory search index now holds each listing's summary (store/search/memory-index.ts): a search's
// results page is read from it instead of a database row per listing. So the change feed of migration
// 090 follows the summary's columns too (slug, url, logo, launch week and date, primary category,
// followers): a change to any of them reaches the index before the next search, as a change to the
// words, status or votes always did. Only the UPDATE triggers change; inserts and deletions were fed already.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/** 090's columns, then the summary's. */
const COLUMNS = [
  'name',
  'tagline',
  'description',
  'keywords',
  'status',
  'votes_count',
  'slug',
  'url',
  'logo_url',
  'launch_week',
  'launched_at',
  'primary_category_id',
  'followers_count',
].join(', ');

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    if (engine === 'sqlite') {
      const stamp =
        'UPDATE search_version SET rev = rev + 1 WHERE id = 1; UPDATE listings SET search_rev = (SELECT rev FROM search_version WHERE id = 1) WHERE id = NEW.id;';
      await sql`DROP TRIGGER listings_search_feed_au`.execute(db);
      await sql
        .raw(`CREATE TRIGGER listings_search_feed_au AFTER UPDATE OF ${COLUMNS} ON listings BEGIN ${stamp} END`)
        .execute(db);
      return;
    }
    await sql`DROP TRIGGER listings_search_feed_bu ON listings`.execute(db);
    await sql
      .raw(
        `CREATE TRIGGER listings_search_feed_bu BEFORE UPDATE OF ${COLUMNS} ON listings FOR EACH ROW EXECUTE FUNCTION listings_search_feed()`,
      )
      .execute(db);
  };
}
