// A vote or follow that changes nothing (a second press, a vote already cast from another tab) writes
// nothing: the listing's row is not rewritten, so the indexes, the search feed and the vote sums are
// left alone, on both engines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { freshStore, type TestDb } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { makeUser } from '../auth/helpers.ts';
import { openStore } from '../../src/store/index.ts';
import { createSession, findSession, findSessionWith } from '../../src/auth/sessions.ts';
import { createUser } from '../../src/auth/users.ts';
import { countingNamed } from '../support/named-statements.ts';
import { react, reactedSlugs, reactionsAmong, recountVotes } from '../../src/store/repos/votes.ts';

let t: TestDb;
before(async () => {
  t = await freshStore();
  await category(t.store.db, 'tools', { name: 'Tools' });
  await listing(t.store.db, { slug: 'hammer', name: 'Hammer', category: 'tools' });
});
after(async () => {
  await t.cleanup();
});

/** The listing row's version: PostgreSQL's xmin, SQLite's search feed position (a trigger moves it on every rewrite). */
async function rowVersion(): Promise<string> {
  const q =
    t.store.engine === 'postgres'
      ? sql<{ v: string }>`SELECT xmin::text AS v FROM listings WHERE slug = 'hammer'`
      : sql<{ v: string }>`SELECT CAST(search_rev AS TEXT) AS v FROM listings WHERE slug = 'hammer'`;
  return (await q.execute(t.store.db)).rows[0].v;
}

test('a vote or follow that changes nothing writes nothing, and answers with the count as it is', async () => {
  const db = t.store.db;
  const user = await makeUser(t.store);
  const first = await react(db, t.store.engine, 'vote', 'hammer', user.id, 'add');
  assert.deepEqual(first.status === 'ok' && [first.changed, first.active, first.count], [true, true, 1]);
  const v = await rowVersion();
  const again = await react(db, t.store.engine, 'vote', 'hammer', user.id, 'add');
  assert.deepEqual(again.status === 'ok' && [again.changed, again.active, again.count], [false, true, 1]);
  assert.equal(await rowVersion(), v, 'the listing row was not rewritten');

  const unfollow = await react(db, t.store.engine, 'follow', 'hammer', user.id, 'remove');
  assert.deepEqual(unfollow.status === 'ok' && [unfollow.changed, unfollow.active, unfollow.count], [false, false, 0]);
  assert.equal(await rowVersion(), v);

  const taken = await react(db, t.store.engine, 'vote', 'hammer', user.id, 'remove');
  assert.deepEqual(taken.status === 'ok' && [taken.changed, taken.active, taken.count], [true, false, 0]);
  assert.notEqual(await rowVersion(), v, 'a real change rewrites the row');
});

test("a person's votes and follows among a page's listings, read together, are each their own", async () => {
  const db = t.store.db;
  await listing(db, { slug: 'saw', name: 'Saw', category: 'tools' });
  await listing(db, { slug: 'drill', name: 'Drill', category: 'tools' });
  const user = await makeUser(t.store);
  const other = await makeUser(t.store);
  await react(db, t.store.engine, 'vote', 'saw', user.id, 'add');
  await react(db, t.store.engine, 'follow', 'drill', user.id, 'add');
  await react(db, t.store.engine, 'vote', 'drill', other.id, 'add');
  const mine = await reactionsAmong(db, user.id, ['saw', 'drill', 'hammer'], ['drill']);
  assert.deepEqual([[...mine.voted], [...mine.following]], [['saw'], ['drill']]);
  const votesOnly = await reactionsAmong(db, user.id, ['saw', 'drill'], []);
  assert.deepEqual([[...votesOnly.voted], [...votesOnly.following]], [['saw'], []]);
  const followOnly = await reactionsAmong(db, user.id, [], ['saw', 'drill']);
  assert.deepEqual([[...followOnly.voted], [...followOnly.following]], [[], ['drill']]);
  assert.deepEqual(await reactedSlugs(db, 'follow', other.id, ['drill']), new Set());
});

