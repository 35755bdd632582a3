// Trending in index order: the home page's "Trending" and list_launches?section=trending read the first
// few listings by their score now, trend × 0.5^(hours since the last vote / 48), and their count.
// Before, both sorted or counted every listing voted on in the last 14 days (after a busy fortnight at
// 100,000 listings, ~48,000 rows: ~250 ms a read, the event loop stopped meanwhile).
//
// The score's order does not change with time: log2(score now) = log2(trend) + hours(last vote)/48 −
// hours(now)/48, and the last term is the same for every listing. So the key
//   log2(trend) + hours since the epoch of the last vote / 48   (NULL when trend is 0)
// orders listings exactly as their score does at any moment, and an index on it gives the first N in
// order. SQLite indexes the expression (date functions without 'now' are deterministic); PostgreSQL
// indexes trending_key(), declared immutable (the epoch of a timestamp does not depend on the time zone;
// plpgsql, so that the planner does not inline it into an expression it would call only stable).
//
// The count reads the index (last_vote_at, trend): the listings voted on in the window, counted in the
// index without visiting them, less the few that are not live (read from the other side, the listings
// that are not live).
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { TRENDING_HALF_LIFE_HOURS } from '../../domain/ranking.ts';
import { TRENDING_KEY_SQLITE } from '../dialect.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    if (engine === 'postgres') {
      await sql
        .raw(`CREATE OR REPLACE FUNCTION trending_key(trend double precision, last_vote_at timestamptz)
        RETURNS double precision LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
        BEGIN
          IF trend IS NULL OR trend <= 0 OR last_vote_at IS NULL THEN RETURN NULL; END IF;
          RETURN ln(trend) / ln(2::float8) + extract(epoch FROM last_vote_at)::float8 / ${TRENDING_HALF_LIFE_HOURS * 3600};
        END $$`)
        .execute(db);
      await sql`CREATE INDEX listing_vote_totals_trending ON listing_vote_totals (trending_key(trend, last_vote_at))`.execute(
        db,
      );
    } else {
      await sql
        .raw(
          `CREATE INDEX listing_vote_totals_trending ON listing_vote_totals (${TRENDING_KEY_SQLITE.replaceAll('tv.', '')})`,
        )
        .execute(db);
    }
    await db.schema
      .createIndex('listing_vote_totals_last_trend')
      .on('listing_vote_totals')
      .columns(['last_vote_at', 'trend'])
      .execute();
    await db.schema.dropIndex('listing_vote_totals_last').execute();
  };
}
