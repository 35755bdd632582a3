// A counter that moves whenever the membership of the live directory changes: a listing goes live or
// stops being live, changes its primary category, gains or loses an extra category, or the category
// tree changes. Per-category counts (the category tree, a category's total) are computed from the
// listings only when it has moved (store/membership.ts), so a read never counts 100,000 rows while
// nothing changed. Votes, views and follows do not move it: they change order, not membership.
//
// Triggers keep it, so no write path can forget to. On PostgreSQL the bump is a deferred constraint
// trigger: it runs at commit, after every other write of the transaction, so two transactions that each
// change several listings never wait on the counter row in opposite orders (no deadlock), and the row is
// held only for the moment of the commit. A reader reads the counter before counting, so a change that
// commits while it counts moves the counter past what it read, and the next reader counts again.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

const BUMP = "UPDATE directory_stamps SET n = n + 1 WHERE name = 'membership'";
const LISTING_MOVED =
  '(OLD.status IS DISTINCT FROM NEW.status OR OLD.primary_category_id IS DISTINCT FROM NEW.primary_category_id)';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema
      .createTable('directory_stamps')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('n', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.insertInto('directory_stamps').values({ name: 'membership', n: 1 }).execute();

    if (engine === 'sqlite') {
      const moved = LISTING_MOVED.replaceAll('IS DISTINCT FROM', 'IS NOT');
      const triggers = [
        `CREATE TRIGGER listings_membership_ai AFTER INSERT ON listings WHEN NEW.status = 'live' BEGIN ${BUMP}; END`,
        `CREATE TRIGGER listings_membership_au AFTER UPDATE OF status, primary_category_id ON listings WHEN ${moved} BEGIN ${BUMP}; END`,
        `CREATE TRIGGER listings_membership_ad AFTER DELETE ON listings WHEN OLD.status = 'live' BEGIN ${BUMP}; END`,
      ];
      for (const t of ['listing_categories', 'categories'])
        for (const [op, event] of [
          ['ai', 'INSERT'],
          ['au', 'UPDATE'],
          ['ad', 'DELETE'],
        ])
          triggers.push(`CREATE TRIGGER ${t}_membership_${op} AFTER ${event} ON ${t} BEGIN ${BUMP}; END`);
      for (const t of triggers) await sql.raw(t).execute(db);
      return;
    }
    await sql
      .raw(`CREATE OR REPLACE FUNCTION directory_membership_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN ${BUMP}; RETURN NULL; END $$`)
      .execute(db);
    const deferred = (name: string, event: string, table: string, when = '') =>
      `CREATE CONSTRAINT TRIGGER ${name} AFTER ${event} ON ${table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW ${when} EXECUTE FUNCTION directory_membership_bump()`;
    for (const t of [
      deferred('listings_membership_ai', 'INSERT', 'listings', "WHEN (NEW.status = 'live')"),
      deferred('listings_membership_au', 'UPDATE OF status, primary_category_id', 'listings', `WHEN ${LISTING_MOVED}`),
      deferred('listings_membership_ad', 'DELETE', 'listings', "WHEN (OLD.status = 'live')"),
      deferred('listing_categories_membership', 'INSERT OR UPDATE OR DELETE', 'listing_categories'),
      deferred('categories_membership', 'INSERT OR UPDATE OR DELETE', 'categories'),
    ])
      await sql.raw(t).execute(db);
  };
}
