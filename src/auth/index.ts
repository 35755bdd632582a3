// Accounts, sessions, API keys and the OAuth 2.1 server of one server process:
//   auth               the services below (the account pages, the OAuth routes and the CLI use them)
//   verifyAccessToken  OAuth access tokens → Principal (REST and MCP)
import type Provider from 'oidc-provider';
import type { Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { AccessTokenVerifier } from './principal.ts';
import type { Config } from '../config.ts';
import type { DB } from '../store/types.ts';
import type { MailDeps } from '../mail/index.ts';
import { loadSecrets, readSetting, type ServerSecrets } from './secrets.ts';
import { ALLOW_HTTP_CLIENT_IDS_SETTING, audiencesFor, type Audiences } from './oauth/audiences.ts';
import { accessTokenVerifier } from './oauth/tokens.ts';
import type { AttemptLimiter } from './rate-limit.ts';
import { SignInGuard } from './sign-in-guard.ts';

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

/** The account services of a server; server.ts registers their routes (OAuth endpoints, account pages). */
export async function createAuth(
  config: Config,
  db: Kysely<DB>,
  redis: Redis | undefined,
): Promise<{ auth: AuthServices; verifyAccessToken: AccessTokenVerifier }> {
  const secrets = await loadSecrets(db, config.SESSION_SECRET);
  const allowHttpClientIds = (await readSetting<unknown>(db, ALLOW_HTTP_CLIENT_IDS_SETTING, false)) === true;
  let made: Promise<Provider> | undefined;
  const provider = () =>
    (made ??= import('./oauth/provider.ts')
      .then((m) => m.createProvider({ config, db, secrets, allowHttpClientIds, redis }))
      .catch((err: unknown) => {
        made = undefined; // the next use tries again
        throw err;
      }));
  // The attempt limits and the client-metadata cache are shared by every instance when REDIS_URL is set.
  const guard = new SignInGuard({ key: secrets.cookieKeys[0], redis });
  const auth: AuthServices = {
    db,
    config,
    secrets,
    provider,
    audiences: audiencesFor(config.publicUrl),
    signInGuard: guard,
    signInLimiter: guard.pair,
    ipLimiter: guard.network,
    emailLimiter: guard.elsewhere,
    mail: { db, config },
  };
  return { auth, verifyAccessToken: accessTokenVerifier(provider, db) };
}
