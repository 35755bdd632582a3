// Who is calling: nobody, or a person through one credential with its scopes. Resolved by the adapters
// (auth/principal.ts), enforced by the kernel (kernel.ts), read by handlers through ctx.principal.
import type { Scope } from '../domain/scopes.ts';
import type { ApiError } from './errors.ts';

export interface Credential {
  type: 'api_key' | 'oauth' | 'session';
  id: string;
  name: string;
  client_id?: string;
}

export type SignedInPrincipal = {
  kind: 'user';
  userId: number;
  email: string;
  name: string;
  role: 'user' | 'admin';
  credential: Credential;
  scopes: Scope[];
};

export type Principal =
  /** `refused`: a credential was sent but is not valid. Public operations serve the caller anonymously; the others answer this 401. */
  { kind: 'anonymous'; refused?: ApiError } | SignedInPrincipal;

export const ANONYMOUS: Principal = { kind: 'anonymous' };
