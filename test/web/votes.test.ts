// Votes that count what they should (issue #21): each vote keeps its context and a weight; a burst of
// fresh accounts from one network is discounted, shows in vote_integrity and changes no rank; rings are
// found; the admin's decisions are logged and change weights; paying changes nothing; the fair first
// hours hide counts and shuffle per visitor. Runs on both engines (DATABASE_URL).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSecretKey } from 'node:crypto';
import * as cheerio from 'cheerio';
import { testApp, type TestApp } from '../support/app.ts';
import { addCategory, addListing, DAY, earlierThisWeek, HOUR } from '../support/seed-fixtures.ts';
import { makeUser, PASSWORD } from '../auth/helpers.ts';
import { pageStamp, voteKey, networkOf, networkHash } from '../../src/services/vote-context.ts';
import { detectVotePatterns } from '../../src/store/repos/vote-reviews.ts';
import { detectionSettingsOf, ensureVoteDetectionScheduled, VOTES_DETECT } from '../../src/jobs/vote-detection.ts';
import { drainJobs, jobHandlers } from '../../src/jobs/index.ts';
import { voteWeightsOf } from '../../src/services/vote-context.ts';
import { recountAllVotes, reweighAllVotes } from '../../src/store/repos/votes.ts';
import { weighVote, DEFAULT_VOTE_WEIGHTS } from '../../src/domain/vote-weight.ts';
import { fairStartUntil, seededShuffle } from '../../src/domain/ranking.ts';
import { mondayOf } from '../../src/domain/weeks.ts';
import { computeAwards } from '../../src/store/repos/awards.ts';
import { toJson } from '../../src/store/json.ts';

// ------------------------------------------------------------------ a cookie-keeping client with its own address

