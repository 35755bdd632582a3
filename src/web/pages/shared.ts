// Building blocks of the public site: reading data through the operations (the same code path as
// the API, as an anonymous caller), the per-request viewer (who is signed in, what they voted for),
// and the small pieces every page uses (listing rows, vote buttons, pagination, dates).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { Operation, ResultOf } from '../../operations/define.ts';
import type { ListingSummary } from '../../operations/schemas.ts';
import { ANONYMOUS } from '../../operations/principal.ts';
import { invoke, resultValue } from '../../operations/kernel.ts';
import { RawJson } from '../../operations/raw-json.ts';
import { reactedSlugs } from '../../store/repos/votes.ts';
import type { Pieces, TextPiece } from '../personal.ts';
import { getWebContext, pageFor, SIGNED_OUT, type WebContext } from '../context.ts';
import {
  BASE_CSS,
  csrfField,
  escapeHtml,
  html,
  raw,
  renderPage,
  safeHref,
  sendPage,
  type PageOptions,
  type SafeHtml,
} from '../layout.ts';
import type { Slots } from '../personal.ts';
import { justChanged, type SharedOptions } from '../page-cache.ts';

// ------------------------------------------------------------------ data through the operations

/**
 * Runs a public read operation as an anonymous caller: the same validation and handler as
 * GET /api/v1/…, its result typed by the operation's response schema. Its ApiErrors (404, 400)
 * propagate to the site's HTML error handler.
 */
export async function read<O extends Operation>(
  deps: AppDeps,
  req: FastifyRequest,
  op: O,
  input: ReadInput = {},
): Promise<ResultOf<O>> {
  return resultValue((await readBody(deps, req, op, input)) as ResultOf<O> | RawJson);
}

async function readBody(deps: AppDeps, req: FastifyRequest, op: Operation, input: ReadInput): Promise<unknown> {
  const { body } = await invoke(
    deps,
    op,
    ANONYMOUS,
    { params: input.params, query: queryOf(input.query) },
    // a page kept by its version reads afresh (web/page-cache.ts)
    { requestId: req.id, fresh: justChanged(req) || req.pageRender?.fresh === true },
  );
  // a page kept for the shared cache is kept no longer than the shared results it was built from
  const render = req.pageRender;
  if (render && body instanceof RawJson && body.readAt !== undefined)
    render.dataAt = Math.min(render.dataAt ?? body.readAt, body.readAt);
  return body;
}

/** What derive() made of a shared result, per result and derive function (readDerived). */
const derivedOf = new WeakMap<RawJson, Map<unknown, unknown>>();

/**
 * read(), then `derive` of its result. For a result the shared result cache holds (the same text for every
 * anonymous caller within its bound: `readAt` set), derive runs once and what it made is handed to every
 * later caller of that result, with no parse of its text: so it must never be changed (freeze it). The
 * search page's category filter read the whole category tree's JSON and wrote ~100 options for each
 * search (a sixth of the page's CPU at 10,000 listings).
 */
export async function readDerived<O extends Operation, T>(
  deps: AppDeps,
  req: FastifyRequest,
  op: O,
  input: ReadInput,
  derive: (result: ResultOf<O>) => T,
): Promise<T> {
  const body = (await readBody(deps, req, op, input)) as ResultOf<O> | RawJson;
  if (!(body instanceof RawJson) || body.readAt === undefined) return derive(resultValue(body));
  let made = derivedOf.get(body);
  if (!made) derivedOf.set(body, (made = new Map()));
  if (!made.has(derive)) made.set(derive, derive(resultValue<ResultOf<O>>(body)));
  return made.get(derive) as T;
}

export interface ReadInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
}

/** A page's query for an operation: parameters left empty in the address are not sent. */
export function queryOf(query: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return query ? Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) : undefined;
}

/** The listing summary every public list carries (search, categories, launches, founders …). */
type Summary = z.output<typeof ListingSummary>;

// ------------------------------------------------------------------ the viewer

