// Idempotency-Key (spec 4.1, DESIGN "Conventions"): replay, mismatch, in-flight duplicates, what is
// not stored, expiry — on the runner itself and through the REST adapter on a real operation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { testApp, type TestApp } from '../support/app.ts';
import { createIdempotencyRunner, canonicalJson } from '../../src/operations/idempotency.ts';
import { ApiError } from '../../src/operations/errors.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createUser } from '../../src/auth/users.ts';
import type { Principal } from '../../src/operations/principal.ts';

type UserPrincipal = Extract<Principal, { kind: 'user' }>;
let t: TestApp;
let alice: UserPrincipal;
let bob: UserPrincipal;
let aliceKey: string;
before(async () => {
  t = await testApp();
  const a = await createUser(t.store.db, {
    email: 'alice@example.com',
    password: 'a long enough password',
    name: 'Alice',
  });
  const b = await createUser(t.store.db, { email: 'bob@example.com', password: 'a long enough password', name: 'Bob' });
  const p = (u: typeof a): UserPrincipal => ({
    kind: 'user',
    userId: u.id,
    email: u.email,
    name: u.name,
    role: 'user',
    credential: { type: 'api_key', id: 'llk_x', name: 'k' },
    scopes: ['listings:write'],
  });
  alice = p(a);
  bob = p(b);
  aliceKey = (await createApiKey(t.store.db, a.id, 'idempotency', ['account:read', 'listings:write'])).key;
});
after(async () => {
  await t.cleanup();
});

function counter(delayMs = 0) {
  let count = 0;
  const exec = async () => {
    count++;
    const mine = count;
    if (delayMs) await sleep(delayMs);
    return { status: 201, body: { effect: mine, at: 'x' } };
  };
  return {
    exec,
    get count() {
      return count;
    },
  };
}

const rejectsWith = (code: string) => (e: unknown) => e instanceof ApiError && e.code === code;

test('replay: the same key and request returns the first status and body without running again', async () => {
  const run = createIdempotencyRunner(t.store.db);
  const c = counter();
  const req = { params: {}, query: {}, body: { title: 'Hello', n: 1 } };
  const first = await run.run({ principal: alice, key: 'k-replay', operation: 'op', request: req }, c.exec);
  assert.deepEqual(first, { status: 201, body: { effect: 1, at: 'x' }, replayed: false });
  // Key order in the body does not make it a different request.
  const again = await run.run(
    {
      principal: alice,
      key: 'k-replay',
      operation: 'op',
      request: { params: {}, query: {}, body: { n: 1, title: 'Hello' } },
    },
    c.exec,
  );
  assert.deepEqual(again, { status: 201, body: { effect: 1, at: 'x' }, replayed: true });
  assert.equal(c.count, 1);
  // Another person may use the same key for their own request.
  const other = await run.run({ principal: bob, key: 'k-replay', operation: 'op', request: req }, c.exec);
  assert.equal(other.replayed, false);
  assert.equal(c.count, 2);
});

test('mismatch: the same key with a different request is 422 idempotency_key_reused', async () => {
  const run = createIdempotencyRunner(t.store.db);
  const c = counter();
  await run.run({ principal: alice, key: 'k-mismatch', operation: 'op', request: { body: { n: 1 } } }, c.exec);
  await assert.rejects(
    run.run({ principal: alice, key: 'k-mismatch', operation: 'op', request: { body: { n: 2 } } }, c.exec),
    rejectsWith('idempotency_key_reused'),
  );
  await assert.rejects(
    run.run({ principal: alice, key: 'k-mismatch', operation: 'other_op', request: { body: { n: 1 } } }, c.exec),
    rejectsWith('idempotency_key_reused'),
  );
  assert.equal(c.count, 1);
  assert.equal(new ApiError('idempotency_key_reused', 'x').status, 422);
});

test('concurrent duplicates: exactly one effect; the others get 409 while it runs, the replay after', async () => {
  const run = createIdempotencyRunner(t.store.db);
  const c = counter(150);
  const results = await Promise.allSettled(
    Array.from({ length: 8 }, () =>
      run.run({ principal: alice, key: 'k-concurrent', operation: 'op', request: { body: { n: 1 } } }, c.exec),
    ),
  );
  assert.equal(c.count, 1, 'the operation ran once');
  const ok = results.filter((r) => r.status === 'fulfilled');
  const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  assert.equal(ok.length, 1);
  assert.equal(refused.length, 7);
  for (const r of refused) assert.ok(rejectsWith('conflict')(r.reason), String(r.reason));
  const later = await run.run(
    { principal: alice, key: 'k-concurrent', operation: 'op', request: { body: { n: 1 } } },
    c.exec,
  );
  assert.equal(later.replayed, true);
  assert.equal(c.count, 1);
});

test('not stored: validation failures and server errors leave the key free; real outcomes (404) are replayed', async () => {
  const run = createIdempotencyRunner(t.store.db);
  const req = { body: { n: 1 } };
  await assert.rejects(
    run.run({ principal: alice, key: 'k-val', operation: 'op', request: req }, async () => {
      throw new ApiError('validation_failed', 'body.n: bad');
    }),
    rejectsWith('validation_failed'),
  );
  await assert.rejects(
    run.run({ principal: alice, key: 'k-val', operation: 'op', request: req }, async () => {
      throw new Error('database went away');
    }),
    /database went away/,
  );
  const c = counter();
  assert.equal(
    (await run.run({ principal: alice, key: 'k-val', operation: 'op', request: req }, c.exec)).replayed,
    false,
  );
  assert.equal(c.count, 1);

  let calls = 0;
  const missing = async () => {
    calls++;
    throw new ApiError('not_found', 'No listing "9" exists or it is not visible to you.');
  };
  await assert.rejects(
    run.run({ principal: alice, key: 'k-404', operation: 'op', request: req }, missing),
    rejectsWith('not_found'),
  );
  await assert.rejects(
    run.run({ principal: alice, key: 'k-404', operation: 'op', request: req }, missing),
    (e: unknown) => e instanceof ApiError && e.code === 'not_found' && e.headers?.['Idempotent-Replayed'] === 'true',
  );
  assert.equal(calls, 1);
});