class Client {
  jar = new Map<string, string>();
  readonly t: TestApp;
  readonly ip: string;
  readonly ua: string;
  constructor(t: TestApp, ip = '192.0.2.10', ua = 'Mozilla/5.0 (test)') {
    this.t = t;
    this.ip = ip;
    this.ua = ua;
  }
  async req(method: 'GET' | 'POST', url: string, form?: Record<string, string>) {
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.t.app.inject({
      method,
      url,
      remoteAddress: this.ip,
      headers: {
        accept: 'text/html',
        'user-agent': this.ua,
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      payload: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number }>) {
      if (!c.value || (c.maxAge !== undefined && c.maxAge <= 0)) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    return res;
  }
  async page(url: string) {
    const res = await this.req('GET', url);
    return { res, $: cheerio.load(res.body) };
  }
}

/** A signed-in person whose account is `ageHours` old, browsing from `ip`. */
async function person(t: TestApp, ip: string, ageHours: number, role?: 'admin'): Promise<Client & { id: number }> {
  const user = await makeUser(t.store, role ? { role } : {});
  await t.store.db
    .updateTable('users')
    .set({ created_at: new Date(Date.now() - ageHours * HOUR).toISOString() })
    .where('id', '=', user.id)
    .execute();
  const c = new Client(t, ip);
  const { $ } = await c.page('/sign-in');
  const res = await c.req('POST', '/sign-in', {
    _csrf: $('form[action="/sign-in"] input[name=_csrf]').val() as string,
    email: user.email,
    password: PASSWORD,
  });
  assert.equal(res.statusCode, 303, 'signed in');
  return Object.assign(c, { id: user.id });
}

/**
 * Votes through the website's form. `pageAgoMs`: how long before the vote the page was served (the
 * form's signed page time is re-signed for that moment, as if the person had read the page that long).
 */
async function vote(c: Client & { id: number }, slug: string, pageAgoMs = 20_000): Promise<void> {
  const { $ } = await c.page(`/listings/${slug}`);
  const f = $(`form[action="/listings/${slug}/vote"]`).first();
  const form: Record<string, string> = {};
  f.find('input[type=hidden]').each((_, el) => {
    form[$(el).attr('name')!] = $(el).attr('value') ?? '';
  });
  assert.ok(form.t, 'the vote form carries a signed page time');
  form.t = pageStamp(voteKey(c.t.server.deps.services), Date.now() - pageAgoMs, c.id);
  const res = await c.req('POST', `/listings/${slug}/vote`, form);
  assert.equal(res.statusCode, 303, `voted for ${slug}`);
}

async function api(t: TestApp, url: string) {
  const r = await t.app.inject({ method: 'GET', url: '/api/v1' + url });
  assert.equal(r.statusCode, 200, `${url}: ${r.body}`);
  return r.json();
}

async function ranks(t: TestApp) {
  const week = await api(t, '/launches/weeks/this');
  const weekly = await api(t, '/leaderboards/community-weekly');
  const allTime = await api(t, '/leaderboards/community-all-time');
  const section = await api(t, '/launches?section=this-week');
  const trending = await api(t, '/launches?section=trending');
  const mostVoted = await api(t, '/launches?section=most-voted');
  const slugs = (xs: Array<{ listing?: { slug: string }; slug?: string }>) => xs.map((x) => x.listing?.slug ?? x.slug);
  return {
    week: week.launches.map((x: { listing: { slug: string }; rank: number; votes: number }) => [
      x.listing.slug,
      x.rank,
      x.votes,
    ]),
    weekly: weekly.items.map((x: { listing: { slug: string }; metric: { votes: number } }) => [
      x.listing.slug,
      x.metric.votes,
    ]),
    allTime: slugs(allTime.items),
    section: slugs(section.items),
    trending: slugs(trending.items),
    mostVoted: slugs(mostVoted.items),
  };
}

async function votesOf(t: TestApp, slug: string) {
  return t.store.db
    .selectFrom('votes as v')
    .innerJoin('listings as l', 'l.id', 'v.listing_id')
    .select(['v.id', 'v.user_id', 'v.weight', 'v.reason', 'v.review', 'v.net_hash', 'v.ua_hash', 'v.page_ms'])
    .where('l.slug', '=', slug)
    .orderBy('v.id')
    .execute();
}

// ------------------------------------------------------------------ pure rules

describe('vote weight rules (domain/vote-weight.ts)', () => {
  test('factors multiply, stay in [0, 1], and name the reason that took the most', () => {
    const ok = { accountAgeHours: 500, emailConfirmed: true, pageMs: 10_000, review: null } as const;
    assert.deepEqual(weighVote(ok), { weight: 1, reason: null });
    assert.deepEqual(weighVote({ ...ok, accountAgeHours: 1 }), { weight: 0.25, reason: 'new_account' });
    assert.deepEqual(weighVote({ ...ok, pageMs: 500 }), { weight: 0.5, reason: 'hasty' });
    assert.deepEqual(weighVote({ ...ok, pageMs: null }), { weight: 0.5, reason: 'hasty' });
    assert.deepEqual(weighVote({ ...ok, accountAgeHours: 1, pageMs: 500 }), { weight: 0.125, reason: 'new_account' });
    assert.deepEqual(weighVote({ ...ok, emailConfirmed: false }), { weight: 0, reason: 'unconfirmed_email' });
    assert.deepEqual(weighVote({ ...ok, review: 'pending' }), { weight: 0.5, reason: 'under_review' });
    assert.deepEqual(weighVote({ ...ok, review: 'discounted' }), { weight: 0, reason: 'coordinated' });
    assert.deepEqual(weighVote({ ...ok, review: 'restored' }), { weight: 1, reason: null });
    // A vote cast before weights existed (no context) counts in full.
    assert.deepEqual(weighVote({ accountAgeHours: null, emailConfirmed: null, pageMs: null, review: null }), {
      weight: 1,
      reason: null,
    });
    // Settings out of range are clamped.
    assert.equal(weighVote({ ...ok, accountAgeHours: 1 }, { ...DEFAULT_VOTE_WEIGHTS, newAccountWeight: 7 }).weight, 1);
  });

  test('networks: /24 for IPv4 (mapped too), /48 for IPv6; hashes are keyed, never the address', () => {
    assert.equal(networkOf('203.0.113.77'), '203.0.113.0/24');
    assert.equal(networkOf('::ffff:203.0.113.9'), '203.0.113.0/24');
    assert.equal(networkOf('2001:db8:abcd:12::1'), '2001:db8:abcd::/48');
    assert.equal(networkOf('2001:db8::1'), '2001:db8:0::/48');
    assert.equal(networkOf('not an ip'), null);
    const k1 = createSecretKey(Buffer.alloc(32, 1));
    const k2 = createSecretKey(Buffer.alloc(32, 2));
    assert.equal(networkHash(k1, '203.0.113.1'), networkHash(k1, '203.0.113.200'));
    assert.notEqual(networkHash(k1, '203.0.113.1'), networkHash(k1, '203.0.114.1'));
    assert.notEqual(networkHash(k1, '203.0.113.1'), networkHash(k2, '203.0.113.1'));
    assert.doesNotMatch(networkHash(k1, '203.0.113.1')!, /203/);
  });

  test('fair first hours: the window after Monday 00:00 UTC; a seeded shuffle is stable per seed', () => {
    const monday = '2026-11-23';
    assert.equal(fairStartUntil(new Date('2026-11-23T03:59:00Z'), monday, 4), '2026-11-23T04:00:00.000Z');
    assert.equal(fairStartUntil(new Date('2026-11-23T04:00:00Z'), monday, 4), null);
    assert.equal(fairStartUntil(new Date('2026-11-23T01:00:00Z'), monday, 0), null);
    const xs = Array.from({ length: 20 }, (_, i) => i);
    assert.deepEqual(seededShuffle(xs, 42), seededShuffle(xs, 42));
    assert.notDeepEqual(seededShuffle(xs, 42), seededShuffle(xs, 43));
    assert.deepEqual(
      [...seededShuffle(xs, 42)].sort((a, b) => a - b),
      xs,
    );
  });
});

// ------------------------------------------------------------------ weights, detection, review, payment

describe('weighted votes on the site', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp({}, async (store) => {
      await addCategory(store.db, 'tools');
      // Earlier launches win ties: `honest` launched first.
      for (const [i, slug] of ['honest', 'pumped', 'r1', 'r2', 'r3', 'r4', 'paid-one', 'free-one'].entries())
        await addListing(store.db, { slug, category: 'tools', launched_at: earlierThisWeek(0.01 * (i + 1)) });
    });
  });
  after(async () => {
    await t.cleanup();
  });

