// The site's latest-updates page (/updates) reads updates newest first across all listings: an index
// on (created_at, id) lets both engines walk it in that order and stop after a page, instead of
// sorting every update (updates_listing serves one listing's updates only).
import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(_engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema.createIndex('updates_recent').on('updates').columns(['created_at', 'id']).execute();
  };
}
