// The maker's side of the website (submit a product, drafts, own listings, claims) acts for the
// signed-in person through the SAME operations as the API and MCP: the kernel's call() with a principal
// for that person, so every rule (validation, ownership → 404, state → 409, rate limits → 429) is
// the operation's own. The pages only turn an operation's error into words next to the field its
// `details[].path` names.
//
//   signedIn(deps, req, reply, next)   the person's web context, or a 303 to /sign-in?next=…
//   signedInPost(…)                    the same for a form post, with its CSRF token checked (else 403)
//   act(deps, req, web, op, input)     runs an operation as the person (errors propagate; typed by op)
//   attempt(…)                         the same, with a 400/409/429 handed back to show on the page
//   problems(error, …)                 an operation's error as a summary and per-field messages
//   sendMakerPage(…)                   the site's layout: noindex, private, optional self-refresh
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import type { Principal } from '../../operations/principal.ts';
import { SCOPES } from '../../domain/scopes.ts';
import { ApiError, type ErrorDetail } from '../../operations/errors.ts';
import { call } from '../../operations/kernel.ts';
import type { Operation, ResultOf } from '../../operations/define.ts';
import type { User } from '../../auth/users.ts';
import { checkCsrf, getWebContext, pageFor, type WebContext } from '../context.ts';
import { html, raw, sendPage, type PageOptions, type SafeHtml } from '../layout.ts';
import { queryOf, SITE_HEAD, withQuery } from '../pages/shared.ts';

export type SignedIn = WebContext & { user: User };

/**
 * The person signed in with a session cookie, as the operations know a caller: a user principal
 * with every scope (on the website the person acts for themselves, as an API key with all three
 * scopes would; which records they may touch is the operations' ownership rule).
 */
export function sessionPrincipal(user: User): Extract<Principal, { kind: 'user' }> {
  return {
    kind: 'user',
    userId: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    credential: { type: 'session', id: 'website', name: 'Website session' },
    scopes: [...SCOPES],
  };
}

/** The signed-in person's context; signed out, a 303 to sign-in that comes back to `next` (null: the reply is sent). */
export async function signedIn(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  next: string,
): Promise<SignedIn | null> {
  const web = await getWebContext(deps, req, reply);
  if (web.user) return web as SignedIn;
  reply.redirect(withQuery('/sign-in', { next }), 303);
  return null;
}

/**
 * A maker's form post: the signed-in person (signed out: a 303 to sign-in that comes back to `next`)
 * whose form carries its CSRF token (else 403); null: the reply is sent.
 */
export async function signedInPost(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  next: string,
): Promise<SignedIn | null> {
  const web = await signedIn(deps, req, reply, next);
  if (!web || !(await checkCsrf(deps, req, reply))) return null;
  return web;
}

