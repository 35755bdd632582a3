// Editing a saved listing on the website, as its signed-in maker: /my/listings/{id}/edit is a form
// of everything update_my_listing edits, prefilled; saving sends only what changed (an unchanged
// form sends nothing and says so), FAQs and socials are replaced whole; a refused value is a 400 page
// naming the field (a FAQ or a link by its own row) with what was typed kept and nothing written.
// /my/listings/{id}/story writes the founder story and says whether the public sees it;
// /my/listings/{id}/milestones adds and deletes milestones; /my/interview answers the founder
// interview. Signed out → sign-in; another person's listing → 404; every form needs its CSRF token.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Browser, csrfOf, $ } from '../auth/browser.ts';
import { liveApp, type LiveApp } from '../auth/helpers.ts';
import { seedShop, ownListing } from '../api/orders-fixtures.ts';
import { toJson } from '../../src/store/json.ts';
import { formAsShown, signedInPerson } from './maker-support.ts';

let t: LiveApp;
const QUESTIONS = [
  'What problem made you start your company?',
  'Who is your product for?',
  'What would you do differently?',
];

before(async () => {
  t = await liveApp({}, async ({ db }) => {
    await seedShop(db);
    await db
      .insertInto('interview_questions')
      .values(QUESTIONS.map((text, i) => ({ position: i + 1, text, active: true })))
      .execute();
  });
});
after(async () => {
  await t.cleanup();
});

const person = () => signedInPerson(t);

const SOCIALS = { x: 'https://x.com/fullco', linkedin: 'https://www.linkedin.com/company/fullco' };
const FAQS = [
  { question: 'Is there a free plan?', answer: 'Yes, for one user.' },
  { question: 'Can I export?', answer: 'As Markdown.' },
];

/** A live listing of this person's with something in most of its fields. */
async function fullListing(userId: number, slug: string, o: { unlocked?: string[] } = {}): Promise<number> {
  const id = await ownListing(t.store.db, userId, {
    slug,
    name: 'Full Co',
    status: 'live',
    plan: o.unlocked ? 'paid' : 'free',
    unlocked: o.unlocked,
  });
  await t.store.db
    .updateTable('listings')
    .set({
      tagline: 'Notes for busy teams',
      city: 'Berlin',
      country: 'DE',
      founded_year: 2019,
      contact_email: 'hello@fullco.example',
      pricing_summary: 'From $8 a month',
      features: toJson(['Shared notebooks', 'Offline sync']),
      keywords: toJson(['notes']),
      headline: 'The notes app',
      seo_title: 'Full Co — notes',
      socials: toJson(SOCIALS),
      faqs: toJson(FAQS),
    })
    .where('id', '=', id)
    .execute();
  return id;
}

async function editForm(
  b: Browser,
  id: number,
  changes: Record<string, string | null> = {},
): Promise<Record<string, string>> {
  const page = await b.go(`/my/listings/${id}/edit`);
  assert.equal(page.res.status, 200, page.text.slice(0, 300));
  return formAsShown(page.text, '#edit-form', changes);
}

const versionsOf = (id: number) =>
  t.store.db.selectFrom('listing_versions').selectAll().where('listing_id', '=', id).orderBy('id').execute();
/** get_my_listing without what changes on every write. */
const settled = (l: any) => ({
  ...l,
  updated_at: undefined,
  next_steps: undefined,
  last_badge_check: undefined,
  views: undefined,
});

test('signed out: the edit pages send the person to sign in and back; a post changes nothing', async () => {
  const owner = await person();
  const id = await fullListing(owner.user.id, 'signed-out-co');
  const anon = new Browser(t.base);
  for (const path of [
    `/my/listings/${id}/edit`,
    `/my/listings/${id}/story`,
    `/my/listings/${id}/milestones`,
    '/my/interview',
  ]) {
    const r = await anon.request(path);
    assert.equal(r.status, 303, path);
    assert.equal(r.headers.get('location'), `/sign-in?next=${encodeURIComponent(path)}`, path);
  }
  const post = await anon.request(`/my/listings/${id}/edit`, { form: { tagline: 'Anonymous' } });
  assert.equal(post.status, 303);
  assert.equal(post.headers.get('location'), `/sign-in?next=${encodeURIComponent(`/my/listings/${id}/edit`)}`);
  assert.equal((await owner.api('GET', `/me/listings/${id}`)).tagline, 'Notes for busy teams');
});

