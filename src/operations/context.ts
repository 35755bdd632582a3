// What every handler receives: storage, configuration, the caller, and the services it may use.
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { DB } from '../store/types.ts';
import type { Engine } from '../store/connect.ts';
import type { ApiError } from './errors.ts';

export type Scope = 'account:read' | 'listings:write' | 'orders:write';
export const SCOPES: readonly Scope[] = ['account:read', 'listings:write', 'orders:write'];

export interface Credential {
  type: 'api_key' | 'oauth' | 'session';
  id: string;
  name: string;
  client_id?: string;
}
export type Principal =
  /** `refused`: a credential was sent but is not valid. Public operations serve the caller anonymously; the others answer this 401. */
  | { kind: 'anonymous'; refused?: ApiError }
  | {
      kind: 'user';
      userId: number;
      email: string;
      name: string;
      role: 'user' | 'admin';
      credential: Credential;
      scopes: Scope[];
    };

export interface Services {
  /** Extra services are attached here by later modules (mailer, jobs, views, payments…). */
  [name: string]: unknown;
}

export interface Ctx {
  db: Kysely<DB>;
  engine: Engine;
  config: Config;
  principal: Principal;
  requestId: string;
  services: Services;
  now(): Date;
}

export type SignedInCtx = Ctx & { principal: Extract<Principal, { kind: 'user' }> };

export function userOf(ctx: Ctx): Extract<Principal, { kind: 'user' }> {
  if (ctx.principal.kind !== 'user')
    throw new Error('userOf() on an anonymous context: access must be enforced by the adapter');
  return ctx.principal;
}
