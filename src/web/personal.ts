// The personal parts of a public page, kept out of what visitors share. A page rendered for the
// shared cache (page-cache.ts) carries a marker where something depends on who is looking: the
// header's account links, a vote or follow button (voted or not, the CSRF token in its form), the
// claim box, a "sign in to vote" hint. fill() then puts in each marker what this visitor sees: the
// signed-out version for everyone signed out (computed once per page), or this person's own.
//
// User text is always escaped by html``, so no text on a page can read as a marker.
import { hash } from 'node:crypto';
import type { AppDeps } from '../deps.ts';
import { reactionsAmong } from '../store/repos/votes.ts';
import { SIGNED_OUT, type WebContext } from './context.ts';
import type { ReactionsAsked } from '../auth/sessions.ts';
import { html, raw, SafeHtml } from './layout.ts';

export type Slot =
  /** The header's account area (Sign in / Sign up, or the person's links and Sign out). */
  | { kind: 'me'; current?: string }
  /** A vote button; `back` is where the form returns to (this page, with an anchor). */
  | { kind: 'vote'; slug: string; name: string; votes: number; back: string; hideCount?: boolean }
  /** The follow button of a listing page. */
  | { kind: 'follow'; slug: string; name: string; followers: number; back: string }
  /** The claim box of a listing page. */
  | { kind: 'claim'; slug: string; name: string }
  /** Markup that differs signed out and signed in (both ours, already escaped). */
  | { kind: 'text'; signedOut: string; signedIn: string };

/** A slot's marker in a rendered page's text: `<!--ll-slot:N-->` (Slots.add writes them). */
const MARK_OPEN = '<!--ll-slot:';
const MARK_CLOSE = '-->';
const MARKER = new RegExp(`${MARK_OPEN}(\\d+)${MARK_CLOSE}`);

/** The slots of one page being rendered for the shared cache. */
export class Slots {
  readonly list: Slot[] = [];
  add(slot: Slot): SafeHtml {
    this.list.push(slot);
    return raw(`${MARK_OPEN}${this.list.length - 1}${MARK_CLOSE}`);
  }
}

/**
 * A rendered page with holes: its static text as UTF-8 bytes, encoded once (`parts`), and between each
 * two parts the slot that goes there (`order[i]` is the slot between parts[i] and parts[i + 1]).
 * A page is then written for each visitor by copying the parts and encoding only their slots. A kept
 * page's parts become views of its signed-out bytes once those are made (fillSignedOut).
 */
export interface Holes {
  /** A hash of the rendered text, its slots' markers in it (textTag): the same for any render of the same page. */
  staticTag: string;
  parts: Buffer[];
  order: number[];
  slots: Slot[];
  /** Bytes in `parts`. */
  size: number;
}

/**
 * The page's text encoded once, its parts views of those bytes between its markers: no part is a small
 * buffer of its own, cut from Node's shared 8 KB pool, which any other small buffer made at the same time
 * would keep alive with it (a launch week page has ~100 parts).
 */
export function holesOf(text: string, slots: Slot[]): Holes {
  const all = Buffer.from(text);
  const parts: Buffer[] = [];
  const order: number[] = [];
  let size = 0;
  let from = 0;
  for (let at = all.indexOf(MARK_OPEN); at >= 0; at = all.indexOf(MARK_OPEN, at + 1)) {
    const end = all.indexOf(MARK_CLOSE, at + MARK_OPEN.length);
    const n = end < 0 ? '' : all.toString('latin1', at + MARK_OPEN.length, end);
    if (!/^\d+$/.test(n)) continue; // not a marker (markers are only ever written by Slots.add)
    parts.push(all.subarray(from, at));
    size += at - from;
    order.push(Number(n));
    from = end + MARK_CLOSE.length;
  }
  parts.push(all.subarray(from));
  size += all.length - from;
  return { parts, order, slots, size, staticTag: textTag(text) };
}

/**
 * What a filled page's validator starts from: a hash of the page's text with its slots' markers, so a page
 * answered once (filledText) and the same page kept (filled) get the same validator for the same person.
 */
const textTag = (text: string): string => hash('sha1', text, 'base64url');

/**
 * A slot's UTF-8 bytes in pieces, and what tells them apart from any other bytes this slot of this render
 * could get (for a vote button: voted or not, and the person's hidden form fields).
 */
export interface Pieces {
  bytes: readonly Buffer[];
  tag: string;
}

