// A draft's founders, links to profiles, FAQs, story and milestones on the website, as its signed-in
// maker: the draft page links /drafts/{id}/more, a form of those parts of update_draft prefilled from
// get_draft; saving sends only what changed (founders, FAQs, milestones and each map of links
// replaced whole, the story box by box); a refused value is a 400 page with the message by its own
// row, what was typed kept and nothing written; a submitted draft's listing is updated too. "Invite a
// co-founder" sends invite_cofounder (a mail with a link to add their profile; at most 10 a draft).
// Signed out → sign-in; another person's draft → 404; every form needs its CSRF token.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Browser, csrfOf, $ } from '../auth/browser.ts';
import { liveApp, type LiveApp } from '../auth/helpers.ts';
import { serveSite, productSite, type Site } from '../jobs/support/site.ts';
import { seedShop } from '../api/orders-fixtures.ts';
import { draftFromSite, formAsShown, signedInPerson, type Person } from './maker-support.ts';

let t: LiveApp;
let site: Site; // the product's website, read by the crawler (127.0.0.1 is on FETCH_ALLOW_HOSTS)

before(async () => {
  site = await serveSite(productSite('Acme Notes'));
  t = await liveApp({ FETCH_ALLOW_HOSTS: '127.0.0.1' }, async ({ db }) => {
    await seedShop(db);
  });
});
after(async () => {
  await t.cleanup();
  await site.close();
});

const person = () => signedInPerson(t);

const FOUNDERS = [
  { name: 'Ada Lovelace', title: 'CEO', bio: 'Wrote the first program.' },
  { name: 'Charles Babbage', title: 'CTO' },
];
const FAQS = [
  { question: 'Is there a free plan?', answer: 'Yes, for one user.' },
  { question: 'Can I export?', answer: 'As Markdown.' },
];
const COMPANY = { x: 'https://x.com/acmenotes', linkedin: 'https://www.linkedin.com/company/acmenotes' };
const FOUNDER_LINKS = { github: 'https://github.com/ada' };
const STORY = { title: 'How Acme began', story: 'Two friends lost their notes.', lessons: 'Ship early.' };
const MILESTONES = [
  { date: '2024-03-01', title: 'Launched', url: 'https://acme.example/launch' },
  { date: '2025-01-15', title: '1,000 teams', description: 'A party.' },
];

/** A ready draft of this person's (read from the site on loopback) with every part set through the API. */
async function fullDraft(p: Person): Promise<string> {
  const id = await draftFromSite(t, p.b, site.origin + '/');
  const d = await p.api('PATCH', `/drafts/${id}`, {
    founders: FOUNDERS,
    faqs: FAQS,
    company_socials: COMPANY,
    founder_socials: FOUNDER_LINKS,
    story: STORY,
    milestones: MILESTONES,
  });
  assert.equal(d.id, id, JSON.stringify(d).slice(0, 300));
  return id;
}

async function moreForm(
  b: Browser,
  id: string,
  changes: Record<string, string | null> = {},
): Promise<Record<string, string>> {
  const page = await b.go(`/drafts/${id}/more`);
  assert.equal(page.res.status, 200, page.text.slice(0, 300));
  return formAsShown(page.text, '#more-form', changes);
}

/** The parts of get_draft this page writes. */
const partsOf = (d: any) => ({
  founders: d.founders,
  faqs: d.faqs,
  company_socials: d.company_socials,
  founder_socials: d.founder_socials,
  story: d.story,
  milestones: d.milestones,
  updated_at: d.updated_at,
});

test('signed out: the page sends the person to sign in and back; a post changes nothing', async () => {
  const anon = new Browser(t.base);
  const uuid = '00000000-0000-4000-8000-000000000000';
  const get = await anon.request(`/drafts/${uuid}/more`);
  assert.equal(get.status, 303);
  assert.equal(get.headers.get('location'), `/sign-in?next=${encodeURIComponent(`/drafts/${uuid}/more`)}`);
  const post = await anon.request(`/drafts/${uuid}/more`, { form: { 'founder-name-0': 'Nobody' } });
  assert.equal(post.status, 303);
  assert.match(post.headers.get('location')!, /^\/sign-in\?next=/);
});

