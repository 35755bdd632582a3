// Wires the services and route groups into one app. Used by main.ts and by the tests.
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Store } from './store/connect.ts';
import { buildApp, type AppDeps } from './app.ts';
import { installAuth } from './auth/index.ts';
import { registerMcp } from './mcp/server.ts';
import { attachWorkers } from './jobs/index.ts';

export interface Server { app: FastifyInstance; deps: AppDeps; close(): Promise<void> }

export async function createServer(config: Config, store: Store): Promise<Server> {
  const deps: AppDeps = { config, store, services: {}, plugins: [] };
  await installAuth(deps); // sessions, API keys, OAuth 2.1 server, idempotency, account pages (issue #3)
  deps.plugins!.push(registerMcp); // MCP server at /mcp (issue #4)
  const app = await buildApp(deps);
  if (config.WORKERS) attachWorkers(app, deps); // durable job workers (issue #5); tests drive them with drainJobs
  return { app, deps, close: () => app.close() };
}