  test('a vote keeps its context: keyed network and browser hashes, page time, account age; weighed by the rules', async () => {
    const c = await person(t, '198.18.7.20', 24 * 30);
    await vote(c, 'honest', 20_000);
    const [v] = await votesOf(t, 'honest');
    assert.equal(Number(v.weight), 1);
    assert.equal(v.reason, null);
    assert.ok(v.net_hash && v.ua_hash, 'hashes kept');
    assert.doesNotMatch(`${v.net_hash}${v.ua_hash}`, /198|Mozilla/, 'no raw address or header');
    assert.ok(Number(v.page_ms) >= 19_000 && Number(v.page_ms) < 60_000);
    const row = await t.store.db
      .selectFrom('votes')
      .select(['account_age_hours', 'email_confirmed'])
      .where('id', '=', v.id)
      .executeTakeFirstOrThrow();
    assert.ok(Number(row.account_age_hours) > 24 * 29);
    assert.equal(Number(row.email_confirmed), 1);

    // A form posted without a valid page time is hasty (× 0.5); a forged one too.
    const d = await person(t, '198.18.8.20', 24 * 30);
    const { $ } = await d.page('/listings/honest');
    const form: Record<string, string> = {};
    $('form[action="/listings/honest/vote"] input[type=hidden]').each((_, el) => {
      form[$(el).attr('name')!] = $(el).attr('value') ?? '';
    });
    // A stamp signed for another person (c) does not count for d either.
    form.t = pageStamp(voteKey(t.server.deps.services), Date.now() - 60_000, c.id);
    await d.req('POST', '/listings/honest/vote', form);
    const hasty = (await votesOf(t, 'honest')).find((x) => x.user_id === d.id)!;
    assert.equal(Number(hasty.weight), 0.5);
    assert.equal(hasty.reason, 'hasty');
    assert.equal(hasty.page_ms, null);
    // Taken back: the sums follow.
    await d.req('POST', '/listings/honest/vote', { ...form, action: 'remove' });
    const li = await api(t, '/listings/honest');
    assert.deepEqual(li.vote_integrity, { counted: 1, discounted: 0, by_reason: {} });
  });