test('the draft page links the page; it shows the draft’s founders, links, FAQs, story and milestones as get_draft has them, every control labelled', async () => {
  const p = await person();
  const id = await fullDraft(p);
  const draft = $((await p.b.go(`/drafts/${id}`)).text);
  assert.equal(draft(`#draft-more a[href="/drafts/${id}/more"]`).length, 1, 'linked from the draft page');
  assert.doesNotMatch(draft('main').text(), /through the API/);

  const page = await p.b.go(`/drafts/${id}/more`);
  assert.equal(page.res.status, 200);
  assert.equal(page.res.headers.get('cache-control'), 'private, no-store');
  assert.equal($(page.text)('meta[name=robots]').attr('content'), 'noindex');
  const $m = $(page.text);
  assert.equal($m('#dm-founder-0-name').attr('value'), 'Ada Lovelace');
  assert.equal($m('#dm-founder-0-title').attr('value'), 'CEO');
  assert.equal($m('#dm-founder-0-bio').text(), 'Wrote the first program.');
  assert.match($m('#founder-0 legend').text(), /primary/);
  assert.equal($m('#dm-founder-1-name').attr('value'), 'Charles Babbage');
  assert.equal($m('#founders fieldset').length, 5, 'two founders and three empty rows');
  assert.equal($m('#dm-csocial-0-platform option[selected]').attr('value'), 'x');
  assert.equal($m('#dm-csocial-1-link').attr('value'), COMPANY.linkedin);
  assert.equal($m('#dm-fsocial-0-platform option[selected]').attr('value'), 'github');
  assert.equal($m('#dm-faq-1-answer').text(), 'As Markdown.');
  assert.equal($m('#s-title').attr('value'), STORY.title);
  assert.equal($m('#s-lessons').text(), STORY.lessons);
  assert.equal($m('#s-problem').text(), '');
  assert.equal($m('#dm-milestone-0-date').attr('value'), '2024-03-01');
  assert.equal($m('#dm-milestone-1-description').text(), 'A party.');
  assert.equal($m('#dm-milestone-0-url').attr('value'), MILESTONES[0].url);
  for (const el of $m('#more-form input:not([type=hidden]), #more-form select, #more-form textarea').toArray()) {
    const cid = $m(el).attr('id');
    assert.ok(cid && $m(`label[for="${cid}"]`).length === 1, `control ${cid ?? $m(el).attr('name')} has a label`);
  }
  assert.equal($m('#draft-listing').length, 0, 'not saved as a listing yet');
});

test('founders are saved in order, the first primary; an unchanged form sends nothing and says so', async () => {
  const p = await person();
  const id = await fullDraft(p);
  const form = await moreForm(p.b, id, {
    'founder-name-0': 'Grace Hopper',
    'founder-title-0': 'Founder',
    'founder-bio-0': '', // the primary founder replaced
    'founder-name-1': '',
    'founder-title-1': '',
    'founder-bio-1': '', // removed
    'founder-name-3': 'Charles Babbage',
    'founder-title-3': 'Engineer', // added after an empty row
  });
  const res = await p.b.request(`/drafts/${id}/more`, { form });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), `/drafts/${id}/more?notice=saved`);
  const d = await p.api('GET', `/drafts/${id}`);
  assert.deepEqual(
    d.founders.map((f: any) => [f.name, f.title ?? null, f.bio ?? null]),
    [
      ['Grace Hopper', 'Founder', null],
      ['Charles Babbage', 'Engineer', null],
    ],
  );
  assert.deepEqual(partsOf(d).faqs, FAQS, 'the other parts were not sent');
  const $m = $((await p.b.go(`/drafts/${id}/more?notice=saved`)).text);
  assert.match($m('.flash.success').text(), /saved/);
  assert.equal($m('#dm-founder-0-name').attr('value'), 'Grace Hopper');
  assert.match($m('#founder-0 legend').text(), /primary/);
  assert.equal($m('#dm-founder-1-name').attr('value'), 'Charles Babbage');

  const before = partsOf(await p.api('GET', `/drafts/${id}`));
  const same = await p.b.request(`/drafts/${id}/more`, { form: await moreForm(p.b, id) });
  assert.equal(same.headers.get('location'), `/drafts/${id}/more?notice=unchanged`);
  assert.deepEqual(partsOf(await p.api('GET', `/drafts/${id}`)), before, 'nothing was written');
  assert.match($((await p.b.go(same.headers.get('location')!)).text)('.flash.info').text(), /Nothing changed/);
});

