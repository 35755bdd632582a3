// Sign up, sign in, sign out, email verification and password reset.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import {
  authenticate,
  createUser,
  emailProblem,
  findUserByEmail,
  findUserById,
  markEmailVerified,
  normalizeEmail,
  setPassword,
  UserError,
  type User,
} from '../auth/users.ts';
import { passwordProblem, PASSWORD_MIN } from '../auth/passwords.ts';
import {
  createSession,
  destroySession,
  destroyUserSessions,
  SESSION_COOKIE,
  SESSION_TTL_MS,
} from '../auth/sessions.ts';
import { consumeEmailToken, issueEmailToken, peekEmailToken } from '../auth/email-tokens.ts';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_MS } from '../auth/sign-in-guard.ts';
import { endOAuthSessions } from '../auth/oauth/tokens.ts';
import { sendMail } from '../mail/index.ts';
import { checkCsrf, cookieOptions, getWebContext, pageFor, resetWebContext, type WebContext } from './context.ts';
import { csrfField, html, sendPage, type SafeHtml, raw } from './layout.ts';
import { qs, safeBack } from './pages/shared.ts';

type Form = Record<string, string | undefined>;
const form = (req: FastifyRequest): Form => {
  const b = req.body;
  if (!b || typeof b !== 'object') return {};
  const out: Form = {};
  for (const [k, v] of Object.entries(b as Record<string, unknown>))
    out[k] = typeof v === 'string' ? v : Array.isArray(v) ? String(v[0]) : undefined;
  return out;
};

/** Only same-site paths are followed after sign-in (safeBack's rule: no open redirects). */
export function safeNext(next: string | undefined, fallback = '/account'): string {
  return safeBack(next, fallback);
}

function ipOf(req: FastifyRequest): string {
  return req.ip ?? 'unknown';
}

/** Starts a website session for the person (new token: no session fixation). */
export async function signIn(deps: AppDeps, req: FastifyRequest, reply: FastifyReply, user: User): Promise<void> {
  const old = req.cookies?.[SESSION_COOKIE];
  if (old) await destroySession(deps.store.db, old);
  const { token } = await createSession(deps.store.db, user.id);
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(deps, SESSION_TTL_MS));
  req.cookies[SESSION_COOKIE] = token;
  resetWebContext(req);
}

/** Rate limit of sign-in attempts; sends the 429 page and returns false when over the limit. */
export async function allowSignInAttempt(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  email: string,
  ctx: WebContext,
): Promise<boolean> {
  // The counts and why strangers cannot pause a person's own sign-in: auth/sign-in-guard.ts.
  const { wait, from } = await deps.auth.signInGuard.attempt({
    ip: ipOf(req),
    email: normalizeEmail(email),
    deviceCookie: req.cookies?.[DEVICE_COOKIE],
  });
  if (!wait) return true;
  reply.header('Retry-After', String(wait));
  sendPage(
    reply,
    { title: 'Too many attempts', user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true },
    html`
    <h1>Too many sign-in attempts</h1>
    <p>For your safety, sign-in for this address is paused${from === 'elsewhere' ? ' from networks and browsers it has not signed in from' : ''}. Try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? 's' : ''}.</p>
    <p>Forgot your password? <a href="/forgot-password">Reset it by email</a>.</p>`,
    429,
  );
  return false;
}

/**
 * A successful sign-in clears that address's count on its network, takes the attempt off the network's
 * count, remembers the network as the person's and gives the browser its device cookie (sign-in-guard.ts).
 */
export async function signInSucceeded(
  deps: AppDeps,
  req: FastifyRequest,
  email: string,
  reply?: FastifyReply,
): Promise<void> {
  const cookie = await deps.auth.signInGuard.succeeded({
    ip: ipOf(req),
    email: normalizeEmail(email),
    deviceCookie: req.cookies?.[DEVICE_COOKIE],
  });
  reply?.setCookie(DEVICE_COOKIE, cookie, cookieOptions(deps, DEVICE_COOKIE_MAX_AGE_MS));
}

export function signInForm(opts: {
  action: string;
  csrf: string;
  email?: string;
  next?: string;
  error?: string;
  submit?: string;
}): SafeHtml {
  return html`
  <form method="post" action="${opts.action}" class="stack" novalidate>
    ${csrfField(opts.csrf)}
    ${opts.next ? html`<input type="hidden" name="next" value="${opts.next}">` : ''}
    ${opts.error ? html`<p class="field-error" role="alert" id="signin-error">${opts.error}</p>` : ''}
    <div><label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${opts.email ?? ''}"${opts.error ? html` aria-describedby="signin-error"` : ''}></div>
    <div><label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="200"></div>
    <div class="actions"><button type="submit">${opts.submit ?? 'Sign in'}</button> <a href="/forgot-password">Forgot your password?</a></div>
  </form>`;
}

