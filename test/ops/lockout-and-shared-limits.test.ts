// Item 7 of issue #20: the sign-in lockout does not let strangers lock a person out, and the sign-in
// counts, the known networks and the client-metadata cache are shared by instances through Redis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { networkOf, SignInGuard } from '../../src/auth/sign-in-guard.ts';
import { createCimdResolver } from '../../src/auth/oauth/cimd.ts';
import { Browser, csrfOf } from '../auth/browser.ts';
import { liveApp, makeUser, PASSWORD } from '../auth/helpers.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisClients(ctx: { skip(m: string): void }, n: number): Promise<Redis[] | undefined> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 500 });
  try {
    await probe.connect();
    await probe.ping();
  } catch {
    probe.disconnect();
    ctx.skip(`no Redis at ${REDIS_URL}`);
    return undefined;
  }
  return [probe, ...Array.from({ length: n - 1 }, () => new Redis(REDIS_URL))];
}

test('networkOf: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64', () => {
  assert.equal(networkOf('203.0.113.5'), '203.0.113.5');
  assert.equal(networkOf('::ffff:203.0.113.5'), '203.0.113.5');
  assert.equal(networkOf('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(networkOf('2001:db8:1:2::9'), '2001:db8:1:2::/64');
  assert.equal(networkOf('2001:0db8:0001:0002:ffff::1'), networkOf('2001:db8:1:2:aaaa::2'));
  assert.equal(networkOf('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(networkOf('::1'), '0:0:0:0::/64');
});

test("strangers guessing from many networks pause new places, never the person's own network or browser", async () => {
  const guard = new SignInGuard({ key: 'test-key' });
  const email = 'victim@example.com';
  // The person signed in once from home: that network is remembered and the browser has a device cookie.
  assert.equal((await guard.attempt({ ip: '203.0.113.5', email })).wait, 0);
  const cookie = await guard.succeeded({ ip: '203.0.113.5', email });
  assert.ok(guard.deviceOf(cookie, email));
  assert.equal(guard.deviceOf(cookie, 'someone-else@example.com'), null, 'a device cookie is bound to its address');
  assert.equal(guard.deviceOf(`${cookie.split('.')[0]}.forged`, email), null);

  // 30 wrong tries from five networks, six each (each network under its own 10).
  for (let n = 0; n < 5; n++)
    for (let i = 0; i < 6; i++) assert.equal((await guard.attempt({ ip: `198.51.100.${n}`, email })).wait, 0);
  // The 31st from yet another network is refused, right password or not (the password is not checked).
  const stranger = await guard.attempt({ ip: '192.0.2.77', email });
  assert.ok(stranger.wait > 0);
  assert.equal(stranger.from, 'elsewhere');
  // The person, from home (no cookie: another browser) and from a café with their browser, still goes through.
  const home = await guard.attempt({ ip: '203.0.113.5', email });
  assert.deepEqual(home, { wait: 0, from: 'known_network' });
  const cafe = await guard.attempt({ ip: '100.64.9.9', email, deviceCookie: cookie });
  assert.deepEqual(cafe, { wait: 0, from: 'device' });
  // A successful sign-in does not hand the guessers 30 fresh tries.
  await guard.succeeded({ ip: '203.0.113.5', email });
  assert.ok((await guard.attempt({ ip: '192.0.2.78', email })).wait > 0);
  // Wrong tries from the person's own network are still limited there (10 per network and address).
  let wait = 0;
  for (let i = 0; i < 11 && !wait; i++) wait = (await guard.attempt({ ip: '203.0.113.5', email })).wait;
  assert.ok(wait > 0, 'the 11th try from one network waits');
  // … and one browser's device cookie gets 10 tries, not unlimited ones.
  wait = 0;
  let tries = 0;
  for (; tries < 12 && !wait; tries++)
    wait = (await guard.attempt({ ip: '100.64.9.9', email, deviceCookie: cookie })).wait;
  assert.equal(tries, 10, 'with the café attempt above, the 11th try of that browser waits');
});

test('over HTTP: the right password from the person’s network or browser signs in while strangers are paused', async (ctx) => {
  const t = await liveApp({ TRUST_PROXY: 'true' }); // X-Forwarded-For names each request's network here
  ctx.after(() => t.cleanup());
  const user = await makeUser(t.store);
  const signIn = async (b: Browser, ip: string, password: string) => {
    const page = await b.go('/sign-in', { headers: { 'x-forwarded-for': ip } });
    return b.request('/sign-in', {
      headers: { 'x-forwarded-for': ip },
      form: { _csrf: csrfOf(page.text, '/sign-in'), email: user.email, password },
    });
  };
  const own = new Browser(t.base);
  assert.equal((await signIn(own, '203.0.113.5', PASSWORD)).status, 303);
  assert.ok(own.cookie('ll_device'), 'the browser got its device cookie');
  for (let n = 0; n < 5; n++)
    for (let i = 0; i < 6; i++)
      assert.equal((await signIn(new Browser(t.base), `198.51.100.${n}`, 'wrong password!')).status, 400);
  const stranger = await signIn(new Browser(t.base), '192.0.2.1', PASSWORD);
  assert.equal(stranger.status, 429, 'a new place is paused, even with the right password');
  assert.match(await stranger.text(), /networks and browsers it has not signed in from/);
  assert.equal((await signIn(new Browser(t.base), '203.0.113.5', PASSWORD)).status, 303, 'home network, other browser');
  own.cookies = own.cookies.filter((c) => c.name === 'll_device'); // signed out, device cookie kept
  assert.equal((await signIn(own, '100.64.1.1', PASSWORD)).status, 303, 'own browser, any network');
});

test('two instances share sign-in counts and known networks through Redis', async (ctx) => {
  const clients = await redisClients(ctx, 2);
  if (!clients) return;
  ctx.after(() => clients.forEach((c) => c.disconnect()));
  const [ra, rb] = clients;
  const a = new SignInGuard({ key: 'k', redis: ra });
  const b = new SignInGuard({ key: 'k', redis: rb });
  const email = `p-${randomUUID()}@example.com`;
  // Known network: marked by a sign-in on A, seen by B.
  await a.succeeded({ ip: '203.0.113.9', email });
  assert.equal((await b.attempt({ ip: '203.0.113.9', email })).from, 'known_network');
  // The count of attempts from elsewhere: 15 on each instance, the 31st refused on either.
  for (let i = 0; i < 15; i++) {
    assert.equal((await a.attempt({ ip: `198.51.100.${i}`, email })).wait, 0);
    assert.equal((await b.attempt({ ip: `198.18.0.${i}`, email })).wait, 0);
  }
  assert.ok((await a.attempt({ ip: '192.0.2.200', email })).wait > 0);
  assert.equal((await b.attempt({ ip: '203.0.113.9', email })).wait, 0, 'the known network still goes through');
  // A device cookie made by one instance is good on the other (both sign with the shared secret).
  const cookie = await a.succeeded({ ip: '203.0.113.9', email });
  assert.equal((await b.attempt({ ip: '100.64.0.1', email, deviceCookie: cookie })).from, 'device');
});

test('two instances share the client-metadata document cache through Redis', async (ctx) => {
  const clients = await redisClients(ctx, 2);
  if (!clients) return;
  ctx.after(() => clients.forEach((c) => c.disconnect()));
  const id = `https://agent-${randomUUID()}.example/client.json`;
  let fetched = 0;
  const fetch = async () => {
    fetched++;
    return {
      status: 200,
      headers: { 'cache-control': 'max-age=600', 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: id, client_name: 'Shared', redirect_uris: ['https://agent.example/cb'] }),
    } as never;
  };
  const a = createCimdResolver({ allowHosts: [], allowHttp: false, fetch, redis: clients[0] });
  const b = createCimdResolver({ allowHosts: [], allowHttp: false, fetch, redis: clients[1] });
  assert.equal((await a(id))?.client_name, 'Shared');
  assert.equal(fetched, 1);
  assert.equal((await b(id))?.client_name, 'Shared', 'the other instance uses the cached document');
  assert.equal((await b(id))?.client_name, 'Shared');
  assert.equal(fetched, 1, 'fetched once for both instances');
  const ttl = await clients[0].pttl(
    `launchlist-cimd:${(await import('node:crypto')).createHash('sha256').update(id).digest('base64url')}`,
  );
  assert.ok(ttl > 590_000 && ttl <= 600_000, `kept for the document's max-age: ${ttl}`);
  // Without Redis each instance fetches on its own.
  const c = createCimdResolver({ allowHosts: [], allowHttp: false, fetch });
  await c(id);
  assert.equal(fetched, 2);
});
