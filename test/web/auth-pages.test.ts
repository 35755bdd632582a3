// The website's accounts: sign up, sign in, sign out, CSRF refusal, rate limits, email verification,
// password reset, and API keys on the account page (create → shown once → use → revoke → 401).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Browser, csrfOf, $ } from '../auth/browser.ts';
import { liveApp, makeUser, PASSWORD, type LiveApp } from '../auth/helpers.ts';
import { testApp } from '../support/app.ts';
import { outboxFor } from '../../src/mail/index.ts';
import { API_KEY_PATTERN } from '../../src/auth/api-keys.ts';

let t: LiveApp;
before(async () => {
  t = await liveApp();
});
after(async () => {
  await t.cleanup();
});

let n = 0;
const newEmail = () => `web${++n}-${Date.now().toString(36)}@example.com`;

async function signUp(b: Browser, email: string, password = PASSWORD, name = 'Ada Lovelace') {
  const page = await b.go('/sign-up');
  return b.go('/sign-up', { form: { _csrf: csrfOf(page.text, '/sign-up'), name, email, password } });
}

async function signInAs(b: Browser, email: string, password = PASSWORD, next?: string) {
  const page = await b.go('/sign-in');
  return b.go('/sign-in', {
    form: { _csrf: csrfOf(page.text, '/sign-in'), email, password, ...(next ? { next } : {}) },
  });
}

function setCookie(res: Response, name: string): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
}

async function linkIn(email: string, path: string): Promise<string> {
  const [mail] = await outboxFor(t.store.db, email);
  assert.ok(mail, `a mail was sent to ${email}`);
  const m = new RegExp(`${t.base.replace(/[.:/]/g, '\\$&')}${path}\\?token=([A-Za-z0-9_%-]+)`).exec(mail.text);
  assert.ok(m, `the mail holds a ${path} link: ${mail.text}`);
  return m[0];
}

