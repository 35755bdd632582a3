// API keys: `llk_<id>_<secret>`. The recognisable `llk_` prefix lets secret scanners find leaked keys.
// Only a SHA-256 of the whole key is stored (the secret has 190 bits of entropy, so a slow KDF adds nothing);
// the key is shown once, at creation.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import { fromJson, nowIso, toJson } from '../store/json.ts';
import { SCOPES, type Scope } from '../domain/scopes.ts';

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function base62(n: number): string {
  const bytes = randomBytes(n);
  let s = '';
  for (const b of bytes) s += B62[b % 62];
  return s;
}
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const API_KEY_PATTERN = /^llk_([0-9A-Za-z]{12})_([0-9A-Za-z]{32})$/;

export async function createApiKey(
  db: Kysely<DB>,
  userId: number,
  name: string,
  scopes: Scope[],
): Promise<{ id: number; key: string; prefix: string; scopes: Scope[] }> {
  const unknown = scopes.filter((s) => !SCOPES.includes(s));
  if (unknown.length) throw new Error(`Unknown scope(s): ${unknown.join(', ')}`);
  const id = base62(12);
  const key = `llk_${id}_${base62(32)}`;
  const prefix = `llk_${id}`;
  const row = await db
    .insertInto('api_keys')
    .values({
      user_id: userId,
      name,
      prefix,
      secret_hash: sha256(key),
      scopes: toJson([...new Set(scopes)]),
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, key, prefix, scopes };
}

export interface KeyOwner {
  keyId: number;
  name: string;
  prefix: string;
  scopes: Scope[];
  user: { id: number; email: string; name: string; role: string };
}

const lastUsedWritten = new Map<number, number>();

export async function verifyApiKey(db: Kysely<DB>, key: string): Promise<KeyOwner | null> {
  const m = API_KEY_PATTERN.exec(key);
  if (!m) return null;
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.name',
      'api_keys.prefix',
      'api_keys.secret_hash',
      'api_keys.scopes',
      'api_keys.revoked_at',
      'users.id as user_id',
      'users.email',
      'users.name as user_name',
      'users.role',
    ])
    .where('api_keys.prefix', '=', `llk_${m[1]}`)
    .executeTakeFirst();
  if (!row || row.revoked_at) return null;
  const a = Buffer.from(row.secret_hash, 'hex');
  const b = Buffer.from(sha256(key), 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  // last_used_at is written at most once a minute per key, so reads do not turn every request into a write.
  const now = Date.now();
  if ((lastUsedWritten.get(row.id) ?? 0) < now - 60_000) {
    lastUsedWritten.set(row.id, now);
    await db.updateTable('api_keys').set({ last_used_at: nowIso() }).where('id', '=', row.id).execute();
  }
  return {
    keyId: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: fromJson<Scope[]>(row.scopes, []),
    user: { id: row.user_id, email: row.email, name: row.user_name, role: row.role },
  };
}

export async function listApiKeys(db: Kysely<DB>, userId: number) {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'prefix', 'scopes', 'created_at', 'last_used_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, scopes: fromJson<Scope[]>(r.scopes, []) }));
}

export async function revokeApiKey(db: Kysely<DB>, userId: number, id: number): Promise<boolean> {
  const r = await db
    .updateTable('api_keys')
    .set({ revoked_at: nowIso() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