async function sendVerification(deps: AppDeps, req: FastifyRequest, user: User): Promise<void> {
  const token = await issueEmailToken(deps.store.db, user.id, 'verify_email');
  const link = `${deps.config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  await sendMail(
    { ...deps.auth.mail, log: req.log },
    {
      to: user.email,
      subject: 'Confirm your email address for Launchlist',
      text: `Hello ${user.name},\n\nPlease confirm your email address by opening this link (valid for 48 hours):\n\n${link}\n\nIf you did not create a Launchlist account, ignore this message.\n`,
      html: html`<p>Hello ${user.name},</p><p>Please confirm your email address (the link is valid for 48 hours):</p><p><a href="${link}">Confirm my email address</a></p><p>If you did not create a Launchlist account, ignore this message.</p>`
        .value,
    },
  );
}

export function registerAuthPages(app: FastifyInstance, deps: AppDeps): void {
  const db = deps.store.db;

  // ---- Sign up
  const signUpPage = (
    reply: FastifyReply,
    ctx: WebContext,
    v: Form = {},
    errors: Record<string, string | SafeHtml> = {},
    status = 200,
  ) => {
    const err = (f: string) => (errors[f] ? html`<span class="field-error" id="${f}-error">${errors[f]}</span>` : '');
    const described = (f: string) => (errors[f] ? html` aria-invalid="true" aria-describedby="${f}-error"` : '');
    return sendPage(
      reply,
      {
        title: 'Create an account',
        user: ctx.user,
        csrf: ctx.csrf,
        narrow: true,
        noindex: true,
        flash: Object.keys(errors).length ? { kind: 'error', text: 'Please fix the fields marked below.' } : null,
      },
      html`
      <h1>Create an account</h1>
      <form method="post" action="/sign-up" class="stack" novalidate>
        ${csrfField(ctx.csrf)}
        <div><label for="name">Your name</label>
          <input id="name" name="name" type="text" autocomplete="name" maxlength="120" value="${v.name ?? ''}"${described('name')}>${err('name')}</div>
        <div><label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${v.email ?? ''}"${described('email')}>${err('email')}</div>
        <div><label for="password">Password <span class="hint">(at least ${PASSWORD_MIN} characters)</span></label>
          <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}" maxlength="200"${described('password')}>${err('password')}</div>
        <div><button type="submit">Create account</button></div>
      </form>
      <p>Already have an account? <a href="/sign-in">Sign in</a>.</p>`,
      status,
    );
  };

  app.get('/sign-up', async (req, reply) => {
    const ctx = await getWebContext(deps, req, reply);
    if (ctx.user) return reply.redirect('/account', 303);
    return signUpPage(reply, ctx);
  });

  app.post('/sign-up', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await getWebContext(deps, req, reply);
    const f = form(req);
    const email = normalizeEmail(f.email ?? '');
    const errors: Record<string, string | SafeHtml> = {};
    const ep = emailProblem(email);
    if (ep) errors.email = `Email ${ep}.`;
    const pp = passwordProblem(f.password ?? '', email);
    if (pp) errors.password = `Password ${pp}.`;
    if ((f.name ?? '').length > 120) errors.name = 'Name must be at most 120 characters.';
    if (Object.keys(errors).length) return signUpPage(reply, ctx, { name: f.name, email: f.email }, errors, 400);
    const wait = await deps.auth.ipLimiter.hit(`ip:${ipOf(req)}`);
    if (wait) {
      reply.header('Retry-After', String(wait));
      return signUpPage(
        reply,
        ctx,
        { name: f.name, email: f.email },
        { email: 'Too many attempts from your network; try again later.' },
        429,
      );
    }
    let user: User;
    try {
      user = await createUser(db, { email, password: f.password!, name: f.name });
    } catch (e) {
      if (e instanceof UserError) {
        const text =
          e.field === 'email' && /exists/.test(e.message)
            ? html`An account with this email already exists. <a href="/sign-in">Sign in</a> or <a href="/forgot-password">reset your password</a>.`
            : e.message;
        return signUpPage(reply, ctx, { name: f.name, email: f.email }, { [e.field]: text }, 400);
      }
      throw e;
    }
    await sendVerification(deps, req, user);
    await signIn(deps, req, reply, user);
    return reply.redirect('/account?notice=welcome', 303);
  });

  // ---- Sign in (not indexed: every page links it with its own ?next=, and none of them is content)
  const signInPage = (
    reply: FastifyReply,
    ctx: WebContext,
    v: { email?: string; next?: string; error?: string } = {},
    status = 200,
  ) =>
    sendPage(
      reply,
      { title: 'Sign in', user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true },
      html`
      <h1>Sign in</h1>
      ${signInForm({ action: '/sign-in', csrf: ctx.csrf, email: v.email, next: v.next, error: v.error })}
      <p>New here? <a href="/sign-up">Create an account</a>.</p>`,
      status,
    );

  app.get('/sign-in', async (req, reply) => {
    const ctx = await getWebContext(deps, req, reply);
    const next = safeNext(qs(req, 'next'));
    if (ctx.user) return reply.redirect(next, 303);
    return signInPage(reply, ctx, { next });
  });

  app.post('/sign-in', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await getWebContext(deps, req, reply);
    const f = form(req);
    const email = (f.email ?? '').trim();
    const next = safeNext(f.next);
    if (!(await allowSignInAttempt(deps, req, reply, email, ctx))) return reply;
    const user = email && f.password ? await authenticate(db, email, f.password) : null;
    if (!user) return signInPage(reply, ctx, { email, next, error: 'The email or password is not right.' }, 400);
    await signInSucceeded(deps, req, email, reply);
    await signIn(deps, req, reply, user);
    return reply.redirect(next, 303);
  });

  // ---- Sign out
  app.get('/sign-out', async (req, reply) => {
    const ctx = await getWebContext(deps, req, reply);
    if (!ctx.user) return reply.redirect('/', 303);
    return sendPage(
      reply,
      { title: 'Sign out', user: ctx.user, csrf: ctx.csrf, narrow: true },
      html`
      <h1>Sign out</h1>
      <form method="post" action="/sign-out">${csrfField(ctx.csrf)}<button type="submit">Sign out of Launchlist</button></form>`,
    );
  });

  app.post('/sign-out', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await getWebContext(deps, req, reply);
    if (ctx.user) {
      await destroySession(db, req.cookies[SESSION_COOKIE]);
      const opSession = req.cookies.ll_oauth_session;
      if (opSession) await endOAuthSessions(db, ctx.user.id, opSession);
    }
    const opts = cookieOptions(deps);
    reply.clearCookie(SESSION_COOKIE, opts);
    reply.clearCookie('ll_oauth_session', opts);
    reply.clearCookie('ll_oauth_session.sig', opts);
    return reply.redirect('/?notice=signed-out', 303);
  });

  // ---- Email verification
  app.get('/verify-email', async (req, reply) => {
    const ctx = await getWebContext(deps, req, reply);
    const userId = await consumeEmailToken(db, qs(req, 'token') ?? '', 'verify_email');
    if (!userId) {
      return sendPage(
        reply,
        pageFor(ctx, { title: 'Link not valid', narrow: true, noindex: true }),
        html`
        <h1>This link is not valid any more</h1>
        <p>Verification links work once and for 48 hours.</p>
        ${ctx.user ? html`<form method="post" action="/account/verify-email">${csrfField(ctx.csrf)}<button type="submit">Send a new link</button></form>` : html`<p><a href="/sign-in?next=/account">Sign in</a> to get a new link.</p>`}`,
        400,
      );
    }
    await markEmailVerified(db, userId);
    const ctx2 = ctx.user?.id === userId ? { ...ctx, user: await findUserById(db, userId) } : ctx;
    return sendPage(
      reply,
      pageFor(ctx2, { title: 'Email confirmed', narrow: true, noindex: true }),
      html`
      <h1>Your email address is confirmed</h1>
      <p>Thank you. ${ctx2.user ? html`<a href="/account">Go to your account</a>.` : html`<a href="/sign-in">Sign in</a>.`}</p>`,
    );
  });

  app.post('/account/verify-email', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await getWebContext(deps, req, reply);
    if (!ctx.user) return reply.redirect('/sign-in?next=/account', 303);
    if (!ctx.user.email_verified) await sendVerification(deps, req, ctx.user);
    return reply.redirect('/account?notice=verify-sent', 303);
  });

  // ---- Password reset
  const forgotPage = (reply: FastifyReply, ctx: WebContext, sent = false, status = 200, error?: string) =>
    sendPage(
      reply,
      { title: 'Reset your password', user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true },
      sent
        ? html`<h1>Check your email</h1><p>If an account exists for that address, we sent a link to choose a new password. The link works once, for one hour.</p>`
        : html`<h1>Reset your password</h1>
        <p>Enter the email address of your account and we will send you a link to choose a new password.</p>
        <form method="post" action="/forgot-password" class="stack">
          ${csrfField(ctx.csrf)}
          <div><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254"${error ? raw(' aria-invalid="true" aria-describedby="email-error"') : ''}>${error ? html`<p class="error" id="email-error">${error}</p>` : ''}</div>
          <div><button type="submit">Send the link</button></div>
        </form>`,
      status,
    );

  app.get('/forgot-password', async (req, reply) => forgotPage(reply, await getWebContext(deps, req, reply)));

  app.post('/forgot-password', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await getWebContext(deps, req, reply);
    const email = normalizeEmail(form(req).email ?? '');
    // Only the address's form is checked here: whether an account has it is never told.
    const problem = emailProblem(email);
    if (problem) return forgotPage(reply, ctx, false, 400, `The email ${problem}.`);
    const auth = deps.auth;
    const wait = Math.max(await auth.ipLimiter.hit(`ip:${ipOf(req)}`), await auth.signInLimiter.hit(`reset|${email}`));
    if (wait) {
      reply.header('Retry-After', String(wait));
      return sendPage(
        reply,
        { title: 'Too many attempts', user: ctx.user, csrf: ctx.csrf, narrow: true },
        html`<h1>Too many attempts</h1><p>Try again later.</p>`,
        429,
      );
    }
    const user = await findUserByEmail(db, email);
    if (user) {
      const token = await issueEmailToken(db, user.id, 'reset_password');
      const link = `${deps.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
      await sendMail(
        { ...auth.mail, log: req.log },
        {
          to: user.email,
          subject: 'Choose a new Launchlist password',
          text: `Hello ${user.name},\n\nSomeone (hopefully you) asked to reset the password of your Launchlist account. Choose a new password here (the link works once, for one hour):\n\n${link}\n\nIf it was not you, ignore this message; your password stays the same.\n`,
          html: html`<p>Hello ${user.name},</p><p>Someone (hopefully you) asked to reset the password of your Launchlist account.</p><p><a href="${link}">Choose a new password</a> (the link works once, for one hour).</p><p>If it was not you, ignore this message; your password stays the same.</p>`
            .value,
        },
      );
    }
    return forgotPage(reply, ctx, true);
  });

  const resetPage = (reply: FastifyReply, ctx: WebContext, token: string, error?: string, status = 200) =>
    sendPage(
      reply,
      { title: 'Choose a new password', user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true },
      html`
      <h1>Choose a new password</h1>
      <form method="post" action="/reset-password" class="stack" novalidate>
        ${csrfField(ctx.csrf)}
        <input type="hidden" name="token" value="${token}">
        ${error ? html`<p class="field-error" role="alert" id="password-error">${error}</p>` : ''}
        <div><label for="password">New password <span class="hint">(at least ${PASSWORD_MIN} characters)</span></label>
          <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}" maxlength="200"${error ? html` aria-invalid="true" aria-describedby="password-error"` : ''}></div>
        <div><button type="submit">Save the new password</button></div>
      </form>`,
      status,
    );

  const badResetLink = (reply: FastifyReply, ctx: WebContext) =>
    sendPage(
      reply,
      pageFor(ctx, { title: 'Link not valid', narrow: true, noindex: true }),
      html`
      <h1>This link is not valid any more</h1>
      <p>Password reset links work once, for one hour. <a href="/forgot-password">Ask for a new link</a>.</p>`,
      400,
    );

  app.get('/reset-password', async (req, reply) => {
    const ctx = await getWebContext(deps, req, reply);
    const token = qs(req, 'token') ?? '';
    if (!(await peekEmailToken(db, token, 'reset_password'))) return badResetLink(reply, ctx);
    reply.header('Referrer-Policy', 'no-referrer');
    return resetPage(reply, ctx, token);
  });

  app.post('/reset-password', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await getWebContext(deps, req, reply);
    const f = form(req);
    const token = f.token ?? '';
    const pending = await peekEmailToken(db, token, 'reset_password');
    if (!pending) return badResetLink(reply, ctx);
    const target = await findUserById(db, pending);
    const problem = passwordProblem(f.password ?? '', target?.email);
    if (problem) return resetPage(reply, ctx, token, `Password ${problem}.`, 400);
    const userId = await consumeEmailToken(db, token, 'reset_password');
    const user = userId ? await findUserById(db, userId) : null;
    if (!user) return badResetLink(reply, ctx);
    await setPassword(db, user.id, f.password!);
    await markEmailVerified(db, user.id); // the link proved the address
    await destroyUserSessions(db, user.id); // signed out everywhere …
    await endOAuthSessions(db, user.id);
    await signInSucceeded(deps, req, user.email, reply); // this browser and network are the person's
    await signIn(deps, req, reply, user); // … and signed in here
    return reply.redirect('/account?notice=password-reset', 303);
  });
}
