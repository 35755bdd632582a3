// The free plan end to end, on the engine of this run, with a real homepage served on 127.0.0.1
// (FETCH_ALLOW_HOSTS): draft → submit → choose_free_listing → awaiting_badge (week W) → the
// listings.advance pass finds no badge and leaves it → the badge is pasted → scheduled → a clock in
// week W → live, visible in get_listing and search. Plus the 409s and idempotency of choosing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { serveSite, html, type Site } from '../jobs/support/site.ts';
import { testDrafter } from '../jobs/support/drafter.ts';
import { makeUser } from '../jobs/support/users.ts';
import { listing } from '../support/listing-fixtures.ts';
import { drainJobs, jobHandlers } from '../../src/jobs/index.ts';
import { RobotsCache } from '../../src/drafting/crawler/robots.ts';
import { advanceListings } from '../../src/services/listings.ts';
import { setSetting } from '../../src/store/repos/settings.ts';
import { addWeeks, mondayOf } from '../../src/domain/weeks.ts';

let t: TestApp;
let s: Site;
let user: Awaited<ReturnType<typeof makeUser>>;
let other: Awaited<ReturnType<typeof makeUser>>;

const HOME = (extra = '') =>
  html(`<!doctype html><html><head><title>Acme Notes</title><meta name="description" content="Acme Notes keeps your team's notes in one place."></head>
  <body><h1>Acme Notes</h1><p>Acme Notes keeps your team's notes in one place.</p><ul><li>Shared notebooks</li><li>Offline sync</li></ul>${extra}</body></html>`);

before(async () => {
  t = await testApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' }, async (store) => {
    await store.db
      .insertInto('categories')
      .values({
        slug: 'productivity',
        name: 'Productivity',
        parent_id: null,
        description: '',
        faqs: '[]',
        attributes: '[]',
        position: 1,
      })
      .execute();
  });
  user = await makeUser(t.store.db);
  other = await makeUser(t.store.db);
  t.server.deps.services.drafting = { drafter: testDrafter().drafter, crawl: { robots: new RobotsCache() } };
  t.server.deps.services.badgeChecks = { robots: new RobotsCache() };
  s = await serveSite({ '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' }, '/': HOME() });
});
after(async () => {
  await s.close();
  await t.cleanup();
});

const api = (method: 'GET' | 'POST', url: string, payload?: unknown, auth: Record<string, string> = user.auth) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: auth,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

