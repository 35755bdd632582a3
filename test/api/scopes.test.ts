// The scope matrix (spec part 5): every signed-in operation in the registry, through the REST adapter:
// no credentials → 401 with a Bearer challenge; a credential without the operation's scope → 403
// insufficient_scope naming it; the right scope → past the guard (whatever the handler then answers).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { operations } from '../../src/operations/index.ts';
import { SCOPES, type Scope } from '../../src/domain/scopes.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createUser } from '../../src/auth/users.ts';

let t: TestApp;
const keys = {} as Record<Scope, { right: string; wrong: string }>;
before(async () => {
  t = await testApp();
  const user = await createUser(t.store.db, {
    email: 'matrix@example.com',
    password: 'a long enough password',
    name: 'Matrix',
  });
  for (const s of SCOPES) {
    keys[s] = {
      right: (await createApiKey(t.store.db, user.id, `only ${s}`, [s])).key,
      wrong: (
        await createApiKey(
          t.store.db,
          user.id,
          `all but ${s}`,
          SCOPES.filter((x) => x !== s),
        )
      ).key,
    };
  }
});
after(async () => {
  await t.cleanup();
});

const SAMPLE: Record<string, string> = {
  id: '00000000-0000-4000-8000-000000000000',
  listing_id: '1',
  milestone_id: '1',
  claim_id: '1',
  number: 'LL-0001',
  slug: 'no-such-listing',
};
const signedIn = operations.filter((o) => o.access !== 'public');

function urlOf(path: string): string {
  return '/api/v1' + path.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE[name] ?? 'x');
}

test('the registry has the 23 signed-in operations of spec 4.1 and the 2 of the trophy group', () => {
  assert.equal(signedIn.length, 25);
  for (const o of signedIn)
    assert.ok((SCOPES as readonly string[]).includes(o.access), `${o.name} declares a known scope`);
});

for (const op of signedIn) {
  const scope = op.access as Scope;
  test(`${op.name} (${op.method} ${op.path}) needs ${scope}`, async () => {
    const request = (authorization?: string, idem?: string) =>
      t.app.inject({
        method: op.method,
        url: urlOf(op.path),
        headers: {
          ...(authorization ? { authorization } : {}),
          ...(idem ? { 'idempotency-key': idem } : {}),
          ...(op.body ? { 'content-type': 'application/json' } : {}),
        },
        ...(op.body ? { payload: '{}' } : {}),
      });

    const anonymous = await request();
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().error.code, 'unauthorized');
    assert.match(String(anonymous.headers['www-authenticate']), /^Bearer realm="[^"]+"/);
    assert.doesNotMatch(
      String(anonymous.headers['www-authenticate']),
      /error=/,
      'no error code when no credential was sent',
    );

    const bogus = await request('Bearer llk_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB');
    assert.equal(bogus.statusCode, 401);
    assert.match(String(bogus.headers['www-authenticate']), /error="invalid_token"/);

    const idemKey = op.idempotencyKey ? `matrix-${op.name}` : undefined;
    const wrong = await request(`Bearer ${keys[scope].wrong}`, idemKey);
    assert.equal(wrong.statusCode, 403);
    assert.equal(wrong.json().error.code, 'insufficient_scope');
    assert.match(wrong.json().error.message, new RegExp(scope));
    assert.match(String(wrong.headers['www-authenticate']), new RegExp(`error="insufficient_scope".*scope="${scope}"`));
    if (idemKey) {
      const stored = await t.store.db
        .selectFrom('idempotency_keys')
        .select('key')
        .where('key', '=', idemKey)
        .executeTakeFirst();
      assert.equal(stored, undefined, 'a refused request does not use up its Idempotency-Key');
    }

    const right = await request(`Bearer ${keys[scope].right}`);
    assert.ok(![401, 403].includes(right.statusCode), `passes the guard, got ${right.statusCode} ${right.body}`);
  });
}
