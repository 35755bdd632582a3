// PATCH /drafts/{id} (every field and state transition, rules, limits, additional properties),
// competitor_url, POST /drafts/{id}/invites, POST /drafts/{id}/submit and PATCH after submit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { serveSite, productSite, closedPort, html, type Site } from '../jobs/support/site.ts';
import { testDrafter, type TestDrafter } from '../jobs/support/drafter.ts';
import { makeUser } from '../jobs/support/users.ts';
import { drainJobs, jobHandlers } from '../../src/jobs/index.ts';
import { RobotsCache } from '../../src/drafting/crawler/robots.ts';
import { normaliseDomain } from '../../src/domain/urls.ts';

let t: TestApp;
let user: Awaited<ReturnType<typeof makeUser>>;
let td: TestDrafter;
let s: Site;
const sites: Site[] = [];

before(async () => {
  t = await testApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' }, async (store) => {
    const p = await store.db
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
      .returning('id')
      .executeTakeFirstOrThrow();
    await store.db
      .insertInto('categories')
      .values({
        slug: 'note-taking',
        name: 'Note taking',
        parent_id: p.id,
        description: '',
        faqs: '[]',
        attributes: '[]',
        position: 2,
      })
      .execute();
    await store.db
      .insertInto('categories')
      .values({
        slug: 'developer-tools',
        name: 'Developer tools',
        parent_id: null,
        description: '',
        faqs: '[]',
        attributes: '[]',
        position: 3,
      })
      .execute();
  });
  user = await makeUser(t.store.db);
  td = testDrafter();
  t.server.deps.services.drafting = { drafter: td.drafter, crawl: { robots: new RobotsCache() } };
  s = await serveSite(productSite('Acme Notes'));
  sites.push(s);
});
after(async () => {
  for (const x of sites) await x.close();
  await t.cleanup();
});

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, auth = user.auth) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: auth,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const patch = (id: string, body: unknown, auth = user.auth) => api('PATCH', `/drafts/${id}`, body, auth);

async function readyDraft(auth = user.auth, site = s): Promise<string> {
  const res = await api('POST', '/drafts', { url: site.origin + '/' }, auth);
  assert.equal(res.statusCode, 201);
  await drainJobs(t.server.deps, jobHandlers);
  const d = (await api('GET', `/drafts/${res.json().id}`, undefined, auth)).json();
  assert.equal(d.status, 'ready');
  return d.id;
}

/** Every listing has one primary category: a draft whose site named none gets one before it is submitted. */
async function ensureCategory(id: string, auth = user.auth): Promise<void> {
  const d = (await api('GET', `/drafts/${id}`, undefined, auth)).json();
  if (!Array.isArray(d.fields.categories.value) || !d.fields.categories.value.length)
    assert.equal((await patch(id, { fields: { categories: ['productivity'] } }, auth)).statusCode, 200);
}

function assert400(res: { statusCode: number; json(): any }, path: string | RegExp, message?: RegExp) {
  assert.equal(res.statusCode, 400, JSON.stringify(res.json()));
  const body = res.json();
  assert.equal(body.error.code, 'validation_failed');
  const hit = body.error.details.find((d: { path: string }) =>
    typeof path === 'string' ? d.path === path : path.test(d.path),
  );
  assert.ok(hit, `no detail for ${path}: ${JSON.stringify(body.error.details)}`);
  if (message) assert.match(hit.message, message);
}

test('typed values: edited where the AI had a value, manual where it found nothing; null deletes', async () => {
  const id = await readyDraft();
  const res = await patch(id, {
    fields: {
      tagline: 'Notes for busy teams',
      city: 'Berlin',
      features: ['Fast search', 'Fast search', ' '],
      usps: null,
    },
  });
  assert.equal(res.statusCode, 200);
  const d = res.json();
  assert.deepEqual(d.fields.tagline, { value: 'Notes for busy teams', state: 'edited', evidence: [] });
  assert.deepEqual(d.fields.city, { value: 'Berlin', state: 'manual', evidence: [] });
  assert.deepEqual(
    d.fields.features,
    { value: ['Fast search'], state: 'edited', evidence: [] },
    'list items trimmed, duplicates and blanks dropped',
  );
  assert.deepEqual(d.fields.usps, { value: null, state: 'deleted', evidence: [] });
  assert.equal(d.fields.name.state, 'ai', 'fields not sent are untouched');
  const del = (await patch(id, { fields: { name: null } })).json();
  assert.equal(del.fields.name.value, null);
  assert.equal(del.fields.name.state, 'deleted');
  assert.ok(del.missing.includes('name'));
  assert.ok(del.completeness < d.completeness);
  // The change is stored: GET shows it.
  const g = (await api('GET', `/drafts/${id}`)).json();
  assert.equal(g.fields.city.state, 'manual');
  assert.equal(g.fields.name.state, 'deleted');
  // An empty body changes nothing.
  const same = await patch(id, undefined);
  assert.equal(same.statusCode, 200);
  assert.deepEqual(same.json().fields, g.fields);
});

