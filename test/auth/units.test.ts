// Pure pieces: password hashing, HTML escaping of the shared layout, scopes in words, the attempt limiter,
// single-use email tokens and the outbox.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { hashPassword, verifyPassword, needsRehash } from '../../src/auth/passwords.ts';
import { html, raw, escapeHtml, renderPage, safeHref } from '../../src/web/layout.ts';
import { allowsInWords, parseScopes } from '../../src/auth/scopes.ts';
import { AttemptLimiter } from '../../src/auth/rate-limit.ts';
import { freshStore, type TestDb } from '../support/app.ts';
import { createUser } from '../../src/auth/users.ts';
import { consumeEmailToken, issueEmailToken, peekEmailToken } from '../../src/auth/email-tokens.ts';
import { sendMail, outboxFor } from '../../src/mail/index.ts';

let t: TestDb;
before(async () => {
  t = await freshStore();
});
after(async () => {
  await t.cleanup();
});

test('passwords: scrypt with a per-password salt; only the right password verifies', async () => {
  const a = await hashPassword('correct horse battery staple');
  const b = await hashPassword('correct horse battery staple');
  assert.notEqual(a, b, 'salted');
  assert.match(a, /^scrypt\$15\$8\$1\$/);
  assert.ok(!a.includes('correct horse'));
  assert.equal(await verifyPassword('correct horse battery staple', a), true);
  assert.equal(await verifyPassword('correct horse battery stapl', a), false);
  assert.equal(await verifyPassword('anything', null), false);
  assert.equal(await verifyPassword('anything', 'garbage'), false);
  assert.equal(needsRehash(a), false);
  assert.equal(needsRehash('scrypt$14$8$1$x$y'), true);
});

test('layout: interpolated text is escaped, nested html and arrays are kept, raw is explicit', () => {
  const evil = `<script>alert("x")</script>' onmouseover='x`;
  const out =
    html`<p title="${evil}">${evil}</p>${[html`<b>${'a&b'}</b>`, '<i>']}${null}${undefined}${false}${raw('<hr>')}`
      .value;
  assert.equal(out, `<p title="${escapeHtml(evil)}">${escapeHtml(evil)}</p><b>a&amp;b</b>&lt;i&gt;<hr>`);
  assert.ok(!out.includes('<script>'));
  assert.ok(!out.includes(`'`));
  const page = renderPage(
    { title: '<Title>', user: { name: '<Bob>', email: 'b@example.com', role: 'user' }, csrf: 'tok"en' },
    html`<h1>Hi</h1>`,
  );
  assert.match(page, /<title>&lt;Title&gt; · Launchlist<\/title>/);
  assert.match(page, /&lt;Bob&gt;/);
  assert.match(page, /name="_csrf" value="tok&quot;en"/);
  assert.match(page, /<main id="main"/);
  assert.match(page, /<a class="skip" href="#main">/);
  assert.equal(safeHref('javascript:alert(1)'), null);
  assert.equal(safeHref('//evil.example'), null);
  assert.equal(safeHref('/account'), '/account');
  assert.equal(safeHref('https://example.com/x'), 'https://example.com/x');
});

test('scopes: parsed from lists and described in plain words', () => {
  assert.deepEqual(parseScopes('orders:write, account:read account:read'), {
    scopes: ['account:read', 'orders:write'],
    unknown: [],
  });
  assert.deepEqual(parseScopes('admin').unknown, ['admin']);
  const words = allowsInWords(['orders:write', 'account:read']);
  assert.equal(words.length, 2);
  assert.match(words[0], /See your account/);
  assert.match(words[1], /never sees or enters payment details/);
});

test('attempt limiter: the 11th attempt in the window is refused until the window passes', async () => {
  const l = new AttemptLimiter(10, 60_000);
  const now = 1_000_000;
  for (let i = 0; i < 10; i++) assert.equal(await l.hit('k', now), 0);
  assert.equal(await l.hit('k', now + 1000), 59);
  assert.equal(await l.hit('other', now + 1000), 0);
  assert.equal(await l.hit('k', now + 60_001), 0);
  await l.reset('k');
  assert.equal(await l.hit('k', now + 60_002), 0);
});

test('email tokens work once, for their purpose only, and a new one replaces the old', async () => {
  const u = await createUser(t.store.db, { email: 'tokens@example.com', password: 'a long enough password' });
  const first = await issueEmailToken(t.store.db, u.id, 'reset_password');
  const second = await issueEmailToken(t.store.db, u.id, 'reset_password');
  assert.equal(await peekEmailToken(t.store.db, first, 'reset_password'), null, 'replaced');
  assert.equal(await consumeEmailToken(t.store.db, second, 'verify_email'), null, 'wrong purpose');
  assert.equal(await peekEmailToken(t.store.db, second, 'reset_password'), u.id);
  assert.equal(await consumeEmailToken(t.store.db, second, 'reset_password'), u.id);
  assert.equal(await consumeEmailToken(t.store.db, second, 'reset_password'), null, 'single use');
  const stale = await issueEmailToken(t.store.db, u.id, 'verify_email');
  await t.store.db
    .updateTable('email_tokens')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('user_id', '=', u.id)
    .where('purpose', '=', 'verify_email')
    .execute();
  assert.equal(await consumeEmailToken(t.store.db, stale, 'verify_email'), null, 'expired');
  const stored = await t.store.db.selectFrom('email_tokens').select('id').execute();
  assert.ok(
    stored.every((r) => r.id !== second && r.id.length === 64),
    'only hashes are stored',
  );
});

test('mail: without SMTP the message is kept in the outbox; a bad SMTP server is recorded, not thrown', async () => {
  const r = await sendMail(
    { db: t.store.db, config: { SMTP_URL: undefined, MAIL_FROM: 'x@example.com' } },
    { to: 'someone@example.com', subject: 'Hello', text: 'Body' },
  );
  assert.equal(r.sent, false);
  const [row] = await outboxFor(t.store.db, 'someone@example.com');
  assert.equal(row.subject, 'Hello');
  assert.equal(row.sent_at, null);
  const failed = await sendMail(
    { db: t.store.db, config: { SMTP_URL: 'smtp://127.0.0.1:1', MAIL_FROM: 'x@example.com' } },
    { to: 'someone@example.com', subject: 'Again', text: 'Body' },
  );
  assert.equal(failed.sent, false);
  assert.ok(failed.error);
  const [again] = await outboxFor(t.store.db, 'someone@example.com');
  assert.equal(again.subject, 'Again');
  assert.ok(again.error);
  await assert.rejects(
    sendMail(
      { db: t.store.db, config: { SMTP_URL: undefined, MAIL_FROM: 'x' } },
      { to: 'a@example.com\r\nBcc: b@example.com', subject: 's', text: 't' },
    ),
  );
});