test("the session read with a page's listings brings its person's own votes and follows, and nobody's for an expired session", async () => {
  const db = t.store.db;
  await listing(db, { slug: 'spokeshave', name: 'Spokeshave', category: 'tools' });
  await listing(db, { slug: 'mallet', name: 'Mallet', category: 'tools' });
  const user = await makeUser(t.store);
  const other = await makeUser(t.store);
  await react(db, t.store.engine, 'vote', 'spokeshave', user.id, 'add');
  await react(db, t.store.engine, 'follow', 'mallet', user.id, 'add');
  await react(db, t.store.engine, 'vote', 'mallet', other.id, 'add');
  await react(db, t.store.engine, 'follow', 'spokeshave', other.id, 'add');
  const asked = { votes: ['spokeshave', 'mallet', 'hammer'], follows: ['mallet'] };
  const mine = await createSession(db, user.id);
  const found = await findSessionWith(db, mine.token, asked);
  assert.equal(found?.user.id, user.id);
  assert.deepEqual([[...found!.reactions.voted], [...found!.reactions.following]], [['spokeshave'], ['mallet']]);
  // the same answer as the session read and the reactions read in turn
  const apart = await reactionsAmong(db, (await findSession(db, mine.token))!.user.id, asked.votes, asked.follows);
  assert.deepEqual([[...apart.voted], [...apart.following]], [['spokeshave'], ['mallet']]);
  const theirs = await createSession(db, other.id);
  const seen = await findSessionWith(db, theirs.token, { votes: ['spokeshave', 'mallet'], follows: ['spokeshave'] });
  assert.deepEqual([[...seen!.reactions.voted], [...seen!.reactions.following]], [['mallet'], ['spokeshave']]);
  assert.equal(await findSessionWith(db, 'not-a-session-token', asked), null);
  await db
    .updateTable('sessions')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('user_id', '=', user.id)
    .execute();
  assert.equal(await findSessionWith(db, mine.token, asked), null, 'an expired session is nobody');
});

test('signed-in requests that ask at the same moment each get their own person and votes (PostgreSQL: in one statement)', async () => {
  const db = t.store.db;
  await listing(db, { slug: 'bradawl', name: 'Bradawl', category: 'tools' });
  await listing(db, { slug: 'router', name: 'Router', category: 'tools' });
  const people = await Promise.all([makeUser(t.store), makeUser(t.store), makeUser(t.store)]);
  await react(db, t.store.engine, 'vote', 'bradawl', people[0].id, 'add');
  await react(db, t.store.engine, 'vote', 'router', people[1].id, 'add');
  await react(db, t.store.engine, 'follow', 'router', people[2].id, 'add');
  const tokens = await Promise.all(people.map((p) => createSession(db, p.id)));
  const pages = [
    { votes: ['bradawl', 'router'], follows: ['bradawl'] },
    { votes: ['router'], follows: [] },
    { votes: ['bradawl'], follows: ['router'] },
  ];
  const { value: reads, named } = await countingNamed(t, async () => ({
    seen: await Promise.all([
      ...tokens.map((s, i) => findSessionWith(db, s.token, pages[i])),
      findSessionWith(db, 'no-such-session', pages[0]),
    ]),
    // the session alone (a form post, a page not shared), for requests at the same moment: the same
    alone: await Promise.all(tokens.map((s) => findSession(db, s.token))),
  }));
  assert.deepEqual(
    reads.seen.map((x) => x && [x.user.id, [...x.reactions.voted], [...x.reactions.following]]),
    [[people[0].id, ['bradawl'], []], [people[1].id, ['router'], []], [people[2].id, [], ['router']], null],
  );
  assert.deepEqual(
    reads.alone.map((x) => x?.user.id),
    people.map((p) => p.id),
  );
  if (t.store.pgPool) {
    assert.equal(named.get('ll_sessions_reactions_batch'), 1, 'the four reads were one statement');
    assert.equal(named.get('ll_sessions_batch'), 1, 'the three session reads were one statement');
  }
});

