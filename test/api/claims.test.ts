// Claims through the REST API (spec 2, 3, 4.6): claim_listing, list_my_claims, verify_claim for the
// dns, meta and file methods, ownership moving, validation, rate limit and the SSRF guard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { makeUser } from '../jobs/support/users.ts';
import { serveSite, html, type Site } from '../jobs/support/site.ts';
import type { ClaimOptions } from '../../src/services/options.ts';
import { insertDraft } from '../../src/store/repos/drafts.ts';

type User = Awaited<ReturnType<typeof makeUser>>;
let t: TestApp;
let site: Site; // allowed by FETCH_ALLOW_HOSTS (host:port)
let privateSite: Site; // a loopback site NOT on the allow-list: the guarded fetcher must refuse it
let alice: User;
let bob: User;
let carol: User;
const txt = new Map<string, string[][]>();
const dnsAsked: string[] = [];
const claimOpts: ClaimOptions = {
  checkIntervalMs: 0,
  resolveTxt: async (host) => {
    dnsAsked.push(host);
    const r = txt.get(host);
    if (!r) throw Object.assign(new Error(`queryTxt ENODATA ${host}`), { code: 'ENODATA' });
    return r;
  },
};

before(async () => {
  site = await serveSite({});
  privateSite = await serveSite({
    '/': html('<!doctype html><html><head><title>x</title></head><body></body></html>'),
  });
  const allowed = ['127.0.0.1', 'shop.example', 'www.shop.example', 'evil.example']
    .map((h) => `${h}:${site.port}`)
    .join(',');
  t = await testApp({ FETCH_ALLOW_HOSTS: allowed }, async (store) => {
    await category(store.db, 'productivity');
    await listing(store.db, {
      slug: 'acme-dns',
      name: 'Acme DNS',
      category: 'productivity',
      domain: 'acme-dns.example',
    });
    await listing(store.db, {
      slug: 'acme-meta',
      name: 'Acme Meta',
      category: 'productivity',
      domain: '127.0.0.1',
      url: `${site.origin}/`,
    });
    await listing(store.db, {
      slug: 'acme-file',
      name: 'Acme File',
      category: 'productivity',
      domain: '127.0.0.1',
      url: `${site.origin}/product?ref=x`,
    });
    await listing(store.db, {
      slug: 'acme-owned',
      name: 'Acme Owned',
      category: 'productivity',
      domain: 'acme-owned.example',
    });
    await listing(store.db, {
      slug: 'acme-private',
      name: 'Acme Private',
      category: 'productivity',
      domain: '127.0.0.1',
      url: `${privateSite.origin}/`,
    });
    await listing(store.db, {
      slug: 'acme-intranet',
      name: 'Acme Intranet',
      category: 'productivity',
      domain: 'intranet.acme.example',
      url: 'http://intranet.acme.example/',
    });
    await listing(store.db, {
      slug: 'acme-shop',
      name: 'Acme Shop',
      category: 'productivity',
      domain: 'shop.example',
      url: `http://shop.example:${site.port}/`,
    });
    await listing(store.db, { slug: 'acme-draft', name: 'Acme Draft', category: 'productivity', status: 'draft' });
    for (let i = 1; i <= 3; i++)
      await listing(store.db, { slug: `page-${i}`, name: `Page ${i}`, category: 'productivity' });
  });
  t.server.deps.services.claims = claimOpts;
  alice = await makeUser(t.store.db);
  bob = await makeUser(t.store.db);
  carol = await makeUser(t.store.db);
});
after(async () => {
  await site.close();
  await privateSite.close();
  await t.cleanup();
});

const api = (who: User, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: who.auth, ...(payload ? { payload } : {}) });
const listingRow = (slug: string) =>
  t.store.db.selectFrom('listings').selectAll().where('slug', '=', slug).executeTakeFirstOrThrow();

