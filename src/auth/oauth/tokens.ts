// Access-token verification for the resource servers (REST API and MCP), and the person's
// connected apps (their OAuth grants) for the account page.
import type Provider from 'oidc-provider';
import type { Kysely } from 'kysely';
import type { DB } from '../../store/types.ts';
import type { Principal } from '../../operations/principal.ts';
import type { Scope } from '../../domain/scopes.ts';
import type { AccessTokenVerifier } from '../principal.ts';
import { fromJson } from '../../store/json.ts';
import { findUserById } from '../users.ts';
import { isScope } from '../../domain/scopes.ts';

async function clientInfo(
  provider: Provider,
  clientId: string,
): Promise<{ name: string; redirectHosts: string[]; clientUri?: string; metadataDocument: boolean }> {
  try {
    const c = await provider.Client.find(clientId);
    if (c) {
      const hosts = [
        ...new Set(
          ((c.redirectUris as string[]) ?? []).map((u) => {
            try {
              return new URL(u).host || u;
            } catch {
              return u;
            }
          }),
        ),
      ];
      return {
        name: c.clientName || clientId,
        redirectHosts: hosts,
        clientUri: c.clientUri,
        metadataDocument: /^https?:\/\//.test(clientId),
      };
    }
  } catch {
    /* a metadata document that cannot be fetched now */
  }
  return { name: clientId, redirectHosts: [], metadataDocument: /^https?:\/\//.test(clientId) };
}

export function accessTokenVerifier(providerOf: () => Promise<Provider>, db: Kysely<DB>): AccessTokenVerifier {
  return async (token: string, audience: string): Promise<Principal | null> => {
    if (!token || token.length > 512) return null;
    const provider = await providerOf();
    const at = await provider.AccessToken.find(token);
    if (!at || at.isExpired) return null;
    const auds: string[] = Array.isArray(at.aud) ? at.aud : at.aud ? [at.aud] : [];
    if (!auds.includes(audience)) return null; // issued for another resource (RFC 8707)
    if (at.jkt || at['x5t#S256']) return null; // sender-constrained tokens are not accepted as plain Bearer
    const grant = await provider.Grant.find(at.grantId);
    if (!grant || grant.accountId !== at.accountId || grant.clientId !== at.clientId) return null; // revoked
    const user = await findUserById(db, Number(at.accountId));
    if (!user) return null;
    const scopes = String(at.scope ?? '')
      .split(' ')
      .filter(isScope) as Scope[];
    const client = await clientInfo(provider, at.clientId);
    return {
      kind: 'user',
      userId: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      credential: { type: 'oauth', id: at.jti, name: client.name, client_id: at.clientId },
      scopes,
    };
  };
}

export interface ConnectedApp {
  clientId: string;
  name: string;
  redirectHosts: string[];
  clientUri?: string;
  metadataDocument: boolean;
  scopes: Scope[];
  resources: string[];
  connectedAt: string;
  grantIds: string[];
}

/** The apps a person allowed, one entry per client (a client may hold several grants). */
export async function listConnectedApps(provider: Provider, db: Kysely<DB>, userId: number): Promise<ConnectedApp[]> {
  const rows = await db
    .selectFrom('oauth_store')
    .select(['id', 'payload', 'expires_at'])
    .where('model', '=', 'Grant')
    .where('account_id', '=', String(userId))
    .execute();
  const now = new Date().toISOString();
  const byClient = new Map<string, { scopes: Set<string>; resources: Set<string>; iat: number; grantIds: string[] }>();
  for (const r of rows) {
    if (r.expires_at && r.expires_at <= now) continue;
    const g = fromJson<{ clientId?: string; iat?: number; resources?: Record<string, string> }>(r.payload, {});
    if (!g.clientId) continue;
    const e = byClient.get(g.clientId) ?? {
      scopes: new Set<string>(),
      resources: new Set<string>(),
      iat: Infinity,
      grantIds: [],
    };
    for (const [res, scope] of Object.entries(g.resources ?? {})) {
      e.resources.add(res);
      for (const s of scope.split(' ')) if (s) e.scopes.add(s);
    }
    e.iat = Math.min(e.iat, g.iat ?? Infinity);
    e.grantIds.push(r.id);
    byClient.set(g.clientId, e);
  }
  const out: ConnectedApp[] = [];
  for (const [clientId, e] of byClient) {
    const info = await clientInfo(provider, clientId);
    out.push({
      clientId,
      ...info,
      scopes: [...e.scopes].filter(isScope) as Scope[],
      resources: [...e.resources],
      connectedAt: Number.isFinite(e.iat) ? new Date(e.iat * 1000).toISOString() : '',
      grantIds: e.grantIds,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Disconnects an app: its grants, and every code and token issued under them, stop working at once. */
export async function revokeConnectedApp(
  provider: Provider,
  db: Kysely<DB>,
  userId: number,
  clientId: string,
): Promise<boolean> {
  const apps = await listConnectedApps(provider, db, userId);
  const app = apps.find((a) => a.clientId === clientId);
  if (!app) return false;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('oauth_store').where('grant_id', 'in', app.grantIds).execute();
    await trx
      .deleteFrom('oauth_store')
      .where('model', '=', 'Grant')
      .where('id', 'in', app.grantIds)
      .where('account_id', '=', String(userId))
      .execute();
  });
  return true;
}

/** Ends the person's OAuth sign-in session in this browser (by its cookie) or, without one, everywhere. */
export async function endOAuthSessions(db: Kysely<DB>, userId: number, sessionId?: string): Promise<void> {
  let q = db.deleteFrom('oauth_store').where('model', '=', 'Session').where('account_id', '=', String(userId));
  if (sessionId !== undefined) q = q.where('id', '=', sessionId);
  await q.execute();
}
