// The website in real Chromium (playwright-core with the system's Chromium): a person signs up,
// opens the home page, votes for a launch and sees the count change; the page loads its local
// stylesheet under the site's Content-Security-Policy without console errors. A screenshot is
// written to /tmp/launchlist-home-voted.png for a human look.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { liveApp, makeUser, PASSWORD, type LiveApp } from '../auth/helpers.ts';
import { listing } from '../support/listing-fixtures.ts';
import { seedDemo } from '../../src/store/seed/index.ts';
import { outboxFor } from '../../src/mail/index.ts';
import { insertDraft, updateDraft } from '../../src/store/repos/drafts.ts';
import { createSession, SESSION_COOKIE } from '../../src/auth/sessions.ts';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = '/tmp/launchlist-home-voted.png';
const missing = !existsSync(CHROMIUM);

let t: LiveApp;
let browser: Browser;

before(async () => {
  if (missing) return;
  t = await liveApp({}, async (store) => {
    await seedDemo(store);
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
after(async () => {
  await browser?.close();
  await t?.cleanup();
});

test('sign up, vote on the home page, see the count change', {
  skip: missing ? `${CHROMIUM} is not installed (apt-get install chromium)` : false,
  timeout: 90_000,
}, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });

  // Sign up through the form.
  await page.goto(`${t.base}/sign-up`);
  await page.getByLabel('Your name').fill('Grace Hopper');
  const email = `grace-${Date.now()}@example.com`;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await Promise.all([page.waitForURL(/\/account/), page.getByRole('button', { name: 'Create account' }).click()]);
  // Votes count from confirmed addresses: open the confirmation link from the mail.
  const [mail] = await outboxFor(t.store.db, email);
  const link = /https?:\/\/\S+\/verify-email\?token=\S+/.exec(mail.text)![0];
  await page.goto(link);

  // The home page: this week's launches with vote buttons.
  await page.goto(`${t.base}/`);
  assert.equal(await page.locator('h1').textContent(), "This week's launches");
  const row = page.locator('main ol.items > li').nth(1);
  const id = (await row.getAttribute('id'))!;
  const slug = id.replace(/^l-/, '');
  const button = row.locator('button.vote-btn');
  assert.equal(await button.getAttribute('aria-pressed'), 'false');
  const before = Number(await button.locator('.n').textContent());
  const apiBefore = (await (await fetch(`${t.base}/api/v1/listings/${slug}`)).json()).votes;
  assert.equal(before, apiBefore);

  // Vote: the form posts, the site redirects back to the same row, the count is one higher.
  await Promise.all([page.waitForURL((u) => u.hash === `#${id}`), button.click()]);
  const voted = page.locator(`#${id} button.vote-btn`);
  assert.equal(Number(await voted.locator('.n').textContent()), before + 1);
  assert.equal(await voted.getAttribute('aria-pressed'), 'true');
  assert.equal((await (await fetch(`${t.base}/api/v1/listings/${slug}`)).json()).votes, before + 1);

  // The local stylesheet applied (the vote button is styled as a box, not a plain button).
  const styled = await voted.evaluate((el) => getComputedStyle(el).borderTopLeftRadius);
  assert.equal(styled, '8px');
  await page.screenshot({ path: SCREENSHOT });

  // Pressing again takes the vote back.
  await Promise.all([page.waitForLoadState('load'), voted.click()]);
  await page.waitForFunction(
    (sel) => document.querySelector(sel)?.getAttribute('aria-pressed') === 'false',
    `#${id} button.vote-btn`,
  );
  assert.equal(Number(await page.locator(`#${id} button.vote-btn .n`).textContent()), before);
  assert.deepEqual(problems, [], 'no console errors (CSP violations would show here)');
});

test("at 360 px no page is wider than the screen: search filters, facts, long unbroken names, the maker's edit forms, admin tables with screen-reader texts", {
  skip: missing ? `${CHROMIUM} is not installed (apt-get install chromium)` : false,
  timeout: 90_000,
}, async () => {
  const db = t.store.db;
  const maker = await makeUser(t.store);
  const admin = await makeUser(t.store, { role: 'admin' });
  // A product named by one long word, live (public pages) and another still a draft (the maker's page).
  const name = 'Supercalifragilisticexpialidociousnotetakingapp';
  const live = await listing(db, {
    slug: 'longword',
    name,
    category: 'productivity',
    launched_at: new Date().toISOString(),
    pricing_model: 'Subscription',
  });
  const draft = await listing(db, { slug: 'longword-draft', name, category: 'productivity', status: 'draft' });
  await db.updateTable('listings').set({ owner_id: maker.id }).where('id', 'in', [live, draft]).execute();
  // A paid line waiting for the team (its row holds screen-reader texts).
  const now = new Date().toISOString();
  const order = await db
    .insertInto('orders')
    .values({
      number: 'LL-2026-990001',
      user_id: maker.id,
      status: 'paid',
      currency: 'usd',
      subtotal_cents: 14900,
      discount_cents: 0,
      vat_cents: 0,
      total_cents: 14900,
      vat_rate_bp: 0,
      billing_country: 'US',
      vat_number: null,
      reverse_charge: false,
      promo_code: null,
      checkout_token: 'layout-test-token',
      provider: 'test',
      provider_ref: null,
      created_at: now,
      paid_at: now,
      expires_at: null,
      billing_name: 'Maker',
      billing_address: '1 Main St',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('order_lines')
    .values({
      order_id: order.id,
      product_code: 'done_for_you',
      description: `Done-for-you launch for ${name}`,
      listing_id: live,
      week: null,
      quantity: 1,
      unit_cents: 14900,
      amount_cents: 14900,
      options: '{}',
      fulfilled_at: null,
      categories: '[]',
    })
    .execute();

  // A draft with founders, links and a FAQ (its page of founders, links, FAQs, story and milestones).
  const makerDraft = await insertDraft(db, { userId: maker.id, url: 'https://longword.example/', now });
  await updateDraft(db, makerDraft.id, {
    status: 'ready',
    founders: [{ name, title: 'Founder' }],
    faqs: [{ question: `What is ${name}?`, answer: 'Notes.' }],
    company_socials: { x: `https://x.com/${name}` },
    founder_socials: {},
  });
  const widthOf = async (user: { id: number } | null, paths: string[]): Promise<Record<string, number>> => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    if (user)
      await context.addCookies([
        { name: SESSION_COOKIE, value: (await createSession(db, user.id)).token, url: t.base },
      ]);
    const page = await context.newPage();
    const out: Record<string, number> = {};
    for (const path of paths) {
      const res = await page.goto(`${t.base}${path}`);
      assert.equal(res?.status(), 200, path);
      out[path] = await page.evaluate(() => document.documentElement.scrollWidth);
    }
    await context.close();
    return out;
  };
  const widths = {
    ...(await widthOf(null, [
      '/search',
      '/search?q=note&country=US',
      '/listings/longword',
      '/listings/ledgerbot',
      '/',
      '/compare?a=longword&b=ledgerbot',
      '/how-ranking-works',
    ])),
    ...(await widthOf(maker, [
      `/my/listings/${draft}`,
      '/my/listings',
      `/my/listings/${live}/edit`,
      `/my/listings/${live}/story`,
      `/my/listings/${live}/milestones`,
      '/my/interview',
      `/drafts/${makerDraft.id}/more`,
    ])),
    ...(await widthOf(admin, ['/admin/orders', '/admin', '/admin/votes'])),
  };
  assert.deepEqual(
    widths,
    Object.fromEntries(Object.keys(widths).map((p) => [p, 360])),
    'scrollWidth of each page at a 360 px viewport',
  );
});
