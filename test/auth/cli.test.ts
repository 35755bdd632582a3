// The operator CLI: `user create` and `api-key create` (the key alone on the last line of stdout), `awards rotate-key`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { testApp, type TestApp } from '../support/app.ts';
import { API_KEY_PATTERN } from '../../src/auth/api-keys.ts';
import { authenticate, findUserByEmail } from '../../src/auth/users.ts';

const run = promisify(execFile);
let t: TestApp;
before(async () => {
  t = await testApp();
});
after(async () => {
  await t.cleanup();
});

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    PATH: process.env.PATH,
    DATA_DIR: t.config.DATA_DIR,
    ...(t.config.DATABASE_URL ? { DATABASE_URL: t.config.DATABASE_URL } : {}),
  };
  try {
    const r = await run(process.execPath, ['src/cli.ts', ...args], { env, cwd: process.cwd() });
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

test('user create makes a person (or an admin) who can sign in', async () => {
  const r = await cli('user', 'create', '--email', 'Op@Example.com', '--password', 'operator password 1', '--admin');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Created admin \d+ <op@example.com>/);
  const u = await findUserByEmail(t.store.db, 'op@example.com');
  assert.equal(u?.role, 'admin');
  assert.equal((await authenticate(t.store.db, 'op@example.com', 'operator password 1'))?.id, u!.id);

  const dup = await cli('user', 'create', '--email', 'op@example.com');
  assert.equal(dup.code, 1);
  assert.match(dup.stderr, /already exists/);
  const weak = await cli('user', 'create', '--email', 'weak@example.com', '--password', 'short');
  assert.equal(weak.code, 1);
  assert.match(weak.stderr, /at least 10 characters/);
  const noPw = await cli('user', 'create', '--email', 'nopw@example.com');
  assert.equal(noPw.code, 0);
  assert.match(noPw.stdout, /No password set/);
});

test('api-key create prints the key alone on the last line, and the key works with its scopes', async () => {
  await cli('user', 'create', '--email', 'script@example.com', '--password', 'script password 1');
  const r = await cli(
    'api-key',
    'create',
    '--email',
    'script@example.com',
    '--scopes',
    'account:read,orders:write',
    '--name',
    'Deploy bot',
  );
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  const key = lines.at(-1)!;
  assert.match(key, API_KEY_PATTERN);
  assert.ok(lines.length >= 2 && !lines.slice(0, -1).some((l) => l.includes(key)), 'the key appears once, alone');

  const me = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${key}` } });
  assert.equal(me.statusCode, 200);
  assert.deepEqual(me.json().scopes, ['account:read', 'orders:write']);
  assert.equal(me.json().credential.name, 'Deploy bot');

  const unknown = await cli('api-key', 'create', '--email', 'script@example.com', '--scopes', 'account:read,admin:all');
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /unknown scope admin:all/);
  const nobody = await cli('api-key', 'create', '--email', 'nobody@example.com', '--scopes', 'account:read');
  assert.equal(nobody.code, 1);
  assert.match(nobody.stderr, /no user with the email/);
  const usage = await cli('api-key', 'create', '--email', 'script@example.com', '--scopes', 'account:read', '--bogus');
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /Usage/);
});

test('awards rotate-key makes a new award signing key; the old one stays published', async () => {
  const r = await cli('awards', 'rotate-key');
  assert.equal(r.code, 0, r.stderr);
  const first = /New award signing key (\S+);/.exec(r.stdout)![1];
  const again = await cli('awards', 'rotate-key');
  const second = /New award signing key (\S+);/.exec(again.stdout)![1];
  assert.notEqual(first, second);
  const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/award-keys.json' })).json();
  assert.deepEqual(jwks.keys.map((k: { kid: string }) => k.kid).sort(), [first, second].sort());
});
