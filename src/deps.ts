// What the adapters (REST, MCP, the website, the OAuth and badge routes) and the job workers are
// given: the kernel's needs (store, configuration, typed services, the idempotency runner) and the
// account services. Built once per server, in server.ts.
import type { Redis } from 'ioredis';
import type { AuthServices } from './auth/index.ts';
import type { AccessTokenVerifier } from './auth/principal.ts';
import type { Operation } from './operations/define.ts';
import type { Kernel } from './operations/kernel.ts';

export interface AppDeps extends Kernel {
  /** Sessions, secrets, the OAuth 2.1 server, sign-in limits. */
  auth: AuthServices;
  /** OAuth access tokens → a principal (REST and MCP). */
  verifyAccessToken: AccessTokenVerifier;
  /** The Redis client when REDIS_URL is set: API rate limits, sign-in and promo-code limits. */
  redis?: Redis;
  /** The operations to serve: the registry, unless a test supplies its own. */
  operations: readonly Operation[];
}