test('the listing page links the edit pages and /my/listings the interview; the edit form shows the listing as it is, every control labelled', async () => {
  const { b, user } = await person();
  const id = await fullListing(user.id, 'prefilled-co');
  const $l = $((await b.go(`/my/listings/${id}`)).text);
  assert.equal($l('#edit-link').attr('href'), `/my/listings/${id}/edit`);
  assert.equal($l('#story-link').attr('href'), `/my/listings/${id}/story`);
  assert.equal($l('#milestones-link').attr('href'), `/my/listings/${id}/milestones`);
  assert.match($l('#edit').text(), /not shown publicly yet/, 'a free listing: the story is not public');
  assert.equal($((await b.go('/my/listings')).text)('main a[href="/my/interview"]').length, 1);

  const page = await b.go(`/my/listings/${id}/edit`);
  assert.equal(page.res.status, 200);
  assert.equal(page.res.headers.get('cache-control'), 'private, no-store');
  const $e = $(page.text);
  assert.equal($e('meta[name=robots]').attr('content'), 'noindex');
  assert.equal($e('h1').text(), 'Edit Full Co');
  assert.equal($e('#e-tagline').attr('value'), 'Notes for busy teams');
  assert.equal($e('#e-city').attr('value'), 'Berlin');
  assert.equal($e('#e-founded_year').attr('value'), '2019');
  assert.equal($e('#e-pricing_model').attr('value'), 'Freemium', 'pricing.model of get_my_listing');
  assert.equal($e('#e-pricing_summary').attr('value'), 'From $8 a month');
  assert.equal($e('#e-seo_title').attr('value'), 'Full Co — notes', 'seo.title of get_my_listing');
  assert.equal($e('#e-features').text(), 'Shared notebooks\nOffline sync', 'a list, one item a line');
  assert.equal($e('#e-description').text(), 'The prefilled-co product.');
  assert.equal($e('#e-summary').text(), '', 'an empty field is an empty box');
  assert.equal($e('#e-social-0-platform option[selected]').attr('value'), 'x');
  assert.equal($e('#e-social-0-link').attr('value'), SOCIALS.x);
  assert.equal($e('#e-social-1-platform option[selected]').attr('value'), 'linkedin');
  assert.equal($e('#socials .edit-row').length, 5, 'the two links and three empty rows');
  assert.equal($e('#e-faq-1-question').attr('value'), 'Can I export?');
  assert.equal($e('#e-faq-1-answer').text(), 'As Markdown.');
  assert.equal($e('#faqs .faq-row').length, 5, 'the two FAQs and three empty rows');
  assert.equal(
    $e('#apply-to-note a').attr('href'),
    '/docs#/My%20listings/update_my_listing',
    'apply_to is left to the API',
  );
  assert.equal($e('#edit-form [name=apply_to]').length, 0);
  const controls = $e('#edit-form input:not([type=hidden]), #edit-form select, #edit-form textarea').toArray();
  assert.equal(controls.length, 17 + 5 * 2 + 5 * 2, 'every field, socials and FAQs');
  for (const el of controls)
    assert.equal($e(`label[for="${$e(el).attr('id')}"]`).length, 1, `a label for ${$e(el).attr('name')}`);
});

test('changing the tagline publishes it and sends nothing else; an unchanged form posts nothing and says so; an emptied field is cleared', async () => {
  const { b, user, api } = await person();
  const id = await fullListing(user.id, 'tagline-co');
  const before = await api('GET', `/me/listings/${id}`);
  const res = await b.request(`/my/listings/${id}/edit`, {
    form: await editForm(b, id, { tagline: 'Notes that <b>write</b> themselves' }),
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), `/my/listings/${id}/edit?notice=saved`);
  const page = $((await b.go(res.headers.get('location')!)).text);
  assert.match(page('.flash.success').text(), /published/);
  assert.equal(page('#e-tagline').attr('value'), 'Notes that <b>write</b> themselves');

  assert.equal(
    (await api('GET', '/listings/tagline-co')).tagline,
    'Notes that <b>write</b> themselves',
    'the public listing shows it at once',
  );
  const after = await api('GET', `/me/listings/${id}`);
  assert.deepEqual(settled({ ...after, tagline: before.tagline }), settled(before), 'every other field is as it was');
  const versions = await versionsOf(id);
  assert.equal(versions.length, 1);
  assert.deepEqual(Object.keys(JSON.parse(String(versions[0].after))), ['tagline'], 'only the tagline was sent');

  const same = await b.request(`/my/listings/${id}/edit`, { form: await editForm(b, id) });
  assert.equal(same.headers.get('location'), `/my/listings/${id}/edit?notice=unchanged`);
  assert.match($((await b.go(same.headers.get('location')!)).text)('.flash.info').text(), /Nothing changed/);
  assert.equal((await versionsOf(id)).length, 1, 'no version written');

  await b.request(`/my/listings/${id}/edit`, { form: await editForm(b, id, { city: '', keywords: '' }) });
  const cleared = await api('GET', `/me/listings/${id}`);
  assert.equal(cleared.city, null);
  assert.deepEqual(cleared.keywords, []);
  assert.equal(cleared.country, 'DE');
});