test('sign up: CSRF is required, then an account, a session cookie and a verification mail', async () => {
  const b = new Browser(t.base);
  const email = newEmail();
  const form = await b.go('/sign-up');
  assert.equal(form.res.status, 200);
  assert.equal($(form.text)('h1').text(), 'Create an account');
  assert.ok(b.cookie('ll_csrf'));

  // Without the token (or with a wrong one) the form is refused and nothing is created.
  const noToken = await b.request('/sign-up', { form: { name: 'X', email, password: PASSWORD } });
  assert.equal(noToken.status, 403);
  const wrongToken = await b.request('/sign-up', { form: { _csrf: 'forged', name: 'X', email, password: PASSWORD } });
  assert.equal(wrongToken.status, 403);
  const other = new Browser(t.base); // a token from another browser does not fit this one's cookie
  const otherPage = await other.go('/sign-up');
  assert.equal(
    (await b.request('/sign-up', { form: { _csrf: csrfOf(otherPage.text, '/sign-up'), email, password: PASSWORD } }))
      .status,
    403,
  );
  assert.equal(
    await t.store.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
    undefined,
  );

  const res = await b.request('/sign-up', {
    form: { _csrf: csrfOf(form.text, '/sign-up'), name: 'Ada <b>Lovelace</b>', email, password: PASSWORD },
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), '/account?notice=welcome');
  const cookie = setCookie(res, 'll_session')!;
  assert.match(cookie, /HttpOnly/i);
  assert.match(cookie, /SameSite=Lax/i);
  assert.match(cookie, /Path=\//);
  assert.doesNotMatch(cookie, /Secure/); // PUBLIC_URL is http here

  const account = await b.go('/account');
  assert.equal(account.res.status, 200);
  assert.match(account.text, /Ada &lt;b&gt;Lovelace&lt;\/b&gt;/); // what people type is escaped
  assert.match($(account.text)('#profile-h').parent().text(), /not confirmed yet/);
  assert.equal(account.res.headers.get('cache-control'), 'private, no-store');

  const link = await linkIn(email, '/verify-email');
  const verified = await b.go(link);
  assert.equal(verified.res.status, 200);
  assert.match(verified.text, /confirmed/);
  assert.match(
    $((await b.go('/account')).text)('#profile-h')
      .parent()
      .text(),
    /\(confirmed\)/,
  );
  assert.equal((await b.go(link)).res.status, 400, 'a verification link works once');
});

test('sign up refuses a short password and a taken email, naming the field', async () => {
  const b = new Browser(t.base);
  const email = newEmail();
  const short = await signUp(b, email, 'short');
  assert.equal(short.res.status, 400);
  assert.match($(short.text)('#password-error').text(), /at least 10 characters/);
  for (const [weak, why] of [
    [' '.repeat(12), /repeated/],
    ['aaaaaaaaaa', /repeated/],
    ['ababababab', /repeated/],
    ['1234567890', /run of consecutive/],
    ['kjihgfedcba', /run of consecutive/],
  ] as const) {
    const res = await signUp(b, email, weak);
    assert.equal(res.res.status, 400, JSON.stringify(weak));
    assert.match($(res.text)('#password-error').text(), why, JSON.stringify(weak));
  }
  assert.equal((await signUp(b, email)).res.status, 200); // ends on the account page
  const again = await signUp(new Browser(t.base), email.toUpperCase());
  assert.equal(again.res.status, 400);
  assert.match($(again.text)('#email-error').text(), /already exists/);
});

test('sign in and sign out; sign-out needs the CSRF token; next= only goes to our own pages', async () => {
  const user = await makeUser(t.store);
  const b = new Browser(t.base);
  const wrong = await signInAs(b, user.email, 'wrong password!!');
  assert.equal(wrong.res.status, 400);
  assert.match(wrong.text, /email or password is not right/);
  assert.equal(b.cookie('ll_session'), undefined);

  const ok = await signInAs(b, user.email, PASSWORD, '/account?from=test');
  assert.equal(ok.url, `${t.base}/account?from=test`);
  assert.match($(ok.text)('header .me').text(), new RegExp(user.name));
  const token = b.cookie('ll_session')!;

  const open = await signInAs(new Browser(t.base), user.email, PASSWORD, '//evil.example/x');
  assert.equal(open.url, `${t.base}/account`);
  // Browsers drop tabs and newlines from a URL: "/<TAB>/evil.example" would be "//evil.example".
  for (const next of ['/\t/evil.example/x', '/\n/evil.example', '/\\evil.example', '/\u00a0/x']) {
    const tricked = await signInAs(new Browser(t.base), user.email, PASSWORD, next);
    assert.equal(tricked.url, `${t.base}/account`, JSON.stringify(next));
  }

  // Sign-out without the token is refused and changes nothing.
  assert.equal((await b.request('/sign-out', { method: 'POST', form: {} })).status, 403);
  assert.equal((await b.go('/account')).res.status, 200);
  const page = await b.go('/account');
  const out = await b.request('/sign-out', { form: { _csrf: csrfOf(page.text, '/sign-out') } });
  assert.equal(out.status, 303);
  assert.equal(b.cookie('ll_session'), undefined);
  const after = await b.request('/account');
  assert.equal(after.status, 303);
  assert.match(after.headers.get('location') ?? '', /^\/sign-in/);
  // The old session token no longer works even if someone kept it.
  const replay = await fetch(`${t.base}/account`, { headers: { cookie: `ll_session=${token}` }, redirect: 'manual' });
  assert.equal(replay.status, 303);
});

test('sign-in attempts are rate-limited per address (10 per 15 minutes) with 429 and Retry-After', async () => {
  const user = await makeUser(t.store);
  const b = new Browser(t.base);
  const page = await b.go('/sign-in');
  const csrf = csrfOf(page.text, '/sign-in');
  for (let i = 0; i < 10; i++) {
    const r = await b.request('/sign-in', {
      form: { _csrf: csrf, email: user.email, password: `wrong-${i}-password` },
    });
    assert.equal(r.status, 400);
  }
  const limited = await b.request('/sign-in', { form: { _csrf: csrf, email: user.email, password: PASSWORD } });
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get('retry-after')) > 0);
  assert.match(await limited.text(), /Too many sign-in attempts/);
});

test('people signing in rightly from one network are not paused: a successful sign-in is taken off the per-network count (50 per 15 minutes)', async (ctx) => {
  const own = await liveApp(); // its own server: the guesses below use up the address's count
  ctx.after(() => own.cleanup());
  // An office behind one address: 6 colleagues, 60 sign-ins between them, each one right.
  const people = await Promise.all(Array.from({ length: 6 }, () => makeUser(own.store)));
  for (let i = 0; i < 60; i++) {
    const b = new Browser(own.base);
    const form = await b.go('/sign-in');
    const r = await b.go('/sign-in', {
      form: { _csrf: csrfOf(form.text, '/sign-in'), email: people[i % people.length].email, password: PASSWORD },
    });
    assert.equal(r.res.status, 200, `sign-in ${i + 1} from the shared address: ${r.res.status}`);
    assert.match(r.url, /\/account$/);
  }
  // Wrong passwords still count: a guesser from that address is paused after the network's 50.
  const guesser = new Browser(own.base);
  const page = await guesser.go('/sign-in');
  let paused = 0;
  for (let i = 0; i < 60 && !paused; i++) {
    const who = `nobody-${i}@example.com`; // a new address each time: only the per-network count can stop it
    const r = await guesser.request('/sign-in', {
      form: { _csrf: csrfOf(page.text, '/sign-in'), email: who, password: 'not the password 1' },
    });
    if (r.status === 429) paused = i + 1;
    else assert.equal(r.status, 400);
  }
  assert.ok(paused > 0 && paused <= 51, `guessing from one address is paused (after ${paused} tries)`);
});