test('free plan: draft → awaiting_badge (week W) → no badge stays → badge pasted → scheduled → week W → live and public', async () => {
  // A draft of the loopback site, submitted as a listing (status draft, plan none).
  const created = await api('POST', '/drafts', { url: s.origin + '/' });
  assert.equal(created.statusCode, 201, created.body);
  await drainJobs(t.server.deps, jobHandlers);
  // The site names no category; every listing has a primary one, so the maker picks it.
  assert.equal(
    (
      await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/drafts/${created.json().id}`,
        headers: user.auth,
        payload: { fields: { categories: ['productivity'] } },
      })
    ).statusCode,
    200,
  );
  const submitted = await api('POST', `/drafts/${created.json().id}/submit`);
  assert.equal(submitted.statusCode, 200, submitted.body);
  const id = submitted.json().listing_id as number;
  const slug = submitted.json().slug as string;
  let mine = (await api('GET', `/me/listings/${id}`)).json();
  assert.equal(mine.status, 'draft');
  assert.equal(mine.plan, 'none');
  assert.equal(mine.url, s.origin + '/');

  // choose_free_listing: queued for W = the free-queue setting's week, waiting for the badge.
  await setSetting(t.store.db, 'free_queue_weeks', 3);
  const W = addWeeks(mondayOf(new Date()), 3);
  const chosen = await api('POST', `/me/listings/${id}/free`);
  assert.equal(chosen.statusCode, 200, chosen.body);
  const v = chosen.json();
  assert.equal(v.listing_id, id);
  assert.equal(v.status, 'awaiting_badge');
  assert.equal(v.plan, 'free');
  assert.equal(v.launch_week, W);
  assert.equal(v.badges.api, `${t.config.publicUrl}/api/v1/listings/${slug}/badges`);
  assert.ok(
    v.next_steps.some(
      (x: string) => x.includes(`GET ${t.config.publicUrl}/api/v1/listings/${slug}/badges`) && x.includes(s.origin),
    ),
    JSON.stringify(v.next_steps),
  );
  assert.ok(v.next_steps.some((x: string) => x.includes(W)));

  // Choosing again changes nothing: same week, no second move in the queue.
  await setSetting(t.store.db, 'free_queue_weeks', 5);
  const again = await api('POST', `/me/listings/${id}/free`);
  assert.equal(again.statusCode, 200);
  assert.equal(again.json().launch_week, W);
  assert.equal(again.json().status, 'awaiting_badge');
  assert.equal(again.json().updated_at, v.updated_at);

  // Upcoming, not live: in search status=upcoming, not in get_listing; the badge page works.
  const upcoming = (await api('GET', '/listings?status=upcoming', undefined, {})).json();
  assert.ok(upcoming.items.some((i: { slug: string }) => i.slug === slug));
  assert.equal((await api('GET', `/listings/${slug}`, undefined, {})).statusCode, 404);
  const badges = await api('GET', `/listings/${slug}/badges`, undefined, {});
  assert.equal(badges.statusCode, 200);

  // The job reads the homepage: no badge yet → stays awaiting_badge, the check is recorded.
  const seen = s.requests.length;
  let report = await advanceListings(t.server.deps, new Date());
  assert.equal(report.checked, 1);
  assert.deepEqual(report.badge_found, []);
  assert.ok(s.requests.slice(seen).includes('/'), 'the homepage was read');
  mine = (await api('GET', `/me/listings/${id}`)).json();
  assert.equal(mine.status, 'awaiting_badge');
  assert.equal(mine.badge_seen_at, null);
  assert.equal(mine.last_badge_check.found, false);
  assert.match(mine.last_badge_check.detail, /no Launchlist badge/);
  const checks = await t.store.db.selectFrom('badge_checks').selectAll().where('listing_id', '=', id).execute();
  assert.equal(checks.length, 1);
  assert.equal(Boolean(checks[0].found), false);

  // The maker pastes the embed code from get_badges on the homepage → scheduled for W.
  const embed = badges.json().badges.find((b: { key: string }) => b.key === 'listed').html as string;
  s.routes['/'] = HOME(`<footer>${embed}</footer>`);
  report = await advanceListings(t.server.deps, new Date());
  assert.deepEqual(report.badge_found, [slug]);
  assert.deepEqual(report.launched, [], 'week W has not started');
  mine = (await api('GET', `/me/listings/${id}`)).json();
  assert.equal(mine.status, 'scheduled');
  assert.equal(mine.launch_week, W);
  assert.ok(mine.badge_seen_at);
  assert.equal(mine.last_badge_check.found, true);
  assert.equal((await api('GET', `/listings/${slug}`, undefined, {})).statusCode, 404, 'still not live');

  // Another pass before W: nothing changes and the homepage is not read again (only awaiting listings are checked).
  const reads = s.requests.length;
  report = await advanceListings(t.server.deps, new Date());
  assert.deepEqual(report, { checked: 0, badge_found: [], launched: [] });
  assert.equal(s.requests.length, reads);

  // A clock inside week W: the listing goes live (launched_at = that time) and is public.
  const inW = new Date(`${W}T09:30:00.000Z`);
  report = await advanceListings(t.server.deps, inW);
  assert.deepEqual(report.launched, [slug]);
  mine = (await api('GET', `/me/listings/${id}`)).json();
  assert.equal(mine.status, 'live');
  assert.equal(mine.launched_at, inW.toISOString());
  assert.ok(mine.next_steps[0].includes('is live'));
  const pub = await api('GET', `/listings/${slug}`, undefined, {});
  assert.equal(pub.statusCode, 200);
  assert.equal(pub.json().name, 'Acme Notes');
  const found = (await api('GET', '/listings?q=acme', undefined, {})).json();
  assert.ok(
    found.items.some((i: { slug: string }) => i.slug === slug),
    JSON.stringify(found.items),
  );

  // Idempotent: another pass in W launches nothing again; choosing free again keeps it live.
  report = await advanceListings(t.server.deps, new Date(inW.getTime() + 3_600_000));
  assert.deepEqual(report.launched, []);
  const live = await api('POST', `/me/listings/${id}/free`);
  assert.equal(live.statusCode, 200);
  assert.equal(live.json().status, 'live');
  assert.equal(live.json().launched_at, inW.toISOString());
});

test("choose_free_listing: 409 on a paid plan or a listing that is not a submitted draft; 404 for someone else's", async () => {
  const db = t.store.db;
  const paid = await listing(db, {
    slug: 'paid-one',
    name: 'Paid One',
    category: 'productivity',
    status: 'scheduled',
    launch_week: addWeeks(mondayOf(new Date()), 1),
    unlocked: ['story'],
  });
  const claimed = await listing(db, {
    slug: 'claimed-one',
    name: 'Claimed One',
    category: 'productivity',
    status: 'live',
  });
  await db.updateTable('listings').set({ owner_id: user.id }).where('id', 'in', [paid, claimed]).execute();
  await db.updateTable('listings').set({ plan: 'none' }).where('id', '=', claimed).execute();
  const r1 = await api('POST', `/me/listings/${paid}/free`);
  assert.equal(r1.statusCode, 409);
  assert.equal(r1.json().error.code, 'conflict');
  assert.match(r1.json().error.message, /paid plan/);
  const r2 = await api('POST', `/me/listings/${claimed}/free`);
  assert.equal(r2.statusCode, 409);
  assert.match(r2.json().error.message, /status draft.*live/);
  const row = await db
    .selectFrom('listings')
    .select(['status', 'plan', 'launch_week'])
    .where('id', '=', paid)
    .executeTakeFirstOrThrow();
  assert.deepEqual(
    { ...row },
    { status: 'scheduled', plan: 'paid', launch_week: addWeeks(mondayOf(new Date()), 1) },
    'nothing changed',
  );
  assert.equal((await api('POST', `/me/listings/${paid}/free`, undefined, other.auth)).statusCode, 404);
  assert.equal((await api('POST', `/me/listings/${paid}/free`, { x: 1 })).statusCode, 400, 'no body is taken');
});

test('a badge already seen before the free plan is chosen schedules the listing at once', async () => {
  const db = t.store.db;
  const id = await listing(db, { slug: 'seen-before', name: 'Seen Before', category: 'productivity', status: 'draft' });
  await db
    .updateTable('listings')
    .set({ owner_id: user.id, plan: 'none', launch_week: null, badge_seen_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
  const res = await api('POST', `/me/listings/${id}/free`);
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().status, 'scheduled');
  assert.equal(res.json().plan, 'free');
  assert.equal(res.json().launch_week, addWeeks(mondayOf(new Date()), 5), 'the current free-queue setting (5) is used');
});
