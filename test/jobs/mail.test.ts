// Followers' mails on the engine of this run: post_listing_update writes them to the outbox in its
// own transaction and queues mail.deliver jobs; the jobs send them over SMTP (a loopback test server),
// retry what the server refused, and never send a message twice.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { smtpServer, type SmtpServer } from '../support/smtp.ts';
import { listing } from '../support/listing-fixtures.ts';
import { makeUser } from './support/users.ts';
import { drainJobs, jobHandlers } from '../../src/jobs/index.ts';
import { MAIL_DELIVER, MAILS_PER_JOB } from '../../src/jobs/mail.ts';
import { outboxFor } from '../../src/mail/index.ts';
import { fromJson } from '../../src/store/json.ts';

let t: TestApp;
let smtp: SmtpServer;

before(async () => {
  smtp = await smtpServer();
  t = await testApp({ SMTP_URL: smtp.url }, async (store) => {
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
});
after(async () => {
  await t.cleanup();
  await smtp.close();
});

async function listingWithFans(slug: string, fans: number) {
  const db = t.store.db;
  const owner = await makeUser(db);
  const id = await listing(db, { slug, name: slug[0].toUpperCase() + slug.slice(1), category: 'tools' });
  await db.updateTable('listings').set({ owner_id: owner.id }).where('id', '=', id).execute();
  const followers = [];
  for (let i = 0; i < fans; i++) followers.push(await makeUser(db));
  const now = new Date().toISOString();
  await db
    .insertInto('follows')
    .values(followers.map((f) => ({ listing_id: id, user_id: f.id, created_at: now })))
    .execute();
  return { id, owner, followers };
}
const post = (id: number, auth: Record<string, string>, title: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/me/listings/${id}/updates`,
    headers: auth,
    payload: { title, body: 'What changed.' },
  });
const jobsOf = () => t.store.db.selectFrom('jobs').selectAll().where('kind', '=', MAIL_DELIVER).orderBy('id').execute();
const sentTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

test('the request queues the mails and a job; the job sends each once over SMTP', async () => {
  const { id, owner, followers } = await listingWithFans('gamma', 3);
  const before = smtp.messages.length;
  const res = await post(id, owner.auth, 'Dark mode');
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(res.json().followers_notified, 3);
  // Nothing was sent while the request ran: the three are in the outbox, unsent, with one job to send them.
  assert.equal(smtp.messages.length, before);
  for (const f of followers) {
    const [mail] = await outboxFor(t.store.db, f.email);
    assert.ok(mail, f.email);
    assert.equal(mail.sent_at, null);
  }
  const queued = (await jobsOf()).filter((j) => j.status === 'queued');
  assert.equal(queued.length, 1);

  const ran = await drainJobs(t.server.deps, jobHandlers);
  assert.deepEqual(
    ran.map((r) => [r.job.kind, r.outcome]),
    [[MAIL_DELIVER, 'done']],
  );
  for (const f of followers) {
    const got = sentTo(f.email);
    assert.equal(got.length, 1, f.email);
    assert.match(got[0].data, /Subject: Gamma: Dark mode/);
    assert.match(got[0].data, /What changed\./);
    assert.notEqual((await outboxFor(t.store.db, f.email))[0].sent_at, null);
  }
  assert.equal(sentTo(owner.email).length, 0);
  // Running the queue again sends nothing more.
  assert.equal((await drainJobs(t.server.deps, jobHandlers)).length, 0);
  for (const f of followers) assert.equal(sentTo(f.email).length, 1);
});

test('a refused recipient is retried by the job; the others are not sent twice', async () => {
  const { id, owner, followers } = await listingWithFans('delta', 2);
  const [ok, refused] = followers;
  smtp.refuse.add(refused.email);
  assert.equal((await post(id, owner.auth, 'Pricing change')).statusCode, 201);
  const first = await drainJobs(t.server.deps, jobHandlers, { max: 1 });
  assert.equal(first[0].outcome, 'retry');
  assert.equal(sentTo(ok.email).length, 1);
  assert.equal(sentTo(refused.email).length, 0);
  const row = (await outboxFor(t.store.db, refused.email))[0];
  assert.equal(row.sent_at, null);
  assert.match(row.error ?? '', /550|no such mailbox/i);
  const job = (await jobsOf()).at(-1)!;
  assert.equal(job.status, 'queued');
  assert.match(job.last_error ?? '', /1 of 2 messages are not sent yet/);

  smtp.refuse.delete(refused.email);
  // The retry waits for its backoff: nothing runs now. Run it as a worker would once that has passed.
  assert.equal((await drainJobs(t.server.deps, jobHandlers)).length, 0);
  await t.store.db
    .updateTable('jobs')
    .set({ run_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', job.id)
    .execute();
  assert.deepEqual(
    (await drainJobs(t.server.deps, jobHandlers)).map((r) => r.outcome),
    ['done'],
  );
  assert.equal(sentTo(refused.email).length, 1);
  assert.equal(sentTo(ok.email).length, 1, 'the message sent on the first run is not sent again');
});

test(`a large audience is split into jobs of ${MAILS_PER_JOB}; without SMTP no job is queued`, async () => {
  const { id, owner } = await listingWithFans('epsilon', MAILS_PER_JOB + 5);
  const jobsBefore = (await jobsOf()).length;
  assert.equal((await post(id, owner.auth, 'Big news')).json().followers_notified, MAILS_PER_JOB + 5);
  const added = (await jobsOf()).slice(jobsBefore);
  assert.deepEqual(
    added.map((j) => fromJson<{ ids: number[] }>(j.payload, { ids: [] }).ids.length),
    [MAILS_PER_JOB, 5],
  );

  const plain = await testApp({}, async (store) => {
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
  try {
    const owner2 = await makeUser(plain.store.db);
    const fan = await makeUser(plain.store.db);
    const lid = await listing(plain.store.db, { slug: 'zeta', name: 'Zeta', category: 'tools' });
    await plain.store.db.updateTable('listings').set({ owner_id: owner2.id }).where('id', '=', lid).execute();
    await plain.store.db
      .insertInto('follows')
      .values({ listing_id: lid, user_id: fan.id, created_at: new Date().toISOString() })
      .execute();
    const res = await plain.app.inject({
      method: 'POST',
      url: `/api/v1/me/listings/${lid}/updates`,
      headers: owner2.auth,
      payload: { title: 'Hi', body: 'There.' },
    });
    assert.equal(res.json().followers_notified, 1);
    assert.equal((await outboxFor(plain.store.db, fan.email)).length, 1); // the outbox is where mail ends
    assert.equal(
      (await plain.store.db.selectFrom('jobs').select('id').where('kind', '=', MAIL_DELIVER).execute()).length,
      0,
    );
  } finally {
    await plain.cleanup();
  }
});
