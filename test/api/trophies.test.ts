// The trophy group (issue #21) on the demo content: cabinets, leaderboards, Hall of Fame, programmes
// (enter_programme refuses with the rule), and signed awards that verify with only the published JWKS.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { testApp, type TestApp } from '../support/app.ts';
import { seedDemo } from '../../src/store/seed/index.ts';
import { userWithKey } from '../mcp/support.ts';
import { rotateSigningKey } from '../../src/store/repos/award-keys.ts';
import { computeAwards, computeMissingAwards } from '../../src/store/repos/awards.ts';
import { snapshotCanonical, parseSnapshot } from '../../src/domain/award-statement.ts';

let t: TestApp;
let key: string;
let userId: number;
const get = async (url: string, auth?: string) => {
  const r = await t.app.inject({
    method: 'GET',
    url,
    headers: auth ? { authorization: `Bearer ${auth}` } : {},
  });
  return { status: r.statusCode, body: r.json(), headers: r.headers };
};
const post = async (url: string, payload: unknown, headers: Record<string, string> = {}) => {
  const r = await t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: { authorization: `Bearer ${key}`, ...headers },
  });
  return { status: r.statusCode, body: r.json() };
};

before(async () => {
  t = await testApp({}, async (store) => {
    await seedDemo(store);
  });
  ({ key, userId } = await userWithKey(t.store, ['account:read', 'listings:write']));
});
after(async () => {
  await t?.cleanup();
});

/** Verifies like an outsider: only the JWKS document and node:crypto. */
function verifyWithJwks(
  jwks: { keys: Array<Record<string, string>> },
  v: { kid: string; statement: string; signature: string },
) {
  const jwk = jwks.keys.find((k) => k.kid === v.kid);
  if (!jwk) return false;
  const pub = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  return verify(null, Buffer.from(v.statement, 'base64url'), pub, Buffer.from(v.signature, 'base64url'));
}

test('demo awards are signed and verify with only the published JWKS; a changed byte fails', async () => {
  const site = await get('/api/v1/site');
  assert.match(site.body.urls.award_keys, /\/\.well-known\/award-keys\.json$/);
  const jwks = await get('/.well-known/award-keys.json');
  assert.equal(jwks.status, 200);
  assert.match(String(jwks.headers['content-type']), /jwk-set\+json/);
  assert.equal(jwks.body.keys.length, 1);
  assert.deepEqual(Object.keys(jwks.body.keys[0]).sort(), ['alg', 'crv', 'kid', 'kty', 'use', 'x']);
  assert.equal(jwks.body.keys[0].kty, 'OKP');
  assert.equal(jwks.body.keys[0].crv, 'Ed25519');

  const awards = await get('/api/v1/awards?per_page=5');
  const a = awards.body.items[0];
  const v = await get(`/api/v1/awards/${a.week}/${a.rank}/verification`);
  assert.equal(v.status, 200, JSON.stringify(v.body));
  assert.equal(v.body.valid, true);
  assert.equal(v.body.decoded.week, a.week);
  assert.equal(v.body.decoded.rank, a.rank);
  assert.equal(v.body.decoded.listing.slug, a.listing.slug);
  assert.equal(v.body.decoded.votes, a.votes);
  assert.equal(v.body.snapshot.matches, true);
  assert.equal(v.body.snapshot.sha256, v.body.decoded.snapshot_sha256);
  assert.deepEqual(JSON.parse(Buffer.from(v.body.statement, 'base64url').toString('utf8')), v.body.decoded);
  // the snapshot lists the week's ranking: the winner at its rank with its counted votes
  const snap = parseSnapshot(v.body.snapshot.canonical);
  assert.ok(snap);
  assert.equal(snap.entries[a.rank - 1].slug, a.listing.slug);
  assert.equal(snap.entries[a.rank - 1].votes, a.votes);

  assert.equal(verifyWithJwks(jwks.body, v.body), true);
  const bytes = Buffer.from(v.body.statement, 'base64url');
  for (const i of [0, Math.floor(bytes.length / 2), bytes.length - 1]) {
    const changed = Buffer.from(bytes);
    changed[i] ^= 0x01;
    assert.equal(
      verifyWithJwks(jwks.body, { ...v.body, statement: changed.toString('base64url') }),
      false,
      `byte ${i}`,
    );
  }
  // any day of the week names the same award; a rank outside 1–3 is 400; an unknown week 404
  const sunday = new Date(Date.parse(a.week + 'T00:00:00Z') + 6 * 86_400_000).toISOString().slice(0, 10);
  assert.equal((await get(`/api/v1/awards/${sunday}/${a.rank}/verification`)).body.kid, v.body.kid);
  assert.equal((await get(`/api/v1/awards/${a.week}/4/verification`)).status, 400);
  assert.equal((await get('/api/v1/awards/2001-01-01/1/verification')).status, 404);
});

