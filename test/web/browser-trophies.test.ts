// The trophy pages in real Chromium (playwright-core, the system's Chromium): an award's verification
// page loads under the site's CSP without console errors, and the browser itself verifies the
// signature with Web Crypto from nothing but the published JWKS (a changed byte fails); a signed-in
// maker enters a programme through the form; at 360 px no trophy page is wider than the screen.
// A screenshot of a cabinet is written to /tmp/launchlist-trophy-cabinet.png for a human look.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { liveApp, makeUser, type LiveApp } from '../auth/helpers.ts';
import { seedDemo } from '../../src/store/seed/index.ts';
import { createSession, SESSION_COOKIE } from '../../src/auth/sessions.ts';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = '/tmp/launchlist-trophy-cabinet.png';
const missing = !existsSync(CHROMIUM);
const skip = missing ? `${CHROMIUM} is not installed (apt-get install chromium)` : false;

let t: LiveApp;
let browser: Browser;

before(async () => {
  if (missing) return;
  t = await liveApp({}, async (store) => {
    await seedDemo(store);
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
});
after(async () => {
  await browser?.close();
  await t?.cleanup();
});

const api = async (path: string) => (await fetch(`${t.base}/api/v1${path}`)).json();

test('the verification page: no console errors, and Web Crypto verifies the award with the JWKS alone', {
  skip,
  timeout: 90_000,
}, async () => {
  const award = (await api('/awards?per_page=1')).items[0];
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`${t.base}/listings/${award.listing.slug}/trophies`);
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  await Promise.all([
    page.waitForURL(new RegExp(`/awards/${award.week}/${award.rank}$`)),
    page.locator(`a.verify[href="/awards/${award.week}/${award.rank}"]`).click(),
  ]);
  assert.match((await page.locator('.verdict').textContent()) ?? '', /The signature is valid/);
  const statement = await page.locator('#stmt').inputValue();
  const signature = await page.locator('#sig').inputValue();
  const kid = (await page.locator('.facts code').nth(1).textContent())!;
  const results = await page.evaluate(
    async ({ statement, signature, kid }) => {
      const b64 = (s: string) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
      const jwks = await (await fetch('/.well-known/award-keys.json')).json();
      const jwk = jwks.keys.find((k: { kid: string }) => k.kid === kid);
      const key = await crypto.subtle.importKey(
        'jwk',
        { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
        { name: 'Ed25519' },
        false,
        ['verify'],
      );
      const bytes = b64(statement);
      const good = await crypto.subtle.verify({ name: 'Ed25519' }, key, b64(signature), bytes);
      bytes[10] ^= 1;
      const bad = await crypto.subtle.verify({ name: 'Ed25519' }, key, b64(signature), bytes);
      return { good, bad };
    },
    { statement, signature, kid },
  );
  assert.deepEqual(results, { good: true, bad: false });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a signed-in maker enters a programme through the form', { skip, timeout: 90_000 }, async () => {
  const maker = await makeUser(t.store);
  const open = (await api('/programmes')).items.find((p: { state: string }) => p.state === 'open');
  const entered = new Set(
    (await api(`/programmes/${open.slug}`)).entry_list.map((e: { listing: { slug: string } }) => e.listing.slug),
  );
  const year = open.rules.launched_from.slice(0, 4);
  const rows = await t.store.db
    .selectFrom('listings')
    .select(['id', 'slug', 'name', 'launched_at'])
    .where('status', '=', 'live')
    .execute();
  const mine = rows.find((l) => String(l.launched_at).startsWith(year) && !entered.has(l.slug))!;
  await t.store.db.updateTable('listings').set({ owner_id: maker.id }).where('id', '=', mine.id).execute();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([
    { name: SESSION_COOKIE, value: (await createSession(t.store.db, maker.id)).token, url: t.base },
  ]);
  const page = await context.newPage();
  await page.goto(`${t.base}/programmes/${open.slug}`);
  await Promise.all([
    page.waitForURL(/\/enter$/),
    page.getByRole('link', { name: 'Enter one of your products' }).click(),
  ]);
  await page.getByLabel('Your product').selectOption(String(mine.id));
  await Promise.all([page.waitForURL(/\/my\/programmes/), page.getByRole('button', { name: 'Enter' }).click()]);
  assert.match((await page.locator('.flash').textContent()) ?? '', /Entered/);
  assert.equal(await page.locator(`main a[href="/programmes/${open.slug}"]`).count(), 1);
  await context.close();
});

test('at 360 px no trophy page is wider than the screen', { skip, timeout: 90_000 }, async () => {
  const award = (await api('/awards?per_page=1')).items[0];
  const founder = (await api(`/listings/${award.listing.slug}`)).founders[0].slug;
  const programme = (await api('/programmes')).items[0].slug;
  const admin = await makeUser(t.store, { role: 'admin' });
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  const widths: Record<string, number> = {};
  const paths = [
    `/listings/${award.listing.slug}/trophies`,
    `/founders/${founder}/trophies`,
    '/trophies',
    '/hall-of-fame',
    '/programmes',
    `/programmes/${programme}`,
    `/awards/${award.week}/${award.rank}`,
  ];
  for (const path of paths) {
    const res = await page.goto(`${t.base}${path}`);
    assert.equal(res?.status(), 200, path);
    widths[path] = await page.evaluate(() => document.documentElement.scrollWidth);
  }
  await context.addCookies([
    { name: SESSION_COOKIE, value: (await createSession(t.store.db, admin.id)).token, url: t.base },
  ]);
  for (const path of ['/admin/programmes']) {
    const res = await page.goto(`${t.base}${path}`);
    assert.equal(res?.status(), 200, path);
    widths[path] = await page.evaluate(() => document.documentElement.scrollWidth);
  }
  await context.close();
  assert.deepEqual(widths, Object.fromEntries(Object.keys(widths).map((p) => [p, 360])));
});
