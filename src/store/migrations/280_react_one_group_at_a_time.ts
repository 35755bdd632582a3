// PostgreSQL: one group of reactions at a time, across instances. react_listings() (migration 250) takes
// its listings in slug order, but a group also rewrites rows other groups share, by trigger, in the order
// its votes reach them (the server log's deadlock reports name the week stamps of migration 240 and the
// 'boards' stamp of migration 230): two groups written at once (two
// instances, or two groups of one process) deadlocked under the vote load, PostgreSQL saw it only after
// deadlock_timeout (1 s), and a reaction still caught after its retries was answered with an error (two
// instances on one database, 50 connections: 15 failed votes in 8 s, p99 1.1 s). The group now first takes
// a transaction-level advisory lock, held until its commit: groups wait for each other in turn instead of
// locking each other's rows crosswise. A group of ~25 votes holds it for a few milliseconds.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

/** The advisory lock's key: one for every reaction group (any 64-bit number unused by anything else). */
const REACT_LOCK_KEY = 7_420_250_280;

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    if (engine !== 'postgres') return;
    await sql
      .raw(`CREATE OR REPLACE FUNCTION react_listings(p_items jsonb)
      RETURNS TABLE (i integer, outcome text, slug text, name text, status text, active boolean, changed boolean,
        count integer, error text)
      LANGUAGE plpgsql AS $$
      #variable_conflict use_column
      DECLARE it record; r record;
      BEGIN
        PERFORM pg_advisory_xact_lock(${REACT_LOCK_KEY});
        FOR it IN SELECT (e.ord - 1)::integer AS n, e.v FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(v, ord)
            ORDER BY e.v->>'slug' COLLATE "C", e.ord LOOP
          BEGIN
            SELECT * INTO r FROM react_listing(it.v->>'kind', it.v->>'slug', (it.v->>'user')::integer, it.v->>'action',
              (it.v->>'at')::timestamptz, (it.v->>'weight')::float8, it.v->>'reason', (it.v->>'account_age_hours')::float8,
              (it.v->>'email_confirmed')::integer, it.v->>'net_hash', it.v->>'ua_hash', (it.v->>'page_ms')::integer);
            RETURN QUERY SELECT it.n, r.outcome, r.slug, r.name, r.status, r.active, r.changed, r.count, NULL::text;
          EXCEPTION WHEN OTHERS THEN
            RETURN QUERY SELECT it.n, 'error'::text, NULL::text, NULL::text, NULL::text, NULL::boolean, NULL::boolean,
              NULL::integer, SQLSTATE || ' ' || SQLERRM;
          END;
        END LOOP;
      END $$`)
      .execute(db);
  };
}
