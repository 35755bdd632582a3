// answer_interview (PUT /me/interview) on the engine of this run: upsert per person and question,
// answers returned in question order, unknown/inactive/duplicate ids and limits refused with the
// field named, nothing half-written.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { makeUser } from '../jobs/support/users.ts';

let t: TestApp;
type User = Awaited<ReturnType<typeof makeUser>>;
let ada: User;
let bob: User;
let readOnly: User;
const q: number[] = [];
let inactive = 0;

before(async () => {
  t = await testApp();
  const rows = await t.store.db
    .insertInto('interview_questions')
    .values([
      { position: 2, text: 'Who is your product for?', active: true },
      { position: 1, text: 'What problem made you start?', active: true },
      { position: 3, text: 'What would you do differently?', active: true },
      { position: 4, text: 'An old question', active: false },
    ])
    .returning('id')
    .execute();
  q.push(rows[0].id, rows[1].id, rows[2].id);
  inactive = rows[3].id;
  ada = await makeUser(t.store.db);
  bob = await makeUser(t.store.db);
  readOnly = await makeUser(t.store.db, ['account:read']);
});
after(async () => {
  await t.cleanup();
});

const put = (payload: unknown, auth: Record<string, string> = ada.auth) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/v1/me/interview',
    headers: auth,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const stored = (userId: number) =>
  t.store.db.selectFrom('interview_answers').selectAll().where('user_id', '=', userId).orderBy('question_id').execute();

function assert400(res: { statusCode: number; body: string; json(): any }, path: string, message?: RegExp) {
  assert.equal(res.statusCode, 400, res.body);
  const hit = res.json().error.details.find((d: { path: string }) => d.path === path);
  assert.ok(hit, `no detail for ${path}: ${res.body}`);
  if (message) assert.match(hit.message, message);
}

test('answers are saved and returned with their questions, in question order', async () => {
  const res = await put({
    answers: [
      { question_id: q[0], answer: ' Small teams. ' },
      { question_id: q[1], answer: 'Lost notes.' },
    ],
  });
  assert.equal(res.statusCode, 200, res.body);
  const { answers } = res.json();
  assert.deepEqual(
    answers.map((a: { question_id: number; question: string; answer: string }) => [
      a.question_id,
      a.question,
      a.answer,
    ]),
    [
      [q[1], 'What problem made you start?', 'Lost notes.'],
      [q[0], 'Who is your product for?', 'Small teams.'],
    ],
  );
  assert.ok(answers.every((a: { updated_at: string }) => !Number.isNaN(Date.parse(a.updated_at))));
  const public_ = await t.app.inject({ method: 'GET', url: '/api/v1/interview-questions' });
  assert.ok(
    public_.json().items.some((i: { id: number }) => i.id === q[0]),
    'the ids come from list_interview_questions',
  );
});

test('a second answer to the same question replaces the first (one row per person and question); an empty answer withdraws it', async () => {
  const before = await stored(ada.id);
  const res = await put({
    answers: [
      { question_id: q[0], answer: 'Teams of 2 to 20.' },
      { question_id: q[2], answer: 'Launch sooner.' },
    ],
  });
  assert.equal(res.statusCode, 200);
  const rows = await stored(ada.id);
  assert.equal(rows.length, 3);
  assert.equal(rows.find((r) => r.question_id === q[0])!.answer, 'Teams of 2 to 20.');
  assert.equal(
    rows.find((r) => r.question_id === q[1])!.answer,
    before.find((r) => r.question_id === q[1])!.answer,
    'answers not sent are kept',
  );
  assert.deepEqual(
    res.json().answers.map((a: { question_id: number }) => a.question_id),
    [q[1], q[0], q[2]],
  );

  const withdrawn = await put({ answers: [{ question_id: q[2], answer: '   ' }] });
  assert.deepEqual(
    withdrawn.json().answers.map((a: { question_id: number }) => a.question_id),
    [q[1], q[0]],
  );
  assert.equal((await stored(ada.id)).length, 2);

  const noop = await put({ answers: [] });
  assert.equal(noop.statusCode, 200);
  assert.equal(noop.json().answers.length, 2, 'an empty list changes nothing and shows the current answers');
});

test('each person has their own answers', async () => {
  const res = await put({ answers: [{ question_id: q[0], answer: "Bob's answer" }] }, bob.auth);
  assert.deepEqual(
    res.json().answers.map((a: { answer: string }) => a.answer),
    ["Bob's answer"],
  );
  assert.equal((await stored(ada.id)).find((r) => r.question_id === q[0])!.answer, 'Teams of 2 to 20.');
});

test('unknown, inactive and duplicate question ids are 400s naming body.answers.<i>.question_id (the dotted paths of every other error); nothing is written', async () => {
  const before = await stored(ada.id);
  assert400(
    await put({
      answers: [
        { question_id: q[2], answer: 'valid' },
        { question_id: 999999, answer: 'x' },
      ],
    }),
    'body.answers.1.question_id',
    /999999/,
  );
  assert400(
    await put({ answers: [{ question_id: inactive, answer: 'x' }] }),
    'body.answers.0.question_id',
    /list_interview_questions/,
  );
  assert400(
    await put({
      answers: [
        { question_id: q[2], answer: 'a' },
        { question_id: q[1], answer: 'b' },
        { question_id: q[2], answer: 'c' },
      ],
    }),
    'body.answers.2.question_id',
    /twice.*body\.answers\.0\)/,
  );
  assert.deepEqual(await stored(ada.id), before, 'the valid answers of a refused request were not saved');
});

test('limits and shape: 30 answers at most, 4000 characters each, both fields required, no extra fields', async () => {
  const before = await stored(ada.id);
  assert400(
    await put({ answers: Array.from({ length: 31 }, (_, i) => ({ question_id: i + 1, answer: 'a' })) }),
    'body.answers',
    /30/,
  );
  assert400(await put({ answers: [{ question_id: q[0], answer: 'x'.repeat(4001) }] }), 'body.answers.0.answer', /4000/);
  assert400(await put({ answers: [{ question_id: q[0] }] }), 'body.answers.0.answer', /required/);
  assert400(await put({ answers: [{ question_id: 0, answer: 'a' }] }), 'body.answers.0.question_id');
  assert400(await put({ answers: [{ question_id: q[0], answer: 'a', extra: 1 }] }), 'body.answers.0', /unknown/);
  assert400(await put({}), 'body.answers', /required/);
  assert400(await put(undefined), 'body', /required/);
  assert.deepEqual(await stored(ada.id), before);
});

test('listings:write is required; signed-out callers get 401', async () => {
  const r = await put({ answers: [{ question_id: q[0], answer: 'a' }] }, readOnly.auth);
  assert.equal(r.statusCode, 403);
  assert.equal(r.json().error.code, 'insufficient_scope');
  assert.equal((await put({ answers: [] }, {})).statusCode, 401);
  assert.equal((await stored(readOnly.id)).length, 0);
});
