// Accounts, sessions, API keys, OAuth 2.1 and idempotency, wired into the app:
//   deps.services.auth      the services below (pages and the CLI use them)
//   deps.verifyAccessToken  OAuth access tokens → Principal (REST and MCP)
//   deps.idempotency        the Idempotency-Key runner
//   deps.plugins            the OAuth endpoints and the account pages
import type Provider from 'oidc-provider';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../app.ts';
import type { Config } from '../config.ts';
import type { DB } from '../store/types.ts';
import type { MailDeps } from '../mail/index.ts';
import { loadSecrets, readSetting, type ServerSecrets } from './secrets.ts';
import { ALLOW_HTTP_CLIENT_IDS_SETTING, audiencesFor, createProvider, type Audiences } from './oauth/provider.ts';
import { accessTokenVerifier } from './oauth/tokens.ts';
import { registerOAuthRoutes } from './oauth/routes.ts';
import { AttemptLimiter } from './rate-limit.ts';
import { createIdempotencyRunner } from '../http/idempotency.ts';
import { registerWebAuth } from '../web/index.ts';

export interface AuthServices {
  db: Kysely<DB>;
  config: Config;
  secrets: ServerSecrets;
  provider: Provider;
  audiences: Audiences;
  /** Sign-in attempts per IP + email: 10 per 15 minutes. */
  signInLimiter: AttemptLimiter;
  /** Sign-in and password-reset attempts per IP: 50 per 15 minutes. */
  ipLimiter: AttemptLimiter;
  /** Sign-in attempts per email from any address: 30 per 15 minutes (client addresses can be spoofed). */
  emailLimiter: AttemptLimiter;
  mail: MailDeps;
}

export async function installAuth(deps: AppDeps): Promise<AuthServices> {
  const db = deps.store.db;
  const secrets = await loadSecrets(db, deps.config.SESSION_SECRET);
  const allowHttpClientIds = (await readSetting<unknown>(db, ALLOW_HTTP_CLIENT_IDS_SETTING, false)) === true;
  const provider = createProvider({ config: deps.config, db, secrets, allowHttpClientIds });
  const auth: AuthServices = {
    db, config: deps.config, secrets, provider,
    audiences: audiencesFor(deps.config.publicUrl),
    signInLimiter: new AttemptLimiter(10, 15 * 60_000),
    ipLimiter: new AttemptLimiter(50, 15 * 60_000),
    emailLimiter: new AttemptLimiter(30, 15 * 60_000),
    mail: { db, config: deps.config },
  };
  deps.services.auth = auth;
  deps.verifyAccessToken = accessTokenVerifier(provider, db);
  deps.idempotency ??= createIdempotencyRunner(db);
  (deps.plugins ??= []).push((app, d) => {
    registerOAuthRoutes(app, d, provider);
    registerWebAuth(app, d);
  });
  return auth;
}