test('a field changed elsewhere while the form was open keeps its newer value unless the person changed it too', async () => {
  const { b, user, api } = await person();
  const id = await fullListing(user.id, 'meanwhile-co');
  const form = await editForm(b, id, { tagline: 'Typed on the page' });
  // Meanwhile (another tab, the API): the city, a FAQ and a link change.
  await t.store.db
    .updateTable('listings')
    .set({ city: 'Hamburg', faqs: toJson([FAQS[0]]), socials: toJson({ x: 'https://x.com/fullco' }) })
    .where('id', '=', id)
    .execute();
  const res = await b.request(`/my/listings/${id}/edit`, { form });
  assert.equal(res.status, 303);
  const after = await api('GET', `/me/listings/${id}`);
  assert.equal(after.tagline, 'Typed on the page');
  assert.equal(
    after.city,
    'Hamburg',
    'the city the form showed as Berlin, untouched by the person, is not written back',
  );
  assert.deepEqual(after.faqs, [FAQS[0]], 'nor are the FAQs');
  assert.deepEqual(after.socials, { x: 'https://x.com/fullco' }, 'nor the links');
  // Changed on the page too: the person's value wins, as they saw and chose it.
  const again = await editForm(b, id);
  await t.store.db.updateTable('listings').set({ city: 'Munich' }).where('id', '=', id).execute();
  await b.request(`/my/listings/${id}/edit`, { form: { ...again, city: 'Leipzig' } });
  assert.equal((await api('GET', `/me/listings/${id}`)).city, 'Leipzig');
});

test('an over-long tagline: 400, the message by the tagline, what was typed kept, nothing written', async () => {
  const { b, user, api } = await person();
  const id = await fullListing(user.id, 'too-long-co');
  const before = await api('GET', `/me/listings/${id}`);
  const long = 'x'.repeat(201);
  const bad = await b.go(`/my/listings/${id}/edit`, {
    form: await editForm(b, id, { tagline: long, city: 'Hamburg' }),
  });
  assert.equal(bad.res.status, 400);
  const $b = $(bad.text);
  assert.match($b('#e-tagline-error').text(), /200/);
  assert.equal($b('#e-tagline').attr('aria-invalid'), 'true');
  assert.equal($b('#e-tagline').attr('aria-describedby'), 'e-tagline-error');
  assert.equal($b('#e-tagline').attr('value'), long, 'what was typed stays in the field');
  assert.equal($b('#e-city').attr('value'), 'Hamburg', 'the other edits stay on the form');
  assert.match($b('#form-problems').text(), /Nothing was saved/);
  assert.equal($b('#form-problems a[href="#e-tagline"]').text(), 'Tagline');
  assert.deepEqual(settled(await api('GET', `/me/listings/${id}`)), settled(before), 'nothing was written');
  assert.equal((await versionsOf(id)).length, 0);
});

test('FAQs and socials are replaced whole: edited, removed and added rows', async () => {
  const { b, user, api } = await person();
  const id = await fullListing(user.id, 'replace-co');
  const form = await editForm(b, id, {
    'faq-question-0': '',
    'faq-answer-0': '', // removed
    'faq-answer-1': 'As Markdown or HTML.', // edited
    'faq-question-3': 'Is it encrypted?',
    'faq-answer-3': 'End to end.', // added (row 2 left empty)
    'social-link-1': '', // linkedin removed
    'social-platform-3': 'github',
    'social-link-3': 'https://github.com/fullco', // added
  });
  const res = await b.request(`/my/listings/${id}/edit`, { form });
  assert.equal(res.status, 303);
  const l = await api('GET', `/me/listings/${id}`);
  assert.deepEqual(l.faqs, [
    { question: 'Can I export?', answer: 'As Markdown or HTML.' },
    { question: 'Is it encrypted?', answer: 'End to end.' },
  ]);
  assert.deepEqual(l.socials, { x: SOCIALS.x, github: 'https://github.com/fullco' });
  const pub = await api('GET', '/listings/replace-co');
  assert.deepEqual(pub.faqs, l.faqs);
  assert.deepEqual(pub.socials, l.socials);
  const $e = $((await b.go(`/my/listings/${id}/edit`)).text);
  assert.equal($e('#e-faq-1-question').attr('value'), 'Is it encrypted?');
  assert.equal($e('#faqs .faq-row').length, 5);
});

