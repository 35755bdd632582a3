// SQLite: a narrow covering index over the columns search filters and sorts on, so checking and
// ordering thousands of full-text matches reads a few MB of index instead of the wide listing rows
// (a common word at 100,000 listings: ~45 ms → ~11 ms). PostgreSQL reads the heap for ts_rank anyway.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    if (engine !== 'sqlite') return;
    await sql`CREATE INDEX listings_search_cover ON listings (id, status, votes_count, views_count, followers_count, launched_at, launch_week)`.execute(
      db,
    );
  };
}
