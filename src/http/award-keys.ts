// The award keys (issue #21): GET /.well-known/award-keys.json, a JWKS (RFC 7517) of every Ed25519
// public key that has signed Launch of the Week awards (OKP/Ed25519, RFC 8037), newest first. Retired
// keys stay published so old awards keep verifying. OAuth's own keys are a different set, at /oauth/jwks.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { AWARD_KEYS_PATH } from '../domain/award-statement.ts';
import { awardJwks } from '../store/repos/award-keys.ts';

export async function registerAwardKeyRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get(AWARD_KEYS_PATH, async (_req, reply) => {
    const jwks = await awardJwks(deps.store.db);
    return reply
      .type('application/jwk-set+json; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .header('Access-Control-Allow-Origin', '*')
      .send(JSON.stringify(jwks));
  });
}
