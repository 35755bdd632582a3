// Runs the migrations in order at start-up (Kysely's Migrator, migrations kept in code).
import type { Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { Engine } from './connect.ts';
import * as m001 from './migrations/001_domain.ts';
import * as m002 from './migrations/002_search.ts';
import * as m010 from './migrations/010_directory_indexes.ts';
import * as m020 from './migrations/020_search_tokens.ts';
import * as m021 from './migrations/021_listing_cover.ts';
import * as m022 from './migrations/022_profile_indexes.ts';
import * as m030 from './migrations/030_auth.ts';
import * as m040 from './migrations/040_draft_invites.ts';
import * as m070 from './migrations/070_orders.ts';
import * as m050 from './migrations/050_my_listings.ts';
import * as m060 from './migrations/060_claims.ts';
import * as m080 from './migrations/080_profile_cache.ts';
import * as m090 from './migrations/090_search_feed.ts';
import * as m100 from './migrations/100_view_totals.ts';
import * as m110 from './migrations/110_drop_search_terms.ts';
import * as m120 from './migrations/120_featured_placements.ts';
import * as m130 from './migrations/130_updates_recent.ts';
import * as m140 from './migrations/140_search_feed_summary.ts';

/** Every migration, by name. */
function migrationsFor(engine: Engine): Record<string, Migration> {
  return {
    '001_domain': { up: m001.up(engine) },
    '002_search': { up: m002.up(engine) },
    '010_directory_indexes': { up: m010.up(engine) },
    '020_search_tokens': { up: m020.up(engine) },
    '021_listing_cover': { up: m021.up(engine) },
    '022_profile_indexes': { up: m022.up(engine) },
    '030_auth': { up: m030.up(engine) },
    '040_draft_invites': { up: m040.up(engine) },
    '070_orders': { up: m070.up(engine) },
    '050_my_listings': { up: m050.up(engine) },
    '060_claims': { up: m060.up(engine) },
    '080_profile_cache': { up: m080.up(engine) },
    '090_search_feed': { up: m090.up(engine) },
    '100_view_totals': { up: m100.up(engine) },
    '110_drop_search_terms': { up: m110.up(engine) },
    '120_featured_placements': { up: m120.up(engine) },
    '130_updates_recent': { up: m130.up(engine) },
    '140_search_feed_summary': { up: m140.up(engine) },
  };
}

/** Brings the schema up to date, or (tests of an upgrade) up to the migration named `to`. */
export async function migrate(db: Kysely<any>, engine: Engine, opts: { to?: string } = {}): Promise<void> {
  const migrations = migrationsFor(engine);
  // Numbers are handed out in ranges per module, so a lower number may land after a higher one already ran.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await (opts.to ? migrator.migrateTo(opts.to) : migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
}
