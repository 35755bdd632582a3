// The declared access of an operation, enforced by the kernel for every surface: public, or a scope
// (401 without a valid credential, 403 without the scope), with the surface's WWW-Authenticate challenge.
import type { Scope } from '../domain/scopes.ts';
import type { Access } from './define.ts';
import { ApiError } from './errors.ts';
import type { Principal } from './principal.ts';

/** Builds a surface's WWW-Authenticate value (RFC 6750), given the error and the scope needed. */
export type Challenge = (error?: string, scope?: string) => string;

export function enforceAccess(access: Access, principal: Principal, challenge: Challenge): void {
  if (access === 'public') return;
  if (principal.kind === 'anonymous' && principal.refused) throw principal.refused;
  if (principal.kind !== 'user') {
    throw new ApiError(
      'unauthorized',
      `Sign-in required: send Authorization: Bearer <API key or OAuth access token> with the scope ${access}.`,
      undefined,
      { 'WWW-Authenticate': challenge(undefined, access) },
    );
  }
  if (!principal.scopes.includes(access as Scope)) {
    throw new ApiError(
      'insufficient_scope',
      `This operation needs the scope ${access}; the credential in use has ${principal.scopes.length ? principal.scopes.join(', ') : 'no scopes'}.`,
      [{ path: 'scope', message: `requires ${access}` }],
      { 'WWW-Authenticate': challenge('insufficient_scope', access) },
    );
  }
}