export interface Viewer {
  web: WebContext;
  signedIn: boolean;
  /** This page's path and query: where a vote form sends the person back to. */
  here: string;
  /** Listings on this page the person has voted for. */
  voted: Set<string>;
  /**
   * Set when the page is rendered for everyone (the shared page cache): what depends on the person
   * (buttons, header, hints) goes in as slots, filled per request (web/personal.ts).
   */
  slots?: Slots;
  /** Fair first hours: vote buttons show no count. */
  hideCounts?: boolean;
}

/** Wraps a public page's handler in the shared page cache (web/page-cache.ts). */
export type Shared = (
  handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  opts?: SharedOptions,
) => RouteHandlerMethod;

/** The page's own address without one-time parameters (a notice is not shown again on return). */
function hereOf(url: string): string {
  const [path, query] = url.split('#')[0].split('?');
  if (!query) return path;
  const q = new URLSearchParams(query);
  q.delete('notice');
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

export async function viewerFor(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  slugs: readonly string[] = [],
): Promise<Viewer> {
  const shared = req.pageRender;
  if (shared) return { web: SIGNED_OUT, signedIn: false, here: hereOf(req.url), voted: new Set(), slots: shared.slots };
  const web = await getWebContext(deps, req, reply);
  const voted =
    web.user && slugs.length ? await reactedSlugs(deps.store.db, 'vote', web.user.id, slugs) : new Set<string>();
  return { web, signedIn: Boolean(web.user), here: hereOf(req.url), voted };
}

// ------------------------------------------------------------------ assets

function asset(file: string, type: string): { body: Buffer; type: string; version: string } {
  const body = readFileSync(new URL(`../assets/${file}`, import.meta.url));
  return { body, type, version: createHash('sha1').update(body).digest('hex').slice(0, 10) };
}

export const ASSETS: Record<string, { body: Buffer; type: string; version: string }> = {
  'base.css': BASE_CSS,
  'site.css': asset('site.css', 'text/css; charset=utf-8'),
  'favicon.svg': asset('favicon.svg', 'image/svg+xml'),
};

/** <head> additions of every site page: the stylesheet (versioned URL, cached for a year) and the icon. */
export const SITE_HEAD: SafeHtml = html`<link rel="stylesheet" href="/assets/site.css?v=${ASSETS['site.css'].version}">
<link rel="icon" href="/assets/favicon.svg?v=${ASSETS['favicon.svg'].version}" type="image/svg+xml">`;

// ------------------------------------------------------------------ sending pages

export interface SitePage {
  title: string;
  description: string;
  /** Site path of the canonical URL (without the host), e.g. /listings/acme. */
  path: string;
  current?: string;
  noindex?: boolean;
  flash?: PageOptions['flash'];
}

/** Sends a site page with the shared layout: title, meta description, canonical link, stylesheet. */
export function send(
  deps: AppDeps,
  reply: FastifyReply,
  v: Viewer | WebContext,
  page: SitePage,
  body: SafeHtml,
  status = 200,
): FastifyReply {
  const web = 'web' in v ? v.web : v;
  const slots = 'slots' in v ? v.slots : undefined;
  const opts = pageFor(web, {
    title: page.title,
    description: page.description,
    canonical: deps.config.publicUrl + page.path,
    current: page.current,
    noindex: page.noindex,
    flash: page.flash,
    head: SITE_HEAD,
    meSlot: slots?.add({ kind: 'me', current: page.current }),
  });
  const shared = reply.request.pageRender;
  if (shared && slots) {
    // Rendered for everyone: the shared page cache fills the slots and sends it (web/page-cache.ts).
    shared.result = { text: renderPage(opts, body), status };
    shared.rendered?.();
    return reply;
  }
  return sendPage(reply, opts, body, status);
}

// ------------------------------------------------------------------ formatting

// Made on first use (an Intl formatter costs milliseconds to create: not at start).
let DATE: Intl.DateTimeFormat | undefined;
/** The formatter's month names ("Sept" in en-GB), read from it once: a page formats dozens of dates, and Intl's format() costs microseconds each. */
let MONTHS: string[] | undefined;

const dateFormat = (): Intl.DateTimeFormat =>
  (DATE ??= new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }));

