// The listings.advance job on the engine of this run: badge checks through the guarded fetcher
// (allow-listed loopback only, robots.txt respected, failures recorded, never thrown), the moves
// awaiting_badge → scheduled → live by the clock, and the job rescheduling itself.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { serveSite, html, type Site } from './support/site.ts';
import { listing } from '../support/listing-fixtures.ts';
import { drainJobs, jobHandlers } from '../../src/jobs/index.ts';
import { LISTINGS_ADVANCE, ensureListingsAdvanceScheduled, listingsAdvanceHandler } from '../../src/jobs/listings.ts';
import { ADVANCE_EVERY_MS, advanceListings } from '../../src/services/listings.ts';
import { RobotsCache } from '../../src/drafting/crawler/robots.ts';
import { addWeeks, mondayOf } from '../../src/domain/weeks.ts';
import { enqueue, type Job } from '../../src/jobs/queue.ts';
import type { ListingStatus } from '../../src/domain/vocabulary.ts';

let t: TestApp;
const sites: Site[] = [];
const thisMonday = mondayOf(new Date());

before(async () => {
  t = await testApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' }, async (store) => {
    await store.db
      .insertInto('categories')
      .values({
        slug: 'tools',
        name: 'Tools',
        parent_id: null,
        description: '',
        faqs: '[]',
        attributes: '[]',
        position: 1,
      })
      .execute();
  });
  t.server.deps.services.badgeChecks = { robots: new RobotsCache() };
});
after(async () => {
  for (const s of sites) await s.close();
  await t.cleanup();
});

const badgeFor = (slug: string) =>
  `<a href="${t.config.publicUrl}/listings/${slug}?ref=badge"><img src="${t.config.publicUrl}/badges/${slug}/listed.svg" alt="Listed on Launchlist"></a>`;