test('votes cast at the same moment are each kept, counted and summed; one that fails takes nobody else with it', async () => {
  const db = t.store.db;
  await listing(db, { slug: 'plane', name: 'Plane', category: 'tools' });
  await listing(db, { slug: 'level', name: 'Level', category: 'tools' });
  const people = await Promise.all(Array.from({ length: 24 }, () => makeUser(t.store)));
  // all in one turn of the event loop (on SQLite, one group commit), with a vote from nobody in the middle
  const cast = people.map((p, i) => react(db, t.store.engine, 'vote', i % 2 ? 'plane' : 'level', p.id, 'add'));
  cast.splice(12, 0, react(db, t.store.engine, 'vote', 'plane', 987_654, 'add'));
  cast.push(react(db, t.store.engine, 'follow', 'plane', people[0].id, 'add'));
  const settled = await Promise.allSettled(cast);
  assert.deepEqual(
    settled.map((s) => s.status),
    settled.map((_, i) => (i === 12 ? 'rejected' : 'fulfilled')),
    'only the vote from an account that does not exist fails',
  );
  const rows = await sql<{
    slug: string;
    votes_count: number;
    n: number;
    weighted: number;
    votes: number;
    week: number;
  }>`
    SELECT l.slug, l.votes_count,
      (SELECT count(*) FROM votes v WHERE v.listing_id = l.id) AS n,
      t.weighted, t.votes,
      (SELECT sum(w.votes) FROM listing_week_votes w WHERE w.listing_id = l.id) AS week
    FROM listings l JOIN listing_vote_totals t ON t.listing_id = l.id
    WHERE l.slug IN ('plane', 'level') ORDER BY l.slug`.execute(db);
  assert.deepEqual(
    rows.rows.map((r) => [
      r.slug,
      Number(r.votes_count),
      Number(r.n),
      Number(r.weighted),
      Number(r.votes),
      Number(r.week),
    ]),
    [
      ['level', 12, 12, 12, 12, 12],
      ['plane', 12, 12, 12, 12, 12],
    ],
  );
  const answers = settled.flatMap((s) => (s.status === 'fulfilled' && s.value.status === 'ok' ? [s.value.count] : []));
  assert.deepEqual(
    answers.slice(0, -1).sort((a, b) => a - b),
    [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12],
    'each voter is told the count their own vote made',
  );
  assert.equal(answers.at(-1), 1, 'the follow in the same moment is counted too');
});

/** A listing's stored vote sums (its totals row and its week rows), the trend to 9 decimals. */
async function storedSums(db: TestDb['store']['db'], id: number) {
  const total = await db
    .selectFrom('listing_vote_totals')
    .select(['weighted', 'votes', 'discounted', 'by_reason', 'trend', 'last_vote_at'])
    .where('listing_id', '=', id)
    .executeTakeFirstOrThrow();
  const weeks = await db
    .selectFrom('listing_week_votes')
    .select(['week', 'weighted', 'votes'])
    .where('listing_id', '=', id)
    .orderBy('week')
    .execute();
  return {
    ...total,
    weighted: Number(total.weighted),
    trend: Number(Number(total.trend).toFixed(9)),
    last_vote_at: new Date(total.last_vote_at as string).toISOString(),
    weeks: weeks.map((w) => [w.week, Number(w.weighted), Number(w.votes)]),
  };
}

