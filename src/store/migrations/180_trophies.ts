// The trophy group (issue #21): signed awards and programmes.
//   award_keys        Ed25519 signing keys of the awards: the private key (PKCS#8, base64) and the public
//                     JWK; the newest key not retired signs, every key stays published in the JWKS.
//   award_snapshots   the final ranking of a finished week, frozen when its awards are decided: the
//                     canonical text (domain/award-statement.ts) and its SHA-256.
//   awards            + statement (base64url of the exact signed bytes), signature (base64url), kid;
//                     votes becomes double precision on PostgreSQL (a weighted vote figure may be fractional).
//   programmes        admin-defined programmes: period, entry rules (JSON), categories, how winners are chosen.
//   programme_entries one row per listing entered in a programme; `place` is set by the jury (jury programmes).
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    const pg = engine === 'postgres';
    const ts = pg ? 'timestamptz' : 'text';
    await db.schema
      .createTable('award_keys')
      .addColumn('kid', 'text', (c) => c.primaryKey())
      .addColumn('public_jwk', 'text', (c) => c.notNull())
      .addColumn('private_key', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('retired_at', ts)
      .execute();
    await db.schema
      .createTable('award_snapshots')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('week', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('canonical', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('award_snapshots_pk', ['kind', 'week'])
      .execute();
    // The counted votes an award states are the ranking's vote figure, which a weighted count makes
    // fractional: PostgreSQL's integer column would refuse 12.5 (SQLite's integer affinity keeps it).
    if (pg) await sql`ALTER TABLE awards ALTER COLUMN votes TYPE double precision`.execute(db);
    await db.schema.alterTable('awards').addColumn('statement', 'text').execute();
    await db.schema.alterTable('awards').addColumn('signature', 'text').execute();
    await db.schema.alterTable('awards').addColumn('kid', 'text').execute();
    await db.schema
      .createTable('programmes')
      .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('starts_on', 'text', (c) => c.notNull())
      .addColumn('ends_on', 'text', (c) => c.notNull())
      .addColumn('rules', 'text', (c) => c.notNull())
      .addColumn('winners', 'text', (c) => c.notNull())
      .addColumn('winners_count', 'integer', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('programme_entries')
      .addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('programme_id', 'integer', (c) => c.notNull().references('programmes.id').onDelete('cascade'))
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('place', 'integer')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addUniqueConstraint('programme_entries_once', ['programme_id', 'listing_id'])
      .execute();
    await db.schema.createIndex('programme_entries_listing').on('programme_entries').column('listing_id').execute();
  };
}