test('FAQs and both maps of links are replaced whole: edited, removed and added rows', async () => {
  const p = await person();
  const id = await fullDraft(p);
  const res = await p.b.request(`/drafts/${id}/more`, {
    form: await moreForm(p.b, id, {
      'faq-question-0': '',
      'faq-answer-0': '', // removed
      'faq-answer-1': 'As Markdown or HTML.', // edited
      'faq-question-3': 'Is it encrypted?',
      'faq-answer-3': 'End to end.', // added (row 2 left empty)
      'company-social-link-1': '', // linkedin removed
      'company-social-platform-3': 'github',
      'company-social-link-3': 'https://github.com/acmenotes', // added
      'founder-social-platform-1': 'x',
      'founder-social-link-1': 'https://x.com/ada',
    }),
  });
  assert.equal(res.status, 303);
  const d = await p.api('GET', `/drafts/${id}`);
  assert.deepEqual(
    d.faqs.map((q: any) => ({ question: q.question, answer: q.answer })),
    [
      { question: 'Can I export?', answer: 'As Markdown or HTML.' },
      { question: 'Is it encrypted?', answer: 'End to end.' },
    ],
  );
  assert.deepEqual(d.company_socials, { x: COMPANY.x, github: 'https://github.com/acmenotes' });
  assert.deepEqual(d.founder_socials, { github: FOUNDER_LINKS.github, x: 'https://x.com/ada' });
  assert.equal(d.founders.length, 2, 'founders were not sent');
  const $m = $((await p.b.go(`/drafts/${id}/more`)).text);
  assert.equal($m('#dm-faq-1-question').attr('value'), 'Is it encrypted?');
  assert.equal($m('#faqs .faq-row').length, 5);
});

test('the story is saved box by box (an emptied box is cleared); milestones are replaced whole', async () => {
  const p = await person();
  const id = await fullDraft(p);
  const res = await p.b.request(`/drafts/${id}/more`, {
    form: await moreForm(p.b, id, {
      story: 'Two friends lost their notes, twice.',
      lessons: '',
      problem: 'Notes scattered everywhere.',
      'milestone-title-0': 'Public launch', // edited
      'milestone-date-1': '',
      'milestone-title-1': '',
      'milestone-description-1': '', // removed
      'milestone-date-2': '2026-06-01',
      'milestone-title-2': 'Version 2',
      'milestone-description-2': 'Offline sync.', // added
    }),
  });
  assert.equal(res.status, 303);
  const d = await p.api('GET', `/drafts/${id}`);
  assert.deepEqual(
    { ...d.story },
    { title: STORY.title, story: 'Two friends lost their notes, twice.', problem: 'Notes scattered everywhere.' },
  );
  assert.deepEqual(
    d.milestones.map((m: any) => [m.date, m.title, m.description ?? null, m.url ?? null]),
    [
      ['2024-03-01', 'Public launch', null, MILESTONES[0].url],
      ['2026-06-01', 'Version 2', 'Offline sync.', null],
    ],
  );
  const $m = $((await p.b.go(`/drafts/${id}/more`)).text);
  assert.equal($m('#s-problem').text(), 'Notes scattered everywhere.');
  assert.equal($m('#s-lessons').text(), '');
  assert.equal($m('#dm-milestone-1-title').attr('value'), 'Version 2');
});