function monthName(m: number): string {
  MONTHS ??= Array.from(
    { length: 12 },
    (_, i) =>
      dateFormat()
        .formatToParts(Date.UTC(2026, i, 5))
        .find((p) => p.type === 'month')?.value ?? '',
  );
  return MONTHS[m];
}

/** "5 Sept 2026", as Intl's en-GB formatter writes it (built from its parts; years outside 1000–9999 by Intl itself). */
export function fmtDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso.length === 10 ? iso + 'T00:00:00Z' : iso);
  if (Number.isNaN(d.getTime())) return '';
  const y = d.getUTCFullYear();
  if (y < 1000 || y > 9999) return dateFormat().format(d);
  return `${d.getUTCDate()} ${monthName(d.getUTCMonth())} ${y}`;
}

/** "24 Nov – 30 Nov 2026" for a Monday..Sunday pair. */
export function fmtRange(start: string, end: string): string {
  const d = new Date(start + 'T00:00:00Z');
  return `${d.getUTCDate()} ${monthName(d.getUTCMonth())} – ${fmtDate(end)}`;
}

/** 1,234,567 (en-US grouping); whole numbers grouped by hand, as toLocaleString does but ~20× cheaper. */
export const fmtNum = (n: number | null | undefined): string => {
  if (n === null || n === undefined) return '';
  const x = Number(n);
  if (!Number.isSafeInteger(x)) return x.toLocaleString('en-US');
  const s = String(x);
  return s.length > 3 ? s.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : s;
};
export const plural = (n: number, one: string, many = one + 's'): string => `${fmtNum(n)} ${n === 1 ? one : many}`;

