// The pages oidc-provider sends a person to during "Sign in with Launchlist": sign in, then consent
// (names the app, where it sends you back, and each scope in plain words; Allow or Deny).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InteractionDetails } from 'oidc-provider';
import type { AppDeps } from '../deps.ts';
import { authenticate, findUserById } from '../auth/users.ts';
import { scopeWords } from '../auth/scopes.ts';
import { isScope } from '../domain/scopes.ts';
import { checkCsrf, getWebContext, type WebContext } from './context.ts';
import { csrfField, html, sendPage } from './layout.ts';
import { formActionSource } from './security-headers.ts';
import { allowSignInAttempt, signIn, signInForm, signInSucceeded } from './auth-pages.ts';

interface ClientView {
  id: string;
  name: string;
  redirectHost: string;
  /** The redirect URI's origin: the pages' forms lead on to it (CSP form-action). */
  formAction: string[];
  metadataDocument: boolean;
  clientUri?: string;
}

async function clientView(deps: AppDeps, details: InteractionDetails): Promise<ClientView> {
  const id = String(details.params.client_id ?? '');
  const client = await (await deps.auth.provider()).Client.find(id).catch(() => undefined);
  let redirectHost = '';
  try {
    const u = new URL(String(details.params.redirect_uri ?? ''));
    redirectHost = u.host || `${u.protocol}${u.pathname}`;
  } catch {
    /* shown as unknown */
  }
  return {
    id,
    name: client?.clientName || id,
    redirectHost,
    formAction: [formActionSource(String(details.params.redirect_uri ?? ''))].filter((o): o is string => !!o),
    metadataDocument: /^https?:\/\//.test(id),
    clientUri: client?.clientUri,
  };
}

function expired(reply: FastifyReply, ctx: WebContext) {
  return sendPage(
    reply,
    { title: 'Sign-in request expired', user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true },
    html`
    <h1>This sign-in request has expired</h1>
    <p>Go back to the app that sent you here and start connecting it again.</p>`,
    400,
  );
}