  test('a burst of fresh accounts from one network is discounted, shows in vote_integrity, and changes no rank', async () => {
    // Two more established people, each on their own network: honest has 3 counted votes.
    for (const ip of ['198.18.9.1', '198.18.10.1']) await vote(await person(t, ip, 24 * 60), 'honest');
    const before = await ranks(t);
    assert.equal(before.week[0][0], 'honest');

    // Eight accounts made minutes ago, all from 203.0.113.0/24, vote for `pumped`: more raw votes than honest.
    for (let i = 0; i < 8; i++) await vote(await person(t, `203.0.113.${10 + i}`, 0.1), 'pumped', 5_000);
    const pumped = await api(t, '/listings/pumped');
    assert.equal(pumped.votes, 8, 'every vote is kept');
    assert.deepEqual(pumped.vote_integrity, { counted: 2, discounted: 8, by_reason: { new_account: 8 } });

    // The detection job files the burst; its votes wait for review at × 0.5 more.
    const filed = await detectVotePatterns(
      t.store.db,
      t.store.engine,
      new Date(),
      detectionSettingsOf(t.config),
      voteWeightsOf(t.config),
    );
    assert.deepEqual(
      filed.map((f) => [f.kind, f.votes]),
      [['burst', 8]],
    );
    assert.deepEqual(
      await detectVotePatterns(
        t.store.db,
        t.store.engine,
        new Date(),
        detectionSettingsOf(t.config),
        voteWeightsOf(t.config),
      ),
      [],
      're-running files nothing twice',
    );
    const votes = await votesOf(t, 'pumped');
    assert.ok(votes.every((v) => v.review === 'pending' && Number(v.weight) === 0.125));
    assert.equal(new Set(votes.map((v) => v.net_hash)).size, 1, 'one network');
    const after = await api(t, '/listings/pumped');
    assert.deepEqual(after.vote_integrity, { counted: 1, discounted: 8, by_reason: { new_account: 8 } });

    // No rank moved: honest still leads the week, the weekly board (the figure the awards read) and all time.
    const now = await ranks(t);
    assert.equal(now.week[0][0], 'honest');
    assert.deepEqual(now.week[0], before.week[0]);
    assert.equal(now.weekly[0][0], 'honest');
    assert.equal(now.allTime[0], 'honest');
    assert.equal(now.section[0], 'honest');
    assert.equal(now.mostVoted[0], 'honest');
    assert.equal(now.trending[0], 'honest');
    assert.deepEqual(
      now.week.find((x: unknown[]) => x[0] === 'pumped'),
      ['pumped', 2, 1],
    );

    // Nor any award: the week's awards, decided once it has ended, go to the listing the counted votes rank first.
    const monday = mondayOf(new Date().toISOString().slice(0, 10));
    const weekEnded = new Date(Date.parse(`${monday}T00:00:00Z`) + 7 * DAY + HOUR);
    const winners = await computeAwards(t.store.db, monday, { now: weekEnded });
    const slugOf = async (id: number) =>
      (await t.store.db.selectFrom('listings').select('slug').where('id', '=', id).executeTakeFirstOrThrow()).slug;
    assert.equal(await slugOf(winners[0].listing_id), 'honest', 'Launch of the Week #1 is the honest leader');
    assert.ok(winners[0].votes > 1, `on its counted votes (${winners[0].votes})`);
    // Eight raw votes count as one while the burst waits for the site team (× 0.25 new account × 0.5 under
    // review): where pumped places at all, it is on that one counted vote, below the honest leader's.
    for (const w of winners)
      if ((await slugOf(w.listing_id)) === 'pumped') assert.ok(w.votes <= 1, `pumped's award figure ${w.votes}`);
    await t.store.db.deleteFrom('awards').where('week', '=', monday).execute();
    await t.store.db.deleteFrom('award_snapshots').where('week', '=', monday).execute();

    // The listing page shows the report.
    const { $ } = await new Client(t).page('/listings/pumped');
    const report = $('.vote-integrity').text();
    assert.match(report, /1\s+counted of 8 votes/);
    assert.match(report, /8 votes counted less/);
    assert.match(report, /new when it voted/);
    assert.equal($('.vote-integrity a[href="/how-ranking-works"]').length, 1);
  });

