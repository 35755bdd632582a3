// The consent page's CSP in real Chromium: form-action 'self' alone would stop the browser from following
// the redirect after "Allow" to the client's redirect URI (Chromium applies form-action to a form's
// redirects). The sign-in and consent pages add the client's redirect origin; this proves the person
// lands on the client with a code, and that an unrelated origin is still refused.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { liveApp, makeUser, pkce, PASSWORD, type LiveApp } from '../auth/helpers.ts';
import type { User } from '../../src/auth/users.ts';

const CHROMIUM = '/usr/bin/chromium';
const missing = !existsSync(CHROMIUM);
const skip = missing ? `${CHROMIUM} is not installed (apt-get install chromium)` : false;

let t: LiveApp;
let user: User;
let browser: Browser;
let client: Server;
let redirect: string;
let received: string | undefined;

before(async () => {
  if (missing) return;
  t = await liveApp();
  user = await makeUser(t.store);
  // The OAuth client's callback, on another origin (another port of loopback).
  client = createServer((req, res) => {
    if (req.url?.startsWith('/callback')) received = req.url;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>client got the code</h1>');
  });
  await new Promise<void>((r) => client.listen(0, '127.0.0.1', r));
  redirect = `http://127.0.0.1:${(client.address() as AddressInfo).port}/callback`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
});
after(async () => {
  await browser?.close();
  client?.close();
  await t?.cleanup();
});

test('in Chromium, Allow on the consent page takes the person back to the client with a code', {
  skip,
  timeout: 60_000,
}, async () => {
  const reg = await fetch(`${t.base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Browser Agent',
      redirect_uris: [redirect],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    }),
  });
  assert.equal(reg.status, 201);
  const { client_id } = (await reg.json()) as { client_id: string };
  const q = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: redirect,
    scope: 'account:read',
    state: 'browser-state',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
  });
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|form-action/i.test(m.text())) violations.push(m.text());
  });
  await page.goto(`${t.base}/oauth/authorize?${q}`);
  await page.fill('input[name=email]', user.email);
  await page.fill('input[name=password]', PASSWORD);
  await Promise.all([
    page.waitForURL(/\/oauth\/interaction\//),
    page.click('form:has(input[name=password]) button[type=submit]'),
  ]);
  await page.waitForSelector('form[action$="/confirm"] button');
  await Promise.all([page.waitForURL(`${redirect}**`), page.click('form[action$="/confirm"] button')]);
  assert.ok(received?.startsWith('/callback?'), `the client received ${received}`);
  const back = new URL(received!, redirect);
  assert.ok(back.searchParams.get('code'));
  assert.equal(back.searchParams.get('state'), 'browser-state');
  assert.deepEqual(violations, []);
  await page.close();
});
