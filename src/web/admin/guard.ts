// The one gate of the admin pages: signed-out people are sent to sign-in (and back to `path`
// afterwards); signed-in people without the admin role get a 403 page saying so.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { getWebContext, type WebContext } from '../context.ts';
import { html, sendPage } from '../layout.ts';

/** The admin's web context, or null when the reply (a redirect or the 403 page) has been sent. */
export async function requireAdmin(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  path: string,
): Promise<WebContext | null> {
  const ctx = await getWebContext(deps, req, reply);
  if (!ctx.user) {
    reply.redirect(`/sign-in?next=${encodeURIComponent(path)}`, 303);
    return null;
  }
  if (ctx.user.role !== 'admin') {
    sendPage(
      reply,
      { title: 'Admins only', user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true },
      html`
      <h1>Admins only</h1>
      <p>This page is for the site team. You are signed in as ${ctx.user.email}, which is not an admin account.</p>
      <p><a href="/">Go to the home page</a>.</p>`,
      403,
    );
    return null;
  }
  return ctx;
}
