// Signed awards (issue #21): the canonical form of a week's frozen ranking and the statement that is
// signed for each award. Pure: building and reading the bytes; hashing and signing live in
// store/repos/award-keys.ts (node:crypto).
//
// Snapshot canonical form (its SHA-256, lowercase hex, is the statement's snapshot_sha256): UTF-8 text,
// lines ending in "\n", no other whitespace:
//
//   launchlist-ranking-snapshot/1
//   kind <award kind>                      e.g. kind launch_of_the_week
//   week <Monday YYYY-MM-DD>
//   <rank>\t<listing id>\t<listing slug>\t<counted votes>      one line per ranked launch, rank order
//
// <counted votes> is the vote figure the week's ranking reports for the launch, written as JSON writes
// the number (96, 12.5). Every live launch of the week is listed, with or without votes.
//
// Statement: the UTF-8 bytes of one JSON object, no whitespace, keys in exactly this order:
//
//   {"typ":"launchlist-award/1","award":"launch_of_the_week","title":"Launch of the Week #1",
//    "week":"2026-11-16","iso_week":"2026-W47","rank":1,
//    "listing":{"id":12,"slug":"acme","name":"Acme"},"votes":96,
//    "snapshot_sha256":"<64 hex>","issued_at":"2026-11-23T00:05:00.000Z","kid":"<key id>"}
//
// The signature is Ed25519 (RFC 8032) over exactly those bytes; both are published base64url (no padding).
// A verifier checks the signature over the bytes as received and only then reads the JSON: it never
// re-serialises it.

export const SNAPSHOT_FORMAT = 'launchlist-ranking-snapshot/1';
export const STATEMENT_TYPE = 'launchlist-award/1';

export interface SnapshotEntry {
  rank: number;
  listing_id: number;
  slug: string;
  votes: number;
}

/** The canonical text of a week's frozen ranking (hash it as UTF-8). */
export function snapshotCanonical(kind: string, week: string, entries: readonly SnapshotEntry[]): string {
  let s = `${SNAPSHOT_FORMAT}\nkind ${kind}\nweek ${week}\n`;
  for (const e of entries) s += `${e.rank}\t${e.listing_id}\t${e.slug}\t${JSON.stringify(e.votes)}\n`;
  return s;
}

/** Reads a canonical snapshot text back into its entries (null when it is not one). */
export function parseSnapshot(text: string): { kind: string; week: string; entries: SnapshotEntry[] } | null {
  const lines = text.split('\n');
  if (lines[0] !== SNAPSHOT_FORMAT || lines.at(-1) !== '') return null;
  const kind = /^kind (\S+)$/.exec(lines[1] ?? '')?.[1];
  const week = /^week (\d{4}-\d{2}-\d{2})$/.exec(lines[2] ?? '')?.[1];
  if (!kind || !week) return null;
  const entries: SnapshotEntry[] = [];
  for (const line of lines.slice(3, -1)) {
    const [rank, id, slug, votes] = line.split('\t');
    if (votes === undefined) return null;
    entries.push({ rank: Number(rank), listing_id: Number(id), slug, votes: Number(votes) });
  }
  return { kind, week, entries };
}

export interface AwardStatement {
  typ: typeof STATEMENT_TYPE;
  award: string;
  title: string;
  week: string;
  iso_week: string;
  rank: number;
  listing: { id: number; slug: string; name: string };
  votes: number;
  snapshot_sha256: string;
  issued_at: string;
  kid: string;
}

/** The exact statement text (sign its UTF-8 bytes): keys in the documented order, no whitespace. */
export function statementText(s: Omit<AwardStatement, 'typ'>): string {
  const ordered: AwardStatement = {
    typ: STATEMENT_TYPE,
    award: s.award,
    title: s.title,
    week: s.week,
    iso_week: s.iso_week,
    rank: s.rank,
    listing: { id: s.listing.id, slug: s.listing.slug, name: s.listing.name },
    votes: s.votes,
    snapshot_sha256: s.snapshot_sha256,
    issued_at: s.issued_at,
    kid: s.kid,
  };
  return JSON.stringify(ordered);
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The statement read from its text, or null when the text is not a statement of this format. */
export function parseStatement(text: string): AwardStatement | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObj(v) || v.typ !== STATEMENT_TYPE || !isObj(v.listing)) return null;
  const l = v.listing;
  const str = (x: unknown) => typeof x === 'string';
  const num = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  if (
    !str(v.award) ||
    !str(v.title) ||
    !str(v.week) ||
    !str(v.iso_week) ||
    !num(v.rank) ||
    !num(l.id) ||
    !str(l.slug) ||
    !str(l.name) ||
    !num(v.votes) ||
    !str(v.snapshot_sha256) ||
    !str(v.issued_at) ||
    !str(v.kid)
  )
    return null;
  return v as unknown as AwardStatement;
}

/** Where the award keys are published as a JWKS (OKP/Ed25519). OAuth's own keys are at /oauth/jwks. */
export const AWARD_KEYS_PATH = '/.well-known/award-keys.json';

/** The website page that shows an award's verification. */
export const awardPagePath = (week: string, rank: number): string => `/awards/${week}/${rank}`;
/** The verify_award path under /api/v1. */
export const awardApiPath = (week: string, rank: number): string => `/awards/${week}/${rank}/verification`;
