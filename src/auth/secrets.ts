// Server secrets that must survive restarts and be shared by every instance (cookie/CSRF keys, OAuth
// signing keys). SESSION_SECRET wins when set; otherwise a random value is generated once and kept in
// the settings table (so instances sharing one database agree).
import { generateKeyPairSync, randomBytes, createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import { fromJson, nowIso, toJson } from '../store/json.ts';

export async function getOrCreateSetting<T>(db: Kysely<DB>, key: string, make: () => T): Promise<T> {
  const found = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  const parsed = found ? fromJson<T | null>(found.value, null) : null;
  if (parsed !== null) return parsed;
  // Two instances starting together: the first insert wins and both read it back.
  await db
    .insertInto('settings')
    .values({ key, value: toJson(make()), updated_at: nowIso() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  const stored = fromJson<T | null>(row.value, null);
  if (stored === null) throw new Error(`settings.${key} holds a value that is not valid JSON`);
  return stored;
}

export async function readSetting<T>(db: Kysely<DB>, key: string, fallback: T): Promise<T> {
  const found = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return found ? fromJson<T>(found.value, fallback) : fallback;
}

export interface ServerSecrets {
  /** Keys for signing cookies (first signs, all verify). */
  cookieKeys: string[];
  /** HMAC key for CSRF tokens of signed-out forms. */
  csrfKey: Buffer;
  /** Private JWKs for ID-token signing. */
  jwks: { keys: Record<string, unknown>[] };
}

export async function loadSecrets(db: Kysely<DB>, sessionSecret: string | undefined): Promise<ServerSecrets> {
  const base =
    sessionSecret ?? (await getOrCreateSetting(db, 'auth.session_secret', () => randomBytes(32).toString('base64url')));
  const derive = (label: string) => createHash('sha256').update(`${label}\0${base}`).digest();
  const jwks = await getOrCreateSetting(db, 'auth.oauth_jwks', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
    return { keys: [{ ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' }] };
  });
  return { cookieKeys: [derive('cookies').toString('base64url')], csrfKey: derive('csrf'), jwks };
}