test('keys live 24 hours; an expired key runs the request again; bad keys are 400', async () => {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const run = createIdempotencyRunner(t.store.db, { now: () => now });
  const c = counter();
  await run.run({ principal: alice, key: 'k-ttl', operation: 'op', request: {} }, c.exec);
  now += 23 * 3600_000;
  assert.equal(
    (await run.run({ principal: alice, key: 'k-ttl', operation: 'op', request: {} }, c.exec)).replayed,
    true,
  );
  now += 2 * 3600_000;
  assert.equal(
    (await run.run({ principal: alice, key: 'k-ttl', operation: 'op', request: { different: true } }, c.exec)).replayed,
    false,
    'expired: even a different request may use the key',
  );
  assert.equal(c.count, 2);
  for (const bad of ['', 'x'.repeat(256), 'has space', 'ünïcode']) {
    await assert.rejects(
      run.run({ principal: alice, key: bad, operation: 'op', request: {} }, c.exec),
      rejectsWith('validation_failed'),
    );
  }
});

test('a request left running by a crashed process is taken over after 10 minutes', async () => {
  let now = Date.parse('2026-02-01T00:00:00Z');
  const run = createIdempotencyRunner(t.store.db, { now: () => now });
  const hung = run.run({ principal: alice, key: 'k-stale', operation: 'op', request: {} }, () => new Promise(() => {}));
  void hung;
  await sleep(20);
  const c = counter();
  await assert.rejects(
    run.run({ principal: alice, key: 'k-stale', operation: 'op', request: {} }, c.exec),
    rejectsWith('conflict'),
  );
  now += 11 * 60_000;
  assert.equal(
    (await run.run({ principal: alice, key: 'k-stale', operation: 'op', request: {} }, c.exec)).replayed,
    false,
  );
  assert.equal(c.count, 1);
});

test('canonical request JSON ignores key order and undefined values', () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } }),
    '{"a":{"d":[1,{"x":1,"y":2}]},"b":1}',
  );
});

// ---- Through the REST adapter, on submit_listing (POST /drafts: its effect is a new draft).
const post = (key: string | undefined, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/drafts',
    headers: {
      authorization: `Bearer ${aliceKey}`,
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    payload: JSON.stringify(body),
  });
const draftCount = async () =>
  Number(
    (
      await t.store.db
        .selectFrom('drafts')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

test('REST: a retried POST /drafts with the same Idempotency-Key replays the first answer and makes one draft', async () => {
  const before = await draftCount();
  const first = await post('rest-replay-1', { url: 'https://example.com' });
  assert.equal(first.statusCode, 201, first.body);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  const again = await post('rest-replay-1', { url: 'https://example.com' });
  assert.equal(again.statusCode, 201);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.deepEqual(again.json(), first.json());
  assert.equal(await draftCount(), before + 1);

  const other = await post('rest-replay-1', { url: 'https://example.org' });
  assert.equal(other.statusCode, 422);
  assert.equal(other.json().error.code, 'idempotency_key_reused');
  assert.equal(await draftCount(), before + 1);

  // Validation failures are not stored: the key still works for a valid request.
  const invalid = await post('rest-replay-2', { url: 'https://example.com', extra: 1 });
  assert.equal(invalid.statusCode, 400);
  const valid = await post('rest-replay-2', { url: 'https://example.com' });
  assert.equal(valid.statusCode, 201);
  assert.equal(valid.headers['idempotent-replayed'], undefined);
  assert.equal(await draftCount(), before + 2);

  // Without the header every POST is a new draft.
  await post(undefined, { url: 'https://example.com' });
  await post(undefined, { url: 'https://example.com' });
  assert.equal(await draftCount(), before + 4);
});

test('REST: concurrent duplicates of POST /drafts make exactly one draft', async () => {
  const before = await draftCount();
  const answers = await Promise.all(
    Array.from({ length: 6 }, () => post('rest-concurrent', { url: 'https://example.net' })),
  );
  assert.equal(await draftCount(), before + 1);
  const ids = new Set(answers.filter((a) => a.statusCode === 201).map((a) => a.json().id));
  assert.equal(ids.size, 1, 'every success names the same draft');
  for (const a of answers) assert.ok([201, 409].includes(a.statusCode), `${a.statusCode} ${a.body}`);
});

test('REST: a body nested thousands of levels deep, with an Idempotency-Key, is a 400 (the request hash never sees it)', async () => {
  const deep = `{"url":"https://acme.example/","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const r = await t.app.inject({
    method: 'POST',
    url: '/api/v1/drafts',
    headers: {
      authorization: `Bearer ${aliceKey}`,
      'content-type': 'application/json',
      'idempotency-key': 'deep-body-1',
    },
    payload: deep,
  });
  assert.equal(r.statusCode, 400, r.body.slice(0, 200));
  assert.equal(r.json().error.code, 'validation_failed');
  assert.equal(
    await t.store.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'deep-body-1').executeTakeFirst(),
    undefined,
    'nothing stored under the key',
  );
});
