// Claims: the email link's expiry, indexes for "my claims" and the link look-up (by SHA-256 of the
// token), and at most one pending claim per person, listing and method (claim_listing returns it again).
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    const ts = engine === 'postgres' ? 'timestamptz' : 'text';
    await db.schema.alterTable('claims').addColumn('expires_at', ts).execute();
    await db.schema.createIndex('claims_user').on('claims').columns(['user_id', 'id']).execute();
    await db.schema.createIndex('claims_listing').on('claims').columns(['listing_id', 'status']).execute();
    await db.schema.createIndex('claims_token').on('claims').column('token').execute();
    await sql`create unique index claims_one_pending on claims (user_id, listing_id, method) where status = 'pending'`.execute(
      db,
    );
  };
}
