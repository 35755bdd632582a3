// Per-request website context: who is signed in (session cookie) and the CSRF token for forms.
// Pages built by other modules use getWebContext() for the header, and checkCsrf() on every POST.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import {
  anonymousCsrf,
  CSRF_COOKIE,
  findSession,
  findSessionWith,
  newCsrfCookieValue,
  type Reactions,
  type ReactionsAsked,
  safeEqual,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  type SessionRecord,
} from '../auth/sessions.ts';
import type { User } from '../auth/users.ts';
import { pageStamp, voteKey } from '../services/vote-context.ts';
import { html, sendPage, type PageOptions } from './layout.ts';

export interface WebContext {
  user: User | null;
  session: SessionRecord | null;
  /** Put in every form as `_csrf` (csrfField()). */
  csrf: string;
  /** Signed in: the signed time this page is served at, carried by vote forms (services/vote-context.ts). */
  readonly pageStamp?: string;
  /** The person's votes and follows among a page's listings, when they were read with the session (getWebContext's `asked`). */
  reactions?: Reactions;
}

/** Nobody signed in, no token: a page rendered for everyone, or filled for everyone signed out. Never written to. */
export const SIGNED_OUT: WebContext = { user: null, session: null, csrf: '' };

export function cookieOptions(deps: AppDeps, maxAgeMs?: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.config.publicUrl.startsWith('https:'),
    ...(maxAgeMs ? { maxAge: Math.floor(maxAgeMs / 1000) } : {}),
  };
}

const memo = new WeakMap<FastifyRequest, Promise<WebContext>>();

/**
 * Who is looking. `asked`: the slugs of the page's vote and follow buttons, when the request is the first to
 * ask (a kept page's personal parts): the person's votes and follows among them are read with the session,
 * in one statement, and come as `reactions`.
 */
export function getWebContext(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  asked?: ReactionsAsked,
): Promise<WebContext> {
  let p = memo.get(req);
  if (!p) {
    const cookie = req.cookies?.[SESSION_COOKIE];
    // no session cookie (most page views): nobody to look up, no statement and no wait for one
    p = cookie === undefined ? Promise.resolve(signedOut(deps, req, reply)) : load(deps, req, reply, asked);
    memo.set(req, p);
  }
  return p;
}

async function load(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  asked: ReactionsAsked | undefined,
): Promise<WebContext> {
  const cookie = req.cookies?.[SESSION_COOKIE];
  const found: { session: SessionRecord; user: User; reactions?: Reactions } | null =
    asked && (asked.votes.length || asked.follows.length)
      ? await findSessionWith(deps.store.db, cookie, asked)
      : await findSession(deps.store.db, cookie);
  if (found) {
    // made once per request, on first use: a page has a vote form per listing row, and an HMAC each
    // was a third of a signed-in page's time
    let stamp: string | undefined;
    return {
      user: found.user,
      session: found.session,
      csrf: found.session.csrf,
      reactions: found.reactions,
      get pageStamp(): string {
        stamp ??= pageStamp(voteKey(deps.services), Date.now(), found.user.id);
        return stamp;
      },
    };
  }
  return signedOut(deps, req, reply);
}

/**
 * Signed out: the CSRF cookie is only created when a form actually needs a token, so plain public pages
 * set no cookie (and stay cacheable).
 */
function signedOut(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): WebContext {
  const auth = deps.auth;
  let token: string | undefined;
  return {
    user: null,
    session: null,
    get csrf(): string {
      if (token) return token;
      let anon = req.cookies?.[CSRF_COOKIE];
      if (!anon || anon.length < 20 || anon.length > 100) {
        anon = newCsrfCookieValue();
        reply.setCookie(CSRF_COOKIE, anon, cookieOptions(deps, SESSION_TTL_MS));
        req.cookies[CSRF_COOKIE] = anon; // so a later check in this request agrees
      }
      token = anonymousCsrf(auth.secrets.csrfKey, anon);
      return token;
    },
  };
}

/** Page options for the shared layout from the context: signed-out pages get no CSRF cookie unless a form asks for one. */
export function pageFor(ctx: WebContext, opts: Omit<PageOptions, 'user' | 'csrf'>): PageOptions {
  return { ...opts, user: ctx.user, csrf: ctx.user ? ctx.csrf : undefined };
}

/** Starts a new context after sign-in/out within the same request. */
export function resetWebContext(req: FastifyRequest): void {
  memo.delete(req);
}

/** True when the form's `_csrf` matches this browser's token. */
export async function csrfValid(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const ctx = await getWebContext(deps, req, reply);
  const sent = (req.body as Record<string, unknown> | undefined)?._csrf;
  if (typeof sent !== 'string' || !sent) return false;
  if (safeEqual(sent, ctx.csrf)) return true;
  // A form rendered before sign-in and posted after it (another tab) carries the signed-out token.
  const anon = req.cookies?.[CSRF_COOKIE];
  return Boolean(ctx.session && anon && safeEqual(sent, anonymousCsrf(deps.auth.secrets.csrfKey, anon)));
}

/** Refuses a form post without a valid CSRF token (403 page). Returns false when refused. */
export async function checkCsrf(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  if (await csrfValid(deps, req, reply)) return true;
  const ctx = await getWebContext(deps, req, reply);
  sendPage(
    reply,
    { title: 'Form expired', user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true },
    html`
    <h1>This form has expired</h1>
    <p>The form was sent without its security token, or from another site. Nothing was changed.</p>
    <p>Go back, reload the page and try again.</p>`,
    403,
  );
  return false;
}
