// GET /me (get_account): who the caller is, which credential is in use and what it allows.
import type { Ctx } from '../operations/context.ts';
import { userOf } from '../operations/context.ts';
import { notFound } from '../operations/errors.ts';
import { findUserById } from './users.ts';
import { allowsInWords } from './scopes.ts';

export type AccountView = {
  user: { id: number; email: string; name: string; role: 'user' | 'admin'; email_verified: boolean };
  credential:
    | { type: 'api_key'; name: string; prefix: string }
    | { type: 'oauth'; name: string; client_id: string }
    | { type: 'session'; name: string };
  scopes: string[];
  allows: string[];
};

export async function accountOf(ctx: Ctx): Promise<AccountView> {
  const p = userOf(ctx);
  const user = (await findUserById(ctx.db, p.userId)) ?? notFound('account', p.userId);
  const c = p.credential;
  const credential: AccountView['credential'] =
    c.type === 'api_key'
      ? { type: 'api_key', name: c.name, prefix: c.id }
      : c.type === 'oauth'
        ? { type: 'oauth', name: c.name, client_id: c.client_id ?? c.id }
        : { type: 'session', name: c.name };
  return {
    user: { id: user.id, email: user.email, name: user.name, role: user.role, email_verified: user.email_verified },
    credential,
    scopes: [...p.scopes],
    allows: allowsInWords(p.scopes),
  };
}
