// People: create, look up, authenticate, change password, verify email. Roles: 'user' and 'admin'.
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import { nowIso } from '../store/json.ts';
import { dummyHash, hashPassword, needsRehash, passwordProblem, verifyPassword } from './passwords.ts';

export type Role = 'user' | 'admin';
export interface User {
  id: number;
  email: string;
  name: string;
  role: Role;
  email_verified: boolean;
  email_verified_at: string | null;
  created_at: string;
}

const EMAIL = /^[^\s@<>()",;:\\]+@[^\s@<>()",;:\\]+\.[^\s@<>()",;:\\]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function emailProblem(email: string): string | null {
  const e = normalizeEmail(email);
  if (!e) return 'is required';
  if (e.length > 254) return 'must be at most 254 characters';
  if (!EMAIL.test(e)) return 'must be an email address like name@example.com';
  return null;
}

export function toUser(r: {
  id: number;
  email: string;
  name: string;
  role: string;
  email_verified_at: string | null;
  created_at: string;
}): User {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    role: r.role === 'admin' ? 'admin' : 'user',
    email_verified: Boolean(r.email_verified_at),
    email_verified_at: r.email_verified_at,
    created_at: r.created_at,
  };
}

const COLUMNS = ['id', 'email', 'name', 'role', 'email_verified_at', 'created_at'] as const;

export class UserError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.field = field;
  }
}

export async function createUser(
  db: Kysely<DB>,
  input: { email: string; password?: string | null; name?: string; role?: Role; emailVerified?: boolean },
): Promise<User> {
  const email = normalizeEmail(input.email);
  const ep = emailProblem(email);
  if (ep) throw new UserError('email', ep);
  if (input.password != null) {
    const pp = passwordProblem(input.password, email);
    if (pp) throw new UserError('password', pp);
  }
  const name = (input.name ?? '').trim().slice(0, 120) || email.split('@')[0];
  const password_hash = input.password != null ? await hashPassword(input.password) : null;
  const now = nowIso();
  const existing = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) throw new UserError('email', 'an account with this email address already exists');
  try {
    const row = await db
      .insertInto('users')
      .values({
        email,
        name,
        password_hash,
        role: input.role ?? 'user',
        email_verified_at: input.emailVerified ? now : null,
        created_at: now,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toUser(row);
  } catch (e) {
    if (/unique|duplicate/i.test(String((e as Error).message)))
      throw new UserError('email', 'an account with this email address already exists');
    throw e;
  }
}

export async function findUserById(db: Kysely<DB>, id: number): Promise<User | null> {
  if (!Number.isSafeInteger(id)) return null;
  const r = await db.selectFrom('users').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return r ? toUser(r) : null;
}

export async function findUserByEmail(db: Kysely<DB>, email: string): Promise<User | null> {
  const r = await db.selectFrom('users').select(COLUMNS).where('email', '=', normalizeEmail(email)).executeTakeFirst();
  return r ? toUser(r) : null;
}

/** Checks an email + password; spends the same time whether or not the account exists. */
export async function authenticate(db: Kysely<DB>, email: string, password: string): Promise<User | null> {
  const r = await db
    .selectFrom('users')
    .select([...COLUMNS, 'password_hash'])
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  if (!r?.password_hash) {
    await verifyPassword(password, await dummyHash());
    return null;
  }
  if (!(await verifyPassword(password, r.password_hash))) return null;
  if (needsRehash(r.password_hash))
    await db
      .updateTable('users')
      .set({ password_hash: await hashPassword(password) })
      .where('id', '=', r.id)
      .execute();
  return toUser(r);
}

export async function setPassword(db: Kysely<DB>, userId: number, password: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: await hashPassword(password) })
    .where('id', '=', userId)
    .execute();
}

export async function markEmailVerified(db: Kysely<DB>, userId: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_verified_at: nowIso() })
    .where('id', '=', userId)
    .where('email_verified_at', 'is', null)
    .execute();
}

export async function setRole(db: Kysely<DB>, userId: number, role: Role): Promise<void> {
  await db.updateTable('users').set({ role }).where('id', '=', userId).execute();
}