test('claim_listing validates the body: method, slug length, email rules, unknown and unpublished listings', async () => {
  const bad = await api(alice, 'POST', '/claims', { slug: 'acme-dns', method: 'carrier-pigeon' });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().error.details[0].path, 'body.method');

  const long = await api(alice, 'POST', '/claims', { slug: 'a'.repeat(221), method: 'dns' });
  assert.equal(long.statusCode, 400);
  assert.equal(long.json().error.details[0].path, 'body.slug');

  const noEmail = await api(alice, 'POST', '/claims', { slug: 'acme-dns', method: 'email' });
  assert.equal(noEmail.statusCode, 400);
  assert.equal(noEmail.json().error.details[0].path, 'body.email');
  assert.match(noEmail.json().error.message, /required when method is email/);

  const gmail = await api(alice, 'POST', '/claims', { slug: 'acme-dns', method: 'email', email: 'ceo@gmail.com' });
  assert.equal(gmail.statusCode, 400);
  assert.equal(gmail.json().error.details[0].path, 'body.email');
  assert.match(gmail.json().error.message, /acme-dns\.example/);
  const lookalike = await api(alice, 'POST', '/claims', {
    slug: 'acme-dns',
    method: 'email',
    email: 'ceo@evilacme-dns.example',
  });
  assert.equal(lookalike.statusCode, 400, 'a domain that merely ends with the same letters is not the listing domain');

  const notEmail = await api(alice, 'POST', '/claims', { slug: 'acme-dns', method: 'email', email: 'not an address' });
  assert.equal(notEmail.statusCode, 400);
  assert.equal(notEmail.json().error.details[0].path, 'body.email');

  // The slug is in the body: an unknown or unpublished listing is a 400 naming it (spec 7 declares 404 only for path identifiers).
  for (const slug of ['no-such-listing', 'acme-draft', 'Not-A-Slug!']) {
    const r = await api(alice, 'POST', '/claims', { slug, method: 'dns' });
    assert.equal(r.statusCode, 400, `${slug}: ${r.body}`);
    assert.equal(r.json().error.code, 'validation_failed');
    assert.equal(r.json().error.details[0].path, 'body.slug');
    assert.match(r.json().error.message, new RegExp(`no published listing "${slug.replace('!', '\\!')}"`));
  }

  const mine = (await api(alice, 'GET', '/claims')).json();
  assert.equal(mine.total, 0, 'refused requests created no claim');

  // `email` is optional and only used by email claims: another method takes it and ignores it.
  const dnsWithEmail = await api(alice, 'POST', '/claims', {
    slug: 'acme-dns',
    method: 'dns',
    email: 'ceo@elsewhere.example',
  });
  assert.equal(dnsWithEmail.statusCode, 201, dnsWithEmail.body);
  assert.equal(dnsWithEmail.json().method, 'dns');
  assert.equal(dnsWithEmail.json().email, null);
  const mailed = await t.store.db
    .selectFrom('mail_outbox')
    .select('id')
    .where('to_address', '=', 'ceo@elsewhere.example')
    .execute();
  assert.equal(mailed.length, 0, 'nothing is sent to an address given with a dns claim');
});

