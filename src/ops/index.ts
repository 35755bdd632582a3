// Running Launchlist as a service: security headers on every answer, /healthz and /readyz, and the
// Prometheus metrics (on the main port, on a port of their own, or off). One call from app.ts, before any
// route is registered.
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { registerSecurityHeaders } from '../web/security-headers.ts';
import { readinessProbe } from './health.ts';
import { createMetrics, instrumentRequests, type Metrics } from './metrics.ts';

/** Probes and scrapes: not rate-limited, and not logged at info (they come every few seconds). */
const QUIET = { config: { rateLimit: false }, logLevel: 'warn' } as const;

export function registerOps(app: FastifyInstance, deps: AppDeps): void {
  const { config } = deps;
  registerSecurityHeaders(app, config);

  app.get('/healthz', QUIET, async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' };
  });
  const ready = readinessProbe(deps);
  app.get('/readyz', QUIET, async (_req, reply) => {
    const r = await ready();
    return reply
      .code(r.status === 'ready' ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send(r);
  });

  if (!config.METRICS) return;
  const metrics = createMetrics(deps);
  deps.services.jobMetrics = metrics;
  instrumentRequests(app, metrics.requests);
  if (config.METRICS_PORT === undefined) {
    app.get('/metrics', QUIET, async (_req, reply) =>
      reply
        .header('Cache-Control', 'no-store')
        .type(metrics.registry.contentType)
        .send(await metrics.registry.metrics()),
    );
    return;
  }
  // A listener of its own (METRICS_HOST:METRICS_PORT), opened with the app's and closed with it.
  let server: Server | undefined;
  app.addHook('onListen', async () => {
    server = metricsServer(metrics);
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(config.METRICS_PORT, config.METRICS_HOST, () => resolve());
    });
    app.log.info({ host: config.METRICS_HOST, port: metricsPort(server) }, 'metrics listening');
  });
  app.addHook('onClose', async () => {
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
  });
}

/** GET /metrics on a plain node:http server; anything else is a 404. */
export function metricsServer(metrics: Metrics): Server {
  return createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Only GET /metrics is served here.\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) =>
        res
          .writeHead(200, {
            'content-type': metrics.registry.contentType,
            'cache-control': 'no-store',
            'x-content-type-options': 'nosniff',
          })
          .end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${err.message}\n`),
    );
  });
}

function metricsPort(server: Server): number | undefined {
  const a = server.address();
  return a && typeof a === 'object' ? a.port : undefined;
}
