// PostgreSQL: a vote or follow cast through the site is ONE statement, a call of react_listing().
//
// The reaction used to be a transaction of eleven statements (lock the listing, look for the person's
// vote, insert it, count, update the count, read every vote of the listing, write the sums, rewrite the
// weekly sums, commit): eleven round trips, each parsed and planned by PostgreSQL, which shares the
// machine's cores with the service. The function does the same work in the database, in the statement's
// own transaction, under the same lock (the listing's row, FOR UPDATE), and answers with what
// store/repos/votes.ts react() returns.
//
// recount_votes() is recountVotes() (store/repos/votes.ts) in SQL: the listing's maintained vote sums
// rewritten from its votes, to the same values (weighted total rounded to 4 decimals, discounted votes
// and their reasons as sorted JSON text, the trending score as of the last vote over the votes of the
// 14 days before it with a 48-hour half-life, the per-week sums). test/store/votes.test.ts holds the two
// to the same numbers. SQLite has no stored functions: there the statements run in the service
// (and reactions that arrive together share one transaction: votes.ts ReactionGroup).
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { TRENDING_HALF_LIFE_HOURS, TRENDING_WINDOW_DAYS } from '../../domain/ranking.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    if (engine !== 'postgres') return;
    await sql
      .raw(`CREATE OR REPLACE FUNCTION recount_votes(p_listing integer) RETURNS void LANGUAGE plpgsql AS $$
      DECLARE last_at timestamptz;
      BEGIN
        SELECT max(created_at) INTO last_at FROM votes WHERE listing_id = p_listing;
        INSERT INTO listing_vote_totals AS t (listing_id, weighted, votes, discounted, by_reason, trend, last_vote_at)
        SELECT p_listing,
          round((coalesce(sum(v.weight), 0) * 10000)::numeric) / 10000,
          count(*),
          count(*) FILTER (WHERE v.weight < 1),
          coalesce((
            SELECT '{' || string_agg(to_json(r.reason)::text || ':' || r.n, ',' ORDER BY r.reason COLLATE "C") || '}'
            FROM (SELECT coalesce(reason, 'other') AS reason, count(*) AS n FROM votes
                  WHERE listing_id = p_listing AND weight < 1 GROUP BY 1) r), '{}'),
          coalesce(sum(v.weight * power(0.5::float8,
              greatest(extract(epoch FROM last_at - v.created_at) / 3600, 0) / ${TRENDING_HALF_LIFE_HOURS}))
            FILTER (WHERE extract(epoch FROM last_at - v.created_at) / 3600 <= ${TRENDING_WINDOW_DAYS * 24}), 0),
          last_at
        FROM votes v WHERE v.listing_id = p_listing
        ON CONFLICT (listing_id) DO UPDATE SET weighted = excluded.weighted, votes = excluded.votes,
          discounted = excluded.discounted, by_reason = excluded.by_reason, trend = excluded.trend,
          last_vote_at = excluded.last_vote_at;
        DELETE FROM listing_week_votes WHERE listing_id = p_listing;
        INSERT INTO listing_week_votes (listing_id, week, weighted, votes)
        SELECT p_listing, to_char(date_trunc('week', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD'),
          round((sum(weight) * 10000)::numeric) / 10000, count(*)
        FROM votes WHERE listing_id = p_listing GROUP BY 2;
      END $$`)
      .execute(db);
    await sql
      .raw(`CREATE OR REPLACE FUNCTION react_listing(
        p_kind text, p_slug text, p_user integer, p_action text, p_at timestamptz,
        p_weight double precision, p_reason text, p_age_hours double precision, p_email_confirmed integer,
        p_net_hash text, p_ua_hash text, p_page_ms integer)
      RETURNS TABLE (outcome text, slug text, name text, status text, active boolean, changed boolean, count integer)
      LANGUAGE plpgsql AS $$
      #variable_conflict use_column
      DECLARE l record; had boolean; want boolean; n integer;
      BEGIN
        SELECT x.id, x.slug, x.name, x.status, x.votes_count, x.followers_count INTO l
          FROM listings x WHERE x.slug = p_slug FOR UPDATE;
        IF NOT FOUND THEN
          RETURN QUERY SELECT 'not_found', NULL::text, NULL::text, NULL::text, NULL::boolean, NULL::boolean, NULL::integer;
          RETURN;
        END IF;
        IF l.status <> 'live' THEN
          RETURN QUERY SELECT 'not_live', l.slug::text, l.name::text, l.status::text, NULL::boolean, NULL::boolean, NULL::integer;
          RETURN;
        END IF;
        IF p_kind = 'vote' THEN
          had := EXISTS (SELECT 1 FROM votes WHERE listing_id = l.id AND user_id = p_user);
        ELSE
          had := EXISTS (SELECT 1 FROM follows WHERE listing_id = l.id AND user_id = p_user);
        END IF;
        want := CASE WHEN p_action = 'toggle' THEN NOT had ELSE p_action = 'add' END;
        IF want = had THEN
          RETURN QUERY SELECT 'ok', l.slug::text, l.name::text, l.status::text, want, false,
            (CASE WHEN p_kind = 'vote' THEN l.votes_count ELSE l.followers_count END)::integer;
          RETURN;
        END IF;
        IF p_kind = 'vote' THEN
          IF want THEN
            INSERT INTO votes (listing_id, user_id, created_at, weight, reason, account_age_hours, email_confirmed,
                net_hash, ua_hash, page_ms)
              VALUES (l.id, p_user, p_at, p_weight, p_reason, p_age_hours, p_email_confirmed, p_net_hash, p_ua_hash, p_page_ms)
              ON CONFLICT (listing_id, user_id) DO NOTHING;
          ELSE
            DELETE FROM votes WHERE listing_id = l.id AND user_id = p_user;
          END IF;
          UPDATE listings SET votes_count = (SELECT count(*) FROM votes WHERE listing_id = l.id)
            WHERE id = l.id RETURNING votes_count INTO n;
          PERFORM recount_votes(l.id);
        ELSE
          IF want THEN
            INSERT INTO follows (listing_id, user_id, created_at) VALUES (l.id, p_user, p_at)
              ON CONFLICT (listing_id, user_id) DO NOTHING;
          ELSE
            DELETE FROM follows WHERE listing_id = l.id AND user_id = p_user;
          END IF;
          UPDATE listings SET followers_count = (SELECT count(*) FROM follows WHERE listing_id = l.id)
            WHERE id = l.id RETURNING followers_count INTO n;
        END IF;
        RETURN QUERY SELECT 'ok', l.slug::text, l.name::text, l.status::text, want, true, n;
      END $$`)
      .execute(db);
    // Reactions that arrive together, in one statement and one transaction: each in its own
    // subtransaction (a failure undoes that one alone and is answered as its error), taken in the order
    // of their listings' slugs, so that two groups lock listings in the same order.
    await sql
      .raw(`CREATE OR REPLACE FUNCTION react_listings(p_items jsonb)
      RETURNS TABLE (i integer, outcome text, slug text, name text, status text, active boolean, changed boolean,
        count integer, error text)
      LANGUAGE plpgsql AS $$
      #variable_conflict use_column
      DECLARE it record; r record;
      BEGIN
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
