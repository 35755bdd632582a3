// Weighted votes (issue #21): each vote keeps the context it was cast in and a weight in [0, 1]
// (domain/vote-weight.ts), and the rankings read maintained sums instead of counting votes per request.
//
//   votes.weight, votes.reason   the weight the vote counts with and, when it is below 1, the reason
//                                category that took the most (public, shown in vote_integrity)
//   votes.account_age_hours, votes.email_confirmed, votes.net_hash, votes.ua_hash, votes.page_ms
//                                the context at vote time: hashes keyed with the service's secret (the
//                                network /24 or /48 and the user agent), never the raw values
//   votes.review                 null, or the admin review state: pending | discounted | restored
//   listing_vote_totals          per listing: weighted sum, votes, discounted votes by reason, the trending
//                                score as of its last vote; rewritten in every vote's transaction
//   listing_week_votes           per listing and launch week (Monday): weighted sum and votes cast in it
//   vote_reviews, vote_review_votes, vote_decisions
//                                the admin review queue the detection job fills, and the decisions log
// Existing votes count 1 (they were cast by confirmed accounts under the old rule); their sums are
// backfilled here.
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.ts';

export function up(engine: Engine) {
  return async (db: Kysely<any>): Promise<void> => {
    const pg = engine === 'postgres';
    const ts = pg ? 'timestamptz' : 'text';
    const real = pg ? 'double precision' : 'real';
    const id = (t: ReturnType<typeof db.schema.createTable>) =>
      t.addColumn('id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()));
    for (const [name, type] of [
      ['weight', real],
      ['reason', 'text'],
      ['account_age_hours', real],
      ['email_confirmed', 'integer'],
      ['net_hash', 'text'],
      ['ua_hash', 'text'],
      ['page_ms', 'integer'],
      ['review', 'text'],
    ] as const) {
      await db.schema
        .alterTable('votes')
        .addColumn(name, type as 'text', (c) => (name === 'weight' ? c.notNull().defaultTo(1) : c))
        .execute();
    }
    // The burst detector reads recent votes by network.
    await db.schema.createIndex('votes_net_created').on('votes').columns(['net_hash', 'created_at']).execute();
    await db.schema.createIndex('votes_user').on('votes').columns(['user_id', 'listing_id']).execute();

    await db.schema
      .createTable('listing_vote_totals')
      .addColumn('listing_id', 'integer', (c) => c.primaryKey().references('listings.id').onDelete('cascade'))
      .addColumn('weighted', real, (c) => c.notNull().defaultTo(0))
      .addColumn('votes', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('discounted', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('by_reason', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('trend', real, (c) => c.notNull().defaultTo(0))
      .addColumn('last_vote_at', ts)
      .execute();
    await db.schema
      .createIndex('listing_vote_totals_weighted')
      .on('listing_vote_totals')
      .columns(['weighted', 'listing_id'])
      .execute();
    await db.schema
      .createIndex('listing_vote_totals_last')
      .on('listing_vote_totals')
      .columns(['last_vote_at'])
      .execute();

    await db.schema
      .createTable('listing_week_votes')
      .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
      .addColumn('week', 'text', (c) => c.notNull())
      .addColumn('weighted', real, (c) => c.notNull().defaultTo(0))
      .addColumn('votes', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('listing_week_votes_pk', ['listing_id', 'week'])
      .execute();
    await db.schema
      .createIndex('listing_week_votes_week')
      .on('listing_week_votes')
      .columns(['week', 'weighted', 'listing_id'])
      .execute();

    await id(db.schema.createTable('vote_reviews'))
      .addColumn('kind', 'text', (c) => c.notNull()) // burst | ring
      .addColumn('status', 'text', (c) => c.notNull()) // open | discounted | restored
      .addColumn('signature', 'text', (c) => c.notNull()) // what was detected, so a rerun does not file it twice
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('listing_ids', 'text', (c) => c.notNull())
      .addColumn('user_ids', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('decided_at', ts)
      .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addUniqueConstraint('vote_reviews_signature', ['signature'])
      .execute();
    await db.schema.createIndex('vote_reviews_status').on('vote_reviews').columns(['status', 'created_at']).execute();
    await db.schema
      .createTable('vote_review_votes')
      .addColumn('review_id', 'integer', (c) => c.notNull().references('vote_reviews.id').onDelete('cascade'))
      .addColumn('vote_id', 'integer', (c) => c.notNull().references('votes.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('vote_review_votes_pk', ['review_id', 'vote_id'])
      .execute();
    await db.schema.createIndex('vote_review_votes_vote').on('vote_review_votes').column('vote_id').execute();
    await id(db.schema.createTable('vote_decisions'))
      .addColumn('review_id', 'integer', (c) => c.notNull().references('vote_reviews.id').onDelete('cascade'))
      .addColumn('admin_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('admin_email', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull()) // discount | restore
      .addColumn('votes_changed', 'integer', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('vote_decisions_review').on('vote_decisions').columns(['review_id', 'id']).execute();

    // The detection job is a recurring chain (jobs/vote-detection.ts): at most one queued run, as
    // migration 160 does for its kinds (an index of its own, so that list stays as it shipped).
    await sql`CREATE UNIQUE INDEX jobs_recurring_votes_detect ON jobs (kind) WHERE status = 'queued' AND kind = 'votes.detect'`.execute(
      db,
    );

    // Backfill: every existing vote counts 1.
    await sql`INSERT INTO listing_vote_totals (listing_id, weighted, votes, discounted, by_reason, trend, last_vote_at)
      SELECT listing_id, count(*), count(*), 0, '{}', 0, max(created_at) FROM votes GROUP BY listing_id`.execute(db);
    const monday = pg
      ? sql`to_char(date_trunc('week', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`
      : sql`date(created_at, '-6 days', 'weekday 1')`;
    await sql`INSERT INTO listing_week_votes (listing_id, week, weighted, votes)
      SELECT listing_id, w, count(*), count(*) FROM (SELECT listing_id, ${monday} AS w FROM votes) x GROUP BY listing_id, w`.execute(
      db,
    );
    // The trending score as of each listing's last vote (votes of the 14 days before it, halving every 48 h).
    const rows = (
      await sql<{
        listing_id: number;
        created_at: string | Date;
        last: string | Date;
      }>`SELECT v.listing_id, v.created_at, t.last_vote_at AS last
        FROM votes v JOIN listing_vote_totals t ON t.listing_id = v.listing_id`.execute(db)
    ).rows;
    const trend = new Map<number, number>();
    for (const r of rows) {
      const ageH = (new Date(r.last).getTime() - new Date(r.created_at).getTime()) / 3_600_000;
      if (ageH > 14 * 24) continue;
      trend.set(r.listing_id, (trend.get(r.listing_id) ?? 0) + 0.5 ** (Math.max(0, ageH) / 48));
    }
    for (const [listingId, score] of trend)
      await db.updateTable('listing_vote_totals').set({ trend: score }).where('listing_id', '=', listingId).execute();
  };
}