test('a refused value: 400, the message by its own row, what was typed kept, nothing written', async () => {
  const p = await person();
  const id = await fullDraft(p);
  const before = partsOf(await p.api('GET', `/drafts/${id}`));

  // A founder without a name (row 3; row 2 is empty), a question without its answer.
  const nameless = await p.b.go(`/drafts/${id}/more`, {
    form: await moreForm(p.b, id, {
      'founder-title-3': 'Designer',
      'founder-bio-3': 'Draws things.',
      'faq-question-2': 'No answer yet?',
      story: 'A new story',
    }),
  });
  assert.equal(nameless.res.status, 400);
  const $n = $(nameless.text);
  assert.match($n('#dm-founder-3-name-error').text(), /must not be empty/);
  assert.equal($n('#dm-founder-3-name').attr('aria-invalid'), 'true');
  assert.equal($n('#dm-founder-2-name').attr('aria-invalid'), undefined);
  assert.equal($n('#dm-founder-3-title').attr('value'), 'Designer', 'what was typed is kept');
  assert.equal($n('#dm-founder-3-bio').text(), 'Draws things.');
  assert.match($n('#dm-faq-2-answer-error').text(), /must not be empty/);
  assert.equal($n('#s-story').text(), 'A new story');
  assert.match($n('#form-problems').text(), /Nothing was saved/);
  assert.equal($n('#form-problems a[href="#dm-founder-3-name"]').text(), 'Founder name 4');

  // The operation's own refusals: an over-long answer (FAQ 1 is sent as faqs.0), a date that is no date.
  const refused = await p.b.go(`/drafts/${id}/more`, {
    form: await moreForm(p.b, id, {
      'faq-question-0': '',
      'faq-answer-0': '',
      'faq-answer-1': 'x'.repeat(1501),
      'milestone-date-2': '2026-02-30',
      'milestone-title-2': 'Leap day',
    }),
  });
  assert.equal(refused.res.status, 400);
  const $r = $(refused.text);
  assert.match($r('#dm-faq-1-answer-error').text(), /1500/, 'faqs.0.answer is row 1 of the form');
  assert.equal($r('#dm-faq-1-answer').attr('aria-invalid'), 'true');
  assert.equal($r('#dm-faq-1-answer').text(), 'x'.repeat(1501));
  assert.equal($r('#dm-faq-0-question').attr('value'), '', 'the emptied row stays empty');
  assert.match($r('#dm-milestone-2-date-error').text(), /calendar date/);
  assert.equal($r('#dm-milestone-2-title').attr('value'), 'Leap day');

  // A link that is no http(s) link, by its row of the founders' links.
  const link = await p.b.go(`/drafts/${id}/more`, {
    form: await moreForm(p.b, id, { 'founder-social-platform-1': 'x', 'founder-social-link-1': 'ftp://x.com/ada' }),
  });
  assert.equal(link.res.status, 400);
  const $l = $(link.text);
  assert.match($l('#dm-fsocial-1-link-error').text(), /http or https/, 'founder_socials.x is its row');
  assert.equal($l('#form-problems a[href="#dm-fsocial-1-link"]').text(), 'Founder link 2 (X (Twitter))');
  assert.equal($l('#dm-csocial-1-link').attr('aria-invalid'), undefined, "the company's links are another group");
  assert.deepEqual(partsOf(await p.api('GET', `/drafts/${id}`)), before, 'nothing was written');
});

test('a draft saved as a listing: the page says the listing is updated too, and it is', async () => {
  const p = await person();
  const id = await fullDraft(p);
  await p.api('PATCH', `/drafts/${id}`, { fields: { categories: ['Productivity'] } });
  const listingId = (await p.api('POST', `/drafts/${id}/submit`)).listing_id;
  assert.ok(listingId > 0);
  const $m = $((await p.b.go(`/drafts/${id}/more`)).text);
  assert.match($m('#draft-listing').text(), /update it too/);
  assert.equal($m(`#draft-listing a[href="/my/listings/${listingId}"]`).length, 1);

  const res = await p.b.request(`/drafts/${id}/more`, {
    form: await moreForm(p.b, id, {
      'faq-question-2': 'Is there an app?',
      'faq-answer-2': 'For iOS and Android.',
      'founder-name-2': 'Grace Hopper',
    }),
  });
  assert.equal(res.status, 303);
  const l = await p.api('GET', `/me/listings/${listingId}`);
  assert.deepEqual(
    l.faqs.map((q: any) => q.question),
    [...FAQS.map((q) => q.question), 'Is there an app?'],
  );
  assert.deepEqual(
    l.founders.map((f: any) => f.name),
    ['Ada Lovelace', 'Charles Babbage', 'Grace Hopper'],
  );
});

