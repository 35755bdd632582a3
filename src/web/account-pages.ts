// The account page: profile, API keys (create with a name and scopes — shown once —, list, revoke)
// and connected apps (OAuth grants: list, disconnect).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { SCOPES } from '../domain/scopes.ts';
import { recordIdOf } from '../operations/schemas.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys.ts';
import { parseScopes, scopeWords } from '../auth/scopes.ts';
import { SCOPE_WORDS } from '../domain/scopes.ts';
import { listConnectedApps, revokeConnectedApp } from '../auth/oauth/tokens.ts';
import { checkCsrf, getWebContext, type WebContext } from './context.ts';
import { csrfField, html, sendPage, type SafeHtml } from './layout.ts';
import { entryOf, qs } from './pages/shared.ts';

export const API_KEY_NAME_MAX = 100;
export const API_KEYS_PER_PERSON = 50;

const NOTICES: Record<string, { kind: 'info' | 'success'; text: string }> = {
  welcome: { kind: 'success', text: 'Welcome to Launchlist! We sent you an email to confirm your address.' },
  'verify-sent': { kind: 'info', text: 'We sent you a new confirmation link.' },
  'password-reset': { kind: 'success', text: 'Your new password is saved. You were signed out everywhere else.' },
  'key-revoked': { kind: 'success', text: 'The API key was revoked. Requests that use it now get 401.' },
  'app-revoked': { kind: 'success', text: 'The app was disconnected. Its access tokens no longer work.' },
};

