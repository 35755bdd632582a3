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
import { ALLOW_HTTP_CLIENT_IDS_SETTING, audiencesFor, type Audiences } from './oauth/audiences.ts';
import { accessTokenVerifier } from './oauth/tokens.ts';
import { registerOAuthRoutes } from './oauth/routes.ts';
import type { AttemptLimiter } from './rate-limit.ts';
import { SignInGuard } from './sign-in-guard.ts';
import { createIdempotencyRunner } from '../http/idempotency.ts';
import { redisOf } from '../http/redis.ts';
import { registerWebAuth } from '../web/index.ts';

export interface AuthServices {
  db: Kysely<DB>;
  config: Config;
  secrets: ServerSecrets;
  /**
   * The OAuth 2.1 server (oidc-provider), made on first use: an OAuth request, an access token to check,
   * the consent or account page. oidc-provider and what it pulls in (Koa, jose …) are ~19 MB resident
   * that a server nobody signs an agent in to need not carry.
   */
  provider: () => Promise<Provider>;
  audiences: Audiences;
  /** The sign-in limits and the lockout design (sign-in-guard.ts): counts per network, address and device. */
  signInGuard: SignInGuard;
  /** Sign-in attempts per network + email: 10 per 15 minutes (signInGuard.pair). */
  signInLimiter: AttemptLimiter;
  /** Sign-in, sign-up and password-reset attempts per network: 50 per 15 minutes (signInGuard.network). */
  ipLimiter: AttemptLimiter;
  /** Sign-in attempts per email from networks it never signed in from: 30 per 15 minutes (signInGuard.elsewhere). */
  emailLimiter: AttemptLimiter;
  mail: MailDeps;
}

export async function installAuth(deps: AppDeps): Promise<AuthServices> {
  const db = deps.store.db;
  const secrets = await loadSecrets(db, deps.config.SESSION_SECRET);
  const allowHttpClientIds = (await readSetting<unknown>(db, ALLOW_HTTP_CLIENT_IDS_SETTING, false)) === true;
  const redis = await redisOf(deps); // the attempt limits and the client-metadata cache are shared by every instance when REDIS_URL is set
  let made: Promise<Provider> | undefined;
  const provider = () =>
    (made ??= import('./oauth/provider.ts')
      .then((m) => m.createProvider({ config: deps.config, db, secrets, allowHttpClientIds, redis }))
      .catch((err: unknown) => {
        made = undefined; // the next use tries again
        throw err;
      }));
  const guard = new SignInGuard({ key: secrets.cookieKeys[0], redis });
  const auth: AuthServices = {
    db,
    config: deps.config,
    secrets,
    provider,
    audiences: audiencesFor(deps.config.publicUrl),
    signInGuard: guard,
    signInLimiter: guard.pair,
    ipLimiter: guard.network,
    emailLimiter: guard.elsewhere,
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