test("forms without their CSRF token are refused and change nothing; another person's draft is the 404 page", async () => {
  const owner = await person();
  const other = await person();
  const id = await fullDraft(owner);
  const before = partsOf(await owner.api('GET', `/drafts/${id}`));

  const noToken = await owner.b.go(`/drafts/${id}/more`, {
    form: { ...(await moreForm(owner.b, id, { 'founder-name-0': 'No token' })), _csrf: '' },
  });
  assert.equal(noToken.res.status, 403);
  assert.match($(noToken.text)('h1').text(), /expired/);
  assert.deepEqual(partsOf(await owner.api('GET', `/drafts/${id}`)), before);

  const page = await other.b.go(`/drafts/${id}/more`);
  assert.equal(page.res.status, 404);
  assert.equal($(page.text)('h1').text(), 'Page not found');
  const csrf = csrfOf((await other.b.go('/drafts')).text, '/sign-out');
  const post = await other.b.go(`/drafts/${id}/more`, {
    form: { ...(await moreForm(owner.b, id, { 'founder-name-0': 'Hijacked' })), _csrf: csrf },
  });
  assert.equal(post.res.status, 404);
  assert.deepEqual(partsOf(await owner.api('GET', `/drafts/${id}`)), before, 'nothing was written');
});

/** The mails in the outbox to an address, newest first. */
const mailsTo = (to: string) =>
  t.store.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id', 'desc').execute();

async function inviteForm(b: Browser, id: string, email: string): Promise<Record<string, string>> {
  const page = await b.go(`/drafts/${id}/more`);
  return { ...formAsShown(page.text, '#invite-form'), email };
}

test('invite a co-founder: the mail with a link to add their profile is sent, the page says so; the same address again is a fresh link, not a second invite', async () => {
  const p = await person();
  const id = await fullDraft(p);
  const page = $((await p.b.go(`/drafts/${id}/more`)).text);
  assert.equal(page('#invite-h').text(), 'Invite a co-founder');
  assert.equal(page('#founders-hint a[href="#invite-h"]').length, 1, 'the founders part points to it');
  assert.equal(page('label[for="invite-email"]').text(), 'Their email address');
  assert.equal(page('#invite-email').attr('type'), 'email');
  assert.match(page('#invite-hint').text(), /At most 10 invites/);
  assert.equal(page('#more-form #invite-email').length, 0, 'its own form, not part of "Save changes"');

  const res = await p.b.request(`/drafts/${id}/invites`, { form: await inviteForm(p.b, id, ' bob@acme.example ') });
  assert.equal(res.status, 303);
  assert.equal(
    res.headers.get('location'),
    `/drafts/${id}/more?notice=invite-queued`,
    'without SMTP the mail waits in the outbox',
  );
  const after = $((await p.b.go(res.headers.get('location')!)).text);
  assert.match(after('.flash.success').text(), /invite is written and queued to be emailed/);
  assert.equal(after('#invite-email').attr('value'), '', 'the box is empty for the next one');

  const [mail] = await mailsTo('bob@acme.example');
  assert.ok(mail, 'a mail to the co-founder');
  assert.match(mail.subject, /invited you to add your profile to Acme Notes/);
  const link = new URL(/https?:\/\/\S+\/invites\/[A-Za-z0-9_-]+/.exec(mail.text)![0]);
  const invitePage = await new Browser(t.base).go(link.pathname);
  assert.equal(invitePage.res.status, 200, 'the link opens the page to add a profile');
  assert.match($(invitePage.text)('main').text(), /bob@acme\.example[\s\S]*Acme Notes/);

  const again = await p.b.request(`/drafts/${id}/invites`, { form: await inviteForm(p.b, id, 'BOB@acme.example') });
  assert.equal(again.headers.get('location'), `/drafts/${id}/more?notice=invite-resent`);
  assert.match($((await p.b.go(again.headers.get('location')!)).text)('.flash.success').text(), /fresh invite/);
  assert.equal((await p.b.go(link.pathname)).res.status, 404, 'the earlier link no longer works');
  assert.equal(
    (await t.store.db.selectFrom('draft_invites').select('id').where('draft_id', '=', id).execute()).length,
    1,
    'still one invite',
  );
});