function when(iso: string | null | undefined): SafeHtml | string {
  if (!iso) return 'never';
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

function formOf(req: FastifyRequest): Record<string, unknown> {
  return req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
}

async function requireUser(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<WebContext | null> {
  const ctx = await getWebContext(deps, req, reply);
  if (ctx.user) return ctx;
  reply.redirect(`/sign-in?next=${encodeURIComponent('/account')}`, 303);
  return null;
}

interface KeyFormState {
  name?: string;
  scopes?: string[];
  error?: string;
  created?: { key: string; name: string; scopes: string[] };
}

async function accountPage(
  deps: AppDeps,
  reply: FastifyReply,
  ctx: WebContext,
  opts: { notice?: string; keyForm?: KeyFormState; status?: number } = {},
) {
  const user = ctx.user!;
  const db = deps.store.db;
  const auth = deps.auth;
  const keys = await listApiKeys(db, user.id);
  const apps = await listConnectedApps(await auth.provider(), db, user.id);
  const kf = opts.keyForm ?? {};
  const notice = entryOf(NOTICES, opts.notice);
  const checked = (s: string) => (kf.scopes ? kf.scopes.includes(s) : s === 'account:read');

  const created = kf.created
    ? html`
    <div class="flash success" role="status" id="new-key">
      <p><strong>Your new API key “${kf.created.name}”</strong> (${kf.created.scopes.join(', ') || 'no scopes'}):</p>
      <code class="secret" data-testid="new-api-key">${kf.created.key}</code>
      <p>Copy it now and keep it secret: it will not be shown again. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
    </div>`
    : '';

  const keyRows = keys.map(
    (k) => html`
    <tr>
      <td>${k.name}</td><td><code>${k.prefix}</code></td>
      <td>${k.scopes.length ? k.scopes.map((s, i) => html`${i ? ', ' : ''}<code>${s}</code>`) : 'none'}</td>
      <td>${when(k.created_at)}</td><td>${when(k.last_used_at)}</td>
      <td>${
        k.revoked_at
          ? html`Revoked ${when(k.revoked_at)}`
          : html`
        <form method="post" action="/account/api-keys/${String(k.id)}/revoke">${csrfField(ctx.csrf)}
          <button type="submit" class="danger" aria-label="Revoke the key ${k.name} (${k.prefix})">Revoke</button></form>`
      }</td>
    </tr>`,
  );

  const appRows = apps.map(
    (a) => html`
    <tr>
      <td><strong>${a.name}</strong>${a.name !== a.clientId ? html`<br><span class="hint">${a.clientId}</span>` : ''}</td>
      <td>${a.redirectHosts.length ? a.redirectHosts.join(', ') : '—'}</td>
      <td><ul>${a.scopes.map((s) => html`<li><code>${s}</code>: ${scopeWords(s)}</li>`)}</ul></td>
      <td>${when(a.connectedAt)}</td>
      <td><form method="post" action="/account/apps/revoke">${csrfField(ctx.csrf)}
        <input type="hidden" name="client_id" value="${a.clientId}">
        <button type="submit" class="danger" aria-label="Disconnect ${a.name}">Disconnect</button></form></td>
    </tr>`,
  );

  return sendPage(
    reply,
    { title: 'Your account', user, csrf: ctx.csrf, noindex: true, flash: notice ?? null },
    html`
    <h1>Your account</h1>
    <section aria-labelledby="profile-h">
      <h2 id="profile-h">Profile</h2>
      <dl>
        <dt>Name</dt><dd>${user.name}</dd>
        <dt>Email</dt><dd>${user.email} ${
          user.email_verified
            ? html`<span>(confirmed)</span>`
            : html`<span>(not confirmed yet)</span>
          <form method="post" action="/account/verify-email">${csrfField(ctx.csrf)}<button type="submit" class="link">Send a new confirmation link</button></form>`
        }</dd>
        ${user.role === 'admin' ? html`<dt>Role</dt><dd>Site admin</dd>` : ''}
      </dl>
    </section>

    <section aria-labelledby="products-h" id="your-products">
      <h2 id="products-h">Your products</h2>
      <ul>
        <li><a href="/submit">Submit a product</a>: we draft its listing from its website</li>
        <li><a href="/drafts">Your drafts</a>: check and edit what we drafted, then save it as your listing</li>
        <li><a href="/my/listings">Your listings</a>: publish free or buy a launch, post updates</li>
        <li><a href="/claims">Your claims</a>: listings you asked to own</li>
      </ul>
    </section>

    <section aria-labelledby="keys-h" id="api-keys">
      <h2 id="keys-h">API keys</h2>
      <p>An API key lets a script or an agent use the <a href="/docs">Launchlist API</a> and MCP server as you, with the scopes you choose.</p>
      ${created}
      <form method="post" action="/account/api-keys" class="stack" novalidate>
        ${csrfField(ctx.csrf)}
        ${kf.error ? html`<p class="field-error" role="alert" id="key-error">${kf.error}</p>` : ''}
        <div><label for="key-name">Name <span class="hint">(what uses it, e.g. “My build script”)</span></label>
          <input id="key-name" name="name" type="text" required maxlength="${String(API_KEY_NAME_MAX)}" value="${kf.name ?? ''}"${kf.error ? html` aria-describedby="key-error"` : ''}></div>
        <fieldset><legend>Scopes</legend>
          ${SCOPES.map(
            (
              s,
            ) => html`<div><input type="checkbox" id="scope-${s.replace(':', '-')}" name="scopes" value="${s}"${checked(s) ? html` checked` : ''}>
            <label for="scope-${s.replace(':', '-')}" style="display:inline;font-weight:400"><code>${s}</code>: ${SCOPE_WORDS[s]}</label></div>`,
          )}
        </fieldset>
        <div><button type="submit">Create API key</button></div>
      </form>
      ${
        keys.length
          ? html`
      <table>
        <caption class="sr-only">Your API keys</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead>
        <tbody>${keyRows}</tbody>
      </table>`
          : html`<p>You have no API keys yet.</p>`
      }
    </section>

    <section aria-labelledby="apps-h" id="connected-apps">
      <h2 id="apps-h">Connected apps</h2>
      <p>Apps and agents you allowed to use your account through “Sign in with Launchlist” (OAuth).</p>
      ${
        apps.length
          ? html`
      <table>
        <caption class="sr-only">Connected apps</caption>
        <thead><tr><th scope="col">App</th><th scope="col">Sends you back to</th><th scope="col">Allowed to</th><th scope="col">Connected</th><th scope="col"></th></tr></thead>
        <tbody>${appRows}</tbody>
      </table>`
          : html`<p>No apps are connected.</p>`
      }
    </section>`,
    opts.status ?? 200,
  );
}

export function registerAccountPages(app: FastifyInstance, deps: AppDeps): void {
  const db = deps.store.db;

  app.get('/account', async (req, reply) => {
    const ctx = await requireUser(deps, req, reply);
    if (!ctx) return reply;
    return accountPage(deps, reply, ctx, { notice: qs(req, 'notice') });
  });

  app.post('/account/api-keys', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await requireUser(deps, req, reply);
    if (!ctx) return reply;
    const f = formOf(req);
    const name = typeof f.name === 'string' ? f.name.trim() : '';
    const raw = Array.isArray(f.scopes) ? f.scopes.map(String) : typeof f.scopes === 'string' ? [f.scopes] : [];
    const { scopes, unknown } = parseScopes(raw);
    const state: KeyFormState = { name, scopes };
    if (!name) state.error = 'Give the key a name, so you can recognise it later.';
    else if (name.length > API_KEY_NAME_MAX) state.error = `The name must be at most ${API_KEY_NAME_MAX} characters.`;
    else if (unknown.length) state.error = `Unknown scope ${unknown.join(', ')}; choose from ${SCOPES.join(', ')}.`;
    else if (!scopes.length) state.error = 'Choose at least one scope.';
    else {
      const active = (await listApiKeys(db, ctx.user!.id)).filter((k) => !k.revoked_at).length;
      if (active >= API_KEYS_PER_PERSON)
        state.error = `You can have at most ${API_KEYS_PER_PERSON} active keys; revoke one first.`;
    }
    if (state.error) return accountPage(deps, reply, ctx, { keyForm: state, status: 400 });
    const k = await createApiKey(db, ctx.user!.id, name, scopes);
    return accountPage(deps, reply, ctx, { keyForm: { created: { key: k.key, name, scopes: k.scopes } }, status: 201 });
  });

  app.post('/account/api-keys/:id/revoke', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await requireUser(deps, req, reply);
    if (!ctx) return reply;
    const id = recordIdOf((req.params as { id: string }).id);
    const ok = id !== undefined && (await revokeApiKey(db, ctx.user!.id, id));
    if (!ok)
      return accountPage(deps, reply, ctx, {
        keyForm: { error: 'That key does not exist or was already revoked.' },
        status: 404,
      });
    return reply.redirect('/account?notice=key-revoked#api-keys', 303);
  });

  app.post('/account/apps/revoke', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await requireUser(deps, req, reply);
    if (!ctx) return reply;
    const clientId = formOf(req).client_id;
    const ok =
      typeof clientId === 'string' &&
      (await revokeConnectedApp(await deps.auth.provider(), db, ctx.user!.id, clientId));
    if (!ok) return accountPage(deps, reply, ctx, { status: 404 });
    return reply.redirect('/account?notice=app-revoked#connected-apps', 303);
  });
}
