// Website sessions: an opaque random token in an HttpOnly cookie; only its SHA-256 is stored.
// Each session carries its own CSRF token (synchronizer pattern); signed-out forms use an HMAC of a
// random cookie (signed double-submit), see src/web/context.ts.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import { nowIso } from '../store/json.ts';
import { toUser, type User } from './users.ts';
import { BATCH_KEYS, batchedRead, hasPool, hotKeyRead } from '../store/prepared.ts';
import { sqliteAdapterOf } from '../store/sqlite.ts';
import { reactionsAmong } from '../store/repos/votes.ts';

export const SESSION_COOKIE = 'll_session';
export const CSRF_COOKIE = 'll_csrf';
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const token = () => randomBytes(32).toString('base64url');

export interface SessionRecord {
  id: string;
  userId: number;
  csrf: string;
  expiresAt: string;
}

export async function createSession(
  db: Kysely<DB>,
  userId: number,
): Promise<{ token: string; session: SessionRecord }> {
  const t = token();
  const now = Date.now();
  const session: SessionRecord = {
    id: sha256(t),
    userId,
    csrf: token(),
    expiresAt: new Date(now + SESSION_TTL_MS).toISOString(),
  };
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: userId,
      csrf: session.csrf,
      created_at: new Date(now).toISOString(),
      expires_at: session.expiresAt,
    })
    .execute();
  // Sweep this person's expired sessions now and then.
  if (Math.random() < 0.1)
    await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<', nowIso()).execute();
  return { token: t, session };
}

const SESSION_COLUMNS = `s.id AS session_id, s.csrf, s.expires_at, u.id, u.email, u.name, u.role, u.email_verified_at, u.created_at`;
const SESSION_FROM = 'FROM sessions s JOIN users u ON u.id = s.user_id';
type SessionRow = Parameters<typeof toUser>[0] & { session_id: string; csrf: string; expires_at: string };

/** A session row as the session and its person; null when there is none or it has expired. */
function liveSession(row: SessionRow | undefined): { session: SessionRecord; user: User } | null {
  if (!row || row.expires_at <= nowIso()) return null;
  return {
    session: { id: row.session_id, userId: row.id, csrf: row.csrf, expiresAt: row.expires_at },
    user: toUser(row),
  };
}

/**
 * PostgreSQL: the sessions (and their people) of the requests that ask at the same moment, in one statement
 * (store/prepared.ts BatchedRead): their ids as a JSON array in, each row out with its index `i`.
 */
const SESSIONS_BATCH = `SELECT q.i, ${SESSION_COLUMNS}
  FROM ${BATCH_KEYS}
  JOIN sessions s ON s.id = q.k JOIN users u ON u.id = s.user_id`;

const SESSION_READ = {
  name: 'll_sessions_batch',
  sqlite: `SELECT ${SESSION_COLUMNS} ${SESSION_FROM} WHERE s.id = ?`,
  batch: SESSIONS_BATCH,
};

export async function findSession(
  db: Kysely<DB>,
  t: string | undefined,
): Promise<{ session: SessionRecord; user: User } | null> {
  if (!t || t.length > 100) return null;
  // the session and its person in one read: every signed-in request makes it, as a cached statement on
  // SQLite, and on PostgreSQL with the other requests' that arrive at the same moment
  const id = sha256(t);
  const rows =
    (await hotKeyRead<SessionRow>(db, SESSION_READ, id)) ??
    (await sql<SessionRow>`SELECT ${sql.raw(SESSION_COLUMNS)} ${sql.raw(SESSION_FROM)} WHERE s.id = ${id}`.execute(db))
      .rows;
  return liveSession(rows[0]);
}

/** The slugs a page asks about: its vote buttons' listings and the listing a follow button is for. */
export interface ReactionsAsked {
  votes: readonly string[];
  follows: readonly string[];
}

/** Of the slugs asked about, those the session's person voted for and those they follow. */
export interface Reactions {
  asked: ReactionsAsked;
  voted: Set<string>;
  following: Set<string>;
}

/**
 * SQLite: the session, its person, and the person's votes and follows among a page's listings, in one cached statement
 * (each list read by its person's index, votes_user and follows_user): a signed-in page read its person and
 * then their votes, two round trips in turn on PostgreSQL, and two statements for the server to run.
 */
const SESSION_AND_REACTIONS_SQLITE = `SELECT ${SESSION_COLUMNS},
    (SELECT json_group_array(l.slug) FROM votes r JOIN listings l ON l.id = r.listing_id
      WHERE r.user_id = s.user_id AND l.slug IN (SELECT value FROM json_each(?2))) AS voted,
    (SELECT json_group_array(l.slug) FROM follows r JOIN listings l ON l.id = r.listing_id
      WHERE r.user_id = s.user_id AND l.slug IN (SELECT value FROM json_each(?3))) AS following
    ${SESSION_FROM} WHERE s.id = ?1`;

