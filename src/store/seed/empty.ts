// Whether the directory is still empty, kept apart from the seed itself so that a start-up can ask
// without loading the demo content's data modules (main.ts imports the seed only when this says so).
import type { Kysely } from 'kysely';
import type { DB } from '../types.ts';

/** True while the directory has no category: nothing was seeded or written yet. */
export async function directoryIsEmpty(db: Kysely<DB>): Promise<boolean> {
  return !(await db.selectFrom('categories').select('id').limit(1).executeTakeFirst());
}
