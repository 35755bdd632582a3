// Single-use, expiring tokens sent by email (verify an address, reset a password). Only the SHA-256
// of a token is stored; using one is one atomic UPDATE, so a token works exactly once.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import { nowIso } from '../store/json.ts';

export type EmailTokenPurpose = 'verify_email' | 'reset_password';
export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  verify_email: 48 * 3600_000,
  reset_password: 3600_000,
};

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export async function issueEmailToken(db: Kysely<DB>, userId: number, purpose: EmailTokenPurpose): Promise<string> {
  const t = randomBytes(32).toString('base64url');
  const now = Date.now();
  // A new link replaces older unused ones of the same purpose.
  await db
    .updateTable('email_tokens')
    .set({ used_at: nowIso() })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto('email_tokens')
    .values({
      id: sha256(t),
      user_id: userId,
      purpose,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + EMAIL_TOKEN_TTL_MS[purpose]).toISOString(),
      used_at: null,
    })
    .execute();
  return t;
}

/** The person a token belongs to, without using it up (to show a form); null when unknown, used or expired. */
export async function peekEmailToken(db: Kysely<DB>, t: string, purpose: EmailTokenPurpose): Promise<number | null> {
  if (!t || t.length > 100) return null;
  const row = await db
    .selectFrom('email_tokens')
    .select(['user_id'])
    .where('id', '=', sha256(t))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso())
    .executeTakeFirst();
  return row ? row.user_id : null;
}

/** Uses a token up; returns its person, or null when unknown, already used or expired. */
export async function consumeEmailToken(db: Kysely<DB>, t: string, purpose: EmailTokenPurpose): Promise<number | null> {
  if (!t || t.length > 100) return null;
  const id = sha256(t);
  const r = await db
    .updateTable('email_tokens')
    .set({ used_at: nowIso() })
    .where('id', '=', id)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso())
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return null;
  const row = await db.selectFrom('email_tokens').select('user_id').where('id', '=', id).executeTakeFirstOrThrow();
  return row.user_id;
}
