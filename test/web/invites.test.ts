// The link in a co-founder invite mail: the invited person adds their profile to the draft and its listing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as cheerio from 'cheerio';
import { testApp, type TestApp } from '../support/app.ts';
import { serveSite, productSite, type Site } from '../jobs/support/site.ts';
import { testDrafter } from '../jobs/support/drafter.ts';
import { makeUser } from '../jobs/support/users.ts';
import { drainJobs, jobHandlers } from '../../src/jobs/index.ts';
import { RobotsCache } from '../../src/drafting/crawler/robots.ts';

let t: TestApp;
let user: Awaited<ReturnType<typeof makeUser>>;
let site: Site;

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
  t.server.deps.services.drafting = { drafter: testDrafter().drafter, crawl: { robots: new RobotsCache() } };
  site = await serveSite(productSite('Acme Notes'));
});
after(async () => {
  await site.close();
  await t.cleanup();
});

const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: user.auth, ...(payload ? { payload } : {}) });

function cookiesOf(res: { cookies: Array<{ name: string; value: string }> }): string {
  return res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

test('an invited co-founder adds their profile through the mailed link; the link works once', async () => {
  const created = await api('POST', '/drafts', { url: site.origin + '/' });
  const id = created.json().id;
  await drainJobs(t.server.deps, jobHandlers);
  assert.equal(
    (
      await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/drafts/${id}`,
        headers: user.auth,
        payload: { fields: { categories: ['productivity'] } },
      })
    ).statusCode,
    200,
  );
  const submitted = await api('POST', `/drafts/${id}/submit`);
  assert.equal(submitted.statusCode, 200);
  const listingId = submitted.json().listing_id;

  assert.equal((await api('POST', `/drafts/${id}/invites`, { email: 'bob@acme.example' })).statusCode, 201);
  const mail = await t.store.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', 'bob@acme.example')
    .executeTakeFirstOrThrow();
  const link = new URL(/https?:\/\/\S+\/invites\/[A-Za-z0-9_-]+/.exec(mail.text)![0]);

  const form = await t.app.inject({ method: 'GET', url: link.pathname });
  assert.equal(form.statusCode, 200);
  const $ = cheerio.load(form.body);
  assert.match($('main, body').text(), /Acme Notes/);
  const csrf = $('input[name=_csrf]').val() as string;
  assert.ok(csrf);

  const noToken = await t.app.inject({
    method: 'POST',
    url: link.pathname,
    headers: { cookie: cookiesOf(form) },
    payload: { name: 'Bob Builder' },
  });
  assert.equal(noToken.statusCode, 403, 'a post without the CSRF token changes nothing');

  const ok = await t.app.inject({
    method: 'POST',
    url: link.pathname,
    headers: { cookie: cookiesOf(form) },
    payload: { _csrf: csrf, name: 'Bob Builder', title: 'CTO', bio: 'Builds things.' },
  });
  assert.equal(ok.statusCode, 200, ok.body);

  const draft = (await api('GET', `/drafts/${id}`)).json();
  assert.ok(
    draft.founders.some((f: { name: string; title?: string }) => f.name === 'Bob Builder' && f.title === 'CTO'),
  );
  const onListing = await t.store.db
    .selectFrom('listing_founders')
    .innerJoin('founders', 'founders.id', 'listing_founders.founder_id')
    .select('founders.name')
    .where('listing_founders.listing_id', '=', listingId)
    .execute();
  assert.ok(
    onListing.some((f) => f.name === 'Bob Builder'),
    'the submitted listing gets the founder too',
  );

  const again = await t.app.inject({
    method: 'POST',
    url: link.pathname,
    headers: { cookie: cookiesOf(form) },
    payload: { _csrf: csrf, name: 'Mallory' },
  });
  assert.equal(again.statusCode, 409);
  const bad = await t.app.inject({ method: 'GET', url: '/invites/not-a-real-invite-token-000' });
  assert.equal(bad.statusCode, 404);
});
