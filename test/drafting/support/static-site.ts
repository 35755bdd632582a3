/**
 * Test helpers: a tiny static web server for a site folder (served at the site root on
 * 127.0.0.1, random port) and a scriptable server for fetcher edge cases.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
};

export interface RunningServer {
  /** "127.0.0.1:PORT" — the allowHosts entry for this server. */
  host: string;
  /** "http://127.0.0.1:PORT" */
  origin: string;
  port: number;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

async function listen(server: Server, requests: string[]): Promise<RunningServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serve `root` at "/": directories answer with their index.html, missing files with 404. */
export async function serveStaticSite(root: string): Promise<RunningServer> {
  const requests: string[] = [];
  const base = normalize(root);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      let st = await stat(file);
      if (st.isDirectory()) {
        file = join(file, 'index.html');
        st = await stat(file);
      }
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'content-length': body.length,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res
        .writeHead(404, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    }
  });
  return listen(server, requests);
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** A server answering from a path → handler table (404 for anything else). */
export async function serveRoutes(routes: Record<string, Handler>): Promise<RunningServer> {
  const requests: string[] = [];
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const h = routes[path];
    if (!h) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    try {
      await h(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    }
  });
  return listen(server, requests);
}

export function html(body: string, status = 200, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
  };
}

export function text(body: string, status = 200, contentType = 'text/plain; charset=utf-8'): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': contentType }).end(body);
  };
}

export function redirect(location: string, status = 302): Handler {
  return (_req, res) => {
    res.writeHead(status, { location }).end();
  };
}