test('password reset: a mailed single-use link sets a new password and signs out other sessions', async () => {
  const user = await makeUser(t.store);
  const elsewhere = new Browser(t.base);
  await signInAs(elsewhere, user.email);
  assert.equal((await elsewhere.go('/account')).res.status, 200);

  const b = new Browser(t.base);
  const forgot = await b.go('/forgot-password');
  const sent = await b.go('/forgot-password', {
    form: { _csrf: csrfOf(forgot.text, '/forgot-password'), email: user.email },
  });
  assert.match(sent.text, /Check your email/);
  // The same answer for an address with no account (no account discovery).
  const none = await b.go('/forgot-password', {
    form: { _csrf: csrfOf(forgot.text, '/forgot-password'), email: 'nobody-here@example.com' },
  });
  assert.match(none.text, /Check your email/);
  assert.equal((await outboxFor(t.store.db, 'nobody-here@example.com')).length, 0);
  // An empty or malformed address is a form error, not "check your email".
  for (const email of ['', 'not-an-address']) {
    const bad = await b.go('/forgot-password', { form: { _csrf: csrfOf(forgot.text, '/forgot-password'), email } });
    assert.equal(bad.res.status, 400, JSON.stringify(email));
    assert.doesNotMatch(bad.text, /Check your email/);
    assert.match($(bad.text)('#email-error').text(), /^The email /);
  }

  const link = await linkIn(user.email, '/reset-password');
  const form = await b.go(link);
  assert.equal(form.res.status, 200);
  const csrf = csrfOf(form.text, '/reset-password');
  const tokenValue = $(form.text)('input[name=token]').attr('value')!;
  const weak = await b.go('/reset-password', { form: { _csrf: csrf, token: tokenValue, password: 'short' } });
  assert.equal(weak.res.status, 400);
  const done = await b.go('/reset-password', {
    form: { _csrf: csrf, token: tokenValue, password: 'a brand new passphrase' },
  });
  assert.equal(done.url, `${t.base}/account?notice=password-reset`);
  assert.match(done.text, /new password is saved/);
  for (const name of ['constructor', '__proto__'])
    assert.equal(
      $((await b.go(`/account?notice=${name}`)).text)('.flash').length,
      0,
      `?notice=${name} names no message`,
    );

  assert.equal((await elsewhere.request('/account')).status, 303, 'other sessions were ended');
  assert.equal(
    (await signInAs(new Browser(t.base), user.email, PASSWORD)).res.status,
    400,
    'the old password no longer works',
  );
  assert.equal((await signInAs(new Browser(t.base), user.email, 'a brand new passphrase')).res.status, 200);
  assert.equal((await b.go(link)).res.status, 400, 'the link works once');
});

test('session cookies are Secure when PUBLIC_URL is https', async () => {
  const s = await testApp({ PUBLIC_URL: 'https://launchlist.example' });
  try {
    const user = await makeUser(s.store);
    const form = await s.app.inject({ method: 'GET', url: '/sign-in' });
    const csrfCookie = String(form.headers['set-cookie']);
    assert.match(csrfCookie, /Secure/);
    const cookieValue = /ll_csrf=([^;]+)/.exec(csrfCookie)![1];
    const r = await s.app.inject({
      method: 'POST',
      url: '/sign-in',
      headers: { cookie: `ll_csrf=${cookieValue}` },
      payload: { _csrf: csrfOf(form.body, '/sign-in'), email: user.email, password: PASSWORD },
    });
    assert.equal(r.statusCode, 303);
    const session = ([] as string[])
      .concat(r.headers['set-cookie'] as string[])
      .find((c) => c.startsWith('ll_session='))!;
    assert.match(session, /; Secure/);
    assert.match(session, /HttpOnly/);
    assert.match(session, /SameSite=Lax/);
  } finally {
    await s.cleanup();
  }
});