test('restore returns the AI value and evidence (ai), or not_found where the AI had none', async () => {
  const id = await readyDraft();
  const before = (await api('GET', `/drafts/${id}`)).json();
  await patch(id, { fields: { name: 'Something else', city: 'Paris' } });
  const r = (await patch(id, { restore: ['name', 'city'] })).json();
  assert.deepEqual(r.fields.name, before.fields.name);
  assert.equal(r.fields.name.state, 'ai');
  assert.ok(r.fields.name.evidence.length > 0);
  assert.deepEqual(r.fields.city, { value: null, state: 'not_found', evidence: [] });
});

test('lock_fields → override, kept through regenerate; regenerate of a locked field is refused until restored', async () => {
  const id = await readyDraft();
  const locked = (
    await patch(id, { fields: { name: 'My Own Name' }, lock_fields: ['name', 'pricing_summary'] })
  ).json();
  assert.deepEqual(locked.fields.name, { value: 'My Own Name', state: 'override', evidence: [] });
  assert.equal(locked.fields.pricing_summary.state, 'override');
  const before = locked.fields.pricing_summary.value;
  assert.ok(before, 'locking keeps the AI value');
  // Typing into a locked field keeps it locked.
  assert.equal((await patch(id, { fields: { name: 'My Own Name 2' } })).json().fields.name.state, 'override');
  // Regenerating other fields leaves locked ones as they are.
  const calls = td.calls.length;
  const re = (await patch(id, { regenerate: ['tagline', 'features'] })).json();
  assert.equal(td.calls.length, calls + 1);
  assert.equal(re.fields.name.value, 'My Own Name 2');
  assert.equal(re.fields.name.state, 'override');
  assert.equal(re.fields.pricing_summary.state, 'override');
  const refused = await patch(id, { regenerate: ['name'] });
  assert.equal(refused.statusCode, 409);
  assert.match(refused.json().error.message, /name.*locked/);
  // restore unlocks; then regenerate works.
  const restored = (await patch(id, { restore: ['name'] })).json();
  assert.equal(restored.fields.name.state, 'ai');
  assert.equal(restored.fields.name.value, 'Acme Notes');
  assert.equal((await patch(id, { regenerate: ['name'] })).statusCode, 200);
});

test('regenerate redrafts from the stored evidence pages, without reading the site again', async () => {
  const id = await readyDraft();
  await patch(id, { fields: { tagline: 'typed by me', features: ['x'] } });
  const requests = s.requests.length;
  td.taglineSuffix = ' (second draft)';
  try {
    const res = await patch(id, { regenerate: ['tagline', 'features'] });
    assert.equal(res.statusCode, 200);
    const d = res.json();
    assert.equal(d.fields.tagline.state, 'ai');
    assert.equal(d.fields.tagline.value, "Acme Notes keeps your team's notes in one place. (second draft)");
    assert.deepEqual(d.fields.tagline.evidence, [
      { quote: "Acme Notes keeps your team's notes in one place.", url: s.origin + '/' },
    ]);
    assert.deepEqual(d.fields.features.value, ['Shared notebooks', 'Offline sync', 'End-to-end encryption']);
    assert.equal(s.requests.length, requests, 'no request reached the site');
    const last = td.calls.at(-1)!;
    assert.deepEqual(last.fields, ['tagline', 'features']);
    assert.deepEqual([...last.urls].sort(), [s.origin + '/', s.origin + '/about', s.origin + '/pricing'].sort());
    // restore now goes back to the AI's latest draft of the field
    await patch(id, { fields: { tagline: 'mine again' } });
    assert.equal(
      (await patch(id, { restore: ['tagline'] })).json().fields.tagline.value,
      "Acme Notes keeps your team's notes in one place. (second draft)",
    );
  } finally {
    td.taglineSuffix = '';
  }
});