test('dns: a TXT record at _launchlist.<domain>; pending with what was found until published, then verified and the listing moves', async () => {
  const created = await api(alice, 'POST', '/claims', { slug: 'acme-dns', method: 'dns' });
  assert.equal(created.statusCode, 201, created.body);
  const claim = created.json();
  assert.equal(claim.status, 'pending');
  assert.equal(claim.method, 'dns');
  assert.equal(claim.listing.slug, 'acme-dns');
  assert.equal(claim.listing.name, 'Acme DNS');
  assert.equal(claim.instructions.record_type, 'TXT');
  assert.equal(claim.instructions.host, '_launchlist.acme-dns.example');
  assert.match(claim.instructions.value, /^launchlist-verification=[0-9a-f]{32}$/);
  assert.match(claim.note, /not the same as paid/);

  const again = await api(alice, 'POST', '/claims', { slug: 'acme-dns', method: 'dns' });
  assert.equal(again.statusCode, 201);
  assert.equal(again.json().id, claim.id, 'a second request returns the same pending claim');
  assert.equal(again.json().instructions.value, claim.instructions.value);

  const before = await api(alice, 'POST', `/claims/${claim.id}/verify`);
  assert.equal(before.statusCode, 200);
  assert.equal(before.json().status, 'pending');
  assert.ok(before.json().checked_at);
  assert.equal(
    before.json().last_error,
    `no TXT record ${claim.instructions.value} at _launchlist.acme-dns.example: the name has no TXT records (DNS changes can take a while to appear)`,
  );
  assert.deepEqual(dnsAsked.at(-1), '_launchlist.acme-dns.example');

  txt.set('_launchlist.acme-dns.example', [['v=spf1 -all'], ['launchlist-verification=0000']]);
  const wrong = (await api(alice, 'POST', `/claims/${claim.id}/verify`)).json();
  assert.equal(wrong.status, 'pending');
  assert.match(wrong.last_error, /found "v=spf1 -all", "launchlist-verification=0000"/);
  assert.equal((await listingRow('acme-dns')).owner_id, null);

  // Long TXT values arrive in 255-byte chunks: they are joined.
  const value: string = claim.instructions.value;
  txt.set('_launchlist.acme-dns.example', [['v=spf1 -all'], [value.slice(0, 20), value.slice(20)]]);
  const ok = await api(alice, 'POST', `/claims/${claim.id}/verify`);
  assert.equal(ok.statusCode, 200);
  assert.equal(ok.json().status, 'verified');
  assert.ok(ok.json().verified_at);
  assert.equal(ok.json().last_error, null);
  const row = await listingRow('acme-dns');
  assert.equal(row.owner_id, alice.id);
  assert.ok(row.verified_at);
  assert.equal(row.plan, 'free', 'verified is not paid: the plan is unchanged');

  const pub = (await t.app.inject({ method: 'GET', url: '/api/v1/listings/acme-dns' })).json();
  assert.equal(pub.verified, true, 'the public profile shows the listing as verified');
  const badges = (await t.app.inject({ method: 'GET', url: '/api/v1/listings/acme-dns/badges' })).body;
  assert.match(badges, /verified/);

  const replay = await api(alice, 'POST', `/claims/${claim.id}/verify`);
  assert.equal(replay.statusCode, 200);
  assert.equal(replay.json().status, 'verified', 'verifying a verified claim returns it');

  const own = await api(alice, 'POST', '/claims', { slug: 'acme-dns', method: 'meta' });
  assert.equal(own.statusCode, 409, 'a listing the caller owns and verified cannot be claimed again');
  assert.match(own.json().error.message, /already own/);
});

test('meta: the tag must be in the <head> of the homepage; before and after publishing', async () => {
  const claim = (await api(bob, 'POST', '/claims', { slug: 'acme-meta', method: 'meta' })).json();
  assert.equal(claim.instructions.url, `${site.origin}/`);
  assert.equal(claim.instructions.where, `in the <head> of ${site.origin}/`);
  const token = /content="([0-9a-f]{32})"/.exec(claim.instructions.tag)![1];
  assert.equal(claim.instructions.tag, `<meta name="launchlist-verification" content="${token}">`);

  site.routes['/'] = html('<!doctype html><html><head><title>Acme</title></head><body><h1>Acme</h1></body></html>');
  const none = (await api(bob, 'POST', `/claims/${claim.id}/verify`)).json();
  assert.equal(none.status, 'pending');
  assert.match(none.last_error, /homepage .* has no launchlist-verification meta tag/);

  site.routes['/'] = html(
    '<!doctype html><html><head><meta name="launchlist-verification" content="abc"></head><body></body></html>',
  );
  const other = (await api(bob, 'POST', `/claims/${claim.id}/verify`)).json();
  assert.match(other.last_error, /its content is "abc", not [0-9a-f]{32}/);

  site.routes['/'] = html(
    `<!doctype html><html><head><title>Acme</title></head><body><p>hi</p><meta name="launchlist-verification" content="${token}"></body></html>`,
  );
  const body = (await api(bob, 'POST', `/claims/${claim.id}/verify`)).json();
  assert.equal(body.status, 'pending');
  assert.match(body.last_error, /outside its <head>/);

  site.routes['/'] = html(
    `<!doctype html><html><head><title>Acme</title><META NAME="Launchlist-Verification" CONTENT=" ${token} "></head><body></body></html>`,
  );
  const ok = (await api(bob, 'POST', `/claims/${claim.id}/verify`)).json();
  assert.equal(ok.status, 'verified', JSON.stringify(ok));
  assert.equal((await listingRow('acme-meta')).owner_id, bob.id);
});