  test('the admin reviews the burst: discount and restore are logged (who, when, what) and change weights', async () => {
    const admin = await person(t, '198.18.50.1', 24 * 100, 'admin');
    const visitor = await person(t, '198.18.51.1', 24 * 100);
    assert.equal((await visitor.req('GET', '/admin/votes')).statusCode, 403);
    let { $ } = await admin.page('/admin/votes');
    const review = $('article.vote-review[data-kind="burst"]');
    assert.equal(review.attr('data-status'), 'open');
    const id = review.attr('data-review')!;
    assert.equal($('[data-count="open"]').text(), '1');
    const form = (action: string) => {
      const f = $(`form[action="/admin/votes/${id}/decide"]`).filter(
        (_, el) => $(el).find(`input[value=${action}]`).length > 0,
      );
      return { _csrf: f.find('input[name=_csrf]').val() as string, action, note: `checked by hand: ${action}` };
    };
    // Without the CSRF token nothing changes.
    assert.equal((await admin.req('POST', `/admin/votes/${id}/decide`, { action: 'discount' })).statusCode, 403);

    let res = await admin.req('POST', `/admin/votes/${id}/decide`, form('discount'));
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/admin/votes?notice=discount&changed=8#review-${id}`);
    assert.deepEqual((await api(t, '/listings/pumped')).vote_integrity, {
      counted: 0,
      discounted: 8,
      by_reason: { coordinated: 8 },
    });
    assert.ok((await votesOf(t, 'pumped')).every((v) => Number(v.weight) === 0 && v.review === 'discounted'));
    const weekly = await api(t, '/leaderboards/community-weekly');
    assert.ok(!weekly.items.some((x: { listing: { slug: string } }) => x.listing.slug === 'pumped'), 'counts nothing');

    ({ $ } = await admin.page('/admin/votes'));
    res = await admin.req('POST', `/admin/votes/${id}/decide`, form('restore'));
    assert.equal(res.statusCode, 303);
    // Restored: the votes count what the rules give again (new accounts × 0.25), and are not filed again.
    assert.deepEqual((await api(t, '/listings/pumped')).vote_integrity, {
      counted: 2,
      discounted: 8,
      by_reason: { new_account: 8 },
    });
    assert.deepEqual(
      await detectVotePatterns(
        t.store.db,
        t.store.engine,
        new Date(),
        detectionSettingsOf(t.config),
        voteWeightsOf(t.config),
      ),
      [],
    );

    const log = await t.store.db
      .selectFrom('vote_decisions')
      .selectAll()
      .where('review_id', '=', Number(id))
      .orderBy('id')
      .execute();
    assert.deepEqual(
      log.map((d) => [d.admin_id, d.action, Number(d.votes_changed), d.note]),
      [
        [admin.id, 'discount', 8, 'checked by hand: discount'],
        [admin.id, 'restore', 8, 'checked by hand: restore'],
      ],
    );
    assert.ok(log.every((d) => Date.now() - Date.parse(String(d.created_at)) < 60_000));
    ({ $ } = await admin.page('/admin/votes'));
    const decisions = $(`#review-${id} .decisions li`)
      .map((_, el) => $(el).text())
      .get();
    assert.equal(decisions.length, 2);
    assert.match(decisions[0], /restore by .*@example\.com \(8 votes changed weight\): checked by hand: restore/);
    assert.equal($(`#review-${id}`).attr('data-status'), 'restored');
  });