test('while crawling: user fields may be edited and survive the AI draft; regenerate is refused with 409', async () => {
  const res = await api('POST', '/drafts', { url: s.origin + '/' });
  const id = res.json().id;
  const early = await patch(id, {
    fields: { name: 'Typed Early', city: 'Lisbon' },
    lock_fields: ['tagline'],
    faqs: [{ question: 'Is it free?', answer: 'For individuals.' }],
  });
  assert.equal(early.statusCode, 200);
  assert.equal(early.json().status, 'crawling');
  const re = await patch(id, { regenerate: ['tagline'] });
  assert.equal(re.statusCode, 409);
  assert.match(re.json().error.message, /crawling/);
  await drainJobs(t.server.deps, jobHandlers);
  const d = (await api('GET', `/drafts/${id}`)).json();
  assert.equal(d.status, 'ready');
  assert.deepEqual(
    d.fields.name,
    { value: 'Typed Early', state: 'edited', evidence: [] },
    'the AI found a name, so the typed one is an edit',
  );
  assert.deepEqual(d.fields.city, { value: 'Lisbon', state: 'manual', evidence: [] });
  assert.deepEqual(
    d.fields.tagline,
    { value: null, state: 'override', evidence: [] },
    'a locked field is kept through the AI draft',
  );
  assert.deepEqual(d.faqs, [{ question: 'Is it free?', answer: 'For individuals.' }]);
  assert.equal(d.fields.features.state, 'ai');
  // …and restore gives the AI's value that was drafted meanwhile.
  assert.equal(
    (await patch(id, { restore: ['tagline'] })).json().fields.tagline.value,
    "Acme Notes keeps your team's notes in one place.",
  );
});

test('the same field in two lists of one request is refused, naming both', async () => {
  const id = await readyDraft();
  const a = await patch(id, { lock_fields: ['name'], regenerate: ['name'] });
  assert400(a, 'body.regenerate', /"name".*lock_fields.*regenerate/);
  const b = await patch(id, { fields: { tagline: 'x' }, restore: ['tagline'] });
  assert400(b, 'body.restore', /"tagline".*fields.*restore/);
  const c = await patch(id, { regenerate: ['city'], restore: ['city'] });
  assert400(c, 'body.restore', /"city".*regenerate.*restore/);
  assert.equal((await api('GET', `/drafts/${id}`)).json().fields.tagline.state, 'ai', 'nothing was applied');
});

test('field rules: country, contact_email, demo_video_url, founded_year, logo_url, categories', async () => {
  const id = await readyDraft();
  assert400(await patch(id, { fields: { country: 'XX' } }), 'body.fields.country', /ISO/);
  assert400(await patch(id, { fields: { country: 'Germany' } }), 'body.fields.country');
  assert400(await patch(id, { fields: { contact_email: 'not-an-email' } }), 'body.fields.contact_email', /email/);
  assert400(
    await patch(id, { fields: { demo_video_url: 'https://example.com/video.mp4' } }),
    'body.fields.demo_video_url',
    /video site/,
  );
  assert400(
    await patch(id, { fields: { demo_video_url: 'http://www.youtube.com/watch?v=abc' } }),
    'body.fields.demo_video_url',
    /https/,
  );
  assert400(await patch(id, { fields: { founded_year: '99' } }), 'body.fields.founded_year', /1800/);
  assert400(await patch(id, { fields: { founded_year: '2200' } }), 'body.fields.founded_year');
  assert400(await patch(id, { fields: { logo_url: 'javascript:alert(1)' } }), 'body.fields.logo_url');
  assert400(
    await patch(id, { fields: { categories: ['Note taking', 'Astrology'] } }),
    'body.fields.categories.1',
    /"Astrology" is not a category/,
  );
  const ok = await patch(id, {
    fields: {
      country: 'de',
      contact_email: 'hello@acme.example',
      demo_video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      founded_year: '2019',
      logo_url: 'https://acme.example/logo.png',
      categories: ['note-taking', 'PRODUCTIVITY'],
    },
  });
  assert.equal(ok.statusCode, 200, ok.body);
  const f = ok.json().fields;
  assert.equal(f.country.value, 'DE');
  assert.equal(f.contact_email.value, 'hello@acme.example');
  assert.equal(f.founded_year.value, '2019');
  assert.deepEqual(
    f.categories.value,
    ['Note taking', 'Productivity'],
    'slugs and names are stored as category names, in order',
  );
  for (const url of [
    'https://vimeo.com/123',
    'https://www.loom.com/share/abc',
    'https://acme.wistia.com/medias/x',
    'https://youtu.be/abc',
  ]) {
    assert.equal((await patch(id, { fields: { demo_video_url: url } })).statusCode, 200, url);
  }
});

