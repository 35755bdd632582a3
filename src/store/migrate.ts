// Runs the migrations in order at start-up (Kysely's Migrator, migrations kept in code).
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { Engine } from './connect.ts';

/**
 * Every migration, by name, in the order they were written. A migration's module is imported only
 * when it runs: at start, with the schema up to date, none of them is loaded (18 modules, ~20–40 ms
 * of a cold start).
 */
const MIGRATIONS: ReadonlyArray<
  [name: string, load: () => Promise<{ up: (engine: Engine) => (db: Kysely<any>) => Promise<void> }>]
> = [
  ['001_domain', () => import('./migrations/001_domain.ts')],
  ['002_search', () => import('./migrations/002_search.ts')],
  ['010_directory_indexes', () => import('./migrations/010_directory_indexes.ts')],
  ['020_search_tokens', () => import('./migrations/020_search_tokens.ts')],
  ['021_listing_cover', () => import('./migrations/021_listing_cover.ts')],
  ['022_profile_indexes', () => import('./migrations/022_profile_indexes.ts')],
  ['030_auth', () => import('./migrations/030_auth.ts')],
  ['040_draft_invites', () => import('./migrations/040_draft_invites.ts')],
  ['070_orders', () => import('./migrations/070_orders.ts')],
  ['050_my_listings', () => import('./migrations/050_my_listings.ts')],
  ['060_claims', () => import('./migrations/060_claims.ts')],
  ['080_profile_cache', () => import('./migrations/080_profile_cache.ts')],
  ['090_search_feed', () => import('./migrations/090_search_feed.ts')],
  ['100_view_totals', () => import('./migrations/100_view_totals.ts')],
  ['110_drop_search_terms', () => import('./migrations/110_drop_search_terms.ts')],
  ['120_featured_placements', () => import('./migrations/120_featured_placements.ts')],
  ['130_updates_recent', () => import('./migrations/130_updates_recent.ts')],
  ['140_search_feed_summary', () => import('./migrations/140_search_feed_summary.ts')],
  ['160_recurring_jobs_once', () => import('./migrations/160_recurring_jobs_once.ts')],
  ['180_trophies', () => import('./migrations/180_trophies.ts')],
  ['190_vote_weights', () => import('./migrations/190_vote_weights.ts')],
  ['200_membership_stamp', () => import('./migrations/200_membership_stamp.ts')],
  ['210_version_draft', () => import('./migrations/210_version_draft.ts')],
  ['220_week_launch_order', () => import('./migrations/220_week_launch_order.ts')],
  ['230_board_stamp', () => import('./migrations/230_board_stamp.ts')],
  ['240_week_stamps', () => import('./migrations/240_week_stamps.ts')],
  ['250_react_function', () => import('./migrations/250_react_function.ts')],
  ['260_trending_order', () => import('./migrations/260_trending_order.ts')],
  ['270_follows_by_person', () => import('./migrations/270_follows_by_person.ts')],
  ['280_react_one_group_at_a_time', () => import('./migrations/280_react_one_group_at_a_time.ts')],
  ['290_vote_sums_kept', () => import('./migrations/290_vote_sums_kept.ts')],
];

/** The names of every migration this version runs (readiness checks that the database has them all). */
export const MIGRATION_NAMES: readonly string[] = MIGRATIONS.map(([name]) => name);

function migrationsFor(engine: Engine): Record<string, Migration> {
  return Object.fromEntries(
    MIGRATIONS.map(([name, load]) => [name, { up: async (db: Kysely<any>) => (await load()).up(engine)(db) }]),
  );
}

/** The migrations of this version the database has not run (all of them where it has no migration table yet). */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const rows = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
  const done = new Set(rows.rows.map((r) => r.name));
  return MIGRATION_NAMES.filter((n) => !done.has(n));
}

/** Brings the schema up to date, or (tests of an upgrade) up to the migration named `to`. */
export async function migrate(db: Kysely<any>, engine: Engine, opts: { to?: string } = {}): Promise<void> {
  // A start on an up-to-date database asks one question, not the migrator's dozen statements (its tables,
  // a lock, a transaction): on PostgreSQL ~50 ms of a start. Two instances starting on a database that
  // needs migrating both go on to the migrator, which runs each migration once under its lock.
  if (!opts.to) {
    const pending = await pendingMigrations(db).catch(() => undefined); // no migration table yet
    if (pending?.length === 0) return;
  }
  const migrations = migrationsFor(engine);
  // Numbers are handed out in ranges per module, so a lower number may land after a higher one already ran.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await (opts.to ? migrator.migrateTo(opts.to) : migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed)
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
}
