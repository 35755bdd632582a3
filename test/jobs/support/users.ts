// Users and API keys for API tests, created directly in the database.
import type { Kysely } from 'kysely';
import type { DB } from '../../../src/store/types.ts';
import { createApiKey } from '../../../src/auth/api-keys.ts';
import type { Scope } from '../../../src/domain/scopes.ts';

let n = 0;
export async function makeUser(
  db: Kysely<DB>,
  scopes: Scope[] = ['account:read', 'listings:write'],
): Promise<{ id: number; email: string; auth: { authorization: string } }> {
  const email = `maker${++n}-${Date.now()}@example.com`;
  const row = await db
    .insertInto('users')
    .values({ email, name: `Maker ${n}`, role: 'user', created_at: new Date().toISOString() } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const key = await createApiKey(db, row.id, 'test', scopes);
  return { id: row.id, email, auth: { authorization: `Bearer ${key.key}` } };
}