test('additional properties are refused at every level', async () => {
  const id = await readyDraft();
  assert400(await patch(id, { foo: 1 }), /^body/, /additional properties/);
  assert400(await patch(id, { fields: { foo: 'x' } }), 'body.fields', /"foo"/);
  assert400(await patch(id, { founders: [{ name: 'Ada', foo: 'x' }] }), 'body.founders.0', /"foo"/);
  assert400(await patch(id, { seo: { title: 'x', foo: 'x' } }), 'body.seo', /"foo"/);
  assert400(await patch(id, { story: { story: 'x', foo: 'x' } }), 'body.story', /"foo"/);
  assert400(await patch(id, { faqs: [{ question: 'q', answer: 'a', foo: 'x' }] }), 'body.faqs.0', /"foo"/);
  assert400(
    await patch(id, { milestones: [{ date: '2024-01-01', title: 't', foo: 'x' }] }),
    'body.milestones.0',
    /"foo"/,
  );
  assert400(
    await patch(id, { company_socials: { myspace: 'https://myspace.com/x' } }),
    /body.company_socials/,
    /myspace/,
  );
  assert400(await patch(id, { lock_fields: ['colour'] }), /body.lock_fields/);
});

test('limits: faqs 10, founders 6, milestones 50, lock_fields/restore 20, regenerate 5, list fields 20 × 200, text lengths', async () => {
  const id = await readyDraft();
  const faq = { question: 'Q?', answer: 'A.' };
  assert.equal((await patch(id, { faqs: Array(10).fill(faq) })).statusCode, 200);
  assert400(await patch(id, { faqs: Array(11).fill(faq) }), 'body.faqs');
  assert.equal((await patch(id, { founders: Array(6).fill({ name: 'Ada' }) })).statusCode, 200);
  assert400(await patch(id, { founders: Array(7).fill({ name: 'Ada' }) }), 'body.founders');
  const m = { date: '2024-01-01', title: 'Launched' };
  assert.equal((await patch(id, { milestones: Array(50).fill(m) })).statusCode, 200);
  assert400(await patch(id, { milestones: Array(51).fill(m) }), 'body.milestones');
  const fields18 = [
    'name',
    'tagline',
    'short_description',
    'description',
    'stage',
    'categories',
    'tags',
    'pricing_model',
    'pricing_summary',
    'country',
    'city',
    'founded_year',
    'features',
    'usps',
    'keywords',
    'contact_email',
    'demo_video_url',
    'logo_url',
  ];
  assert400(await patch(id, { lock_fields: [...fields18, 'name', 'tagline', 'city'] }), 'body.lock_fields');
  assert400(await patch(id, { restore: [...fields18, 'name', 'tagline', 'city'] }), 'body.restore');
  assert400(
    await patch(id, { regenerate: ['name', 'tagline', 'description', 'features', 'usps', 'keywords'] }),
    'body.regenerate',
  );
  assert400(await patch(id, { fields: { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) } }), 'body.fields.tags');
  assert400(await patch(id, { fields: { tags: ['x'.repeat(201)] } }), 'body.fields.tags.0');
  assert400(await patch(id, { fields: { tagline: 'x'.repeat(501) } }), 'body.fields.tagline');
  assert400(await patch(id, { fields: { description: 'x'.repeat(20001) } }), 'body.fields.description');
  assert400(await patch(id, { seo: { title: 'x'.repeat(71) } }), 'body.seo.title');
  assert400(await patch(id, { seo: { meta: 'x'.repeat(171) } }), 'body.seo.meta');
  assert400(await patch(id, { story: { journey: 'x'.repeat(8001) } }), 'body.story.journey');
  assert400(await patch(id, { milestones: [{ date: '2024-02-30', title: 't' }] }), 'body.milestones.0.date');
  assert400(
    await patch(id, { milestones: [{ date: '2024-02-01', title: 't', url: 'http://insecure.example' }] }),
    'body.milestones.0.url',
  );
  assert400(await patch(id, { competitor_url: 'x'.repeat(2049) }), 'body.competitor_url');
});