export interface OperationInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** Runs one operation as the signed-in person. Its ApiErrors propagate (the site's handler shows 404 as the 404 page). */
export async function act<O extends Operation>(
  deps: AppDeps,
  req: FastifyRequest,
  web: SignedIn,
  op: O,
  input?: OperationInput,
): Promise<ResultOf<O>>;
export async function act(
  deps: AppDeps,
  req: FastifyRequest,
  web: SignedIn,
  op: Operation,
  input: OperationInput = {},
): Promise<unknown> {
  const raw = { params: input.params, query: queryOf(input.query), body: input.body };
  return call(deps, op, sessionPrincipal(web.user), raw, { requestId: req.id });
}

/** The statuses a page answers with the form again: the request was refused, the person can change it. */
const SHOWN_ON_PAGE = new Set([400, 409, 429]);

export type Attempt<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** act(), with a refusal the person can act on (400, 409, 429) handed back instead of thrown. */
export async function attempt<O extends Operation>(
  deps: AppDeps,
  req: FastifyRequest,
  web: SignedIn,
  op: O,
  input?: OperationInput,
): Promise<Attempt<ResultOf<O>>>;
export async function attempt(
  deps: AppDeps,
  req: FastifyRequest,
  web: SignedIn,
  op: Operation,
  input: OperationInput = {},
): Promise<Attempt<unknown>> {
  try {
    return { ok: true, value: await act(deps, req, web, op, input) };
  } catch (e) {
    if (e instanceof ApiError && SHOWN_ON_PAGE.has(e.status)) return { ok: false, error: e };
    throw e;
  }
}

/** The page status for a refused form: the operation's own (400, 409, 429), with its Retry-After. */
export function statusOf(reply: FastifyReply, error: ApiError | null | undefined): number {
  if (!error) return 200;
  for (const [k, v] of Object.entries(error.headers ?? {})) if (k.toLowerCase() === 'retry-after') reply.header(k, v);
  return error.status;
}

/** Where on the page an error path belongs: the form field's id and its label, or null (shown in the summary only). */
export type FieldOf = (path: string) => { id: string; label: string } | null;

/** An operation's refusal, placed: the messages of each field (by id), and a summary for the top of the form. */
export interface Problems {
  error: ApiError | null;
  /** Messages of the field with this id. */
  at(id: string): string[];
  /** The summary: what was refused, each field's message linked to its field. */
  summary(what: string): SafeHtml;
}

export function problems(error: ApiError | null | undefined, fieldOf: FieldOf): Problems {
  const byId = new Map<string, string[]>();
  const listed: Array<{ detail: ErrorDetail; field: { id: string; label: string } | null }> = [];
  const details: ErrorDetail[] = error?.details?.length
    ? error.details
    : error
      ? [{ path: '', message: error.message }]
      : [];
  for (const d of details) {
    const field = d.path ? fieldOf(d.path.replace(/^body\./, '')) : null;
    if (field) byId.set(field.id, [...(byId.get(field.id) ?? []), d.message]);
    listed.push({ detail: d, field });
  }
  return {
    error: error ?? null,
    at: (id) => byId.get(id) ?? [],
    summary: (what) =>
      error
        ? html`<div class="flash error" role="alert" id="form-problems"><p><strong>${what}</strong></p>
<ul>${listed.map(({ detail, field }) => html`<li>${field ? html`<a href="#${field.id}">${field.label}</a>: ` : detail.path ? html`<code>${detail.path}</code>: ` : ''}${detail.message}</li>`)}</ul>${existingListingNote(error)}</div>`
        : html``,
  };
}

/**
 * A website that is already listed (a 409 with existing_listing): a link to the listing and to its claim
 * page, for the person whose product it is.
 */
function existingListingNote(error: ApiError): SafeHtml {
  const l = error.existingListing;
  if (!l) return html``;
  return html`<p id="existing-listing">This website is already listed as <a href="/listings/${l.slug}" id="existing-listing-link">${l.name}</a> (${l.url}). One website has one listing.
If the product is yours, <a href="/listings/${l.slug}/claim" id="existing-listing-claim">claim that listing</a>: once you prove you control the website it moves to your account and you edit it there.</p>`;
}

/** The attributes and message of one form control: aria-invalid and the message under it. */
export function invalidAttrs(p: Problems, id: string): SafeHtml {
  return p.at(id).length ? raw(` aria-invalid="true" aria-describedby="${id}-error"`) : raw('');
}
export function fieldMessage(p: Problems, id: string): SafeHtml {
  const m = p.at(id);
  return m.length ? html`<p class="field-error" id="${id}-error">${m.join('; ')}</p>` : html``;
}

// ------------------------------------------------------------------ forms

export type Form = Record<string, unknown>;

export function formOf(req: FastifyRequest): Form {
  return req.body && typeof req.body === 'object' ? (req.body as Form) : {};
}

/** One value of a form field (repeated: the first), '' when absent. */
export function one(f: Form, key: string): string {
  const v = f[key];
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return '';
}

/** Every value of a form field (checkboxes, multi-selects). */
export function all(f: Form, key: string): string[] {
  const v = f[key];
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

// ------------------------------------------------------------------ pages

export interface MakerPage {
  title: string;
  flash?: PageOptions['flash'];
  /** Reloads the page every 3 s (a draft being read and written). */
  refresh?: boolean;
  narrow?: boolean;
}

/** A maker page in the site's layout: never indexed, never cached by shared caches (sendPage: private, no-store). */
export function sendMakerPage(
  reply: FastifyReply,
  web: SignedIn,
  page: MakerPage,
  body: SafeHtml,
  status = 200,
): FastifyReply {
  const head = page.refresh ? html`${SITE_HEAD}<meta http-equiv="refresh" content="3">` : SITE_HEAD;
  return sendPage(
    reply,
    pageFor(web, { title: page.title, noindex: true, head, flash: page.flash ?? null, narrow: page.narrow }),
    body,
    status,
  );
}

let DATE_TIME: Intl.DateTimeFormat | undefined; // made on first use, not at start
/** "26 Nov 2026, 17:57 UTC" in a <time> element. */
export function when(iso: string | null | undefined): SafeHtml | string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : html`<time datetime="${iso}">${((DATE_TIME ??= new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }))).format(d)} UTC</time>`;
}