async function detailsOf(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<InteractionDetails | null> {
  try {
    const d = await (await deps.auth.provider()).interactionDetails(req.raw, reply.raw);
    return d.uid === (req.params as { uid: string }).uid ? d : null;
  } catch {
    return null;
  }
}

function resourceWords(deps: AppDeps, resource: unknown): string {
  const { rest, mcp } = deps.auth.audiences;
  const list = Array.isArray(resource) ? resource : resource ? [resource] : [rest];
  return list
    .map((r) =>
      r === mcp || r === `${mcp}/`
        ? 'the Launchlist MCP server'
        : r === rest || r === `${rest}/`
          ? 'the Launchlist API'
          : String(r),
    )
    .join(' and ');
}

export function registerOAuthPages(app: FastifyInstance, deps: AppDeps): void {
  const db = deps.store.db;

  const signInPage = async (
    reply: FastifyReply,
    ctx: WebContext,
    uid: string,
    client: ClientView,
    v: { email?: string; error?: string } = {},
    status = 200,
  ) =>
    sendPage(
      reply,
      {
        title: `Sign in to connect ${client.name}`,
        user: ctx.user,
        csrf: ctx.csrf,
        narrow: true,
        noindex: true,
        formAction: client.formAction,
      },
      html`
      <h1>Sign in to connect “${client.name}”</h1>
      <p>“${client.name}” wants to use your Launchlist account. Sign in first; next you will see exactly what it asks for.</p>
      ${
        ctx.user && !v.error
          ? html`
        <form method="post" action="/oauth/interaction/${uid}/login" class="stack">
          ${csrfField(ctx.csrf)}<input type="hidden" name="continue" value="1">
          <button type="submit">Continue as ${ctx.user.email}</button>
        </form>
        <p>Or sign in with another account:</p>`
          : ''
      }
      ${signInForm({ action: `/oauth/interaction/${uid}/login`, csrf: ctx.csrf, email: v.email, error: v.error })}
      <form method="post" action="/oauth/interaction/${uid}/abort">${csrfField(ctx.csrf)}<button type="submit" class="secondary">Cancel</button></form>`,
      status,
    );

  app.get('/oauth/interaction/:uid', async (req, reply) => {
    const ctx = await getWebContext(deps, req, reply);
    const details = await detailsOf(deps, req, reply);
    if (!details) return expired(reply, ctx);
    const client = await clientView(deps, details);
    const uid = details.uid;
    if (details.prompt.name === 'login') return signInPage(reply, ctx, uid, client);

    const accountId = details.session?.accountId;
    const account = accountId ? await findUserById(db, Number(accountId)) : null;
    const requested = String(details.params.scope ?? '')
      .split(' ')
      .filter(Boolean);
    const scopes = requested.filter(isScope);
    const others = requested.filter((s) => !isScope(s) && s !== 'openid');
    return sendPage(
      reply,
      {
        title: `Allow ${client.name}?`,
        user: ctx.user,
        csrf: ctx.csrf,
        narrow: true,
        noindex: true,
        formAction: client.formAction,
      },
      html`
      <h1>Allow “${client.name}” to use your account?</h1>
      <p>${account ? html`You are signed in as <strong>${account.email}</strong>. ` : ''}“${client.name}” asks to use ${resourceWords(deps, details.params.resource)} as you.</p>
      <dl>
        <dt>App</dt><dd>${client.name}${client.metadataDocument ? html` <span class="hint">(described by ${client.id})</span>` : html` <span class="hint">(registered itself; Launchlist has not reviewed it)</span>`}</dd>
        <dt>After you answer, you go back to</dt><dd><strong>${client.redirectHost || 'an unknown address'}</strong></dd>
      </dl>
      <h2>It will be able to</h2>
      <ul>
        ${scopes.map((s) => html`<li>${scopeWords(s)} <span class="hint">(<code>${s}</code>)</span></li>`)}
        ${others.map((s) => html`<li>${scopeWords(s)} <span class="hint">(<code>${s}</code>)</span></li>`)}
      </ul>
      <p>It can never pay for you or see payment details. You can disconnect it at any time under <a href="/account#connected-apps">Connected apps</a>.</p>
      <div class="actions">
        <form method="post" action="/oauth/interaction/${uid}/confirm">${csrfField(ctx.csrf)}<button type="submit">Allow</button></form>
        <form method="post" action="/oauth/interaction/${uid}/abort">${csrfField(ctx.csrf)}<button type="submit" class="secondary">Deny</button></form>
      </div>`,
    );
  });

  app.post('/oauth/interaction/:uid/login', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await getWebContext(deps, req, reply);
    const details = await detailsOf(deps, req, reply);
    if (!details) return expired(reply, ctx);
    if (details.prompt.name !== 'login') return reply.redirect(`/oauth/interaction/${details.uid}`, 303);
    const f = (req.body ?? {}) as Record<string, string>;
    let user = f.continue === '1' ? ctx.user : null;
    if (!user) {
      const email = typeof f.email === 'string' ? f.email.trim() : '';
      if (!(await allowSignInAttempt(deps, req, reply, email, ctx))) return reply;
      user = email && typeof f.password === 'string' && f.password ? await authenticate(db, email, f.password) : null;
      if (!user)
        return signInPage(
          reply,
          ctx,
          details.uid,
          await clientView(deps, details),
          { email, error: 'The email or password is not right.' },
          400,
        );
      await signInSucceeded(deps, req, email, reply);
      await signIn(deps, req, reply, user);
    }
    const to = await (await deps.auth.provider()).interactionResult(
      req.raw,
      reply.raw,
      { login: { accountId: String(user.id) } },
      { mergeWithLastSubmission: false },
    );
    return reply.redirect(to, 303);
  });

  app.post('/oauth/interaction/:uid/confirm', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await getWebContext(deps, req, reply);
    const details = await detailsOf(deps, req, reply);
    if (details?.prompt.name !== 'consent' || !details.session) return expired(reply, ctx);
    const provider = await deps.auth.provider();
    const {
      prompt: { details: missing },
      params,
      session,
    } = details;
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    if (missing.missingResourceScopes)
      for (const [indicator, s] of Object.entries(missing.missingResourceScopes as Record<string, string[]>))
        grant.addResourceScope(indicator, s.join(' '));
    const grantId = await grant.save();
    const to = await provider.interactionResult(
      req.raw,
      reply.raw,
      { consent: details.grantId ? {} : { grantId } },
      { mergeWithLastSubmission: true },
    );
    return reply.redirect(to, 303);
  });

  app.post('/oauth/interaction/:uid/abort', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await getWebContext(deps, req, reply);
    const details = await detailsOf(deps, req, reply);
    if (!details) return expired(reply, ctx);
    const to = await (await deps.auth.provider()).interactionResult(
      req.raw,
      reply.raw,
      { error: 'access_denied', error_description: 'The person declined to connect this app.' },
      { mergeWithLastSubmission: false },
    );
    return reply.redirect(to, 303);
  });
}