/**
 * PostgreSQL: the same read for every signed-in page that asks at the same moment, in one statement
 * (store/prepared.ts BatchedRead): each request's session id and slugs, as a JSON array, in; its rows out,
 * by their index `i`. A statement per request cost a signed-in page more of the service's time in the
 * driver and the socket than anything else it did.
 */
const SESSIONS_AND_REACTIONS_BATCH = `SELECT q.i, ${SESSION_COLUMNS},
    ARRAY(SELECT l.slug FROM votes r JOIN listings l ON l.id = r.listing_id
      WHERE r.user_id = s.user_id AND l.slug = ANY(q.votes)) AS voted,
    ARRAY(SELECT l.slug FROM follows r JOIN listings l ON l.id = r.listing_id
      WHERE r.user_id = s.user_id AND l.slug = ANY(q.follows)) AS following
  FROM (SELECT (e.ord - 1)::integer AS i, e.v->>'id' AS id,
          ARRAY(SELECT jsonb_array_elements_text(e.v->'votes')) AS votes,
          ARRAY(SELECT jsonb_array_elements_text(e.v->'follows')) AS follows
        FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(v, ord)) q
  JOIN sessions s ON s.id = q.id JOIN users u ON u.id = s.user_id`;
const sessionsAndReactionsValues = (args: ReadonlyArray<{ id: string; asked: ReactionsAsked }>) => [
  `[${args.map((a) => `{"id":${JSON.stringify(a.id)},"votes":${jsonOf(a.asked.votes)},"follows":${jsonOf(a.asked.follows)}}`).join(',')}]`,
];

/**
 * A page's slugs as JSON, made once per list: a kept page's lists are the same object for every request
 * (web/personal.ts askedOf), and a launch week's hundred slugs were written out again for each person.
 */
const slugsJson = new WeakMap<readonly string[], string>();
function jsonOf(slugs: readonly string[]): string {
  let j = slugsJson.get(slugs);
  if (j === undefined) slugsJson.set(slugs, (j = JSON.stringify(slugs)));
  return j;
}

type SessionReactionsRow = SessionRow & { voted: string | string[]; following: string | string[] };

/**
 * findSession(), with the person's votes and follows among `asked` read in the same statement (a signed-in
 * page's personal parts: web/personal.ts). Without a fast path for `db` (a transaction), the two reads in turn.
 */
export async function findSessionWith(
  db: Kysely<DB>,
  t: string | undefined,
  asked: ReactionsAsked,
): Promise<{ session: SessionRecord; user: User; reactions: Reactions } | null> {
  if (!t || t.length > 100) return null;
  const id = sha256(t);
  const direct = sqliteAdapterOf(db);
  const rows = direct
    ? (direct
        .prepare(SESSION_AND_REACTIONS_SQLITE)
        .all([id, jsonOf(asked.votes), jsonOf(asked.follows)]) as SessionReactionsRow[])
    : hasPool(db)
      ? await batchedRead<{ id: string; asked: ReactionsAsked }, SessionReactionsRow & { i: number }>(
          db,
          'll_sessions_reactions_batch',
          SESSIONS_AND_REACTIONS_BATCH,
          sessionsAndReactionsValues,
        ).read({ id, asked })
      : undefined;
  if (!rows) {
    const found = await findSession(db, t);
    if (!found) return null;
    const mine = await reactionsAmong(db, found.user.id, asked.votes, asked.follows);
    return { ...found, reactions: { asked, ...mine } };
  }
  const found = liveSession(rows[0]);
  if (!found) return null;
  const list = (v: string | string[]) => new Set<string>(typeof v === 'string' ? JSON.parse(v) : v);
  return { ...found, reactions: { asked, voted: list(rows[0].voted), following: list(rows[0].following) } };
}

export async function destroySession(db: Kysely<DB>, t: string | undefined): Promise<void> {
  if (!t) return;
  await db.deleteFrom('sessions').where('id', '=', sha256(t)).execute();
}

/** Signs a person out everywhere (after a password reset), optionally keeping one session. */
export async function destroyUserSessions(db: Kysely<DB>, userId: number, exceptId?: string): Promise<void> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptId) q = q.where('id', '!=', exceptId);
  await q.execute();
}

export function newCsrfCookieValue(): string {
  return token();
}

/** The CSRF token of a signed-out form: HMAC(key, cookie value). A forged cookie is useless without the key. */
export function anonymousCsrf(key: Buffer, cookieValue: string): string {
  return createHmac('sha256', key).update(`csrf\0${cookieValue}`).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