async function site(body: string, robots = 'User-agent: *\nAllow: /\n'): Promise<Site> {
  const s = await serveSite({
    '/robots.txt': { type: 'text/plain', body: robots },
    '/': html(`<!doctype html><title>Home</title><body><h1>Home</h1>${body}</body>`),
  });
  sites.push(s);
  return s;
}
/** A homepage that cannot be read: the server drops every connection (and keeps its port until the end). */
async function unreadable(): Promise<Site> {
  const drop = (req: { socket: { destroy(): void } }) => req.socket.destroy();
  const s = await serveSite({ '/robots.txt': drop, '/': drop });
  sites.push(s);
  return s;
}
async function awaiting(
  slug: string,
  url: string,
  week: string,
  status: ListingStatus = 'awaiting_badge',
): Promise<number> {
  const id = await listing(t.store.db, {
    slug,
    name: slug,
    category: 'tools',
    status,
    url,
    launch_week: week,
    launched_at: null,
  });
  await t.store.db.updateTable('listings').set({ plan: 'free' }).where('id', '=', id).execute();
  return id;
}
const rowOf = (id: number) =>
  t.store.db
    .selectFrom('listings')
    .select(['status', 'launch_week', 'launched_at', 'badge_seen_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const lastCheck = async (id: number) =>
  t.store.db
    .selectFrom('badge_checks')
    .selectAll()
    .where('listing_id', '=', id)
    .orderBy('id', 'desc')
    .executeTakeFirst();

test('badge found while the week is running: live at once; found after the week ended: launches this week', async () => {
  const running = await awaiting('running-week', (await site(badgeFor('running-week'))).origin + '/', thisMonday);
  const ended = await awaiting(
    'ended-week',
    (await site(badgeFor('ended-week'))).origin + '/',
    addWeeks(thisMonday, -2),
  );
  const future = await awaiting(
    'future-week',
    (await site(`<p>Find us on <a href="${t.config.publicUrl}/listings/future-week">Launchlist</a></p>`)).origin + '/',
    addWeeks(thisMonday, 2),
  );
  const now = new Date();
  const report = await advanceListings(t.server.deps, now);
  assert.deepEqual(report.badge_found.sort(), ['ended-week', 'future-week', 'running-week']);
  assert.deepEqual(report.launched.sort(), ['ended-week', 'running-week']);
  const r = await rowOf(running);
  assert.equal(r.status, 'live');
  assert.equal(r.launch_week, thisMonday);
  assert.equal(new Date(r.launched_at!).toISOString(), now.toISOString());
  assert.equal(new Date(r.badge_seen_at!).toISOString(), now.toISOString());
  const e = await rowOf(ended);
  assert.equal(e.status, 'live');
  assert.equal(e.launch_week, thisMonday, 'a past launch week moves to the current week');
  const f = await rowOf(future);
  assert.equal(f.status, 'scheduled', 'a plain link to the listing page counts as the badge');
  assert.equal(f.launch_week, addWeeks(thisMonday, 2));
  assert.equal(Boolean((await lastCheck(future))?.found), true);
});

test('homepages that cannot be read, refuse us or lack the badge leave the listing waiting, with the reason recorded', async () => {
  const w = addWeeks(thisMonday, 1);
  const robots = await awaiting(
    'robots-no',
    (await site(badgeFor('robots-no'), 'User-agent: LaunchlistBot\nDisallow: /\n')).origin + '/',
    w,
  );
  const s = await site(badgeFor('by-name'));
  // Same server, but addressed by a loopback NAME that is not allow-listed: the guarded fetcher refuses it.
  const byName = await awaiting('by-name', `http://localhost:${s.port}/`, w);
  const privateNet = await awaiting('private-net', 'http://10.1.2.3/', w);
  const other = await awaiting('other-badge', (await site(badgeFor('someone-else'))).origin + '/', w);
  // A site that drops every connection. Not a closed port: that port could be given to a site started
  // later, and robots.txt policies are kept per origin (CI saw both, in this test and the next one).
  const down = await awaiting('site-down', (await unreadable()).origin + '/', w);
  const before = s.requests.length;
  const report = await advanceListings(t.server.deps, new Date());
  assert.ok(report.checked >= 5);
  for (const id of [down, robots, byName, privateNet, other]) assert.equal((await rowOf(id)).status, 'awaiting_badge');
  assert.match((await lastCheck(down))!.detail!, /could not reach|could not read/);
  assert.match((await lastCheck(robots))!.detail!, /robots\.txt/);
  assert.match((await lastCheck(byName))!.detail!, /loopback|not public/);
  assert.match((await lastCheck(privateNet))!.detail!, /not a public address/);
  assert.match((await lastCheck(other))!.detail!, /no Launchlist badge/, "another listing's badge does not count");
  assert.equal(s.requests.length, before, 'the refused address was never contacted');
});

test('scheduled listings go live when their launch week starts, not before; live ones are left alone', async () => {
  const next = addWeeks(thisMonday, 1);
  const soon = await awaiting('soon', 'https://soon.example/', next, 'scheduled');
  const now = new Date();
  assert.ok(!(await advanceListings(t.server.deps, now)).launched.includes('soon'));
  assert.equal((await rowOf(soon)).status, 'scheduled');
  const lastSunday = new Date(new Date(`${next}T00:00:00.000Z`).getTime() - 1000);
  assert.ok(
    !(await advanceListings(t.server.deps, lastSunday)).launched.includes('soon'),
    'one second before Monday 00:00 UTC',
  );
  const monday = new Date(`${next}T00:00:00.000Z`);
  assert.deepEqual((await advanceListings(t.server.deps, monday)).launched, ['soon']);
  const r = await rowOf(soon);
  assert.equal(r.status, 'live');
  assert.equal(new Date(r.launched_at!).toISOString(), monday.toISOString());
  await advanceListings(t.server.deps, new Date(monday.getTime() + 86_400_000));
  assert.equal(new Date((await rowOf(soon)).launched_at!).toISOString(), monday.toISOString(), 'launched_at is kept');
});

test('the recurring job: scheduled once, runs, and queues its next run ~15 minutes later (also after a failure)', async () => {
  await t.store.db.deleteFrom('jobs').where('kind', '=', LISTINGS_ADVANCE).execute();
  assert.equal(await ensureListingsAdvanceScheduled(t.store.db), true);
  assert.equal(await ensureListingsAdvanceScheduled(t.store.db), false, 'one at a time');
  const id = await awaiting('via-job', (await site(badgeFor('via-job'))).origin + '/', addWeeks(thisMonday, 3));
  const started = Date.now();
  const ran = await drainJobs(t.server.deps, jobHandlers);
  assert.deepEqual(
    ran.map((r) => [r.job.kind, r.outcome]),
    [[LISTINGS_ADVANCE, 'done']],
  );
  assert.equal((await rowOf(id)).status, 'scheduled', 'the job ran the badge check');
  const queued = await t.store.db
    .selectFrom('jobs')
    .select(['run_at'])
    .where('kind', '=', LISTINGS_ADVANCE)
    .where('status', '=', 'queued')
    .execute();
  assert.equal(queued.length, 1);
  const at = new Date(queued[0].run_at).getTime();
  assert.ok(at >= started + ADVANCE_EVERY_MS && at <= Date.now() + ADVANCE_EVERY_MS, 'next run about 15 minutes out');

  // Two chains (two instances each scheduling one at start-up) cannot start: the database holds one
  // queued run per recurring kind (migration 160), and the run completing queues no second one.
  await t.store.db.deleteFrom('jobs').where('kind', '=', LISTINGS_ADVANCE).execute();
  await enqueue(t.store.db, LISTINGS_ADVANCE, {});
  await assert.rejects(enqueue(t.store.db, LISTINGS_ADVANCE, {}), /UNIQUE|unique|duplicate/);
  assert.equal((await drainJobs(t.server.deps, jobHandlers)).length, 1);
  const chains = await t.store.db
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', LISTINGS_ADVANCE)
    .where('status', '=', 'queued')
    .execute();
  assert.equal(chains.length, 1, 'one next run, not two');

  // A run that failed for good queues the next one in the same transaction.
  await t.store.db.deleteFrom('jobs').where('kind', '=', LISTINGS_ADVANCE).execute();
  await t.store.db.transaction().execute(async (trx) => {
    await listingsAdvanceHandler.onFailed!(
      trx,
      { id: 0, kind: LISTINGS_ADVANCE } as Job<Record<string, never>>,
      'boom',
      { ...t.server.deps },
    );
  });
  const after = await t.store.db.selectFrom('jobs').select(['status']).where('kind', '=', LISTINGS_ADVANCE).execute();
  assert.deepEqual(
    after.map((j) => j.status),
    ['queued'],
  );
});