test('meta: redirects are followed only within the listing domain', async () => {
  const claim = (await api(bob, 'POST', '/claims', { slug: 'acme-shop', method: 'meta' })).json();
  const tag: string = claim.instructions.tag;
  let target = 'evil.example';
  site.routes['/'] = (req, res) => {
    if (req.headers.host?.startsWith('shop.example'))
      return void res.writeHead(302, { location: `http://${target}:${site.port}/` }).end();
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><html><head>${tag}</head><body></body></html>`);
  };
  claimOpts.resolve = async () => [{ address: '127.0.0.1', family: 4 }];
  try {
    const away = (await api(bob, 'POST', `/claims/${claim.id}/verify`)).json();
    assert.equal(away.status, 'pending', 'a tag on another site proves nothing');
    assert.match(away.last_error, /redirected to http:\/\/evil\.example:\d+\/, which is not on shop\.example/);
    target = 'www.shop.example';
    const ok = (await api(bob, 'POST', `/claims/${claim.id}/verify`)).json();
    assert.equal(ok.status, 'verified', JSON.stringify(ok));
  } finally {
    delete claimOpts.resolve;
  }
});

test('file: /.well-known/launchlist-verification.txt on the listing origin, exact token after trim, size cap', async () => {
  const claim = (await api(bob, 'POST', '/claims', { slug: 'acme-file', method: 'file' })).json();
  assert.equal(claim.instructions.url, `${site.origin}/.well-known/launchlist-verification.txt`);
  const token: string = claim.instructions.content;
  assert.match(token, /^[0-9a-f]{32}$/);

  delete site.routes['/.well-known/launchlist-verification.txt'];
  const missing = (await api(bob, 'POST', `/claims/${claim.id}/verify`)).json();
  assert.equal(missing.status, 'pending');
  assert.match(missing.last_error, /launchlist-verification\.txt.*HTTP 404/);

  site.routes['/.well-known/launchlist-verification.txt'] = { type: 'text/plain', body: `${token}x` };
  const wrong = (await api(bob, 'POST', `/claims/${claim.id}/verify`)).json();
  assert.match(wrong.last_error, new RegExp(`contains "${token}x", not the token ${token}`));

  site.routes['/.well-known/launchlist-verification.txt'] = { type: 'text/plain', body: token + ' '.repeat(5000) };
  const big = (await api(bob, 'POST', `/claims/${claim.id}/verify`)).json();
  assert.equal(big.status, 'pending', 'a file over the size cap is not read');
  assert.match(big.last_error, /4096 bytes/);

  site.routes['/.well-known/launchlist-verification.txt'] = { type: 'text/plain', body: `\n${token}\n` };
  const ok = (await api(bob, 'POST', `/claims/${claim.id}/verify`)).json();
  assert.equal(ok.status, 'verified');
  assert.equal((await listingRow('acme-file')).owner_id, bob.id);
});

test('a listing owned by someone else moves to the verified claimant; the previous owner is told; rival pending claims close', async () => {
  const owned = await listingRow('acme-owned');
  await t.store.db
    .updateTable('listings')
    .set({ owner_id: carol.id, verified_at: '2025-01-01T00:00:00.000Z' })
    .where('id', '=', owned.id)
    .execute();

  const carolAgain = await api(carol, 'POST', '/claims', { slug: 'acme-owned', method: 'dns' });
  assert.equal(carolAgain.statusCode, 409);

  // carol made the listing from a draft, still linked to it.
  const draft = await insertDraft(t.store.db, {
    userId: carol.id,
    url: 'https://acme-owned.example/',
    now: new Date().toISOString(),
  });
  await t.store.db
    .updateTable('drafts')
    .set({ listing_id: owned.id, status: 'ready', stage: 'done' })
    .where('id', '=', draft.id)
    .execute();
  await t.store.db.updateTable('listings').set({ draft_id: draft.id }).where('id', '=', owned.id).execute();

  const rival = (await api(alice, 'POST', '/claims', { slug: 'acme-owned', method: 'file' })).json();
  const claim = (await api(bob, 'POST', '/claims', { slug: 'acme-owned', method: 'dns' })).json();
  txt.set('_launchlist.acme-owned.example', [[claim.instructions.value]]);
  const ok = (await api(bob, 'POST', `/claims/${claim.id}/verify`)).json();
  assert.equal(ok.status, 'verified');
  const row = await listingRow('acme-owned');
  assert.equal(row.owner_id, bob.id);
  assert.ok(row.verified_at! > '2025-01-01T00:00:00.000Z', 'verified_at is the new verification');

  const mail = await t.store.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', carol.email).execute();
  assert.equal(mail.length, 1, 'the previous owner is told by mail');
  assert.match(mail[0].subject, /Acme Owned/);
  assert.match(mail[0].text, /acme-owned\.example/);

  const closed = (await api(alice, 'GET', '/claims')).json().items.find((c: { id: number }) => c.id === rival.id);
  assert.equal(closed.status, 'failed');
  assert.match(closed.last_error, /another account proved control of acme-owned\.example/);
  const retry = await api(alice, 'POST', `/claims/${rival.id}/verify`);
  assert.equal(retry.statusCode, 409, 'a failed claim cannot be checked again');

  // carol's draft no longer writes the listing bob now owns: editing it changes the draft only, and
  // submitting it is refused: the website is listed (bob's listing), one website has one listing.
  assert.equal((await listingRow('acme-owned')).draft_id, null);
  const edit = await t.app.inject({
    method: 'PATCH',
    url: `/api/v1/drafts/${draft.id}`,
    headers: carol.auth,
    payload: {
      fields: { name: 'Carol Again', tagline: 'Edited after losing the listing', categories: ['productivity'] },
    },
  });
  assert.equal(edit.statusCode, 200, edit.body);
  assert.equal(edit.json().listing_id, null);
  assert.notEqual((await listingRow('acme-owned')).tagline, 'Edited after losing the listing');
  const submitted = await t.app.inject({
    method: 'POST',
    url: `/api/v1/drafts/${draft.id}/submit`,
    headers: carol.auth,
  });
  assert.equal(submitted.statusCode, 409, submitted.body);
  assert.equal(submitted.json().error.existing_listing.slug, 'acme-owned');
  assert.equal(
    (await t.store.db.selectFrom('listings').select('id').where('owner_id', '=', carol.id).execute()).length,
    0,
  );
  const after = await listingRow('acme-owned');
  assert.deepEqual([after.owner_id, after.name], [bob.id, 'Acme Owned']);
});

test('a maker who owns an unverified listing can claim it to get the Verified badge', async () => {
  const row = await listingRow('page-3');
  await t.store.db.updateTable('listings').set({ owner_id: carol.id }).where('id', '=', row.id).execute();
  const claim = await api(carol, 'POST', '/claims', { slug: 'page-3', method: 'dns' });
  assert.equal(claim.statusCode, 201);
  txt.set('_launchlist.page-3.example', [[claim.json().instructions.value]]);
  assert.equal((await api(carol, 'POST', `/claims/${claim.json().id}/verify`)).json().status, 'verified');
  assert.ok((await listingRow('page-3')).verified_at);
  const mail = await t.store.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', carol.email)
    .where('subject', 'like', '%Page 3%')
    .execute();
  assert.equal(mail.length, 0, 'no "moved" mail when the owner verifies their own listing');
});

test("someone else's claim is 404; email claims are not checked by verify_claim", async () => {
  const claim = (await api(alice, 'POST', '/claims', { slug: 'page-1', method: 'meta' })).json();
  const other = await api(bob, 'POST', `/claims/${claim.id}/verify`);
  assert.equal(other.statusCode, 404);
  assert.equal(other.json().error.code, 'not_found');
  assert.equal(
    (await api(bob, 'GET', '/claims')).json().items.some((c: { id: number }) => c.id === claim.id),
    false,
  );
  assert.equal((await api(alice, 'POST', '/claims/999999/verify')).statusCode, 404);

  const email = await api(alice, 'POST', '/claims', {
    slug: 'page-1',
    method: 'email',
    email: 'Founder@Mail.Page-1.example',
  });
  assert.equal(email.statusCode, 201, email.body);
  assert.equal(
    email.json().instructions.sent_to,
    'founder@mail.page-1.example',
    'a subdomain of the listing domain is accepted',
  );
  assert.equal(email.json().instructions.note, 'open the link in the email within 24 h');
  const v = await api(alice, 'POST', `/claims/${email.json().id}/verify`);
  assert.equal(v.statusCode, 409);
  assert.match(v.json().error.message, /open(s)? the link in the email/);
});

test('one check per claim per 10 s: 429 with Retry-After', async () => {
  const claim = (await api(carol, 'POST', '/claims', { slug: 'page-2', method: 'dns' })).json();
  claimOpts.checkIntervalMs = 10_000;
  try {
    assert.equal((await api(carol, 'POST', `/claims/${claim.id}/verify`)).statusCode, 200);
    const asked = dnsAsked.length;
    const second = await api(carol, 'POST', `/claims/${claim.id}/verify`);
    assert.equal(second.statusCode, 429);
    assert.equal(second.json().error.code, 'rate_limited');
    const retry = Number(second.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 10, `Retry-After ${second.headers['retry-after']}`);
    assert.equal(dnsAsked.length, asked, 'the refused check asked nothing');
  } finally {
    claimOpts.checkIntervalMs = 0;
  }
});

test('SSRF: a listing whose site is on a non-public address is never fetched; the claim says why', async () => {
  const meta = (await api(alice, 'POST', '/claims', { slug: 'acme-private', method: 'meta' })).json();
  const r = (await api(alice, 'POST', `/claims/${meta.id}/verify`)).json();
  assert.equal(r.status, 'pending');
  assert.match(
    r.last_error,
    /could not read the homepage http:\/\/127\.0\.0\.1:\d+\/: refused: 127\.0\.0\.1 is not a public address/,
  );
  const file = (await api(alice, 'POST', '/claims', { slug: 'acme-private', method: 'file' })).json();
  const f = (await api(alice, 'POST', `/claims/${file.id}/verify`)).json();
  assert.match(f.last_error, /refused/);
  assert.deepEqual(privateSite.requests, [], 'no request reached the private site');
  assert.equal((await listingRow('acme-private')).owner_id, null);

  // A host name that resolves to a private address is refused when connecting (DNS rebinding included).
  claimOpts.resolve = async () => [{ address: '127.0.0.1', family: 4 }];
  try {
    const named = (await api(alice, 'POST', '/claims', { slug: 'acme-intranet', method: 'meta' })).json();
    const n = (await api(alice, 'POST', `/claims/${named.id}/verify`)).json();
    assert.equal(n.status, 'pending');
    assert.match(n.last_error, /refused: .*non-public address 127\.0\.0\.1/);
  } finally {
    delete claimOpts.resolve;
  }
});

test('concurrent identical claim requests give one pending claim', async () => {
  const [a, b, c] = await Promise.all(
    [1, 2, 3].map(() => api(bob, 'POST', '/claims', { slug: 'page-2', method: 'meta' })),
  );
  assert.deepEqual([a.statusCode, b.statusCode, c.statusCode], [201, 201, 201]);
  assert.equal(new Set([a.json().id, b.json().id, c.json().id]).size, 1);
  const rows = await t.store.db
    .selectFrom('claims')
    .select('id')
    .where('user_id', '=', bob.id)
    .where('method', '=', 'meta')
    .where('status', '=', 'pending')
    .where('listing_id', '=', (await listingRow('page-2')).id)
    .execute();
  assert.equal(rows.length, 1);
});

test("list_my_claims: newest first, paginated, only the caller's", async () => {
  const dave = await makeUser(t.store.db);
  const ids: number[] = [];
  for (const slug of ['page-1', 'page-2', 'acme-dns'])
    ids.push((await api(dave, 'POST', '/claims', { slug, method: 'file' })).json().id);
  const p1 = await api(dave, 'GET', '/claims?per_page=2');
  assert.equal(p1.statusCode, 200);
  const b1 = p1.json();
  assert.deepEqual(
    b1.items.map((c: { id: number }) => c.id),
    [ids[2], ids[1]],
  );
  assert.equal(b1.total, 3);
  assert.equal(b1.has_more, true);
  assert.equal(b1.items[0].listing.slug, 'acme-dns');
  assert.ok(b1.items[0].instructions.url.endsWith('/.well-known/launchlist-verification.txt'));
  const b2 = (await api(dave, 'GET', '/claims?per_page=2&page=2')).json();
  assert.deepEqual(
    b2.items.map((c: { id: number }) => c.id),
    [ids[0]],
  );
  assert.equal(b2.has_more, false);
  assert.equal((await api(dave, 'GET', '/claims?per_page=101')).statusCode, 400);
});