test('a refused FAQ or link is shown by its own row (400) and nothing is written', async () => {
  const { b, user, api } = await person();
  const id = await fullListing(user.id, 'rows-co');
  const before = await api('GET', `/me/listings/${id}`);
  const bad = await b.go(`/my/listings/${id}/edit`, {
    form: await editForm(b, id, {
      'faq-question-0': '',
      'faq-answer-0': '', // removed: the next FAQs are sent one place earlier
      'faq-question-3': 'No answer yet?', // row 3 is sent as faqs.1 (row 2 is empty)
      'social-platform-2': 'github',
      'social-link-2': 'ftp://github.com/fullco',
      'social-link-4': 'https://example.com/no-platform',
    }),
  });
  assert.equal(bad.res.status, 400);
  const $b = $(bad.text);
  assert.match($b('#e-social-4-platform-error').text(), /choose the platform/, 'the page asks for the platform first');
  assert.equal($b('#e-faq-3-answer').length, 1);
  assert.equal($b('#e-faq-3-question').attr('value'), 'No answer yet?');

  const refused = await b.go(`/my/listings/${id}/edit`, {
    form: await editForm(b, id, {
      'faq-question-0': '',
      'faq-answer-0': '',
      'faq-question-3': 'No answer yet?',
      'social-platform-2': 'github',
      'social-link-2': 'ftp://github.com/fullco',
    }),
  });
  assert.equal(refused.res.status, 400);
  const $r = $(refused.text);
  assert.match($r('#e-faq-3-answer-error').text(), /must not be empty/, 'faqs.1.answer is row 3 of the form');
  assert.equal($r('#e-faq-3-answer').attr('aria-invalid'), 'true');
  assert.equal($r('#e-faq-2-answer').attr('aria-invalid'), undefined);
  assert.match($r('#e-social-2-link-error').text(), /http or https/, 'socials.github is the GitHub row');
  assert.equal($r('#e-social-2-link').attr('value'), 'ftp://github.com/fullco');
  assert.equal($r('#form-problems a[href="#e-faq-3-answer"]').text(), 'Answer 4');
  assert.deepEqual(settled(await api('GET', `/me/listings/${id}`)), settled(before), 'nothing was written');
});

test('the founder story: saved from the form, prefilled after; the page says whether the public sees it', async () => {
  const { b, user, api } = await person();
  const id = await fullListing(user.id, 'story-free-co');
  const page = await b.go(`/my/listings/${id}/story`);
  assert.equal(page.res.status, 200);
  assert.equal($(page.text)('#story-visibility').attr('data-shown'), 'no');
  assert.match($(page.text)('#story-visibility').text(), /Not shown publicly yet/);
  const form = formAsShown(page.text, '#story-form', {
    title: 'How <i>we</i> started',
    why_started: 'Our notes were a mess.',
    lessons: 'Ship early.',
  });
  const res = await b.request(`/my/listings/${id}/story`, { form });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), `/my/listings/${id}/story?notice=saved`);
  const story = (await api('GET', `/me/listings/${id}`)).story;
  assert.equal(story.title, 'How <i>we</i> started');
  assert.equal(story.why_started, 'Our notes were a mess.');
  assert.equal(story.lessons, 'Ship early.');
  assert.equal(story.problem, null);
  assert.equal((await api('GET', '/listings/story-free-co')).story, undefined, 'not public on a free listing');
  const after = $((await b.go(`/my/listings/${id}/story`)).text);
  assert.equal(after('#s-title').attr('value'), 'How <i>we</i> started');
  assert.equal(after('#s-why_started').text(), 'Our notes were a mess.');

  // Emptying a part removes it (the story is replaced whole).
  await b.request(`/my/listings/${id}/story`, {
    form: formAsShown((await b.go(`/my/listings/${id}/story`)).text, '#story-form', { lessons: '' }),
  });
  assert.equal((await api('GET', `/me/listings/${id}`)).story.lessons, null);
  assert.equal((await api('GET', `/me/listings/${id}`)).story.why_started, 'Our notes were a mess.');

  const tooLong = await b.go(`/my/listings/${id}/story`, {
    form: { ...form, _csrf: csrfOf(page.text, `/my/listings/${id}/story`), title: 't'.repeat(201) },
  });
  assert.equal(tooLong.res.status, 400);
  assert.match($(tooLong.text)('#s-title-error').text(), /200/);

  const paid = await fullListing(user.id, 'story-paid-co', { unlocked: ['story', 'milestones', 'media'] });
  const paidPage = await b.go(`/my/listings/${paid}/story`);
  assert.equal($(paidPage.text)('#story-visibility').attr('data-shown'), 'yes');
  await b.request(`/my/listings/${paid}/story`, {
    form: formAsShown(paidPage.text, '#story-form', { story: 'It began in a garage.' }),
  });
  assert.equal(
    (await api('GET', '/listings/story-paid-co')).story.story,
    'It began in a garage.',
    'public where it is unlocked',
  );
});

