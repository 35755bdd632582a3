// Email claims: the link in the mail opens a page that shows what will happen; only the confirm
// button (a POST with the CSRF token) verifies the claim and moves the listing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as cheerio from 'cheerio';
import { testApp, type TestApp } from '../support/app.ts';
import { category, listing } from '../support/listing-fixtures.ts';
import { makeUser } from '../jobs/support/users.ts';

type User = Awaited<ReturnType<typeof makeUser>>;
let t: TestApp;
let claimant: User;
let owner: User;

before(async () => {
  t = await testApp({}, async (store) => {
    await category(store.db, 'productivity');
    await listing(store.db, {
      slug: 'acme-notes',
      name: 'Acme Notes',
      category: 'productivity',
      domain: 'acme.example',
    });
    await listing(store.db, { slug: 'acme-late', name: 'Acme Late', category: 'productivity', domain: 'late.example' });
    await listing(store.db, {
      slug: 'acme-moved',
      name: 'Acme Moved',
      category: 'productivity',
      domain: 'moved.example',
    });
  });
  claimant = await makeUser(t.store.db);
  owner = await makeUser(t.store.db);
});
after(async () => {
  await t.cleanup();
});

const api = (who: User, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: who.auth, ...(payload ? { payload } : {}) });
const cookiesOf = (res: { cookies: Array<{ name: string; value: string }> }) =>
  res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
const claimRow = (id: number) =>
  t.store.db.selectFrom('claims').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const listingRow = (slug: string) =>
  t.store.db.selectFrom('listings').selectAll().where('slug', '=', slug).executeTakeFirstOrThrow();

async function linkFor(to: string): Promise<string> {
  const mail = await t.store.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const m = /https?:\/\/\S+(\/claims\/verify\/[A-Za-z0-9_-]+)/.exec(mail.text);
  assert.ok(m, `a claim link in the mail: ${mail.text}`);
  return m[1];
}

test('email claim: the mailed link shows a confirm page; POST without CSRF is refused; with CSRF the claim verifies and the listing moves', async () => {
  const row = await listingRow('acme-notes');
  await t.store.db.updateTable('listings').set({ owner_id: owner.id }).where('id', '=', row.id).execute();

  const created = await api(claimant, 'POST', '/claims', {
    slug: 'acme-notes',
    method: 'email',
    email: 'ceo@acme.example',
  });
  assert.equal(created.statusCode, 201, created.body);
  const claim = created.json();
  assert.equal(claim.status, 'pending');
  assert.deepEqual(
    { sent_to: claim.instructions.sent_to, note: claim.instructions.note },
    { sent_to: 'ceo@acme.example', note: 'open the link in the email within 24 h' },
  );
  const stored = await claimRow(claim.id);
  const path = await linkFor('ceo@acme.example');
  const token = path.split('/').pop()!;
  assert.notEqual(stored.token, token, 'only a hash of the link token is stored');
  assert.ok(!JSON.stringify(claim).includes(token), 'the API response does not reveal the link token');

  const again = await api(claimant, 'POST', '/claims', {
    slug: 'acme-notes',
    method: 'email',
    email: 'ceo@acme.example',
  });
  assert.equal(again.json().id, claim.id);
  assert.equal(
    (await t.store.db.selectFrom('mail_outbox').select('id').where('to_address', '=', 'ceo@acme.example').execute())
      .length,
    1,
    'the same request does not mail again',
  );

  const page = await t.app.inject({ method: 'GET', url: path });
  assert.equal(page.statusCode, 200);
  const $ = cheerio.load(page.body);
  const text = $('main').text();
  assert.match(text, /Acme Notes/);
  assert.match(text, new RegExp(claimant.email.replace(/[.+]/g, '\\$&')));
  assert.match(text, /ceo@acme\.example/);
  const form = $(`form[method=post][action="${path}"]`);
  assert.equal(form.length, 1, 'a confirm form posting to the link');
  const csrf = form.find('input[name=_csrf]').val() as string;
  assert.ok(csrf);
  assert.equal((await claimRow(claim.id)).status, 'pending', 'opening the link changes nothing');

  const noCsrf = await t.app.inject({ method: 'POST', url: path, headers: { cookie: cookiesOf(page) }, payload: {} });
  assert.equal(noCsrf.statusCode, 403);
  const forged = await t.app.inject({ method: 'POST', url: path, payload: { _csrf: csrf } });
  assert.equal(forged.statusCode, 403, 'a token without its cookie (another site) is refused');
  assert.equal((await claimRow(claim.id)).status, 'pending');
  assert.equal((await listingRow('acme-notes')).owner_id, owner.id);

  const ok = await t.app.inject({
    method: 'POST',
    url: path,
    headers: { cookie: cookiesOf(page), 'content-type': 'application/x-www-form-urlencoded' },
    payload: `_csrf=${encodeURIComponent(csrf)}`,
  });
  assert.equal(ok.statusCode, 200, ok.body);
  assert.match(cheerio.load(ok.body)('h1').text(), /Claim confirmed/);
  const after = await claimRow(claim.id);
  assert.equal(after.status, 'verified');
  assert.ok(after.verified_at);
  const l = await listingRow('acme-notes');
  assert.equal(l.owner_id, claimant.id);
  assert.ok(l.verified_at);

  const listed = (await api(claimant, 'GET', '/claims')).json().items.find((c: { id: number }) => c.id === claim.id);
  assert.equal(listed.status, 'verified');
  assert.equal(
    (await t.store.db.selectFrom('mail_outbox').select('subject').where('to_address', '=', owner.email).execute())
      .length,
    1,
    'the previous owner is told',
  );
  assert.match(
    (
      await t.store.db
        .selectFrom('mail_outbox')
        .select('subject')
        .where('to_address', '=', claimant.email)
        .executeTakeFirstOrThrow()
    ).subject,
    /verified/,
  );

  const reopened = await t.app.inject({ method: 'GET', url: path });
  assert.equal(reopened.statusCode, 200);
  assert.match(cheerio.load(reopened.body)('h1').text(), /Claim confirmed/);
  assert.equal(cheerio.load(reopened.body)('form[action^="/claims/"]').length, 0);
});

