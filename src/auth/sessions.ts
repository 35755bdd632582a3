// Website sessions: an opaque random token in an HttpOnly cookie; only its SHA-256 is stored.
// Each session carries its own CSRF token (synchronizer pattern); signed-out forms use an HMAC of a
// random cookie (signed double-submit), see src/web/context.ts.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import { nowIso } from '../store/json.ts';
import { toUser, type User } from './users.ts';
import { hotQuery } from '../store/prepared.ts';

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

export async function findSession(
  db: Kysely<DB>,
  t: string | undefined,
): Promise<{ session: SessionRecord; user: User } | null> {
  if (!t || t.length > 100) return null;
  // the session and its person in one read: every signed-in request makes it (on PostgreSQL a round
  // trip is most of a small read's cost), as a cached or named prepared statement
  const query = (id: string) =>
    db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select([
        's.id as session_id',
        's.csrf',
        's.expires_at',
        'u.id',
        'u.email',
        'u.name',
        'u.role',
        'u.email_verified_at',
        'u.created_at',
      ])
      .where('s.id', '=', id);
  const id = sha256(t);
  const hot = await hotQuery(db, 'll_session_read', ([i]) => query(i), [id]);
  const row = hot ? hot[0] : await query(id).executeTakeFirst();
  if (!row || row.expires_at <= nowIso()) return null;
  return {
    session: { id: row.session_id, userId: row.id, csrf: row.csrf, expiresAt: row.expires_at },
    user: toUser(row),
  };
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
