// Recurring jobs (awards.compute, listings.advance) are one chain each, however many instances start
// at once: at most one queued run per kind, enforced by a partial unique index. Two instances starting
// together used to both find none queued and both queue one, and each chain then rescheduled itself,
// so the job ran twice from then on. Duplicates already queued are removed first (the oldest is kept).
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export const RECURRING_KINDS = ['awards.compute', 'listings.advance'] as const;

export function up(_engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    const kinds = sql.join(RECURRING_KINDS.map((k) => sql.lit(k)));
    await sql`DELETE FROM jobs WHERE status = 'queued' AND kind IN (${kinds})
      AND id NOT IN (SELECT MIN(id) FROM jobs WHERE status = 'queued' AND kind IN (${kinds}) GROUP BY kind)`.execute(
      db,
    );
    await sql`CREATE UNIQUE INDEX jobs_recurring_queued ON jobs (kind) WHERE status = 'queued' AND kind IN (${kinds})`.execute(
      db,
    );
  };
}