test('an expired link: the page says so, nothing changes, and the claim shows as expired', async () => {
  const claim = (
    await api(claimant, 'POST', '/claims', { slug: 'acme-late', method: 'email', email: 'hello@late.example' })
  ).json();
  const path = await linkFor('hello@late.example');
  const page = await t.app.inject({ method: 'GET', url: path });
  const csrf = cheerio.load(page.body)('input[name=_csrf]').val() as string;
  // 24 hours pass.
  await t.store.db
    .updateTable('claims')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', claim.id)
    .execute();

  const late = await t.app.inject({ method: 'GET', url: path });
  assert.equal(late.statusCode, 410);
  assert.match(cheerio.load(late.body)('h1').text(), /expired/);
  assert.equal(cheerio.load(late.body)('form[action^="/claims/"]').length, 0, 'no confirm button');
  const post = await t.app.inject({
    method: 'POST',
    url: path,
    headers: { cookie: cookiesOf(page) },
    payload: { _csrf: csrf },
  });
  assert.equal(post.statusCode, 410);
  assert.equal((await listingRow('acme-late')).owner_id, null);
  const listed = (await api(claimant, 'GET', '/claims')).json().items.find((c: { id: number }) => c.id === claim.id);
  assert.equal(listed.status, 'expired');
  assert.match(listed.last_error, /expired/);
  const v = await api(claimant, 'POST', `/claims/${claim.id}/verify`);
  assert.equal(v.statusCode, 409);
  assert.match(v.json().error.message, /expired/);

  const fresh = await api(claimant, 'POST', '/claims', {
    slug: 'acme-late',
    method: 'email',
    email: 'hello@late.example',
  });
  assert.equal(fresh.statusCode, 201);
  assert.notEqual(fresh.json().id, claim.id, 'after expiry a new claim (and link) is started');
  assert.equal(fresh.json().status, 'pending');
});

test('another address gets a fresh link (the old one stops working), at most once a minute', async () => {
  const first = (
    await api(claimant, 'POST', '/claims', { slug: 'acme-moved', method: 'email', email: 'a@moved.example' })
  ).json();
  const oldPath = await linkFor('a@moved.example');
  const tooSoon = await api(claimant, 'POST', '/claims', {
    slug: 'acme-moved',
    method: 'email',
    email: 'b@moved.example',
  });
  assert.equal(tooSoon.statusCode, 429);
  assert.ok(Number(tooSoon.headers['retry-after']) >= 1);
  // A minute passes.
  await t.store.db
    .updateTable('claims')
    .set({ expires_at: new Date(Date.now() + 23 * 3600_000).toISOString() })
    .where('id', '=', first.id)
    .execute();
  const moved = await api(claimant, 'POST', '/claims', {
    slug: 'acme-moved',
    method: 'email',
    email: 'b@moved.example',
  });
  assert.equal(moved.statusCode, 201);
  assert.equal(moved.json().id, first.id);
  assert.equal(moved.json().instructions.sent_to, 'b@moved.example');
  assert.equal((await t.app.inject({ method: 'GET', url: oldPath })).statusCode, 404, 'the old link no longer works');
  const newPath = await linkFor('b@moved.example');
  assert.equal((await t.app.inject({ method: 'GET', url: newPath })).statusCode, 200);
  assert.equal(
    (await t.app.inject({ method: 'GET', url: '/claims/verify/not-a-real-link-token-0000' })).statusCode,
    404,
  );
});