test('rotating the key: new awards are signed with the new key, old ones still verify', async () => {
  const awards = (await get('/api/v1/awards?per_page=100')).body.items;
  const oldest = awards.at(-1);
  const before = (await get(`/api/v1/awards/${oldest.week}/${oldest.rank}/verification`)).body;
  const kid = await rotateSigningKey(t.store.db);
  assert.notEqual(kid, before.kid);
  await computeAwards(t.store.db, oldest.week); // re-decided and re-signed with the new key
  const jwks = (await get('/.well-known/award-keys.json')).body;
  assert.equal(jwks.keys.length, 2);
  const after = (await get(`/api/v1/awards/${oldest.week}/${oldest.rank}/verification`)).body;
  assert.equal(after.kid, kid);
  assert.equal(after.valid, true);
  assert.equal(verifyWithJwks(jwks, after), true);
  const other = awards[0];
  const old = (await get(`/api/v1/awards/${other.week}/${other.rank}/verification`)).body;
  assert.equal(old.kid, before.kid);
  assert.equal(verifyWithJwks(jwks, old), true, 'a retired key stays published');
});

test('the awards job signs a week whose awards were decided before signing', async () => {
  const a = (await get('/api/v1/awards?per_page=1')).body.items[0];
  await t.store.db
    .updateTable('awards')
    .set({ statement: null, signature: null, kid: null })
    .where('week', '=', a.week)
    .execute();
  const unsigned = await get(`/api/v1/awards/${a.week}/${a.rank}/verification`);
  assert.equal(unsigned.status, 404);
  assert.match(unsigned.body.error.message, /not been signed yet/);
  assert.equal((await get(`/api/v1/listings/${a.listing.slug}/trophies`)).body.awards[0].signed, false);
  assert.deepEqual(await computeMissingAwards(t.store.db), [a.week]);
  const v = await get(`/api/v1/awards/${a.week}/${a.rank}/verification`);
  assert.equal(v.body.valid, true);
  assert.deepEqual(await computeMissingAwards(t.store.db), [], 'nothing left to sign');
});

test('snapshot canonical form is exactly as documented', () => {
  assert.equal(
    snapshotCanonical('launch_of_the_week', '2026-11-16', [
      { rank: 1, listing_id: 12, slug: 'acme', votes: 96 },
      { rank: 2, listing_id: 7, slug: 'beta', votes: 12.5 },
    ]),
    'launchlist-ranking-snapshot/1\nkind launch_of_the_week\nweek 2026-11-16\n1\t12\tacme\t96\n2\t7\tbeta\t12.5\n',
  );
});

