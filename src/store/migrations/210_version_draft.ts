// A listing edit that came from a re-submitted or edited draft (services/draft-listing.ts) names the
// draft it came from, so the site team's edit review (/admin/edits) can say so: such an edit was
// drafted from the maker's website, not typed on the listing.
import type { Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(_engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema.alterTable('listing_versions').addColumn('draft_id', 'text').execute();
  };
}
