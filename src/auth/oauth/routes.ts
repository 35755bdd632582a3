// Mounts oidc-provider (a Koa app) inside Fastify: requests under /oauth/* and the discovery
// documents are handed over raw (Fastify does not read their bodies), with X-Forwarded-Proto/Host
// set from PUBLIC_URL so every URL the provider prints starts with the issuer.
// Also serves the protected-resource metadata (RFC 9728) of the REST API.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { AppDeps } from '../../deps.ts';
import { SCOPES } from '../../domain/scopes.ts';
import { audiencesFor } from './audiences.ts';

export function registerOAuthRoutes(app: FastifyInstance, deps: AppDeps): void {
  const providerOf = deps.auth.provider;
  const base = new URL(deps.config.publicUrl);
  // The provider is made by the first OAuth request (auth/index.ts); its Koa callback once per app.
  let callback: ReturnType<Provider['callback']> | undefined;
  const callbackOf = async () => {
    if (callback) return callback;
    const provider = await providerOf();
    provider.on('server_error', (_ctx: unknown, err: Error) => app.log.error({ err }, 'OAuth server error'));
    return (callback = provider.callback());
  };

  const handOver = async (req: FastifyRequest, reply: FastifyReply, rewriteTo?: string) => {
    const callback = await callbackOf();
    reply.hijack();
    const res = reply.raw;
    // Headers our hooks already chose (request id, rate-limit, CORS) are kept.
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) res.setHeader(k, v as string);
    const raw = req.raw;
    raw.headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
    raw.headers['x-forwarded-host'] = base.host;
    if (rewriteTo) raw.url = rewriteTo;
    callback(raw, res);
  };

  app.register(async (child) => {
    // Leave request bodies unread: oidc-provider parses them itself.
    child.removeAllContentTypeParsers();
    child.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    child.route({
      method: ['GET', 'POST', 'DELETE', 'PUT'],
      url: '/oauth/*',
      handler: async (req, reply) => handOver(req, reply),
    });
    child.get('/.well-known/openid-configuration', async (req, reply) => handOver(req, reply));
    // RFC 8414: the issuer has no path, so its metadata lives here; same document as OpenID discovery.
    child.get('/.well-known/oauth-authorization-server', async (req, reply) =>
      handOver(req, reply, '/.well-known/openid-configuration'),
    );
  });

  const aud = audiencesFor(deps.config.publicUrl);
  app.get('/.well-known/oauth-protected-resource/api/v1', async (_req, reply) => {
    reply.header('Cache-Control', 'public, max-age=3600');
    return {
      resource: aud.rest,
      authorization_servers: [deps.config.publicUrl],
      scopes_supported: [...SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'Launchlist REST API',
      resource_documentation: `${deps.config.publicUrl}/docs`, // the API reference page
    };
  });
}
