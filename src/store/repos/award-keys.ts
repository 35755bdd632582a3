// The awards' Ed25519 signing keys (issue #21): kept in the database (award_keys), generated on first
// use, rotatable (CLI `awards rotate-key`, or the admin page). The newest key not retired signs; every
// key ever used stays published in the JWKS so old awards keep verifying.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../types.ts';

/** An Ed25519 public key as a JWK (RFC 8037), with its key id. */
export interface AwardJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  use: 'sig';
  alg: 'EdDSA';
}

export interface SigningKey {
  kid: string;
  privateKey: ReturnType<typeof createPrivateKey>;
}

/** The RFC 7638 thumbprint of an Ed25519 public key (base64url SHA-256 of {"crv","kty","x"}): its kid. */
export function thumbprint(x: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest('base64url');
}

async function insertNewKey(db: Kysely<DB>, now: Date): Promise<SigningKey> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x as string;
  const kid = thumbprint(x);
  const jwk: AwardJwk = { kty: 'OKP', crv: 'Ed25519', x, kid, use: 'sig', alg: 'EdDSA' };
  await db
    .insertInto('award_keys')
    .values({
      kid,
      public_jwk: JSON.stringify(jwk),
      private_key: (privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64'),
      created_at: now.toISOString(),
      retired_at: null,
    })
    .execute();
  return { kid, privateKey };
}

/** The key that signs now: the newest one not retired, made on first use. */
export async function signingKey(db: Kysely<DB>, now = new Date()): Promise<SigningKey> {
  const row = await db
    .selectFrom('award_keys')
    .select(['kid', 'private_key'])
    .where('retired_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('kid')
    .executeTakeFirst();
  if (!row) return insertNewKey(db, now);
  return {
    kid: row.kid,
    privateKey: createPrivateKey({ key: Buffer.from(row.private_key, 'base64'), format: 'der', type: 'pkcs8' }),
  };
}

/** Retires every current key and makes a new one; returns the new kid. Old public keys stay published. */
export async function rotateSigningKey(db: Kysely<DB>, now = new Date()): Promise<string> {
  const run = async (trx: Kysely<DB>) => {
    await trx
      .updateTable('award_keys')
      .set({ retired_at: now.toISOString() })
      .where('retired_at', 'is', null)
      .execute();
    return (await insertNewKey(trx, now)).kid;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** Every public key, newest first, with when it was made and retired. */
export async function publicKeys(
  db: Kysely<DB>,
): Promise<Array<{ jwk: AwardJwk; created_at: string; retired_at: string | null }>> {
  const rows = await db
    .selectFrom('award_keys')
    .select(['public_jwk', 'created_at', 'retired_at'])
    .orderBy('created_at', 'desc')
    .orderBy('kid')
    .execute();
  return rows.map((r) => ({
    jwk: JSON.parse(r.public_jwk) as AwardJwk,
    created_at: r.created_at,
    retired_at: r.retired_at,
  }));
}

/** The JWKS document published at AWARD_KEYS_PATH. */
export async function awardJwks(db: Kysely<DB>): Promise<{ keys: AwardJwk[] }> {
  return { keys: (await publicKeys(db)).map((k) => k.jwk) };
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Ed25519 signature (base64url) of `bytes`. */
export function signBytes(key: SigningKey, bytes: Buffer): string {
  return sign(null, bytes, key.privateKey).toString('base64url');
}

/** True when `signature` (base64url) is a valid Ed25519 signature of `bytes` by the JWK. */
export function verifyBytes(jwk: { kty: string; crv: string; x: string }, bytes: Buffer, signature: string): boolean {
  try {
    const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
    return verify(null, bytes, key, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}
