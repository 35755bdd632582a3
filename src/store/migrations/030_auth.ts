// Accounts and OAuth: lets the account page list a person's OAuth grants and sessions without scanning
// every stored OAuth artefact, and lets expired idempotency keys and sessions be swept by index.
import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(_engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema.alterTable('oauth_store').addColumn('account_id', 'text').execute();
    await db.schema.createIndex('oauth_store_account').on('oauth_store').columns(['account_id', 'model']).execute();
    await db.schema.createIndex('oauth_store_expires').on('oauth_store').column('expires_at').execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
    await db.schema.createIndex('email_tokens_user').on('email_tokens').columns(['user_id', 'purpose']).execute();
    await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expires_at').execute();
  };
}