test('trophy cabinet of an award winner, and of its founder', async () => {
  const a = (await get('/api/v1/awards?per_page=1')).body.items[0];
  const c = await get(`/api/v1/listings/${a.listing.slug}/trophies`);
  assert.equal(c.status, 200, JSON.stringify(c.body));
  assert.ok(c.body.awards.length >= 1);
  assert.equal(c.body.awards[0].signed, true);
  assert.match(c.body.awards[0].verify_url, /\/awards\/\d{4}-\d{2}-\d{2}\/[123]$/);
  assert.deepEqual(
    c.body.badges.slice(0, 2).map((b: { key: string }) => b.key),
    ['listed', 'launched'],
  );
  assert.ok(c.body.badges.some((b: { key: string }) => b.key.startsWith('launch_of_the_week_')));
  assert.equal(c.body.counts.awards, c.body.awards.length);
  assert.equal((await get('/api/v1/listings/no-such-listing/trophies')).status, 404);

  const listing = await get(`/api/v1/listings/${a.listing.slug}`);
  const founder = listing.body.founders?.[0]?.slug;
  assert.ok(founder, 'the winner has a founder');
  const f = await get(`/api/v1/founders/${founder}/trophies`);
  assert.equal(f.status, 200, JSON.stringify(f.body));
  assert.ok(f.body.cabinets.some((x: { listing: { slug: string } }) => x.listing.slug === a.listing.slug));
  assert.ok(f.body.counts.awards >= c.body.counts.awards);
  assert.equal((await get('/api/v1/founders/nobody-at-all/trophies')).status, 404);
});

test('trophy leaderboards: all-time, by year, by category', async () => {
  const all = await get('/api/v1/trophies/leaderboard?per_page=5');
  assert.equal(all.status, 200);
  assert.ok(all.body.items.length > 0);
  const trophies = all.body.items.map((i: { trophies: number }) => i.trophies);
  assert.deepEqual(
    trophies,
    [...trophies].sort((x, y) => y - x),
  );
  for (const i of all.body.items) assert.equal(i.trophies, i.awards + i.hall_of_fame + i.programme_places);
  assert.ok(all.body.items[0].trophies >= 2, 'the leader has more than one trophy');
  assert.equal(all.body.items[0].rank, 1);
  const total = (await get('/api/v1/awards?per_page=1')).body.total;
  const sum = (await get('/api/v1/trophies/leaderboard?per_page=100')).body.items.reduce(
    (n: number, i: { awards: number }) => n + i.awards,
    0,
  );
  assert.equal(sum, total, 'every award is counted once');
  const year = all.body.years[0];
  const y = await get(`/api/v1/trophies/leaderboard?year=${year}`);
  assert.equal(y.body.year, Number(year));
  assert.ok(y.body.total > 0);
  assert.equal((await get('/api/v1/trophies/leaderboard?year=2001')).body.total, 0);
  const cat = all.body.items[0].listing.primary_category.slug;
  const byCat = await get(`/api/v1/trophies/leaderboard?category=${cat}`);
  assert.equal(byCat.status, 200);
  assert.ok(
    byCat.body.items.some((i: { listing: { slug: string } }) => i.listing.slug === all.body.items[0].listing.slug),
  );
  assert.equal((await get('/api/v1/trophies/leaderboard?category=no-such-category')).status, 404);
  assert.equal((await get('/api/v1/trophies/leaderboard?year=abc')).status, 400);
});