test('a milestone: a bad date is refused by the field; added, it is listed; deleted, it is gone', async () => {
  const { b, user, api } = await person();
  const id = await fullListing(user.id, 'milestone-co');
  const page = await b.go(`/my/listings/${id}/milestones`);
  assert.equal(page.res.status, 200);
  assert.equal($(page.text)('#no-milestones').length, 1);
  const csrf = csrfOf(page.text, `/my/listings/${id}/milestones`);

  const bad = await b.go(`/my/listings/${id}/milestones`, {
    form: { _csrf: csrf, date: '2024-02-30', title: 'First customer', description: '', url: '' },
  });
  assert.equal(bad.res.status, 400);
  assert.match($(bad.text)('#m-date-error').text(), /real calendar date/);
  assert.equal($(bad.text)('#m-title').attr('value'), 'First customer');
  assert.deepEqual((await api('GET', `/me/listings/${id}`)).milestones, []);

  const res = await b.request(`/my/listings/${id}/milestones`, {
    form: { _csrf: csrf, date: '2024-02-29', title: 'First customer', description: 'A bakery in Leipzig.', url: '' },
  });
  assert.equal(res.status, 303);
  const list = await b.go(res.headers.get('location')!);
  const $m = $(list.text);
  assert.match($m('.flash.success').text(), /added/);
  const [m] = (await api('GET', `/me/listings/${id}`)).milestones;
  assert.deepEqual(
    { ...m, id: undefined },
    { id: undefined, date: '2024-02-29', title: 'First customer', description: 'A bakery in Leipzig.', url: null },
  );
  assert.match($m(`#milestone-${m.id}`).text(), /First customer/);
  const del = $m(`#milestone-${m.id} form`);
  assert.equal(del.attr('action'), `/my/listings/${id}/milestones/${m.id}/delete`);
  assert.match(del.find('button').text(), /Delete the milestone “First customer”/);

  const gone = await b.request(del.attr('action')!, { form: { _csrf: csrf } });
  assert.equal(gone.status, 303);
  assert.equal(gone.headers.get('location'), `/my/listings/${id}/milestones?notice=deleted`);
  assert.deepEqual((await api('GET', `/me/listings/${id}`)).milestones, []);
  assert.equal(
    (await b.go(del.attr('action')!, { form: { _csrf: csrf } })).res.status,
    404,
    'a milestone already deleted',
  );
});