/** A slot's markup for a person, and what tells it apart (as Pieces' tag: what goes into the page's validator). */
export interface TextPiece {
  text: string;
  tag: string;
}

/** How each kind of slot renders, signed out and for a person (the page modules provide them). */
export interface SlotRenderers {
  me(web: WebContext, current: string | undefined): SafeHtml;
  /** A vote button: its markup, or its UTF-8 bytes in pieces (copied as they are). */
  vote(s: Extract<Slot, { kind: 'vote' }>, web: WebContext, voted: boolean): SafeHtml | Pieces;
  /** The same as markup, for a page filled in its text (filledText). */
  voteText(s: Extract<Slot, { kind: 'vote' }>, web: WebContext, voted: boolean): SafeHtml | TextPiece;
  follow(s: Extract<Slot, { kind: 'follow' }>, web: WebContext, following: boolean): SafeHtml;
  claim(deps: AppDeps, web: WebContext, s: Extract<Slot, { kind: 'claim' }>): Promise<SafeHtml>;
}

/**
 * The page as this person sees it, as the bytes to send: their votes among the page's listings,
 * whether they follow the listing, their claim box, their header, their CSRF token. Signed out, nothing
 * is read from the database and the result is the same for everyone.
 */
export async function fill(deps: AppDeps, r: SlotRenderers, holes: Holes, web: WebContext): Promise<Buffer> {
  return (await filled(deps, r, holes, web)).bytes;
}

/**
 * fill() for everyone signed out, for a kept page: its bytes, and the page's static parts pointed at those
 * bytes (views of them, no copies of their own), so a kept page holds its text once, not twice: its parts,
 * for the people signed in, and its signed-out bytes (~70 KB each for an archived launch week at 100,000
 * listings, kept for as long as the week does not change).
 */
export async function fillSignedOut(deps: AppDeps, r: SlotRenderers, holes: Holes): Promise<Buffer> {
  const views: Buffer[] = [];
  const { bytes } = await filled(deps, r, holes, SIGNED_OUT, views);
  holes.parts = views;
  return bytes;
}

/**
 * fill(), with a weak validator of what it made: a hash of the page's static parts (made once for a kept
 * page) and of what went into its slots (a vote button by its tag), rather than of the whole page for
 * each person: equal pages get equal validators, from any render of the same page.
 */
export async function filled(
  deps: AppDeps,
  r: SlotRenderers,
  holes: Holes,
  web: WebContext,
  /** Given, gets each static part as a view of the bytes made (fillSignedOut). */
  views?: Buffer[],
): Promise<{ bytes: Buffer; etag: () => string }> {
  const into = await fillsOf(deps, r, holes.slots, web, r.vote);
  // the static bytes are copied; only what was filled in is encoded
  let size = holes.size;
  for (const i of holes.order) {
    const f = into[i];
    if (typeof f === 'string') size += Buffer.byteLength(f);
    else for (const b of f.bytes) size += b.length;
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < holes.parts.length; i++) {
    views?.push(out.subarray(at, at + holes.parts[i].length));
    at += holes.parts[i].copy(out, at);
    if (i < holes.order.length) {
      const f = into[holes.order[i]];
      if (typeof f === 'string') at += out.write(f, at);
      else for (const b of f.bytes) at += b.copy(out, at);
    }
  }
  return { bytes: out, etag: () => validatorOf(holes.staticTag, into) };
}

/**
 * filled() for a page answered once and not kept (asked for once within the bound: most listing pages and
 * searches under load), as signedOutText() is for everyone signed out: its slots are filled with this
 * person's markup where they stand in its text, and the text is encoded once. Splitting it into encoded
 * parts and encoding each vote form's halves, which a kept page does once for all its later requests, would
 * be done here for this one request. Its validator is made the same way, from the text around the slots.
 */
export async function filledText(
  deps: AppDeps,
  r: SlotRenderers,
  text: string,
  slots: Slot[],
  web: WebContext,
): Promise<{ bytes: Buffer; etag: () => string }> {
  const into = await fillsOf(deps, r, slots, web, r.voteText);
  const bytes = Buffer.from(text.replace(MARKERS, (_, i: string) => markupOf(into[Number(i)])));
  return { bytes, etag: () => validatorOf(textTag(text), into) };
}

const markupOf = (f: string | TextPiece): string => (typeof f === 'string' ? f : f.text);

