// The OAuth 2.1 authorization server: oidc-provider configured for Launchlist.
//   - issuer = PUBLIC_URL exactly; endpoints under /oauth; metadata at /.well-known/oauth-authorization-server
//     and /.well-known/openid-configuration; `iss` in every authorization response (RFC 9207);
//   - authorization code flow only, PKCE S256 required for every client;
//   - dynamic client registration (RFC 7591) and client ID metadata documents (./cimd.ts);
//   - resource indicators (RFC 8707): tokens are bound to the REST API base or the MCP endpoint;
//     opaque access tokens (looked up on every use, so revocation is immediate), 1 h;
//   - refresh tokens (30 days) rotated on every use; revocation endpoint;
//   - sign-in and consent are our own pages (src/web/oauth-pages.ts).
import Provider, { errors, type Configuration, type KoaContext } from 'oidc-provider';
import type { Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { DB } from '../../store/types.ts';
import type { Config } from '../../config.ts';
import { SCOPES } from '../../domain/scopes.ts';
import { guardedFetch, isFetchError } from '../../drafting/crawler/guarded-fetch.ts';
import { kyselyAdapter } from './adapter.ts';
import { OAUTH_PREFIX, OAUTH_ROUTES } from './paths.ts';
import { audiencesFor } from './audiences.ts';
import { createCimdResolver } from './cimd.ts';
import { validateRedirectUris } from './redirect-uris.ts';
import { findUserById } from '../users.ts';
import type { ServerSecrets } from '../secrets.ts';
import { html, renderPage } from '../../web/layout.ts';

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;

export interface ProviderOptions {
  config: Config;
  db: Kysely<DB>;
  secrets: ServerSecrets;
  allowHttpClientIds: boolean;
  /** Shares the client-metadata document cache between instances (REDIS_URL). */
  redis?: Redis;
}

/** oidc-provider's outgoing requests (jwks_uri, sector_identifier_uri) go through the guarded fetcher too. */
function guardedFetchForProvider(allowHosts: readonly string[]) {
  return async (url: string | URL, options: { method?: string; headers?: Headers } = {}): Promise<Response> => {
    if (options.method && options.method !== 'GET') throw new Error('only GET requests are made on behalf of clients');
    try {
      const headers: Record<string, string> = {};
      options.headers?.forEach((v, k) => {
        if (k !== 'user-agent') headers[k] = v;
      });
      const r = await guardedFetch(String(url), {
        allowHosts,
        maxBytes: 256 * 1024,
        timeoutMs: 5_000,
        maxRedirects: 0,
        allowErrorStatus: true,
        headers,
      });
      const h = new Headers();
      for (const [k, v] of Object.entries(r.headers))
        if (k !== 'content-encoding' && k !== 'content-length' && k !== 'transfer-encoding') h.set(k, v);
      return new Response(r.body, { status: r.status, headers: h });
    } catch (e) {
      if (isFetchError(e)) throw new TypeError(e.message);
      throw e;
    }
  };
}

export function createProvider(opts: ProviderOptions): Provider {
  const { config, db, secrets } = opts;
  const aud = audiencesFor(config.publicUrl);
  const resources = new Map([
    [aud.rest, aud.rest],
    [`${aud.rest}/`, aud.rest],
    [aud.mcp, aud.mcp],
    [`${aud.mcp}/`, aud.mcp],
  ]);
  const cimd = createCimdResolver({
    allowHosts: config.FETCH_ALLOW_HOSTS,
    allowHttp: opts.allowHttpClientIds,
    redis: opts.redis,
  });
  const p = (path: string) => `${OAUTH_PREFIX}${path}`;

  const configuration: Configuration = {
    adapter: kyselyAdapter(db, cimd),
    clients: [],
    async findAccount(_ctx: KoaContext, sub: string) {
      const user = await findUserById(db, Number(sub));
      if (!user) return undefined;
      return {
        accountId: String(user.id),
        async claims() {
          return { sub: String(user.id), email: user.email, email_verified: user.email_verified, name: user.name };
        },
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Our resource scopes are listed too, so that dynamic registration accepts a client's `scope` naming them.
    scopes: ['openid', 'offline_access', 'email', 'profile', ...SCOPES],
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256',
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    // https redirect URIs only, http on loopback; no userinfo, no fragments (redirect-uris.ts).
    extraClientMetadata: { properties: ['redirect_uris'], validator: validateRedirectUris },
    cookies: {
      keys: secrets.cookieKeys,
      names: { session: 'll_oauth_session', interaction: 'll_oauth_interaction', resume: 'll_oauth_resume' },
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    jwks: secrets.jwks,
    routes: OAUTH_ROUTES,
    interactions: { url: (_ctx: KoaContext, interaction: { uid: string }) => p(`/interaction/${interaction.uid}`) },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      registrationManagement: { enabled: false },
      revocation: { enabled: true },
      introspection: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: true },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // No `resource` sent: the token is for the REST API.
        defaultResource: async (_ctx: KoaContext, _client: unknown, oneOf?: string[]) => oneOf ?? aud.rest,
        // A token request without `resource` gets the resource of the authorization request.
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: KoaContext, indicator: string) => {
          const audience = resources.get(indicator);
          if (!audience)
            throw new errors.InvalidTarget(
              `unknown resource ${indicator}: use ${aud.rest} (REST API) or ${aud.mcp} (MCP server)`,
            );
          return { scope: SCOPES.join(' '), audience, accessTokenTTL: ACCESS_TOKEN_TTL_S, accessTokenFormat: 'opaque' };
        },
      },
    },
    ttl: {
      AccessToken: (_ctx: KoaContext, token: { resourceServer?: { accessTokenTTL?: number } }) =>
        token.resourceServer?.accessTokenTTL ?? ACCESS_TOKEN_TTL_S,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: REFRESH_TOKEN_TTL_S,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 365 * 24 * 3600,
    },
    issueRefreshToken: async (_ctx: KoaContext, client: { grantTypeAllowed(t: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    clientBasedCORS: () => true,
    fetch: guardedFetchForProvider(config.FETCH_ALLOW_HOSTS),
    async renderError(ctx: KoaContext, out: { error?: string; error_description?: string }) {
      ctx.type = 'html';
      ctx.body = renderPage(
        { title: 'Sign-in could not continue', narrow: true, noindex: true },
        html`
        <h1>Sign-in could not continue</h1>
        <p>The app that sent you here made a request we cannot accept.</p>
        <dl><dt>Error</dt><dd><code>${out.error ?? 'server_error'}</code></dd>
        ${out.error_description ? html`<dt>Details</dt><dd>${out.error_description}</dd>` : ''}</dl>
        <p><a href="/">Go to the home page</a></p>`,
      );
    },
  };

  const provider = new Provider(config.publicUrl, configuration);
  // Requests are handed over by Fastify with X-Forwarded-Proto/Host set from PUBLIC_URL (see routes.ts).
  provider.proxy = true;

  provider.use(async (ctx: KoaContext, next: () => Promise<void>) => {
    // No scope asked for: ask for every scope (the person sees each one on the consent page and may deny).
    if (ctx.path === p('/authorize') && ctx.method === 'GET') {
      const q = { ...ctx.query } as Record<string, string>;
      const asked = typeof q.scope === 'string' ? q.scope.split(' ').filter(Boolean) : [];
      if (!asked.some((s) => (SCOPES as readonly string[]).includes(s))) {
        q.scope = [...asked, ...SCOPES].join(' ');
        ctx.query = q;
      }
    }
    await next();
    if (
      ctx.path === '/.well-known/openid-configuration' &&
      ctx.status === 200 &&
      ctx.body &&
      typeof ctx.body === 'object'
    ) {
      const body = ctx.body as Record<string, unknown>;
      body.scopes_supported = [...new Set([...SCOPES, ...((body.scopes_supported as string[]) ?? [])])]; // ours first, each once
      body.client_id_metadata_document_supported = true;
      body.service_documentation = `${config.publicUrl}/docs`;
    }
  });
  return provider;
}