test('faqs, founders, milestones replace the list; socials replace the map; story and seo change the keys sent', async () => {
  const id = await readyDraft();
  await patch(id, {
    faqs: [
      { question: 'A?', answer: '1' },
      { question: 'B?', answer: '2' },
    ],
    founders: [{ name: 'Ada', title: 'CEO' }, { name: 'Bob' }],
    milestones: [{ date: '2023-05-01', title: 'Beta' }],
  });
  const d = (
    await patch(id, {
      faqs: [{ question: 'C?', answer: '3' }],
      founders: [{ name: 'Cy', bio: 'Builds things.' }],
      milestones: [
        { date: '2024-01-15', title: 'Launch', description: 'Public launch', url: 'https://acme.example/launch' },
      ],
    })
  ).json();
  assert.deepEqual(d.faqs, [{ question: 'C?', answer: '3' }]);
  assert.deepEqual(d.founders, [{ name: 'Cy', bio: 'Builds things.' }]);
  assert.deepEqual(d.milestones, [
    { id: 1, date: '2024-01-15', title: 'Launch', description: 'Public launch', url: 'https://acme.example/launch' },
  ]);

  await patch(id, { company_socials: { x: 'https://x.com/acme', github: 'https://github.com/acme' } });
  const s2 = (
    await patch(id, {
      company_socials: { linkedin: 'https://www.linkedin.com/company/acme', website: '' },
      founder_socials: { x: 'https://x.com/cy', productlaunch: 'https://launch.example/@cy' },
    })
  ).json();
  assert.deepEqual(
    s2.company_socials,
    { linkedin: 'https://www.linkedin.com/company/acme' },
    'the map is replaced; an empty link is dropped',
  );
  assert.deepEqual(s2.founder_socials, { x: 'https://x.com/cy', productlaunch: 'https://launch.example/@cy' });
  assert400(await patch(id, { company_socials: { github: 'github.com/acme' } }), 'body.company_socials.github', /http/);
  assert400(await patch(id, { founder_socials: { x: 'ftp://x.com/cy' } }), 'body.founder_socials.x');

  await patch(id, {
    story: { title: 'How we started', why_started: 'Notes were everywhere.' },
    seo: { title: 'Acme Notes', meta: 'Team notes' },
  });
  const st = (await patch(id, { story: { journey: 'Two years of nights.', title: '' }, seo: { meta: '' } })).json();
  assert.deepEqual(st.story, { why_started: 'Notes were everywhere.', journey: 'Two years of nights.' });
  assert.deepEqual(st.seo, { title: 'Acme Notes' });
});

test("competitor_url: the competitor's site is read through the crawler and compared; errors are reported; empty clears", async () => {
  const id = await readyDraft();
  const rival = await serveSite({
    '/': html(`<!doctype html><html><head><title>Rival Notes</title><meta name="description" content="Notes, but rival."></head><body><h1>Rival Notes</h1>
      <ul class="features"><li>Offline sync</li><li>Kanban boards</li></ul></body></html>`),
  });
  sites.push(rival);
  const res = await patch(id, { competitor_url: rival.origin + '/' });
  assert.equal(res.statusCode, 200, res.body);
  const c = res.json().competitor;
  assert.equal(c.url, rival.origin + '/');
  assert.equal(c.name, 'Rival Notes');
  assert.equal(c.tagline, 'Notes, but rival.');
  assert.deepEqual(c.features, ['Offline sync', 'Kanban boards']);
  assert.deepEqual(c.shared_features, ['Offline sync']);
  assert.deepEqual(c.only_theirs, ['Kanban boards']);
  assert.deepEqual(c.only_ours, ['Shared notebooks', 'End-to-end encryption']);
  assert.ok(!Number.isNaN(Date.parse(c.compared_at)));
  assert.ok(rival.requests.includes('/robots.txt'), 'robots.txt is consulted');

  const port = await closedPort();
  const bad = (await patch(id, { competitor_url: `http://127.0.0.1:${port}/` })).json().competitor;
  assert.equal(bad.url, `http://127.0.0.1:${port}/`);
  assert.equal(bad.error.reason, 'unreachable');
  assert400(await patch(id, { competitor_url: 'ftp://rival.example' }), 'body.competitor_url');
  assert.equal((await patch(id, { competitor_url: '' })).json().competitor, null);
});

test('invite_cofounder: up to 10 invites, each emailed with a link; the 11th is refused; the same address again is resent', async () => {
  const id = await readyDraft();
  for (let i = 1; i <= 10; i++) {
    const res = await api('POST', `/drafts/${id}/invites`, { email: `cofounder${i}@acme.example` });
    assert.equal(res.statusCode, 201, res.body);
    const inv = res.json();
    assert.equal(inv.email, `cofounder${i}@acme.example`);
    assert.equal(inv.draft_id, id);
    assert.ok(Number.isInteger(inv.id));
    assert.ok(!Number.isNaN(Date.parse(inv.created_at)));
  }
  const mail = await t.store.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', 'cofounder3@acme.example')
    .execute();
  assert.equal(mail.length, 1);
  assert.match(mail[0].subject, /invited you.*Acme Notes/);
  assert.match(mail[0].text, new RegExp(`${t.config.publicUrl.replace(/[.]/g, '\\.')}/invites/[A-Za-z0-9_-]{20,}`));
  const eleventh = await api('POST', `/drafts/${id}/invites`, { email: 'cofounder11@acme.example' });
  assert400(eleventh, 'body.email', /at most 10 invites/);
  assert.equal(
    (
      await t.store.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('to_address', '=', 'cofounder11@acme.example')
        .execute()
    ).length,
    0,
    'no mail for a refused invite',
  );
  const again = await api('POST', `/drafts/${id}/invites`, { email: 'Cofounder3@acme.example' });
  assert.equal(again.statusCode, 201);
  assert.equal(again.json().resent, true);
  assert.equal(
    (await t.store.db.selectFrom('draft_invites').select('id').where('draft_id', '=', id).execute()).length,
    10,
  );
  assert400(await api('POST', `/drafts/${id}/invites`, { email: 'not an email' }), 'body.email');
  const other = await makeUser(t.store.db);
  assert.equal((await api('POST', `/drafts/${id}/invites`, { email: 'x@acme.example' }, other.auth)).statusCode, 404);
});