/** A weak validator of a filled page: its static tag, then each slot's text or tag after its length (no two fillings hash alike). */
function validatorOf(staticTag: string, into: ReadonlyArray<string | { tag: string }>): string {
  let what = staticTag;
  for (const f of into) {
    const t = typeof f === 'string' ? f : f.tag;
    what += `|${t.length}:${t}`;
  }
  return `W/"${hash('sha1', what, 'base64url')}"`;
}

/** What goes into each slot for this visitor: their votes, follow, claim box, header and token (see fill). */
async function fillsOf<V extends Pieces | TextPiece>(
  deps: AppDeps,
  r: SlotRenderers,
  slots: readonly Slot[],
  web: WebContext,
  // how a vote button is filled: as byte pieces (a kept page's copies) or as markup (a page filled in its text)
  vote: (s: Extract<Slot, { kind: 'vote' }>, web: WebContext, voted: boolean) => SafeHtml | V,
): Promise<Array<string | V>> {
  const user = web.user;
  const followSlot = slots.find((s) => s.kind === 'follow');
  // The claim box's read goes out with the page's votes and follow (one read), not after it: on
  // PostgreSQL a signed-in listing page then waits for two round trips in turn (with the session's), not three.
  const claims = new Map<number, Promise<SafeHtml>>();
  for (const [i, s] of slots.entries()) {
    if (s.kind !== 'claim') continue;
    const box = r.claim(deps, web, s);
    box.catch(() => {}); // its failure is met where it is awaited below, not as an unhandled rejection meanwhile
    claims.set(i, box);
  }
  let mine: { voted: Set<string>; following: Set<string> } | undefined;
  if (user) {
    // read with the session when the page's slots were known then (page-cache.ts sendShared asked for them)
    const asked = askedOf(slots);
    mine =
      web.reactions?.asked === asked
        ? web.reactions
        : await reactionsAmong(deps.store.db, user.id, asked.votes, asked.follows);
  }
  const voted = mine?.voted ?? new Set<string>();
  const following = followSlot !== undefined && mine?.following.has(followSlot.slug) === true;
  const into: Array<string | V> = [];
  for (const [i, s] of slots.entries()) {
    switch (s.kind) {
      case 'me':
        into.push(r.me(web, s.current).value);
        break;
      case 'vote': {
        const v = vote(s, web, voted.has(s.slug));
        into.push(v instanceof SafeHtml ? v.value : v);
        break;
      }
      case 'follow':
        into.push(r.follow(s, web, following).value);
        break;
      case 'claim':
        into.push((await claims.get(i)!).value);
        break;
      case 'text':
        into.push(user ? s.signedIn : s.signedOut);
        break;
    }
  }
  return into;
}

const askedBySlots = new WeakMap<readonly Slot[], ReactionsAsked>();

/**
 * The slugs a page's slots ask about: its vote buttons' listings and its follow button's. Made once per
 * page's slots and kept with them, so the read made with the session (sendShared) and the filling of the
 * same slots (fillsOf) hold the same object, and a kept page lists its slugs once, not per request.
 */
export function askedOf(slots: readonly Slot[]): ReactionsAsked {
  let asked = askedBySlots.get(slots);
  if (!asked) {
    const votes: string[] = [];
    const follows: string[] = [];
    for (const s of slots) {
      if (s.kind === 'vote') votes.push(s.slug);
      else if (s.kind === 'follow') follows.push(s.slug);
    }
    askedBySlots.set(slots, (asked = { votes, follows }));
  }
  return asked;
}

const MARKERS = new RegExp(MARKER.source, 'g');

/**
 * A rendered page as everyone signed out sees it, filled where it stands: for a page answered once and
 * not kept, which is then never split into parts and copied again (one pass over the text, one encoding).
 * The same text fill() makes from the page's holes.
 */
export async function signedOutText(deps: AppDeps, r: SlotRenderers, text: string, slots: Slot[]): Promise<string> {
  // signed out, every slot renders as markup (SlotRenderers.voteText gives a TextPiece only to a person)
  const into = await fillsOf(deps, r, slots, SIGNED_OUT, r.voteText);
  return text.replace(MARKERS, (_, i: string) => markupOf(into[Number(i)]));
}

/** Both versions of a bit of markup that depends only on being signed in. */
export function signedInText(signedOut: SafeHtml | string, signedIn: SafeHtml | string): Slot {
  return { kind: 'text', signedOut: html`${signedOut}`.value, signedIn: html`${signedIn}`.value };
}