test('API keys: create with a name and scopes (shown once), list, use, last used, revoke → 401', async () => {
  const user = await makeUser(t.store);
  const b = new Browser(t.base);
  await signInAs(b, user.email);
  let account = await b.go('/account');
  const csrf = csrfOf(account.text, '/account/api-keys');

  assert.equal(
    (await b.request('/account/api-keys', { form: { name: 'No token', scopes: ['account:read'] } })).status,
    403,
  );
  const noName = await b.go('/account/api-keys', { form: { _csrf: csrf, name: '', scopes: ['account:read'] } });
  assert.equal(noName.res.status, 400);
  assert.match($(noName.text)('#key-error').text(), /name/);
  const noScope = await b.go('/account/api-keys', { form: { _csrf: csrf, name: 'Nothing' } });
  assert.equal(noScope.res.status, 400);
  assert.match($(noScope.text)('#key-error').text(), /at least one scope/);

  const created = await b.go('/account/api-keys', {
    form: { _csrf: csrf, name: 'Build script', scopes: ['account:read', 'listings:write'] },
  });
  assert.equal(created.res.status, 201);
  const key = $(created.text)('[data-testid=new-api-key]').text().trim();
  assert.match(key, API_KEY_PATTERN);
  const prefix = key.split('_').slice(0, 2).join('_');

  account = await b.go('/account');
  assert.ok(!account.text.includes(key), 'the key is shown once only');
  const row = $(account.text)(`#api-keys tr:has(code:contains("${prefix}"))`);
  assert.equal(row.length, 1);
  assert.match(row.text(), /Build script/);
  assert.match(row.text(), /account:read, listings:write/);
  assert.match(row.find('td').eq(4).text(), /never/);

  const me = await fetch(`${t.base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(me.status, 200);
  const body = await me.json();
  assert.deepEqual(body.credential, { type: 'api_key', name: 'Build script', prefix });
  assert.deepEqual(body.scopes, ['account:read', 'listings:write']);
  assert.equal(body.user.email, user.email);

  account = await b.go('/account');
  assert.match(
    $(account.text)(`#api-keys tr:has(code:contains("${prefix}"))`).find('td').eq(4).text(),
    /UTC/,
    'last used is shown',
  );

  const revoke = $(account.text)(`#api-keys tr:has(code:contains("${prefix}")) form`);
  const done = await b.go(revoke.attr('action')!, { form: { _csrf: revoke.find('input[name=_csrf]').attr('value')! } });
  assert.match(done.text, /was revoked/);
  const after = await fetch(`${t.base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(after.status, 401);
  assert.match(after.headers.get('www-authenticate') ?? '', /error="invalid_token"/);

  // Another person cannot revoke this person's key.
  const other = await makeUser(t.store);
  const ob = new Browser(t.base);
  await signInAs(ob, other.email);
  const op = await ob.go('/account');
  const id = /\/account\/api-keys\/(\d+)\/revoke/.exec(revoke.attr('action')!)![1];
  const r = await ob.go(`/account/api-keys/${id}/revoke`, { form: { _csrf: csrfOf(op.text, '/account/api-keys') } });
  assert.equal(r.res.status, 404);
  // An id past the largest a record can have, or not in digits, names no key either.
  for (const bad of ['2147483648', '1e3']) {
    const r2 = await ob.go(`/account/api-keys/${bad}/revoke`, {
      form: { _csrf: csrfOf(op.text, '/account/api-keys') },
    });
    assert.equal(r2.res.status, 404, bad);
  }
});

test('pages without a form set no cookie for signed-out visitors (public pages stay cacheable)', async () => {
  const r = await fetch(`${t.base}/verify-email?token=not-a-token`);
  assert.equal(r.status, 400);
  assert.deepEqual(r.headers.getSetCookie(), []);
  const withForm = await fetch(`${t.base}/sign-in`);
  assert.equal(withForm.headers.getSetCookie().length, 1);
});

test('a repeated query parameter on the sign-in and email-link pages is read as its first value, not a 500', async () => {
  const signIn = await fetch(`${t.base}/sign-in?next=/account&next=/elsewhere`);
  assert.equal(signIn.status, 200);
  assert.match(await signIn.text(), /name="next" value="\/account"/);
  for (const path of ['/verify-email?token=a&token=b', '/reset-password?token=a&token=b']) {
    const r = await fetch(t.base + path);
    assert.ok(r.status >= 400 && r.status < 500, `${path}: ${r.status}`);
  }
});

test('sign-in, sign-up and password-reset pages are not indexed: every listing page links sign-in with its own ?next=', async () => {
  for (const path of ['/sign-in', '/sign-in?next=%2Flistings%2Facme%2Fclaim', '/sign-up', '/forgot-password']) {
    const r = await fetch(t.base + path);
    assert.equal(r.status, 200, path);
    assert.equal($(await r.text())('meta[name=robots]').attr('content'), 'noindex', path);
  }
});
