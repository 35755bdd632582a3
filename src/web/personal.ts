// The personal parts of a public page, kept out of what visitors share. A page rendered for the
// shared cache (page-cache.ts) carries a marker where something depends on who is looking: the
// header's account links, a vote or follow button (voted or not, the CSRF token in its form), the
// claim box, a "sign in to vote" hint. fill() then puts in each marker what this visitor sees: the
// signed-out version for everyone signed out (computed once per page), or this person's own.
//
// User text is always escaped by html``, so no text on a page can read as a marker.
import type { AppDeps } from '../deps.ts';
import { reactionsAmong } from '../store/repos/votes.ts';
import type { WebContext } from './context.ts';
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

const MARKER = /<!--ll-slot:(\d+)-->/;

/** The slots of one page being rendered for the shared cache. */
export class Slots {
  readonly list: Slot[] = [];
  add(slot: Slot): SafeHtml {
    this.list.push(slot);
    return raw(`<!--ll-slot:${this.list.length - 1}-->`);
  }
}

/**
 * A rendered page with holes: its static text as UTF-8 bytes, encoded once (`parts`), and between each
 * two parts the slot that goes there (`order[i]` is the slot between parts[i] and parts[i + 1]).
 * A page is then written for each visitor by copying the parts and encoding only their slots.
 */
export interface Holes {
  parts: Buffer[];
  order: number[];
  slots: Slot[];
  /** Bytes in `parts`. */
  size: number;
}

export function holesOf(text: string, slots: Slot[]): Holes {
  const split = text.split(MARKER);
  const parts: Buffer[] = [];
  const order: number[] = [];
  let size = 0;
  for (let i = 0; i < split.length; i++) {
    if (i % 2) order.push(Number(split[i]));
    else {
      const b = Buffer.from(split[i]);
      parts.push(b);
      size += b.length;
    }
  }
  return { parts, order, slots, size };
}

/** How each kind of slot renders, signed out and for a person (the page modules provide them). */
export interface SlotRenderers {
  me(web: WebContext, current: string | undefined): SafeHtml;
  /** A vote button: its markup, or its UTF-8 bytes in pieces (copied as they are). */
  vote(s: Extract<Slot, { kind: 'vote' }>, web: WebContext, voted: boolean): SafeHtml | readonly Buffer[];
  follow(s: Extract<Slot, { kind: 'follow' }>, web: WebContext, following: boolean): SafeHtml;
  claim(deps: AppDeps, web: WebContext, s: Extract<Slot, { kind: 'claim' }>): Promise<SafeHtml>;
}

/**
 * The page as this person sees it, as the bytes to send: their votes among the page's listings,
 * whether they follow the listing, their claim box, their header, their CSRF token. Signed out, nothing
 * is read from the database and the result is the same for everyone.
 */
export async function fill(deps: AppDeps, r: SlotRenderers, holes: Holes, web: WebContext): Promise<Buffer> {
  const user = web.user;
  const voteSlugs = user ? holes.slots.flatMap((s) => (s.kind === 'vote' ? [s.slug] : [])) : [];
  const followSlot = holes.slots.find((s) => s.kind === 'follow');
  // the page's votes and its follow in one read
  const mine = user
    ? await reactionsAmong(deps.store.db, user.id, voteSlugs, followSlot ? [followSlot.slug] : [])
    : undefined;
  const voted = mine?.voted ?? new Set<string>();
  const following = followSlot !== undefined && mine?.following.has(followSlot.slug) === true;
  const filled: Array<string | readonly Buffer[]> = [];
  for (const s of holes.slots) {
    switch (s.kind) {
      case 'me':
        filled.push(r.me(web, s.current).value);
        break;
      case 'vote': {
        const v = r.vote(s, web, voted.has(s.slug));
        filled.push(v instanceof SafeHtml ? v.value : v);
        break;
      }
      case 'follow':
        filled.push(r.follow(s, web, following).value);
        break;
      case 'claim':
        filled.push((await r.claim(deps, web, s)).value);
        break;
      case 'text':
        filled.push(user ? s.signedIn : s.signedOut);
        break;
    }
  }
  // the static bytes are copied; only what was filled in is encoded
  let size = holes.size;
  for (const i of holes.order) {
    const f = filled[i];
    if (typeof f === 'string') size += Buffer.byteLength(f);
    else for (const b of f) size += b.length;
  }
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < holes.parts.length; i++) {
    at += holes.parts[i].copy(out, at);
    if (i < holes.order.length) {
      const f = filled[holes.order[i]];
      if (typeof f === 'string') at += out.write(f, at);
      else for (const b of f) at += b.copy(out, at);
    }
  }
  return out;
}

/** Both versions of a bit of markup that depends only on being signed in. */
export function signedInText(signedOut: SafeHtml | string, signedIn: SafeHtml | string): Slot {
  return { kind: 'text', signedOut: html`${signedOut}`.value, signedIn: html`${signedIn}`.value };
}
