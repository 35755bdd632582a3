// The page behind the link in an email claim: the person who reads the company mailbox sees who asks
// to own which listing, and confirms with a button (POST with CSRF). Opening the link changes nothing.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { ApiError } from '../operations/errors.ts';
import {
  confirmEmailClaim,
  domainOf,
  findEmailClaim,
  VERIFIED_NOTE,
  type EmailClaimLookup,
} from '../services/claims.ts';
import { checkCsrf, getWebContext } from './context.ts';
import { csrfField, html, sendPage, type SafeHtml } from './layout.ts';

const TITLE = 'Confirm a listing claim';

function stateBody(found: EmailClaimLookup): { status: number; body: SafeHtml } | null {
  const l = found.listing;
  const listingLink = html`<a href="/listings/${l.slug}">${l.name}</a>`;
  switch (found.state) {
    case 'verified':
      return {
        status: 200,
        body: html`<h1>Claim confirmed</h1><p>${listingLink} now belongs to ${found.claimant?.name || found.claimant?.email || 'the account that claimed it'} and shows the Verified badge.</p><p class="hint">${VERIFIED_NOTE}</p>`,
      };
    case 'expired':
      return {
        status: 410,
        body: html`<h1>This link has expired</h1><p>Links to confirm a claim work for 24 hours after they are sent. This claim of ${listingLink} is now <strong>expired</strong> and nothing was changed.</p><p>The person who claimed the listing can start a new email claim to send a fresh link.</p>`,
      };
    case 'failed':
      return {
        status: 409,
        body: html`<h1>This claim is closed</h1><p>The claim of ${listingLink} can no longer be confirmed: ${found.claim.last_error ?? 'it was closed'}. Nothing was changed.</p>`,
      };
    default:
      return null;
  }
}

export function registerClaimPages(app: FastifyInstance, deps: AppDeps): void {
  app.get('/claims/verify/:token', async (req, reply) => {
    const ctx = await getWebContext(deps, req, reply);
    const token = (req.params as { token: string }).token;
    const found = await findEmailClaim(deps.store.db, token);
    const page = { title: TITLE, user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true };
    if (!found)
      return sendPage(
        reply,
        page,
        html`<h1>This link is not valid</h1><p>It may have been replaced by a newer link sent to another address. Nothing was changed.</p>`,
        404,
      );
    const done = stateBody(found);
    if (done) return sendPage(reply, page, done.body, done.status);
    const l = found.listing;
    const who = found.claimant
      ? found.claimant.name
        ? `${found.claimant.name} (${found.claimant.email})`
        : found.claimant.email
      : 'A Launchlist account';
    return sendPage(
      reply,
      page,
      html`
      <h1>${TITLE}</h1>
      <p><strong>${who}</strong> asks to become the owner of the listing <a href="/listings/${l.slug}">${l.name}</a> (${l.url}) on Launchlist, and named <strong>${found.claim.email}</strong>, an address at ${domainOf(l)}, to confirm it.</p>
      <p>If you confirm:</p>
      <ul>
        <li>the listing moves to that account, which can then edit it;</li>
        <li>the listing shows the Verified badge (verified is not the same as paid: it unlocks no paid plan);</li>
        <li>the listing's previous owner, if any, is told by email.</li>
      </ul>
      <p>Opening this page changed nothing. If you do not know this person, close the page.</p>
      <form method="post" action="/claims/verify/${token}">
        ${csrfField(ctx.csrf)}
        <p><button type="submit">Confirm the claim</button></p>
      </form>`,
    );
  });

  app.post('/claims/verify/:token', async (req, reply) => {
    if (!(await checkCsrf(deps, req, reply))) return reply;
    const ctx = await getWebContext(deps, req, reply);
    const token = (req.params as { token: string }).token;
    const page = { title: TITLE, user: ctx.user, csrf: ctx.csrf, narrow: true, noindex: true };
    let found: EmailClaimLookup;
    try {
      found = await confirmEmailClaim(
        { db: deps.store.db, engine: deps.store.engine, config: deps.config, services: deps.services },
        token,
      );
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return sendPage(
        reply,
        page,
        html`<h1>This link is not valid</h1><p>${e.message} Nothing was changed.</p>`,
        e.status,
      );
    }
    const done = stateBody(found);
    return sendPage(
      reply,
      page,
      done ? done.body : html`<h1>Not confirmed</h1><p>The claim could not be confirmed. Try the link again.</p>`,
      done?.status ?? 409,
    );
  });
}
