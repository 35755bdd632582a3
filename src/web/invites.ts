// The page behind the link in a co-founder invite mail: the invited person adds their own profile
// (name, title, bio) to the draft — and to its listing when the draft was already submitted.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../operations/errors.ts';
import { acceptInvite, findInvite, MAX_FOUNDERS } from '../services/drafting.ts';
import { checkCsrf, getWebContext } from './context.ts';
import { csrfField, html, sendPage } from './layout.ts';

export function registerInvitePages(app: FastifyInstance, deps: AppDeps): void {
  app.get('/invites/:token', async (req, reply) => {
    const ctx = await getWebContext(deps, req, reply);
    const invite = await findInvite(deps.store.db, (req.params as { token: string }).token);
    const page = { title: 'Add your founder profile', user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true };
    if (!invite)
      return sendPage(
        reply,
        page,
        html`<h1>This invite link is not valid</h1><p>It may have been replaced by a newer invite. Ask the person who invited you to send it again.</p>`,
        404,
      );
    if (invite.accepted_at)
      return sendPage(
        reply,
        page,
        html`<h1>Profile already added</h1><p>This invite was used to add a founder profile to <strong>${invite.product}</strong>.</p>`,
      );
    if (invite.founders >= MAX_FOUNDERS)
      return sendPage(
        reply,
        page,
        html`<h1>No room for another founder</h1><p><strong>${invite.product}</strong> already shows ${MAX_FOUNDERS} founders. Ask the person who invited you to make room.</p>`,
        409,
      );
    return sendPage(
      reply,
      page,
      html`
      <h1>Add your founder profile</h1>
      <p>You were invited (as ${invite.email}) to appear as a co-founder of <strong>${invite.product}</strong> on Launchlist.</p>
      <form method="post" action="/invites/${(req.params as { token: string }).token}">
        ${csrfField(ctx.csrf)}
        <p><label for="name">Your name</label><br><input id="name" name="name" required maxlength="160" autocomplete="name"></p>
        <p><label for="title">Title <small>(optional, e.g. CTO)</small></label><br><input id="title" name="title" maxlength="160"></p>
        <p><label for="bio">Short bio <small>(optional)</small></label><br><textarea id="bio" name="bio" maxlength="3000" rows="5"></textarea></p>
        <p><button type="submit">Add my profile</button></p>
      </form>`,
    );
  });

  app.post('/invites/:token', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await getWebContext(deps, req, reply);
    const token = (req.params as { token: string }).token;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    const page = { title: 'Add your founder profile', user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true };
    try {
      await acceptInvite({ db: deps.store.db, engine: deps.store.engine }, token, {
        name: str(body.name),
        title: str(body.title),
        bio: str(body.bio),
      });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const reasons = e.details?.map((d) => `${d.path} ${d.message}`).join('; ') ?? e.message;
      return sendPage(
        reply,
        page,
        html`<h1>Your profile was not added</h1><p>${reasons}</p><p><a href="/invites/${token}">Back to the form</a></p>`,
        e.status,
      );
    }
    return sendPage(
      reply,
      page,
      html`<h1>Thank you</h1><p>Your profile was added. It appears on the listing once the listing is published.</p>`,
    );
  });
}