test('an 11th invite, or an address that is none: refused by the box with the rule, what was typed kept, no mail sent', async () => {
  const p = await person();
  const id = await fullDraft(p);
  for (let i = 1; i <= 10; i++)
    assert.equal(
      (await p.api('POST', `/drafts/${id}/invites`, { email: `cofounder${i}@acme.example` })).email,
      `cofounder${i}@acme.example`,
    );

  const eleventh = await p.b.go(`/drafts/${id}/invites`, { form: await inviteForm(p.b, id, 'eleven@acme.example') });
  assert.equal(eleventh.res.status, 400);
  const $e = $(eleventh.text);
  assert.match($e('#form-problems').text(), /The invite was not sent/);
  assert.match($e('#invite-email-error').text(), /at most 10 invites; this draft already has 10/);
  assert.equal($e('#invite-email').attr('aria-invalid'), 'true');
  assert.equal($e('#invite-email').attr('value'), 'eleven@acme.example', 'what was typed stays in the box');
  assert.equal($e('#form-problems a[href="#invite-email"]').text(), 'Their email address');
  assert.equal((await mailsTo('eleven@acme.example')).length, 0, 'no mail');
  // The rest of the page shows the draft as it is.
  assert.equal($e('#dm-founder-0-name').attr('value'), 'Ada Lovelace');

  const other = await person();
  const id2 = await fullDraft(other);
  const bad = await other.b.go(`/drafts/${id2}/invites`, { form: await inviteForm(other.b, id2, 'not an address') });
  assert.equal(bad.res.status, 400);
  assert.match($(bad.text)('#invite-email-error').text(), /email/i);
  assert.equal($(bad.text)('#invite-email').attr('value'), 'not an address');
  assert.equal(
    (await t.store.db.selectFrom('draft_invites').select('id').where('draft_id', '=', id2).execute()).length,
    0,
  );
});

test("an invite post signed out → sign-in; without its CSRF token → 403; for another person's draft → 404; none sends a mail", async () => {
  const owner = await person();
  const id = await fullDraft(owner);
  const anon = new Browser(t.base);
  const out = await anon.request(`/drafts/${id}/invites`, { form: { email: 'anon@acme.example' } });
  assert.equal(out.status, 303);
  assert.equal(out.headers.get('location'), `/sign-in?next=${encodeURIComponent(`/drafts/${id}/more`)}`);

  const noToken = await owner.b.go(`/drafts/${id}/invites`, {
    form: { ...(await inviteForm(owner.b, id, 'notoken@acme.example')), _csrf: '' },
  });
  assert.equal(noToken.res.status, 403);
  assert.match($(noToken.text)('h1').text(), /expired/);

  const other = await person();
  const csrf = csrfOf((await other.b.go('/drafts')).text, '/sign-out');
  const theirs = await other.b.go(`/drafts/${id}/invites`, { form: { _csrf: csrf, email: 'hijack@acme.example' } });
  assert.equal(theirs.res.status, 404);

  for (const to of ['anon@acme.example', 'notoken@acme.example', 'hijack@acme.example'])
    assert.equal((await mailsTo(to)).length, 0, to);
  assert.equal(
    (await t.store.db.selectFrom('draft_invites').select('id').where('draft_id', '=', id).execute()).length,
    0,
    'no invite',
  );
});