test("a listing's vote sums after votes cast through react() are the sums recountVotes() makes from its votes", async () => {
  // On PostgreSQL react() runs react_listing() (migration 250), whose recount is SQL: it must make the
  // same numbers as the service's own recount (used by reweighing and the seed) on the same votes.
  const db = t.store.db;
  await listing(db, { slug: 'rasp', name: 'Rasp', category: 'tools' });
  const people = await Promise.all(Array.from({ length: 7 }, () => makeUser(t.store)));
  const start = Date.parse('2026-03-02T10:00:00Z'); // a Monday
  const contexts = [
    { accountAgeHours: 500, emailConfirmed: true, pageMs: 9000 }, // full weight
    { accountAgeHours: 5, emailConfirmed: true, pageMs: 9000 }, // new account
    { accountAgeHours: 500, emailConfirmed: true, pageMs: 100 }, // hasty
    { accountAgeHours: 500, emailConfirmed: false, pageMs: 9000 }, // unconfirmed: weight 0
  ];
  // over three weeks, the first votes more than 14 days before the last
  const days = [0, 1, 6, 9, 16, 17, 20];
  for (const [i, p] of people.entries()) {
    const c = contexts[i % contexts.length];
    const r = await react(db, t.store.engine, 'vote', 'rasp', p.id, 'add', {
      now: new Date(start + days[i] * 86_400_000 + i * 3_600_000),
      vote: { ...c, netHash: null, uaHash: null },
    });
    assert.equal(r.status === 'ok' && r.count, i + 1);
  }
  const id = (await db.selectFrom('listings').select('id').where('slug', '=', 'rasp').executeTakeFirstOrThrow()).id;
  const sums = () => storedSums(db, id);
  const cast = await sums();
  assert.deepEqual(JSON.parse(cast.by_reason), { hasty: 2, new_account: 2, unconfirmed_email: 1 });
  assert.equal(cast.weeks.length, 3);
  await recountVotes(db, id);
  assert.deepEqual(await sums(), cast);
  // A vote is added to the sums, not recounted from every vote: the same numbers also when one is taken
  // back, and for a vote written after a later one (votes of one moment are written in slug order).
  await react(db, t.store.engine, 'vote', 'rasp', people[4].id, 'remove', { now: new Date(start + 21 * 86_400_000) });
  const late = await makeUser(t.store);
  const r = await react(db, t.store.engine, 'vote', 'rasp', late.id, 'add', {
    now: new Date(start + 19 * 86_400_000), // before the latest vote (day 20)
    vote: { ...contexts[1], netHash: null, uaHash: null },
  });
  assert.equal(r.status === 'ok' && r.count, 7);
  const kept = await sums();
  assert.equal(kept.votes, 7);
  await recountVotes(db, id);
  assert.deepEqual(await sums(), kept);
});

test("a listing's sums stay right as votes pour in on it, from votes it already has by the thousand", async () => {
  const db = t.store.db;
  await listing(db, { slug: 'lathe', name: 'Lathe', category: 'tools' });
  const id = (await db.selectFrom('listings').select('id').where('slug', '=', 'lathe').executeTakeFirstOrThrow()).id;
  // 3,000 earlier votes over the last 20 days, of people who exist only as rows
  const start = Date.parse('2026-05-01T00:00:00Z');
  const people = await Promise.all(Array.from({ length: 3 }, () => makeUser(t.store)));
  const voters: number[] = [];
  for (let i = 0; i < 3000; i++) {
    voters.push((await createUser(db, { email: `lathe-${i}@votes.example`, name: `V${i}`, emailVerified: true })).id);
  }
  for (let i = 0; i < voters.length; i += 500)
    await db
      .insertInto('votes')
      .values(
        voters.slice(i, i + 500).map((u, k) => ({
          listing_id: id,
          user_id: u,
          created_at: new Date(start + (i + k) * 576_000).toISOString(), // every 9.6 minutes: 20 days
          weight: (i + k) % 3 ? 1 : 0.25,
          reason: (i + k) % 3 ? null : 'new_account',
        })) as never,
      )
      .execute();
  await sql`UPDATE listings SET votes_count = 3000 WHERE id = ${id}`.execute(db);
  await recountVotes(db, id);
  // then three more, a minute apart, each moving the trend's window past earlier votes
  for (const [i, p] of people.entries()) {
    const r = await react(db, t.store.engine, 'vote', 'lathe', p.id, 'add', {
      now: new Date(start + 3000 * 576_000 + i * 60_000),
      vote: { accountAgeHours: 500, emailConfirmed: true, pageMs: 9000, netHash: null, uaHash: null },
    });
    assert.equal(r.status === 'ok' && r.count, 3001 + i);
  }
  const read = () => storedSums(db, id);
  const added = await read();
  assert.equal(added.votes, 3003);
  await recountVotes(db, id);
  assert.deepEqual(await read(), added);
});