/** `path` with the given query values (empty ones left out). */
export function withQuery(path: string, params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * A same-site path to send the person to next (after signing in, voting, following), or `fallback`:
 * one leading slash, then printable ASCII only, so no open redirect and nothing a header cannot carry.
 * Browsers drop tabs and newlines from a URL, so "/<TAB>/evil.example" would be "//evil.example".
 */
export function safeBack(next: unknown, fallback: string): string {
  if (typeof next !== 'string' || next.length > 2000 || !/^\/(?![/\\])[\x21-\x7e]*$/.test(next)) return fallback;
  return next;
}

/**
 * The entry of a fixed table that a request names (?notice=saved → its flash), or undefined. Own
 * entries only: "constructor", "toString" or "__proto__" name nothing (else Object's own members).
 */
export function entryOf<T>(table: Readonly<Record<string, T>>, key: string | undefined): T | undefined {
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A query-string value as one string (repeated keys: the first). */
export function qs(req: FastifyRequest, key: string): string | undefined {
  const v = (req.query as Record<string, unknown> | undefined)?.[key];
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return undefined;
}

/** Plain text typed by a maker → paragraphs (blank lines split them; `lines` keeps single line breaks too); never HTML. */
export function paragraphs(text: string | null | undefined, o: { lines?: boolean } = {}): SafeHtml {
  if (!text) return html``;
  const para = (p: string) => (o.lines ? p.split(/\r?\n/).map((line, i) => html`${i ? html`<br>` : ''}${line}`) : p);
  return html`${text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => html`<p>${para(p)}</p>`)}`;
}

// ------------------------------------------------------------------ components

export function logo(s: { name: string; logo_url: string | null }, big = false): SafeHtml {
  const src = safeHref(s.logo_url);
  const cls = big ? 'logo big' : 'logo';
  if (src)
    return html`<img class="${cls}" src="${src}" alt="" width="${big ? 72 : 48}" height="${big ? 72 : 48}" loading="lazy" decoding="async">`;
  const letter = (s.name.trim().match(/[\p{L}\p{N}]/u)?.[0] ?? '?').toUpperCase();
  let hash = 0;
  for (const ch of s.name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return html`<span class="${cls} ph ph${hash % 6}" aria-hidden="true">${letter}</span>`;
}

/** A listing's name, linked to its public page (/listings/{slug} exists only while it is live: otherwise the name alone). */
export function pageLink(l: { slug: string; name: string; status: string }): SafeHtml {
  return l.status === 'live' ? html`<a href="/listings/${l.slug}">${l.name}</a>` : html`${l.name}`;
}

/** Where a listing's name links: its page when live; the week it launches in otherwise. */
export function listingHref(s: Pick<Summary, 'slug' | 'status' | 'launch_week'>): string {
  if (s.status === 'live') return `/listings/${s.slug}`;
  return s.launch_week ? `/launches/weeks/${s.launch_week}` : '/launches?section=upcoming';
}

/** The anchor of a listing row, so a vote brings the person back to the same place in the list. */
export const rowId = (slug: string) => `l-${slug}`;

/**
 * The vote button. Signed in: a form (CSRF token, the page to come back to, and the intended
 * state, so a double submit cannot undo itself). Signed out: a link to sign in first.
 */
export function voteButton(
  v: Viewer,
  s: Pick<Summary, 'slug' | 'name' | 'votes' | 'status'>,
  opts: { anchor?: string } = {},
): SafeHtml {
  if (v.hideCounts && s.status === 'live') {
    const back = v.here.split('#')[0] + (opts.anchor ? `#${opts.anchor}` : '');
    const slot = { kind: 'vote' as const, slug: s.slug, name: s.name, votes: s.votes, back, hideCount: true };
    return v.slots ? v.slots.add(slot) : voteForm(v.web, slot, v.voted.has(s.slug));
  }
  const count = html`<span class="arrow" aria-hidden="true">▲</span><span class="n">${fmtNum(s.votes)}</span>`;
  const votes = s.votes === 1 ? ' vote' : ' votes';
  if (s.status !== 'live')
    return html`<span class="vote-btn static" title="Voting opens at launch">${count}<span class="sr-only">${votes}</span></span>`;
  const back = v.here.split('#')[0] + (opts.anchor ? `#${opts.anchor}` : '');
  if (v.slots) return v.slots.add({ kind: 'vote', slug: s.slug, name: s.name, votes: s.votes, back });
  return voteForm(v.web, { slug: s.slug, name: s.name, votes: s.votes, back }, v.voted.has(s.slug));
}

/** A live listing's vote button for this person: a link to sign in first, or the form (voted or not). */
export function voteForm(
  web: WebContext,
  s: { slug: string; name: string; votes: number; back: string; hideCount?: boolean },
  on: boolean,
): SafeHtml {
  if (!web.user) {
    const [count, votes] = voteCount(s);
    return html`<a class="vote-btn" href="${withQuery('/sign-in', { next: s.back })}">${count}<span class="sr-only">${votes}. Sign in to upvote ${s.name}</span></a>`;
  }
  const [head, tail] = voteFormParts(s, on);
  return raw(head + formFields(web) + tail);
}

/** A vote button's count and the words after it for a screen reader. */
function voteCount(s: { votes: number; hideCount?: boolean }): [SafeHtml, string] {
  // Fair first hours: the button carries no count (a dash in its place).
  return s.hideCount
    ? [
        html`<span class="arrow" aria-hidden="true">▲</span><span class="n hidden-count" aria-hidden="true">–</span>`,
        ' Vote',
      ]
    : [
        html`<span class="arrow" aria-hidden="true">▲</span><span class="n">${fmtNum(s.votes)}</span>`,
        s.votes === 1 ? ' vote' : ' votes',
      ];
}

/**
 * A signed-in vote form is the same for everyone but for its hidden fields (the CSRF token and the signed
 * page time: formFields()): its two halves, around them.
 */
function voteFormParts(
  s: { slug: string; name: string; votes: number; back: string; hideCount?: boolean },
  on: boolean,
): [string, string] {
  const [count, votes] = voteCount(s);
  return [
    html`<form method="post" action="/listings/${s.slug}/vote" class="vote">`.value,
    html`<input type="hidden" name="next" value="${s.back}"><input type="hidden" name="action" value="${on ? 'remove' : 'add'}">
<button type="submit" class="vote-btn" aria-pressed="${on ? 'true' : 'false'}" title="${on ? `You upvoted ${s.name}: press to take your vote back` : `Upvote ${s.name}`}">${count}<span class="sr-only">${votes}. ${on ? `You upvoted ${s.name}; press to take your vote back` : `Upvote ${s.name}`}</span></button></form>`
      .value,
  ];
}

/**
 * The vote form as UTF-8 pieces to copy into a signed-in page (web/personal.ts fill()): the halves made
 * and encoded once per slot of a kept page and kept with the slot, the hidden fields once per request.
 * Building and encoding each form for each person was a large share of a signed-in page's time on a
 * page of vote buttons.
 */
const bytesOf = new WeakMap<object, { on?: [Buffer, Buffer]; off?: [Buffer, Buffer] }>();
const fieldBytesOf = new WeakMap<WebContext, Buffer>();

export function voteFormBytes(
  web: WebContext,
  s: { slug: string; name: string; votes: number; back: string; hideCount?: boolean },
  on: boolean,
): SafeHtml | Pieces {
  if (!web.user) return voteForm(web, s, on); // the same for everyone signed out: markup, encoded with the page
  let kept = bytesOf.get(s);
  if (!kept) bytesOf.set(s, (kept = {}));
  let halves = on ? kept.on : kept.off;
  if (!halves) {
    const [head, tail] = voteFormParts(s, on);
    halves = [Buffer.from(head), Buffer.from(tail)];
    if (on) kept.on = halves;
    else kept.off = halves;
  }
  let fields = fieldBytesOf.get(web);
  if (!fields) fieldBytesOf.set(web, (fields = Buffer.from(formFields(web))));
  // The halves are this slot's, voted or not; the fields are this person's CSRF token and the signed time
  // the page was served. The time is left out of the tag: a browser answered 304 keeps its copy and the
  // earlier time in it, which only makes its page older (a page time is already any past one the person
  // was served), and a signed-in page with vote buttons can answer 304 at all.
  return { bytes: [halves[0], fields, halves[1]], tag: voteTag(web, on) };
}

/**
 * What tells a person's vote form apart in a page's validator, the same whether it is filled as byte pieces
 * (a kept page) or as markup (a page answered once), so the two give one validator: voted or not, and the
 * CSRF token (the page time left out).
 */
const voteTag = (web: WebContext, on: boolean): string => (on ? '1' : '0') + web.csrf;

/**
 * The vote form as markup for a page filled in its text (personal.ts filledText: a page answered once),
 * with the same tag as voteFormBytes() gives its pieces (the page time left out of the validator).
 */
export function voteFormText(
  web: WebContext,
  s: { slug: string; name: string; votes: number; back: string; hideCount?: boolean },
  on: boolean,
): SafeHtml | TextPiece {
  if (!web.user) return voteForm(web, s, on);
  const [head, tail] = voteFormParts(s, on);
  return { text: head + formFields(web) + tail, tag: voteTag(web, on) };
}

/** The hidden fields of this person's forms on this page: made once per request. */
const fieldsOf = new WeakMap<WebContext, string>();

function formFields(web: WebContext): string {
  let f = fieldsOf.get(web);
  if (f === undefined) {
    const stamp = web.pageStamp ? html`<input type="hidden" name="t" value="${web.pageStamp}">` : '';
    fieldsOf.set(web, (f = html`${csrfField(web.csrf)}${stamp}`.value));
  }
  return f;
}

export interface RowOptions {
  rank?: number | null;
  /** Heading level of the name inside the list. */
  heading?: 'h2' | 'h3';
  /** Extra metric shown under the tagline (e.g. "12 votes this week"). */
  metric?: SafeHtml | string | null;
  /** Shows the vote button (live listings). Default true. */
  vote?: boolean;
  tag?: SafeHtml | null;
  /** Compact lists: no category or launch date for live listings. */
  brief?: boolean;
}

export function listingRow(v: Viewer, s: Summary, o: RowOptions = {}): SafeHtml {
  const h = o.heading ?? 'h3';
  const name = html`<a href="${listingHref(s)}">${s.name}</a>`;
  const when =
    s.status === 'live'
      ? s.launched_at
        ? html`Launched ${fmtDate(s.launched_at)}`
        : ''
      : s.launch_week
        ? html`Launches the week of ${fmtDate(s.launch_week)}`
        : 'Coming soon';
  const cat = s.primary_category
    ? html`<a href="/categories/${s.primary_category.slug}">${s.primary_category.name}</a>`
    : '';
  const meta = (o.brief ? [s.status === 'live' ? '' : when, o.metric ?? ''] : [cat, when, o.metric ?? '']).filter(
    (x) => x !== '' && x !== null,
  );
  const votable = o.vote !== false && s.status === 'live';
  // The id is the vote's way back to its row; only rows with a vote button carry it, so a listing
  // shown twice on a page (ranked and again in a side list) does not give the page one id twice.
  return html`<li class="item"${votable ? html` id="${rowId(s.slug)}"` : ''}>
${o.rank !== undefined && o.rank !== null ? html`<span class="rank"><span class="sr-only">Rank </span>${o.rank}</span>` : ''}
${logo(s)}
<div class="body">${raw(`<${h}>`)}${name}${o.tag ? html` ${o.tag}` : ''}${raw(`</${h}>`)}
${s.tagline ? html`<p class="tagline">${s.tagline}</p>` : ''}
${meta.length ? html`<p class="meta">${meta.map((m, i) => html`${i ? ' · ' : ''}${m}`)}</p>` : ''}</div>
${votable ? voteButton(v, s, { anchor: rowId(s.slug) }) : ''}
</li>`;
}

/** A list of listing rows; `heading` is the level of each name: h3 (the default) under a section's h2, h2 right under the page's h1. */
export function listingList<T extends Summary>(
  v: Viewer,
  items: T[],
  o: {
    ranked?: boolean;
    compact?: boolean;
    heading?: RowOptions['heading'];
    rows?: (s: T, i: number) => RowOptions;
    empty?: SafeHtml | string;
  } = {},
): SafeHtml {
  if (!items.length) return html`<p class="muted">${o.empty ?? 'Nothing here yet.'}</p>`;
  const rows = items.map((s, i) =>
    listingRow(v, s, { brief: o.compact, heading: o.heading, ...(o.rows ? o.rows(s, i) : {}) }),
  );
  const cls = o.compact ? 'items compact' : 'items';
  return o.ranked ? html`<ol class="${cls}">${rows}</ol>` : html`<ul class="${cls}">${rows}</ul>`;
}

/** Previous / next links for a paged list; `link(page)` builds the URL of a page. */
export function pager(
  p: { page: number; per_page: number; total: number; has_more: boolean },
  link: (page: number) => string,
): SafeHtml {
  const pages = Math.max(1, Math.ceil(p.total / p.per_page));
  if (pages <= 1 && p.page <= 1) return html``;
  return html`<nav class="pager" aria-label="Pages">
${p.page > 1 ? html`<a href="${link(p.page - 1)}" rel="prev">← Previous</a>` : ''}
<span>Page ${p.page} of ${fmtNum(pages)}</span>
${p.has_more ? html`<a href="${link(p.page + 1)}" rel="next">Next →</a>` : ''}
</nav>`;
}

export interface PostedUpdate {
  title: string;
  body: string;
  created_at: string | null;
}

/**
 * One update a maker posted (post_listing_update): its title, date and plain-text body, line breaks
 * kept. `about` leads the date line (on the site-wide page: the listing it is about).
 */
export function updateCard(u: PostedUpdate, o: { heading?: 'h2' | 'h3'; about?: SafeHtml } = {}): SafeHtml {
  const h = o.heading ?? 'h3';
  return html`<article class="card update">${raw(`<${h}>`)}${u.title}${raw(`</${h}>`)}
<p class="meta">${o.about ? html`${o.about} · ` : ''}<time datetime="${u.created_at}">${fmtDate(u.created_at)}</time></p>
${paragraphs(u.body, { lines: true })}</article>`;
}

/** Links rendered for socials and websites: http(s) only; rel=nofollow ugc as makers typed them. */
export function extLink(url: string | null | undefined, label: SafeHtml | string): SafeHtml {
  const href = safeHref(url);
  if (!href || href.startsWith('/')) return html`${label}`;
  return html`<a href="${href}" rel="nofollow ugc noopener">${label}</a>`;
}

const SOCIAL_NAMES: Record<string, string> = {
  linkedin: 'LinkedIn',
  x: 'X (Twitter)',
  facebook: 'Facebook',
  instagram: 'Instagram',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  threads: 'Threads',
  pinterest: 'Pinterest',
  github: 'GitHub',
  reddit: 'Reddit',
  medium: 'Medium',
  website: 'Website',
  custom: 'Link',
  productlaunch: 'Launch directory',
};

export function socialsList(socials: Record<string, string> | null | undefined): SafeHtml {
  const entries = Object.entries(socials ?? {}).filter(([, url]) => safeHref(url) && !safeHref(url)!.startsWith('/'));
  if (!entries.length) return html``;
  return html`<ul class="chips">${entries.map(([k, url]) => html`<li>${extLink(url, SOCIAL_NAMES[k] ?? k)}</li>`)}</ul>`;
}

/**
 * A labelled <select> of a GET form: `options` as [value, label]. The current value stays selected
 * (compared without case, as the filters compare); one the list does not offer is added, so it is kept.
 * A frozen `options` array (a constant) has its markup kept per selected value.
 */
export function selectField(
  id: string,
  name: string,
  label: string,
  options: ReadonlyArray<readonly [string, string]>,
  current: string | undefined,
): SafeHtml {
  const cur = (current ?? '').toLowerCase();
  // A list that is the same array every time (the module's own constants) keeps its markup per
  // selected value: the search page's filters offer ~300 options (every country), ~a tenth of a search.
  let kept = optionsKept.get(options);
  const hit = kept?.get(cur);
  let opts: string;
  if (hit !== undefined) opts = hit;
  else {
    const offered = !cur || options.some(([v]) => v.toLowerCase() === cur);
    const list = offered ? options : [...options, [current!, current!] as const];
    // plain concatenation, each value escaped
    opts = '';
    for (const [v, text] of list)
      opts += `<option value="${escapeHtml(v)}"${v.toLowerCase() === cur ? ' selected' : ''}>${escapeHtml(text)}</option>`;
    // kept for the values the list offers (a value it does not offer is written as given)
    if (offered && Object.isFrozen(options)) {
      if (!kept) optionsKept.set(options, (kept = new Map()));
      kept.set(cur, opts);
    }
  }
  return html`<div><label for="${id}">${label}</label>
<select id="${id}" name="${name}">${raw(opts)}</select></div>`;
}

/** Markup of frozen option lists, by selected value (selectField). */
const optionsKept = new WeakMap<ReadonlyArray<readonly [string, string]>, Map<string, string>>();

/** A search form (GET). */
export function searchForm(q = '', opts: { action?: string; label?: string; id?: string } = {}): SafeHtml {
  const id = opts.id ?? 'q';
  return html`<form class="search" role="search" method="get" action="${opts.action ?? '/search'}">
<label for="${id}" class="sr-only">${opts.label ?? 'Search products'}</label>
<input type="search" id="${id}" name="q" value="${q}" maxlength="200" placeholder="${opts.label ?? 'Search products'}">
<button type="submit">Search</button></form>`;
}
