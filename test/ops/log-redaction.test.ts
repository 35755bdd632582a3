// Secrets never logged (issue #20, item 4): the server is started as `npm start` starts it, at the most
// verbose level, sent requests carrying each kind of secret, and its log is read back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { emptyDatabase } from '../support/app.ts';
import { freePort } from '../support/net.ts';
import { redactUrl, REDACTED } from '../../src/ops/log-redaction.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

test('redactUrl: token paths, token query strings, credential parameters and API keys', () => {
  assert.equal(redactUrl('/reset-password?token=abc&x=1'), `/reset-password?token=${REDACTED}&x=${REDACTED}`);
  assert.equal(redactUrl('/verify-email?t=abc'), `/verify-email?t=${REDACTED}`);
  assert.equal(redactUrl('/checkout/tok123'), `/checkout/${REDACTED}`);
  assert.equal(
    redactUrl('/checkout/tok123/return?session_id=cs_1'),
    `/checkout/${REDACTED}/return?session_id=${REDACTED}`,
  );
  assert.equal(redactUrl('/invites/tok'), `/invites/${REDACTED}`);
  assert.equal(redactUrl('/claims/verify/tok'), `/claims/verify/${REDACTED}`);
  assert.equal(redactUrl('/oauth/interaction/uid1/confirm'), `/oauth/interaction/${REDACTED}/confirm`);
  assert.equal(redactUrl('/api/v1/me?access_token=llk_a_b&page=2'), `/api/v1/me?access_token=${REDACTED}&page=2`);
  assert.equal(redactUrl('/api/v1/listings?q=llk_abc_def'), `/api/v1/listings?q=${REDACTED}`);
  assert.equal(
    redactUrl('/x?ACCESS_TOKEN=1&Code=2&api%5Fkey=3'),
    `/x?ACCESS_TOKEN=${REDACTED}&Code=${REDACTED}&api%5Fkey=${REDACTED}`,
  );
  assert.equal(redactUrl('/api/v1/listings?q=notes&page=2'), '/api/v1/listings?q=notes&page=2');
  assert.equal(redactUrl('/claims/12'), '/claims/12');
});

test('the log of a running server holds none of the secrets that requests carried', async () => {
  const empty = await emptyDatabase();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: empty.dir,
      DATABASE_URL: empty.databaseUrl ?? '',
      LOG_LEVEL: 'trace',
      SEED_DEMO: 'false',
      WORKERS: 'false',
      NODE_DISABLE_COMPILE_CACHE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  try {
    for (let i = 0; i < 600 && !log.includes('Launchlist is up'); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(log.includes('Launchlist is up'), log);
    const secret = (kind: string) => `${kind}S3CR3T${randomBytes(6).toString('hex')}`;
    const s = {
      reset: secret('reset'),
      verify: secret('verify'),
      invite: secret('invite'),
      checkout: secret('checkout'),
      claim: secret('claim'),
      interaction: secret('interaction'),
      accessToken: `llk_${secret('qk')}_${secret('qk')}`,
      bearer: `llk_${secret('hk')}_${secret('hk')}`,
      cookie: secret('cookie'),
      key: secret('key'),
      password: secret('password'),
      oauthCode: secret('code'),
    };
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(base + path, { headers, redirect: 'manual' }).then((r) => r.arrayBuffer());
    await get(`/reset-password?token=${s.reset}`);
    await get(`/verify-email?token=${s.verify}`);
    await get(`/invites/${s.invite}`);
    await get(`/checkout/${s.checkout}`);
    await get(`/claims/verify/${s.claim}`);
    await get(`/oauth/interaction/${s.interaction}`);
    await get(`/api/v1/me?access_token=${s.accessToken}`);
    await get('/api/v1/me', { authorization: `Bearer ${s.bearer}` });
    await get('/account', { cookie: `ll_session=${s.cookie}` });
    await get(`/api/v1/listings?key=${s.key}&q=notes`);
    await get(`/oauth/authorize?code=${s.oauthCode}&client_id=x`);
    await fetch(`${base}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `ll_session=${s.cookie}` },
      body: `email=a%40example.com&password=${s.password}`,
    }).then((r) => r.arrayBuffer());
    await new Promise((r) => setTimeout(r, 300));
    // Every request was logged (so the test read a log that had them) …
    assert.ok(log.includes(`"url":"/reset-password?token=${REDACTED}"`), log);
    assert.ok(log.includes(`"url":"/checkout/${REDACTED}"`));
    assert.ok(log.includes(`"url":"/api/v1/me?access_token=${REDACTED}"`));
    assert.ok(log.includes(`"url":"/api/v1/listings?key=${REDACTED}&q=notes"`));
    assert.ok(log.includes('"url":"/api/v1/me"'));
    // … and no secret is in it, whole or in part.
    for (const [kind, value] of Object.entries(s)) {
      assert.ok(!log.includes(value), `the ${kind} secret is in the log`);
      assert.ok(!log.includes(value.slice(-12)), `part of the ${kind} secret is in the log`);
    }
    assert.ok(!/authorization|"cookie"/i.test(log.replace(/\[REDACTED\]/g, '')), 'no header values logged');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await empty.drop();
  }
});