test("another user's draft is 404 for PATCH and submit too", async () => {
  const id = await readyDraft();
  const other = await makeUser(t.store.db);
  assert.equal((await patch(id, { fields: { name: 'Mine' } }, other.auth)).statusCode, 404);
  assert.equal((await api('POST', `/drafts/${id}/submit`, undefined, other.auth)).statusCode, 404);
  assert.equal((await api('GET', `/drafts/${id}`)).json().fields.name.value, 'Acme Notes');
});

test('submit_draft: 409 until ready; saves a listing (draft, plan none, not public); re-submit updates the same listing', async () => {
  const pending = (await api('POST', '/drafts', { url: s.origin + '/' })).json();
  const early = await api('POST', `/drafts/${pending.id}/submit`);
  assert.equal(early.statusCode, 409);
  assert.match(early.json().error.message, /crawling/);
  await drainJobs(t.server.deps, jobHandlers);

  const id = pending.id;
  await patch(id, {
    fields: { categories: ['note-taking', 'Productivity'], city: 'Berlin', country: 'DE', founded_year: '2020' },
    faqs: [{ question: 'Is it free?', answer: 'For individuals.' }],
    founders: [{ name: 'Ada Lovelace', title: 'CEO' }, { name: 'Charles Babbage' }],
    founder_socials: { x: 'https://x.com/ada' },
    company_socials: { github: 'https://github.com/acme' },
    story: { title: 'Our story', story: 'It began with lost notes.' },
    milestones: [{ date: '2024-03-01', title: 'Launch' }],
    seo: { title: 'Acme Notes — team notes', meta: 'One place for notes.' },
  });
  const res = await api('POST', `/drafts/${id}/submit`);
  assert.equal(res.statusCode, 200, res.body);
  const out = res.json();
  assert.ok(Number.isInteger(out.listing_id) && out.listing_id >= 1);
  assert.equal(out.status, 'draft');
  assert.equal(out.slug, 'acme-notes');
  assert.equal((await api('GET', `/drafts/${id}`)).json().listing_id, out.listing_id);

  const db = t.store.db;
  const l = await db.selectFrom('listings').selectAll().where('id', '=', out.listing_id).executeTakeFirstOrThrow();
  assert.equal(l.owner_id, user.id);
  assert.equal(l.status, 'draft');
  assert.equal(l.plan, 'none');
  assert.equal(l.name, 'Acme Notes');
  assert.equal(l.tagline, "Acme Notes keeps your team's notes in one place.");
  assert.equal(l.domain, normaliseDomain(s.origin));
  assert.equal(l.url, s.origin + '/');
  assert.equal(l.draft_id, id);
  assert.equal(l.city, 'Berlin');
  assert.equal(l.founded_year, 2020);
  assert.deepEqual(JSON.parse(l.features), ['Shared notebooks', 'Offline sync', 'End-to-end encryption']);
  assert.deepEqual(JSON.parse(l.socials), { github: 'https://github.com/acme' });
  assert.deepEqual(JSON.parse(l.faqs), [{ question: 'Is it free?', answer: 'For individuals.' }]);
  assert.equal(l.seo_title, 'Acme Notes — team notes');
  const notFound: string[] = JSON.parse(l.not_found);
  assert.ok(notFound.includes('contact_email') && notFound.includes('logo_url'));
  assert.ok(!notFound.includes('name') && !notFound.includes('city'), 'fields with a value are not in not_found');
  const cats = await db
    .selectFrom('listing_categories')
    .innerJoin('categories', 'categories.id', 'listing_categories.category_id')
    .select(['categories.slug', 'listing_categories.is_primary'])
    .where('listing_id', '=', out.listing_id)
    .execute();
  assert.deepEqual(
    cats.map((c) => [c.slug, Boolean(c.is_primary)]),
    [['note-taking', true]],
  );
  const primary = await db
    .selectFrom('categories')
    .select('slug')
    .where('id', '=', l.primary_category_id!)
    .executeTakeFirstOrThrow();
  assert.equal(primary.slug, 'note-taking');
  const founders = await db
    .selectFrom('listing_founders')
    .innerJoin('founders', 'founders.id', 'listing_founders.founder_id')
    .select(['founders.name', 'founders.title', 'founders.socials', 'listing_founders.position'])
    .where('listing_id', '=', out.listing_id)
    .orderBy('position')
    .execute();
  assert.deepEqual(
    founders.map((f) => f.name),
    ['Ada Lovelace', 'Charles Babbage'],
  );
  assert.deepEqual(JSON.parse(founders[0].socials), { x: 'https://x.com/ada' });
  assert.equal(
    (await db.selectFrom('stories').selectAll().where('listing_id', '=', out.listing_id).executeTakeFirstOrThrow())
      .story,
    'It began with lost notes.',
  );
  assert.deepEqual(
    (
      await db.selectFrom('milestones').select(['date', 'title']).where('listing_id', '=', out.listing_id).execute()
    ).map((r) => ({ ...r })),
    [{ date: '2024-03-01', title: 'Launch' }],
  );
  // Not public: the public profile does not show a draft listing.
  assert.notEqual((await t.app.inject({ method: 'GET', url: `/api/v1/listings/${out.slug}` })).statusCode, 200);

  // Re-submit after edits: the same listing, updated; no second listing.
  await patch(id, { fields: { tagline: 'Edited tagline' }, founders: [{ name: 'Ada Lovelace', title: 'CTO' }] });
  const again = await api('POST', `/drafts/${id}/submit`);
  assert.equal(again.statusCode, 200);
  assert.equal(again.json().listing_id, out.listing_id);
  assert.equal(again.json().slug, out.slug);
  const l2 = await db.selectFrom('listings').selectAll().where('id', '=', out.listing_id).executeTakeFirstOrThrow();
  assert.equal(l2.tagline, 'Edited tagline');
  assert.equal((await db.selectFrom('listings').select('id').where('draft_id', '=', id).execute()).length, 1);
  const f2 = await db
    .selectFrom('listing_founders')
    .innerJoin('founders', 'founders.id', 'listing_founders.founder_id')
    .select(['founders.name', 'founders.title'])
    .where('listing_id', '=', out.listing_id)
    .execute();
  assert.deepEqual(
    f2.map((r) => ({ ...r })),
    [{ name: 'Ada Lovelace', title: 'CTO' }],
  );

  // A second draft of a product with the same name (another website) gets its own, unique slug.
  const twin = await serveSite(productSite('Acme Notes'));
  sites.push(twin);
  const other = await readyDraft(user.auth, twin);
  await ensureCategory(other);
  const o = (await api('POST', `/drafts/${other}/submit`)).json();
  assert.notEqual(o.listing_id, out.listing_id);
  assert.equal(o.slug, 'acme-notes-2');
});