test('two instances casting votes on the same listings at the same moment lose none and count each once', async () => {
  // A second store on the same database is a second instance: its groups of votes lock the same
  // listings (and, at commit, the same weeks' stamps) as this one's.
  const db = t.store.db;
  const weeks = ['2026-01-05', '2026-01-12', '2026-01-19'];
  const slugs = ['awl', 'brace', 'clamp', 'dowel', 'file', 'gouge'];
  for (const [i, slug] of slugs.entries())
    await listing(db, { slug, name: slug, category: 'tools', launch_week: weeks[i % weeks.length] });
  const other = await openStore(t.config);
  try {
    const people = await Promise.all(Array.from({ length: 30 }, () => makeUser(t.store)));
    const rounds = await Promise.all(
      [t.store, other].map(async (store, s) => {
        const answers = [];
        for (let round = 0; round < 3; round++) {
          // each instance takes the listings in its own order
          const order = s ? [...slugs].reverse() : slugs;
          const cast = people
            .slice(s * 15, s * 15 + 15)
            .flatMap((p) => order.map((slug) => react(store.db, store.engine, 'vote', slug, p.id, 'toggle')));
          answers.push(...(await Promise.all(cast)).map((r) => r.status));
        }
        return answers;
      }),
    );
    assert.ok(
      rounds.flat().every((s) => s === 'ok'),
      'every vote was answered',
    );
    // three toggles each: every person ends up voting for every listing, once
    const rows = await sql<{ slug: string; votes_count: number; n: number; votes: number }>`
      SELECT l.slug, l.votes_count, (SELECT count(*) FROM votes v WHERE v.listing_id = l.id) AS n, t.votes
      FROM listings l JOIN listing_vote_totals t ON t.listing_id = l.id
      WHERE l.slug IN ('awl', 'brace', 'clamp', 'dowel', 'file', 'gouge') ORDER BY l.slug`.execute(db);
    assert.deepEqual(
      rows.rows.map((r) => [r.slug, Number(r.votes_count), Number(r.n), Number(r.votes)]),
      slugs.map((slug) => [slug, 30, 30, 30]),
    );
  } finally {
    await other.close();
  }
});

test('PostgreSQL: a vote caught in a deadlock with another transaction is cast again, not lost', async (ctx) => {
  if (t.store.engine !== 'postgres')
    return ctx.skip('row locks and deadlocks are PostgreSQL’s (SQLite has one writer)');
  const db = t.store.db;
  await listing(db, { slug: 'adze', name: 'Adze', category: 'tools' });
  await listing(db, { slug: 'vise', name: 'Vise', category: 'tools' });
  const voter = await makeUser(t.store);
  const other = await openStore(t.config);
  try {
    await other.db.connection().execute(async (conn) => {
      await sql`BEGIN`.execute(conn);
      await sql`SELECT id FROM listings WHERE slug = 'vise' FOR UPDATE`.execute(conn);
      // one group: it locks adze, then waits for vise, which this transaction holds…
      const cast = [
        react(db, t.store.engine, 'vote', 'adze', voter.id, 'add'),
        react(db, t.store.engine, 'vote', 'vise', voter.id, 'add'),
      ];
      await new Promise((r) => setTimeout(r, 200));
      // …while this transaction now waits for adze: a deadlock, which PostgreSQL breaks by failing one side
      const mine = sql`SELECT id FROM listings WHERE slug = 'adze' FOR UPDATE`.execute(conn).then(
        () => 'locked',
        (err: { code?: string }) => err.code,
      );
      assert.ok(['locked', '40P01'].includes((await mine) as string), 'one side of the deadlock was failed');
      await sql`ROLLBACK`.execute(conn);
      const results = await Promise.all(cast);
      assert.deepEqual(
        results.map((r) => r.status === 'ok' && [r.slug, r.count]),
        [
          ['adze', 1],
          ['vise', 1],
        ],
      );
    });
  } finally {
    await other.close();
  }
});