test('the founder interview: answers saved and shown again; an emptied answer is withdrawn, the others kept', async () => {
  const { b, user } = await person();
  const page = await b.go('/my/interview');
  assert.equal(page.res.status, 200);
  const $p = $(page.text);
  assert.deepEqual(
    $p('#interview-form label')
      .map((_, el) => $p(el).text())
      .get(),
    QUESTIONS,
  );
  const ids = $p('#interview-form textarea')
    .map((_, el) => $p(el).attr('name'))
    .get();
  const res = await b.request('/my/interview', {
    form: formAsShown(page.text, '#interview-form', { [ids[0]]: 'Paper notes.', [ids[2]]: 'Launch sooner.' }),
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), '/my/interview?notice=saved');
  const stored = () =>
    t.store.db
      .selectFrom('interview_answers')
      .select(['question_id', 'answer', 'updated_at'])
      .where('user_id', '=', user.id)
      .orderBy('question_id')
      .execute();
  const saved = await stored();
  assert.deepEqual(
    saved.map((a) => a.answer),
    ['Paper notes.', 'Launch sooner.'],
  );
  const again = $((await b.go('/my/interview')).text);
  assert.equal(again(`textarea[name="${ids[0]}"]`).text(), 'Paper notes.');
  assert.equal(again(`textarea[name="${ids[1]}"]`).text(), '');

  await b.request('/my/interview', {
    form: formAsShown((await b.go('/my/interview')).text, '#interview-form', { [ids[0]]: '' }),
  });
  const now = await stored();
  assert.deepEqual(
    now.map((a) => a.answer),
    ['Launch sooner.'],
  );
  assert.equal(String(now[0].updated_at), String(saved[1].updated_at), 'an answer left as it was is not sent again');
  const other = await person();
  assert.equal(
    $((await other.b.go('/my/interview')).text)('#interview-form textarea').text(),
    '',
    "another person sees none of this person's answers",
  );
});

test('forms without their CSRF token are refused and change nothing', async () => {
  const { b, user, api } = await person();
  const id = await fullListing(user.id, 'csrf-co');
  await b.request(`/my/listings/${id}/milestones`, {
    form: {
      _csrf: csrfOf((await b.go(`/my/listings/${id}/milestones`)).text, `/my/listings/${id}/milestones`),
      date: '2024-01-01',
      title: 'Kept',
    },
  });
  const before = await api('GET', `/me/listings/${id}`);
  const [m] = before.milestones;
  const posts: Array<[string, Record<string, string>]> = [
    [`/my/listings/${id}/edit`, { ...(await editForm(b, id, { tagline: 'No token' })), _csrf: '' }],
    [`/my/listings/${id}/story`, { title: 'No token' }],
    [`/my/listings/${id}/milestones`, { date: '2024-01-02', title: 'No token' }],
    [`/my/listings/${id}/milestones/${m.id}/delete`, {}],
    ['/my/interview', { 'answer-1': 'No token' }],
  ];
  for (const [path, form] of posts) {
    const r = await b.go(path, { form });
    assert.equal(r.res.status, 403, path);
    assert.match($(r.text)('h1').text(), /expired/, path);
  }
  assert.deepEqual(settled(await api('GET', `/me/listings/${id}`)), settled(before));
  assert.equal(
    (await t.store.db.selectFrom('interview_answers').select('answer').where('user_id', '=', user.id).execute()).length,
    0,
  );
});

test("another person's listing is the site's 404 page, for every edit page and form", async () => {
  const owner = await person();
  const other = await person();
  const id = await fullListing(owner.user.id, 'not-yours-co');
  await owner.b.request(`/my/listings/${id}/milestones`, {
    form: {
      _csrf: csrfOf((await owner.b.go(`/my/listings/${id}/milestones`)).text, `/my/listings/${id}/milestones`),
      date: '2024-01-01',
      title: 'Theirs',
    },
  });
  const before = await owner.api('GET', `/me/listings/${id}`);
  const [m] = before.milestones;
  for (const path of [
    `/my/listings/${id}/edit`,
    `/my/listings/${id}/story`,
    `/my/listings/${id}/milestones`,
    '/my/listings/999999/edit',
  ]) {
    const r = await other.b.go(path);
    assert.equal(r.res.status, 404, path);
    assert.equal($(r.text)('h1').text(), 'Page not found', path);
  }
  const csrf = csrfOf((await other.b.go('/my/interview')).text, '/my/interview');
  const posts: Array<[string, Record<string, string>]> = [
    [`/my/listings/${id}/edit`, { tagline: 'Hijacked', 'faq-question-0': 'Hijacked?', 'faq-answer-0': 'Yes.' }],
    [`/my/listings/${id}/story`, { title: 'Hijacked' }],
    [`/my/listings/${id}/milestones`, { date: '2024-01-02', title: 'Hijacked' }],
    [`/my/listings/${id}/milestones/${m.id}/delete`, {}],
  ];
  for (const [path, form] of posts)
    assert.equal((await other.b.go(path, { form: { ...form, _csrf: csrf } })).res.status, 404, path);
  assert.deepEqual(settled(await owner.api('GET', `/me/listings/${id}`)), settled(before), 'nothing changed');
});
