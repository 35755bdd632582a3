// Website route groups owned by the accounts module (others register their pages alongside).
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { registerAuthPages } from './auth-pages.ts';
import { registerAccountPages } from './account-pages.ts';
import { registerOAuthPages } from './oauth-pages.ts';

export function registerWebAuth(app: FastifyInstance, deps: AppDeps): void {
  registerAuthPages(app, deps);
  registerAccountPages(app, deps);
  registerOAuthPages(app, deps);
}
