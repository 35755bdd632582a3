// A vote added to a listing is added to its sums, not recounted from all its votes. react_listing()
// (migration 250) recounted the listing's count, totals and per-week sums from every vote it had, three
// aggregates and a rewrite of all its week rows per vote: a vote cost in proportion to the listing's votes,
// so the launch everybody votes for on launch day slowed down with each vote (SQLite, 3,000 votes on one
// listing: ~4 ms a vote). Now a vote taken or given:
//   - the listing's count moves by the rows the statement inserted or deleted;
//   - a vote added goes into its totals and its week's row, read and written by key (add_vote_sums(), the
//     same arithmetic as repos/votes.ts addedVoteSums() on SQLite); only the votes that leave the trending
//     score's window (at most TRENDING_WINDOW_DAYS older than the latest vote) are read, by the new index
//     (listing_id, created_at), when the vote moves that window on;
//   - a vote taken back (rare) still recounts the listing's sums (recount_votes()).
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';
import { TRENDING_HALF_LIFE_HOURS, TRENDING_WINDOW_DAYS } from '../../domain/ranking.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    await db.schema.createIndex('votes_listing_created').on('votes').columns(['listing_id', 'created_at']).execute();
    if (engine !== 'postgres') return;
    const H = `${TRENDING_HALF_LIFE_HOURS}::float8`;
    const W = `interval '${TRENDING_WINDOW_DAYS * 24} hours'`;
    await sql
      .raw(`CREATE OR REPLACE FUNCTION add_vote_sums(p_listing integer, p_at timestamptz, p_weight float8, p_reason text)
      RETURNS void LANGUAGE plpgsql AS $$
      DECLARE t record; leaving float8; v_trend float8; v_last timestamptz; reasons text; r text := coalesce(p_reason, 'other');
      BEGIN
        SELECT * INTO t FROM listing_vote_totals WHERE listing_id = p_listing;
        IF t.last_vote_at IS NULL THEN
          v_trend := p_weight;
          v_last := p_at;
        ELSIF p_at >= t.last_vote_at THEN
          -- the score as of the previous latest vote, less the votes leaving the window, decayed to this vote, plus it
          SELECT coalesce(sum(v.weight * power(0.5::float8,
              greatest(extract(epoch FROM t.last_vote_at - v.created_at) / 3600, 0) / ${H})), 0) INTO leaving
            FROM votes v WHERE v.listing_id = p_listing
              AND v.created_at >= t.last_vote_at - ${W} AND v.created_at < p_at - ${W};
          v_trend := greatest(t.trend - leaving, 0)
            * power(0.5::float8, extract(epoch FROM p_at - t.last_vote_at) / 3600 / ${H}) + p_weight;
          v_last := p_at;
        ELSE
          -- an earlier vote (votes of one moment written out of order): counted at its age, if in the window
          v_trend := t.trend + CASE WHEN t.last_vote_at - p_at <= ${W}
            THEN p_weight * power(0.5::float8, extract(epoch FROM t.last_vote_at - p_at) / 3600 / ${H}) ELSE 0 END;
          v_last := t.last_vote_at;
        END IF;
        reasons := coalesce(t.by_reason, '{}');
        IF p_weight < 1 THEN
          -- written as recount_votes() writes it: keys in byte order, no spaces
          SELECT '{' || string_agg(to_json(e.key)::text || ':' || e.value, ',' ORDER BY e.key COLLATE "C") || '}' INTO reasons
            FROM jsonb_each_text(reasons::jsonb || jsonb_build_object(r, coalesce((reasons::jsonb->>r)::integer, 0) + 1)) AS e;
        END IF;
        INSERT INTO listing_vote_totals AS x (listing_id, weighted, votes, discounted, by_reason, trend, last_vote_at)
        VALUES (p_listing, round(((coalesce(t.weighted, 0) + p_weight) * 10000)::numeric) / 10000, coalesce(t.votes, 0) + 1,
          coalesce(t.discounted, 0) + (p_weight < 1)::integer, reasons, v_trend, v_last)
        ON CONFLICT (listing_id) DO UPDATE SET weighted = excluded.weighted, votes = excluded.votes,
          discounted = excluded.discounted, by_reason = excluded.by_reason, trend = excluded.trend,
          last_vote_at = excluded.last_vote_at;
        INSERT INTO listing_week_votes AS w (listing_id, week, weighted, votes)
        VALUES (p_listing, to_char(date_trunc('week', p_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD'),
          round((p_weight * 10000)::numeric) / 10000, 1)
        ON CONFLICT (listing_id, week) DO UPDATE
          SET weighted = round(((w.weighted + p_weight) * 10000)::numeric) / 10000, votes = w.votes + 1;
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
      DECLARE l record; had boolean; want boolean; n integer; d integer;
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
            GET DIAGNOSTICS d = ROW_COUNT;
          ELSE
            DELETE FROM votes WHERE listing_id = l.id AND user_id = p_user;
            GET DIAGNOSTICS d = ROW_COUNT;
            d := -d;
          END IF;
          UPDATE listings SET votes_count = votes_count + d WHERE id = l.id RETURNING votes_count INTO n;
          IF d > 0 THEN
            PERFORM add_vote_sums(l.id, p_at, p_weight, p_reason);
          ELSIF d < 0 THEN
            PERFORM recount_votes(l.id);
          END IF;
        ELSE
          IF want THEN
            INSERT INTO follows (listing_id, user_id, created_at) VALUES (l.id, p_user, p_at)
              ON CONFLICT (listing_id, user_id) DO NOTHING;
            GET DIAGNOSTICS d = ROW_COUNT;
          ELSE
            DELETE FROM follows WHERE listing_id = l.id AND user_id = p_user;
            GET DIAGNOSTICS d = ROW_COUNT;
            d := -d;
          END IF;
          UPDATE listings SET followers_count = followers_count + d WHERE id = l.id RETURNING followers_count INTO n;
        END IF;
        RETURN QUERY SELECT 'ok', l.slug::text, l.name::text, l.status::text, want, true, n;
      END $$`)
      .execute(db);
  };
}
