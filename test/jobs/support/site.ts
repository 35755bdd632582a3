// A scriptable website on 127.0.0.1 (random port) for drafting tests: path → response.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route =
  | { status?: number; type?: string; body: string | Buffer; delayMs?: number; headers?: Record<string, string> }
  | ((req: IncomingMessage, res: ServerResponse) => void | Promise<void>);

export interface Site {
  origin: string;
  host: string;
  port: number;
  /** Paths requested so far. */
  requests: string[];
  routes: Record<string, Route>;
  close(): Promise<void>;
}

export const html = (body: string, extra: Partial<Exclude<Route, (...args: never[]) => unknown>> = {}): Route => ({
  type: 'text/html; charset=utf-8',
  body,
  ...extra,
});

export async function serveSite(routes: Record<string, Route>): Promise<Site> {
  const requests: string[] = [];
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const r = site.routes[path];
    if (!r) {
      res
        .writeHead(404, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Not found</title><h1>Not found</h1>');
      return;
    }
    if (typeof r === 'function') return void (await r(req, res));
    if (r.delayMs) await new Promise((ok) => setTimeout(ok, r.delayMs));
    if (res.destroyed) return;
    res.writeHead(r.status ?? 200, { 'content-type': r.type ?? 'text/html; charset=utf-8', ...(r.headers ?? {}) });
    res.end(r.body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  const site: Site = {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    port,
    requests,
    routes,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
  return site;
}

/** A port on 127.0.0.1 where nothing listens. */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}

/** A small product site: home, pricing, about. */
export function productSite(name = 'Acme Notes'): Record<string, Route> {
  return {
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
    '/': html(`<!doctype html><html><head><title>${name}</title><meta name="description" content="${name} keeps your team's notes in one place."></head>
      <body><h1>${name}</h1><p>${name} keeps your team's notes in one place.</p>
      <ul class="features"><li>Shared notebooks</li><li>Offline sync</li><li>End-to-end encryption</li></ul>
      <a href="/pricing">Pricing</a> <a href="/about">About us</a></body></html>`),
    '/pricing': html(
      `<!doctype html><html><head><title>Pricing - ${name}</title></head><body><h1>Pricing</h1><p>Free for individuals. Team plan $8 per user per month.</p></body></html>`,
    ),
    '/about': html(
      `<!doctype html><html><head><title>About - ${name}</title></head><body><h1>About</h1><p>We are a small team in Berlin.</p></body></html>`,
    ),
  };
}