  test('rings: accounts that vote for the very same set of listings are filed for review', async () => {
    const ring: Array<Client & { id: number }> = [];
    for (let i = 0; i < 4; i++) ring.push(await person(t, `198.19.${i}.5`, 24 * 40));
    for (const c of ring) for (const slug of ['r1', 'r2', 'r3']) await vote(c, slug);
    // Someone who also voted for those three and for another listing is not part of it.
    const other = await person(t, '198.19.99.5', 24 * 40);
    for (const slug of ['r1', 'r2', 'r3', 'r4']) await vote(other, slug);
    const filed = await detectVotePatterns(
      t.store.db,
      t.store.engine,
      new Date(),
      detectionSettingsOf(t.config),
      voteWeightsOf(t.config),
    );
    assert.deepEqual(
      filed.map((f) => [f.kind, f.votes]),
      [['ring', 12]],
    );
    const r = await t.store.db
      .selectFrom('vote_reviews')
      .selectAll()
      .where('id', '=', filed[0].id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      JSON.parse(r.user_ids),
      ring.map((c) => c.id).sort((a, b) => a - b),
    );
    const r1 = await api(t, '/listings/r1');
    assert.deepEqual(r1.vote_integrity, { counted: 3, discounted: 4, by_reason: { under_review: 4 } });
    const { $ } = await (await person(t, '198.19.50.1', 24 * 100, 'admin')).page('/admin/votes');
    assert.match($(`#review-${filed[0].id}`).text(), /4 accounts voted for exactly the same 3 listings/);
  });