test('Hall of Fame: every #1, months and the year by the documented rule', async () => {
  const h = await get('/api/v1/hall-of-fame');
  assert.equal(h.status, 200);
  assert.match(h.body.rule, /#1 = 3, #2 = 2, #3 = 1/);
  const firsts = (await get('/api/v1/awards?per_page=100')).body.items.filter((a: { rank: number }) => a.rank === 1);
  assert.equal(h.body.weeks.length, firsts.length);
  assert.ok(h.body.months.length >= 2);
  assert.ok(h.body.years.length >= 1);
  for (const m of h.body.months) assert.match(m.period, /^\d{4}-\d{2}$/);
});

test('programmes: listed, detailed; enter_programme refuses with the rule, accepts, is idempotent', async () => {
  const list = await get('/api/v1/programmes');
  assert.equal(list.status, 200);
  const states = list.body.items.map((p: { state: string }) => p.state);
  assert.ok(states.includes('open') && states.includes('ended') && states.includes('upcoming'), states.join());
  const jury = list.body.items.find((p: { winners: { rule: string } }) => p.winners.rule === 'jury');
  const juryDetail = await get(`/api/v1/programmes/${jury.slug}`);
  assert.equal(juryDetail.body.results.decided, true);
  assert.equal(juryDetail.body.results.winners[0].place, 1);
  const cup = list.body.items.find(
    (p: { state: string; winners: { rule: string } }) => p.state === 'ended' && p.winners.rule === 'community_votes',
  );
  const cupDetail = await get(`/api/v1/programmes/${cup.slug}`);
  assert.equal(cupDetail.body.results.decided, true);
  const votes = cupDetail.body.results.winners.map((w: { period_votes: number }) => w.period_votes);
  assert.deepEqual(
    votes,
    [...votes].sort((x, y) => y - x),
  );
  assert.equal((await get('/api/v1/programmes/no-such-programme')).status, 404);

  const open = list.body.items.find((p: { state: string }) => p.state === 'open');
  const upcoming = list.body.items.find((p: { state: string }) => p.state === 'upcoming');
  // a live listing of the caller's, launched this year, not entered yet
  const entered = new Set(
    (await get(`/api/v1/programmes/${open.slug}`)).body.entry_list.map(
      (e: { listing: { slug: string } }) => e.listing.slug,
    ),
  );
  const year = open.rules.launched_from.slice(0, 4);
  const candidates = await t.store.db
    .selectFrom('listings')
    .select(['id', 'slug', 'launched_at'])
    .where('status', '=', 'live')
    .orderBy('launched_at', 'desc')
    .execute();
  const mine = candidates.find((l) => String(l.launched_at).startsWith(year) && !entered.has(l.slug))!;
  const old = candidates.find((l) => !String(l.launched_at).startsWith(year));
  await t.store.db
    .updateTable('listings')
    .set({ owner_id: userId })
    .where('id', 'in', [mine.id, ...(old ? [old.id] : [])])
    .execute();

  const notMine = candidates.find((l) => l.id !== mine.id && l.id !== old?.id)!;
  assert.equal((await post(`/api/v1/programmes/${open.slug}/entries`, { listing_id: notMine.id })).status, 404);
  const early = await post(`/api/v1/programmes/${upcoming.slug}/entries`, { listing_id: mine.id });
  assert.equal(early.status, 409);
  assert.equal(early.body.error.details[0].path, 'rules.period');
  assert.match(early.body.error.message, /entries open on/);
  if (old) {
    const refused = await post(`/api/v1/programmes/${open.slug}/entries`, { listing_id: old.id });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.details[0].path, 'rules.launched_from');
    assert.match(refused.body.error.message, /launched on or after/);
  }
  const idem = { 'idempotency-key': 'enter-1-' + Date.now() };
  const ok = await post(`/api/v1/programmes/${open.slug}/entries`, { listing_id: mine.id }, idem);
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
  assert.equal(ok.body.created, true);
  assert.equal(ok.body.entry.listing.slug, mine.slug);
  const replay = await post(`/api/v1/programmes/${open.slug}/entries`, { listing_id: mine.id }, idem);
  assert.deepEqual(replay.body, ok.body);
  const again = await post(`/api/v1/programmes/${open.slug}/entries`, { listing_id: mine.id });
  assert.equal(again.body.created, false);
  assert.equal(again.body.entry.id, ok.body.entry.id);

  const my = await get('/api/v1/me/programme-entries', key);
  assert.equal(my.status, 200);
  assert.ok(my.body.items.some((e: { id: number }) => e.id === ok.body.entry.id));
  assert.equal((await get('/api/v1/me/programme-entries')).status, 401);
  const cab = await get(`/api/v1/listings/${mine.slug}/trophies`);
  assert.ok(cab.body.programmes.some((p: { programme: { slug: string } }) => p.programme.slug === open.slug));
});
