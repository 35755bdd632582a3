// Authorization: Bearer <API key | OAuth access token> → a Principal. Shared by REST and MCP.
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import { ApiError } from '../operations/errors.ts';
import { ANONYMOUS, type Principal } from '../operations/principal.ts';
import { API_KEY_PATTERN, verifyApiKey } from './api-keys.ts';

/** Verifies an OAuth access token for an audience (the REST base or the MCP URL); plugged in by the OAuth server. */
export type AccessTokenVerifier = (token: string, audience: string) => Promise<Principal | null>;

export interface AuthDeps {
  db: Kysely<DB>;
  verifyAccessToken?: AccessTokenVerifier;
}

export function bearerOf(header: string | undefined): string | null | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null; // null: a header was sent but is not a bearer credential
}

/** Resolves the caller; throws 401 when a credential was sent but is not valid. */
export async function resolvePrincipal(
  deps: AuthDeps,
  authorization: string | undefined,
  audience: string,
  challenge: (error?: string) => string,
): Promise<Principal> {
  const token = bearerOf(authorization);
  if (token === undefined) return ANONYMOUS;
  const refuse = () =>
    new ApiError(
      'unauthorized',
      'The credential sent is not valid (unknown, revoked or expired). Send Authorization: Bearer <API key or OAuth access token>.',
      undefined,
      { 'WWW-Authenticate': challenge('invalid_token') },
    );
  if (token === null) throw refuse();
  if (API_KEY_PATTERN.test(token)) {
    const owner = await verifyApiKey(deps.db, token);
    if (!owner) throw refuse();
    return {
      kind: 'user',
      userId: owner.user.id,
      email: owner.user.email,
      name: owner.user.name,
      role: owner.user.role === 'admin' ? 'admin' : 'user',
      credential: { type: 'api_key', id: owner.prefix, name: owner.name },
      scopes: owner.scopes,
    };
  }
  const p = deps.verifyAccessToken ? await deps.verifyAccessToken(token, audience) : null;
  if (!p) throw refuse();
  return p;
}
