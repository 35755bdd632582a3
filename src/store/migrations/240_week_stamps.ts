// A counter per past launch week that moves whenever what that week's launches show may change: a
// listing launched that week is voted on (or its votes are weighed again: its count is rewritten), or
// its name, address, tagline, logo, launch week or launch time changes. With the 'membership' counter
// (migration 200: a listing going live or not, its category, the category tree), a past week's page is
// the same page for as long as neither moved (store/week-stamps.ts, web/page-cache.ts): a visitor
// walking through the archive of weeks gets a kept page, not a ranking of ~700 launches each time.
//
// Only weeks before the current one are counted: the current week is voted on all day, its page is
// shared for a second like every other page (SHARED_CACHE_MS), and its row would be a hot spot every
// vote of the day waits on. The counter is kept for every week before the current one and read only
// for weeks that ended a week ago or more, so the turn of a week never meets a half-kept counter.
//
// On PostgreSQL the bump is a deferred constraint trigger, like the other counters: it runs at commit.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/** Columns of a listing that a week's list shows or ranks by (status and category: 'membership'). */
const SHOWN = 'votes_count, name, slug, url, tagline, logo_url, launch_week, launched_at';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema
      .createTable('week_stamps')
      .addColumn('week', 'text', (c) => c.primaryKey())
      .addColumn('n', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    if (engine === 'sqlite') {
      // the Monday of the current week, UTC: 'weekday 1' moves forward to a Monday (or stays on one)
      const past = (w: string) => `${w} IS NOT NULL AND ${w} < date('now', '-6 days', 'weekday 1')`;
      // (a SELECT with a WHERE before ON CONFLICT: SQLite's documented form of a conditional upsert)
      const bump = (w: string, when: string) =>
        `INSERT INTO week_stamps (week, n) SELECT ${w}, 1 WHERE ${when} ON CONFLICT (week) DO UPDATE SET n = n + 1`;
      for (const t of [
        `CREATE TRIGGER listings_week_stamp_au AFTER UPDATE OF ${SHOWN} ON listings WHEN ${past('OLD.launch_week')} OR ${past('NEW.launch_week')}
         BEGIN
           ${bump('OLD.launch_week', past('OLD.launch_week'))};
           ${bump('NEW.launch_week', `${past('NEW.launch_week')} AND NEW.launch_week IS NOT OLD.launch_week`)};
         END`,
        `CREATE TRIGGER listings_week_stamp_ai AFTER INSERT ON listings WHEN ${past('NEW.launch_week')} BEGIN ${bump('NEW.launch_week', 'true')}; END`,
        `CREATE TRIGGER listings_week_stamp_ad AFTER DELETE ON listings WHEN ${past('OLD.launch_week')} BEGIN ${bump('OLD.launch_week', 'true')}; END`,
      ])
        await sql.raw(t).execute(db);
      return;
    }
    const monday = "to_char(date_trunc('week', now() AT TIME ZONE 'UTC'), 'YYYY-MM-DD')";
    await sql
      .raw(`CREATE OR REPLACE FUNCTION week_stamp_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE monday text := ${monday};
      BEGIN
        IF TG_OP <> 'INSERT' AND OLD.launch_week IS NOT NULL AND OLD.launch_week < monday THEN
          INSERT INTO week_stamps (week, n) VALUES (OLD.launch_week, 1) ON CONFLICT (week) DO UPDATE SET n = week_stamps.n + 1;
        END IF;
        IF TG_OP <> 'DELETE' AND NEW.launch_week IS NOT NULL AND NEW.launch_week < monday
           AND (TG_OP = 'INSERT' OR NEW.launch_week IS DISTINCT FROM OLD.launch_week) THEN
          INSERT INTO week_stamps (week, n) VALUES (NEW.launch_week, 1) ON CONFLICT (week) DO UPDATE SET n = week_stamps.n + 1;
        END IF;
        RETURN NULL;
      END $$`)
      .execute(db);
    const deferred = (name: string, event: string, when: string) =>
      `CREATE CONSTRAINT TRIGGER ${name} AFTER ${event} ON listings DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ${when} EXECUTE FUNCTION week_stamp_bump()`;
    for (const t of [
      deferred(
        'listings_week_stamp_au',
        `UPDATE OF ${SHOWN}`,
        '(OLD.launch_week IS NOT NULL OR NEW.launch_week IS NOT NULL)',
      ),
      deferred('listings_week_stamp_ai', 'INSERT', '(NEW.launch_week IS NOT NULL)'),
      deferred('listings_week_stamp_ad', 'DELETE', '(OLD.launch_week IS NOT NULL)'),
    ])
      await sql.raw(t).execute(db);
  };
}