test('PATCH on a submitted draft updates its listing in the same step', async () => {
  const id = await readyDraft();
  await ensureCategory(id);
  const { listing_id } = (await api('POST', `/drafts/${id}/submit`)).json();
  const res = await patch(id, {
    fields: {
      tagline: 'Now with AI search',
      keywords: ['notes', 'teams'],
      founded_year: '2018',
      categories: ['developer-tools'],
    },
    faqs: [{ question: 'New?', answer: 'Yes.' }],
    milestones: [{ date: '2025-01-01', title: 'v2' }],
    story: { story: 'Updated story.' },
    company_socials: { x: 'https://x.com/acme' },
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().listing_id, listing_id);
  assert.deepEqual(
    res.json().milestones,
    [{ id: 1, date: '2025-01-01', title: 'v2' }],
    'a draft milestone has an id, as every Milestone (its position)',
  );
  const db = t.store.db;
  const l = await db.selectFrom('listings').selectAll().where('id', '=', listing_id).executeTakeFirstOrThrow();
  assert.equal(l.tagline, 'Now with AI search');
  assert.deepEqual(JSON.parse(l.keywords), ['notes', 'teams']);
  assert.equal(l.founded_year, 2018);
  assert.deepEqual(JSON.parse(l.faqs), [{ question: 'New?', answer: 'Yes.' }]);
  assert.deepEqual(JSON.parse(l.socials), { x: 'https://x.com/acme' });
  assert.equal(l.name, 'Acme Notes', 'fields not sent are untouched');
  const cat = await db
    .selectFrom('categories')
    .select('slug')
    .where('id', '=', l.primary_category_id!)
    .executeTakeFirstOrThrow();
  assert.equal(cat.slug, 'developer-tools');
  assert.deepEqual(
    (await db.selectFrom('milestones').select(['date', 'title']).where('listing_id', '=', listing_id).execute()).map(
      (r) => ({ ...r }),
    ),
    [{ date: '2025-01-01', title: 'v2' }],
  );
  assert.equal(
    (await db.selectFrom('stories').select('story').where('listing_id', '=', listing_id).executeTakeFirstOrThrow())
      .story,
    'Updated story.',
  );
  // Deleting the name on the draft never blanks the listing's name; a bad value changes nothing anywhere.
  await patch(id, { fields: { name: null } });
  assert.equal(
    (await db.selectFrom('listings').select('name').where('id', '=', listing_id).executeTakeFirstOrThrow()).name,
    'Acme Notes',
  );
  assert400(await patch(id, { fields: { tagline: 'Half written', country: 'XX' } }), 'body.fields.country');
  assert.equal(
    (await db.selectFrom('listings').select('tagline').where('id', '=', listing_id).executeTakeFirstOrThrow()).tagline,
    'Now with AI search',
  );
  // Without a name the draft cannot be submitted again.
  const noName = await api('POST', `/drafts/${id}/submit`);
  assert.equal(noName.statusCode, 409);
  assert.match(noName.json().error.message, /name/);
});

test("submitting again keeps what the listing's own operations added (milestones, story)", async () => {
  const fresh = await serveSite(productSite('Acme Notes'));
  sites.push(fresh);
  const id = await readyDraft(user.auth, fresh);
  await patch(id, { milestones: [{ date: '2024-01-10', title: 'Beta' }] });
  await ensureCategory(id);
  const { listing_id } = (await api('POST', `/drafts/${id}/submit`)).json();
  const own = (method: 'POST' | 'PUT', path: string, payload: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1/me/listings/${listing_id}${path}`,
      headers: user.auth,
      payload: payload as object,
    });
  assert.equal((await own('POST', '/milestones', { date: '2024-06-01', title: 'Launch day' })).statusCode, 201);
  assert.equal(
    (await own('PUT', '/story', { title: 'Why we built it', story: 'Written on the listing.' })).statusCode,
    200,
  );
  await patch(id, { fields: { tagline: 'Tagline after the listing edits' } });
  const again = await api('POST', `/drafts/${id}/submit`);
  assert.equal(again.statusCode, 200, again.body);
  const db = t.store.db;
  assert.equal(
    (await db.selectFrom('listings').select('tagline').where('id', '=', listing_id).executeTakeFirstOrThrow()).tagline,
    'Tagline after the listing edits',
  );
  const milestones = await db
    .selectFrom('milestones')
    .select(['date', 'title'])
    .where('listing_id', '=', listing_id)
    .orderBy('date')
    .execute();
  assert.deepEqual(
    milestones.map((m) => m.title),
    ['Beta', 'Launch day'],
  );
  assert.equal(
    (await db.selectFrom('stories').select('story').where('listing_id', '=', listing_id).executeTakeFirstOrThrow())
      .story,
    'Written on the listing.',
  );
});

test('a draft whose site could not be read is submitted once the maker types the profile', async () => {
  const res = await api('POST', '/drafts', { url: 'http://127.0.0.1:9/' });
  assert.equal(res.statusCode, 201);
  await drainJobs(t.server.deps, jobHandlers);
  const id = res.json().id;
  assert.equal((await api('GET', `/drafts/${id}`)).json().status, 'failed');
  const noName = await api('POST', `/drafts/${id}/submit`);
  assert.equal(noName.statusCode, 409);
  assert.match(noName.json().error.message, /type the profile yourself/);
  assert.equal((await patch(id, { fields: { name: 'Hand Typed', tagline: 'Typed by its maker' } })).statusCode, 200);
  const noCategory = await api('POST', `/drafts/${id}/submit`);
  assert400(noCategory, 'fields.categories', /primary category/);
  assert.equal((await patch(id, { fields: { categories: ['productivity'] } })).statusCode, 200);
  const sub = await api('POST', `/drafts/${id}/submit`);
  assert.equal(sub.statusCode, 200, sub.body);
  assert.ok(sub.json().listing_id >= 1);
  // The site was never read, so the listing claims nothing about what it does not state.
  const row = await t.store.db
    .selectFrom('listings')
    .select('not_found')
    .where('id', '=', sub.json().listing_id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(JSON.parse(row.not_found), []);
});
