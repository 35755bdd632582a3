// With WORKERS=true the server runs the job workers itself: a draft is built without any test
// driving the queue, and closing the server stops them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { testApp } from '../support/app.ts';
import { serveSite, productSite } from './support/site.ts';
import { makeUser } from './support/users.ts';
import { RobotsCache } from '../../src/drafting/crawler/robots.ts';

test('the server started with WORKERS=true builds a submitted draft on its own', async () => {
  const site = await serveSite(productSite('Self Running'));
  const t = await testApp({ FETCH_ALLOW_HOSTS: '127.0.0.1', WORKERS: 'true' });
  try {
    t.server.deps.services.drafting = { crawl: { robots: new RobotsCache() } };
    assert.equal(
      typeof (t.server.deps.services.workers as { wake?: unknown })?.wake,
      'function',
      'the workers are attached',
    );
    const user = await makeUser(t.store.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/drafts',
      headers: user.auth,
      payload: { url: site.origin + '/' },
    });
    assert.equal(res.statusCode, 201);
    const id = res.json().id;
    let d: { status: string; fields: { name: { value: string } } } | undefined;
    const started = Date.now();
    while (Date.now() - started < 10_000) {
      d = (await t.app.inject({ method: 'GET', url: `/api/v1/drafts/${id}`, headers: user.auth })).json();
      if (d!.status === 'ready' || d!.status === 'failed') break;
      await delay(25);
    }
    assert.equal(d?.status, 'ready');
    assert.equal(d?.fields.name.value, 'Self Running');
    assert.ok(Date.now() - started < 5000, `picked up at once (wake), ${Date.now() - started} ms`);
  } finally {
    await t.cleanup();
    await site.close();
  }
});