  test('the detection job runs on the queue and reschedules itself, one chain', async () => {
    assert.equal(await ensureVoteDetectionScheduled(t.store.db), true);
    assert.equal(await ensureVoteDetectionScheduled(t.store.db), false);
    // A new burst since the last pass: the job files it.
    for (let i = 0; i < 5; i++) await vote(await person(t, `203.0.114.${10 + i}`, 2), 'r4', 5_000);
    const ran = await drainJobs(t.server.deps, jobHandlers);
    assert.deepEqual(
      ran.map((r) => [r.job.kind, r.outcome]),
      [[VOTES_DETECT, 'done']],
    );
    const burst = await t.store.db
      .selectFrom('vote_reviews')
      .select(['kind', 'status', 'listing_ids'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(burst.kind, 'burst');
    assert.equal(burst.status, 'open');
    const jobs = await t.store.db
      .selectFrom('jobs')
      .select(['status', 'run_at'])
      .where('kind', '=', VOTES_DETECT)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      jobs.map((j) => j.status),
      ['done', 'queued'],
    );
    const next = Date.parse(String(jobs[1].run_at)) - Date.now();
    assert.ok(next > 14 * 60_000 && next <= 15 * 60_000, 'the next run in VOTE_SCAN_MINUTES');
  });

  test('paying changes no vote, no weight and no rank', async () => {
    // The same voters vote for two listings alike: one fresh account on a shared network, two established.
    const voters = [
      await person(t, '198.20.1.1', 24 * 90),
      await person(t, '198.20.2.1', 24 * 90),
      await person(t, '198.20.3.1', 1),
    ];
    for (const c of voters) {
      await vote(c, 'free-one', 30_000);
      await vote(c, 'paid-one', 30_000);
    }
    const weights = async (slug: string) =>
      (await votesOf(t, slug)).map((v) => [v.user_id, Number(v.weight), v.reason]);
    const snapshot = async () => ({
      paid: await weights('paid-one'),
      free: await weights('free-one'),
      integrityPaid: (await api(t, '/listings/paid-one')).vote_integrity,
      integrityFree: (await api(t, '/listings/free-one')).vote_integrity,
      ranks: await ranks(t),
    });
    const before = await snapshot();
    assert.deepEqual(before.paid, before.free, 'the same votes weigh the same');
    assert.deepEqual(before.integrityPaid, before.integrityFree);

    // paid-one's maker pays: a paid plan, an order with lines for it, billboard money, a featured placement.
    const db = t.store.db;
    const owner = voters[0];
    const listingId = (
      await db.selectFrom('listings').select('id').where('slug', '=', 'paid-one').executeTakeFirstOrThrow()
    ).id;
    const now = new Date().toISOString();
    await db
      .updateTable('listings')
      .set({ plan: 'paid', unlocked: toJson(['story', 'milestones', 'media', 'featured']) })
      .where('id', '=', listingId)
      .execute();
    const order = await db
      .insertInto('orders')
      .values({
        number: 'LL-TEST-PAID-1',
        user_id: owner.id,
        status: 'paid',
        currency: 'USD',
        subtotal_cents: 50_000,
        discount_cents: 0,
        vat_cents: 0,
        total_cents: 50_000,
        vat_rate_bp: 0,
        billing_country: null,
        vat_number: null,
        reverse_charge: false,
        promo_code: null,
        checkout_token: 'test-token-paid-1',
        provider: 'test',
        provider_ref: null,
        created_at: now,
        paid_at: now,
        expires_at: null,
        billing_name: null,
        billing_address: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('order_lines')
      .values({
        order_id: order.id,
        product_code: 'billboard',
        description: 'Billboard',
        listing_id: listingId,
        week: mondayOf(new Date()),
        quantity: 1,
        unit_cents: 50_000,
        amount_cents: 50_000,
        options: '{}',
        fulfilled_at: now,
        categories: '[]',
      })
      .execute();
    await db
      .insertInto('billboard_contributions')
      .values({ listing_id: listingId, amount_cents: 50_000, order_id: order.id, created_at: now })
      .execute();
    await db
      .insertInto('featured_placements')
      .values({
        listing_id: listingId,
        order_id: order.id,
        days: 7,
        starts_at: now,
        ends_at: new Date(Date.now() + 7 * DAY).toISOString(),
        created_at: now,
      })
      .execute();
    // Everything that could weigh again does: the sums rebuilt from the votes, a detection pass.
    await recountAllVotes(db);
    await detectVotePatterns(db, t.store.engine, new Date(), detectionSettingsOf(t.config), voteWeightsOf(t.config));
    const afterPay = await snapshot();
    assert.deepEqual(afterPay, before, 'weights, integrity and every community rank are unchanged');
    const billboard = await api(t, '/leaderboards/billboard');
    assert.equal(billboard.items[0].listing.slug, 'paid-one', 'only the PAID board moved');

    // A new vote for each, by the same kind of account, weighs the same.
    const late = await person(t, '198.20.4.1', 24 * 90);
    await vote(late, 'free-one', 30_000);
    await vote(late, 'paid-one', 30_000);
    assert.deepEqual(await weights('paid-one'), await weights('free-one'));
  });

  test('a change of settings applies to the votes already cast once they are weighed again (votes reweigh)', async () => {
    const before = (await api(t, '/listings/pumped')).vote_integrity;
    assert.deepEqual(before, { counted: 2, discounted: 8, by_reason: { new_account: 8 } });
    const half = { ...voteWeightsOf(t.config), newAccountWeight: 0.5 };
    assert.ok((await reweighAllVotes(t.store.db, t.store.engine, half, 7)) >= 8);
    assert.deepEqual((await api(t, '/listings/pumped')).vote_integrity, {
      counted: 4,
      discounted: 8,
      by_reason: { new_account: 8 },
    });
    // Review decisions stay: the ring's votes are still under review.
    assert.deepEqual((await api(t, '/listings/r1')).vote_integrity.by_reason, { under_review: 4 });
    await reweighAllVotes(t.store.db, t.store.engine, voteWeightsOf(t.config));
    assert.deepEqual((await api(t, '/listings/pumped')).vote_integrity, before);
  });

  test('the ranking formula and weight rules are public, linked from every page', async () => {
    const { res, $ } = await new Client(t).page('/how-ranking-works');
    assert.equal(res.statusCode, 200);
    assert.equal($('h1').text(), 'How ranking works');
    const text = $('main').text();
    assert.match(text, /younger than 72 hours counts × 0\.25/);
    assert.match(text, /less than 3 s after/);
    assert.match(text, /0\.5\^\(age_hours \/ 48\)/);
    assert.match(text, /never changes a vote, a weight or a community rank/);
    const home = await new Client(t).page('/');
    assert.equal(home.$('footer a[href="/how-ranking-works"]').length, 1);
  });
});

// ------------------------------------------------------------------ fair first hours

describe('fair first hours', () => {
  let t: TestApp;
  const slugs = Array.from({ length: 12 }, (_, i) => `fair-${String(i).padStart(2, '0')}`);
  before(async () => {
    // The whole week is "the first hours" here (the real window is Monday 00:00–04:00 UTC), and the
    // shared page cache is on, to show the shuffled pages are not shared between visitors.
    t = await testApp({ FAIR_START_HOURS: '168', SHARED_CACHE_MS: '1000' }, async (store) => {
      await addCategory(store.db, 'tools');
      for (const [i, slug] of slugs.entries())
        await addListing(store.db, { slug, category: 'tools', launched_at: earlierThisWeek(0.01 * (i + 1)) });
    });
    for (let i = 0; i < 3; i++) await vote(await person(t, `198.21.${i}.1`, 24 * 30), 'fair-07');
  });
  after(async () => {
    await t.cleanup();
  });

  test('API: the week comes by name with no ranks or counts, and says until when', async () => {
    const week = await api(t, '/launches/weeks/this');
    assert.match(week.fair_start_until, /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(
      week.launches.map((x: { listing: { slug: string } }) => x.listing.slug),
      slugs,
    );
    assert.ok(week.launches.every((x: { rank: unknown; votes: unknown }) => x.rank === null && x.votes === null));
    const section = await api(t, '/launches?section=this-week');
    assert.equal(section.fair_start_until, week.fair_start_until);
    assert.ok(section.items.every((x: object) => !('rank' in x) && !('week_votes' in x)));
    const today = await api(t, '/launches?section=today');
    assert.equal(today.fair_start_until, week.fair_start_until);
    assert.ok(today.items.every((x: object) => !('rank' in x)));
    assert.equal((await api(t, '/launches?section=recent')).fair_start_until, null);
    const board = await api(t, '/leaderboards/community-weekly');
    assert.equal(board.fair_start_until, week.fair_start_until);
    assert.deepEqual([board.items, board.total], [[], 0]);
    // Other weeks and boards are as always.
    const last = await api(t, '/launches/weeks/last');
    assert.equal(last.fair_start_until, null);
    assert.equal((await api(t, '/leaderboards/community-all-time')).items[0].listing.slug, 'fair-07');
  });

  test('website: each visitor gets their own stable shuffled order, with no counts', async () => {
    const order = async (c: Client, url: string) => {
      const { res, $ } = await c.page(url);
      assert.equal(res.statusCode, 200);
      assert.equal($('.fair-start').length, 1, `${url}: the notice`);
      assert.equal($('main ol.items').length, 0, `${url}: no ranked list`);
      const n = $('main .vote-btn .n')
        .map((_, el) => $(el).text())
        .get();
      assert.ok(n.length >= slugs.length && n.every((x) => x === '–'), `${url}: counts hidden`);
      assert.doesNotMatch($('main').text(), /\d+ votes? (that|this) week/);
      return $('main .items > li h3 a, main .items > li h2 a')
        .map((_, el) => $(el).attr('href'))
        .get()
        .filter((h) => h.startsWith('/listings/fair-'));
    };
    const visitors = Array.from({ length: 4 }, (_, i) => new Client(t, `198.51.100.${i + 1}`, `Browser ${i}`));
    const orders: string[][] = [];
    for (const c of visitors) {
      const a = await order(c, '/launches/weeks/this');
      assert.deepEqual(
        a.slice().sort(),
        slugs.map((s) => `/listings/${s}`),
      );
      assert.deepEqual(await order(c, '/launches/weeks/this'), a, 'the same visitor, the same order');
      orders.push(a);
    }
    assert.ok(new Set(orders.map((o) => o.join())).size >= 3, 'visitors see different orders');
    const board = await order(visitors[0], '/leaderboards/community-weekly');
    assert.deepEqual(board, orders[0], 'the board shows the same order to the same visitor');
    const home = await order(visitors[1], '/');
    assert.deepEqual(home, orders[1]);
    assert.deepEqual(await order(visitors[2], '/launches'), orders[2]);
    // Signed in: the order follows the account.
    const p = await person(t, '198.51.100.200', 24 * 30);
    const mine = await order(p, '/launches/weeks/this');
    assert.deepEqual(
      mine.slice().sort(),
      slugs.map((s) => `/listings/${s}`),
    );
  });
});
