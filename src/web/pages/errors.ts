// HTML error pages of the public site: 404 for unknown paths and records, 400 for a bad address,
// 409 for an action that does not apply, 429 and 500. The API keeps its JSON errors.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { ApiError } from '../../operations/errors.ts';
import { getWebContext, SIGNED_OUT, type WebContext } from '../context.ts';
import { html, type SafeHtml } from '../layout.ts';
import { searchForm, send } from './shared.ts';

/** Paths that always answer JSON (machines live there). */
const MACHINE_PREFIXES = ['/api', '/mcp', '/oauth', '/.well-known'];

/** True when a not-found answer should be the HTML page: a site path, asked for by a browser. */
export function wantsHtml(req: FastifyRequest): boolean {
  const path = req.url.split('?')[0];
  if (MACHINE_PREFIXES.some((p) => path === p || path.startsWith(p + '/'))) return false;
  const accept = req.headers.accept ?? '';
  return /\btext\/html\b/i.test(accept);
}

async function contextOf(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<WebContext> {
  try {
    return await getWebContext(deps, req, reply);
  } catch {
    return SIGNED_OUT;
  }
}

export async function sendErrorPage(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  title: string,
  body: SafeHtml,
): Promise<FastifyReply> {
  const web = await contextOf(deps, req, reply);
  return send(
    deps,
    reply,
    web,
    { title, description: title, path: req.url.split('?')[0], noindex: true },
    body,
    status,
  );
}

export function notFoundBody(what = 'page'): SafeHtml {
  return html`<h1>Page not found</h1>
<p>We could not find that ${what}. It may have moved, or it is not published yet.</p>
${searchForm('', { id: 'nf-q' })}
<p>Or browse <a href="/launches">this week's launches</a>, <a href="/categories">categories</a> or <a href="/">the home page</a>.</p>`;
}

export function sendNotFoundPage(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  what?: string,
): Promise<FastifyReply> {
  return sendErrorPage(deps, req, reply, 404, 'Page not found', notFoundBody(what));
}

/** The error handler of the site's routes: ApiErrors from the operations become HTML pages. */
export async function siteErrorHandler(
  deps: AppDeps,
  err: FastifyError | ApiError,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const status =
    err instanceof ApiError
      ? err.status
      : typeof err.statusCode === 'number' && err.statusCode >= 400
        ? err.statusCode
        : 500;
  if (err instanceof ApiError && err.headers) for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  if (status === 404) return sendNotFoundPage(deps, req, reply);
  if (status === 429) {
    return sendErrorPage(
      deps,
      req,
      reply,
      429,
      'Too many requests',
      html`<h1>Too many requests</h1><p>You are going a little fast. Wait a moment and try again.</p>`,
    );
  }
  if (status >= 400 && status < 500) {
    const details = err instanceof ApiError ? (err.details ?? []) : [];
    // A form (POST) that was refused before its page could answer (too large, a NUL character…) is not an address.
    const sent = req.method !== 'GET' && req.method !== 'HEAD';
    const title = sent ? 'This form could not be sent' : 'This address cannot be used';
    return sendErrorPage(
      deps,
      req,
      reply,
      status,
      title,
      html`<h1>${title}</h1>
<p>${sent ? 'What the form sent is not something we can take:' : 'Part of the address is not something we can show:'}</p>
${details.length ? html`<ul>${details.map((d) => html`<li><code>${d.path.replace(/^(query|path|body)\./, '')}</code> ${d.message}</li>`)}</ul>` : html`<p>${err.message}</p>`}
<p>${sent ? 'Go back, change it and send it again, or go to ' : 'Go to '}<a href="/">the home page</a>.</p>`,
    );
  }
  req.log.error({ err }, 'site page failed');
  return sendErrorPage(
    deps,
    req,
    reply,
    500,
    'Something went wrong',
    html`<h1>Something went wrong</h1>
<p>Sorry, this page failed on our side. Try again in a moment. If it keeps happening, tell us the reference <code>${req.id}</code>.</p>`,
  );
}
