// Sign-in attempts and wrong promo codes are counted in Redis when the server has REDIS_URL, so two
// instances share one window (tested against the local Redis; skipped when there is none), and a
// Redis that is down falls back to each process's own count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { AttemptLimiter } from '../../src/auth/rate-limit.ts';
import { PromoGuard } from '../../src/services/promo-guard.ts';

const URL_ = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisOrSkip(ctx: { skip(msg: string): void }): Promise<Redis[] | undefined> {
  const probe = new Redis(URL_, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 500 });
  try {
    await probe.connect();
    await probe.ping();
  } catch {
    probe.disconnect();
    ctx.skip('no Redis on ' + URL_);
    return undefined;
  }
  return [probe, new Redis(URL_)];
}

/** Runs `fn` with two clients of the local Redis (two instances), disconnected afterwards; skips the test without Redis. */
async function withTwoClients(
  ctx: { skip(msg: string): void },
  fn: (ra: Redis, rb: Redis) => Promise<void>,
): Promise<void> {
  const clients = await redisOrSkip(ctx);
  if (!clients) return;
  const [ra, rb] = clients;
  try {
    await fn(ra, rb);
  } finally {
    ra.disconnect();
    rb.disconnect();
  }
}

test('two instances count sign-in attempts in one window through Redis; a reset clears it for both', (ctx) =>
  withTwoClients(ctx, async (ra, rb) => {
    const name = `t-${randomUUID()}`;
    const a = new AttemptLimiter(3, 60_000, { redis: ra, name });
    const b = new AttemptLimiter(3, 60_000, { redis: rb, name });
    assert.deepEqual(
      [
        await a.hit('1.2.3.4|x@example.com'),
        await b.hit('1.2.3.4|x@example.com'),
        await a.hit('1.2.3.4|x@example.com'),
      ],
      [0, 0, 0],
    );
    const wait = await b.hit('1.2.3.4|x@example.com');
    assert.ok(wait >= 59 && wait <= 60, `the 4th attempt, on the other instance, waits for the window: ${wait}`);
    assert.equal(await a.hit('5.6.7.8|x@example.com'), 0, 'another key has its own count');
    // Alone, each instance would have let the 4th through: it has seen only two.
    const alone = new AttemptLimiter(3, 60_000, { name });
    assert.equal(alone.hitHere('1.2.3.4|x@example.com') + alone.hitHere('1.2.3.4|x@example.com'), 0);
    await a.reset('1.2.3.4|x@example.com');
    assert.equal(
      await b.hit('1.2.3.4|x@example.com'),
      0,
      'a successful sign-in on one instance clears the count on all',
    );
  }));

test('forgive takes one attempt back on every instance, never below zero, and makes no key without an expiry', (ctx) =>
  withTwoClients(ctx, async (ra, rb) => {
    const name = `t-${randomUUID()}`;
    const a = new AttemptLimiter(2, 60_000, { redis: ra, name });
    const b = new AttemptLimiter(2, 60_000, { redis: rb, name });
    await a.forgive('ip:9.9.9.9');
    assert.equal(await ra.exists(`launchlist-al:${name}:ip:9.9.9.9`), 0, 'nothing to forgive: no key made');
    assert.equal(await a.hit('ip:9.9.9.9'), 0);
    assert.equal(await b.hit('ip:9.9.9.9'), 0);
    await a.forgive('ip:9.9.9.9'); // a sign-in that succeeded
    assert.equal(await b.hit('ip:9.9.9.9'), 0, 'the other instance sees one attempt fewer');
    assert.ok((await a.hit('ip:9.9.9.9')) > 0, 'the third attempt in the window is over the limit of 2');
    assert.ok((await ra.pttl(`launchlist-al:${name}:ip:9.9.9.9`)) > 0, 'the window still expires');
    const local = new AttemptLimiter(1, 60_000);
    await local.forgive('k');
    await local.forgive('k');
    assert.equal(local.hitHere('k'), 0);
    assert.ok(local.hitHere('k') > 0, 'forgiving nothing did not bank attempts');
  }));

test('a promo-code block set on one instance stops the code on another', (ctx) =>
  withTwoClients(ctx, async (ra, rb) => {
    const a = new PromoGuard(ra);
    const b = new PromoGuard(rb);
    const key = `u:${randomUUID()}`;
    let wait = 0;
    for (let i = 0; i < 50 && !wait; i++) wait = await (i % 2 ? b : a).fail(key);
    assert.ok(wait > 0, 'wrong codes on both instances add up to a block');
    assert.ok((await a.retryAfter(key)) > 0);
    assert.ok((await b.retryAfter(key)) > 0);
    assert.equal((await new PromoGuard(rb).retryAfter(key)) > 0, true, 'a third instance sees the block too');
    assert.equal(await new PromoGuard().retryAfter(key), 0, 'without Redis an instance sees only its own');
  }));

test('with Redis down, attempts are still counted, by this process', async () => {
  const down = new Redis('redis://127.0.0.1:1', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 200,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  down.on('error', () => {});
  try {
    const l = new AttemptLimiter(2, 60_000, { redis: down, name: 'down' });
    assert.deepEqual([await l.hit('k'), await l.hit('k')], [0, 0]);
    assert.ok((await l.hit('k')) > 0, 'the third is refused from the local count');
    const g = new PromoGuard(down);
    let wait = 0;
    for (let i = 0; i < 50 && !wait; i++) wait = await g.fail('u:1');
    assert.ok(wait > 0);
    assert.ok((await g.retryAfter('u:1')) > 0);
  } finally {
    down.disconnect();
  }
});
