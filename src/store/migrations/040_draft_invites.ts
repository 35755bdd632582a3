// Draft invites carry a secret link: only a SHA-256 of the token is stored (the token is in the email).
import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    const ts = engine === 'postgres' ? 'timestamptz' : 'text';
    await db.schema.alterTable('draft_invites').addColumn('token_hash', 'text').execute();
    await db.schema.alterTable('draft_invites').addColumn('accepted_at', ts).execute();
    await db.schema.createIndex('draft_invites_draft').on('draft_invites').columns(['draft_id', 'email']).execute();
    await db.schema.createIndex('draft_invites_token').on('draft_invites').column('token_hash').execute();
  };
}
