// Claiming an existing listing on the website: the listing page offers "Claim this listing" to
// signed-in people who do not own it (a form choosing dns, meta, file or email) → claim_listing →
// /claims/{id}, which shows what to publish and a "Check now" button (verify_claim). /claims lists
// list_my_claims. Email claims are confirmed through the link in the mail (web/claims.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import type { ApiError } from '../../operations/errors.ts';
import { publicListingBySlug } from '../../store/repos/claims.ts';
import type { WebContext } from '../context.ts';
import { csrfField, html, raw, type SafeHtml } from '../layout.ts';
import { sendNotFoundPage } from '../pages/errors.ts';
import { fmtDate, pageLink, pager, qs, withQuery } from '../pages/shared.ts';
import {
  act,
  attempt,
  fieldMessage,
  formOf,
  invalidAttrs,
  one,
  problems,
  sendMakerPage,
  signedIn,
  signedInPost,
  statusOf,
  when,
  type Form,
  type Problems,
  type SignedIn,
} from './act.ts';
import { isSlug } from '../../domain/vocabulary.ts';
import type { ClaimMethod, ClaimStatus } from '../../domain/claims.ts';
import type { ResultOf } from '../../operations/define.ts';
import { claimListing, listMyClaims, verifyClaim } from '../../operations/claims.ts';

/** A claim as list_my_claims shows it. */
type Claim = ResultOf<typeof listMyClaims>['items'][number];

const METHODS: ReadonlyArray<[ClaimMethod, string, string]> = [
  ['dns', 'A DNS record', 'add a TXT record at your domain'],
  ['meta', 'A tag on your homepage', 'put a <meta> tag in the <head> of your homepage'],
  ['file', 'A file on your website', 'serve a small text file under /.well-known/'],
  ['email', 'An email to your company address', 'we send a link to an address at your domain'],
];
const STATUS_WORDS: Record<ClaimStatus, string> = {
  pending: 'Waiting for the check',
  verified: 'Verified',
  failed: 'Closed',
  expired: 'Expired',
};

const FIELDS: Record<string, { id: string; label: string }> = {
  method: { id: 'claim-method-dns', label: 'How to prove it' },
  email: { id: 'claim-email', label: 'Email address' },
};

/** The claim form (the listing page's box and the claim page): the method, and the address for email. */
function claimForm(slug: string, domain: string, web: WebContext, p: Problems, f: Form | null): SafeHtml {
  const chosen = f ? one(f, 'method') : 'dns';
  return html`<form method="post" action="/listings/${slug}/claim" class="stack" novalidate>${csrfField(web.csrf)}
<fieldset${invalidAttrs(p, FIELDS.method.id)}><legend>${FIELDS.method.label}</legend>
${METHODS.map(([m, label, what]) => html`<div class="choice"><label class="check"><input type="radio" name="method" value="${m}" id="claim-method-${m}"${m === chosen ? raw(' checked') : ''}> ${label}</label><span class="hint">${what}</span></div>`)}
${fieldMessage(p, FIELDS.method.id)}</fieldset>
<div><label for="${FIELDS.email.id}">${FIELDS.email.label} <span class="hint">(for the email method: an address at ${domain})</span></label>
<input type="email" id="${FIELDS.email.id}" name="email" maxlength="254" value="${f ? one(f, 'email') : ''}"${invalidAttrs(p, FIELDS.email.id)}>${fieldMessage(p, FIELDS.email.id)}</div>
<div><button type="submit">Claim this listing</button></div></form>`;
}

const claimFieldOf = (path: string) => FIELDS[path] ?? null;

/**
 * The listing page's "Claim this listing" box: a sign-in link for signed-out people, the form for
 * signed-in people who do not own the listing, nothing for its owner.
 */
export async function claimBox(
  deps: AppDeps,
  web: WebContext,
  listing: { slug: string; name: string },
): Promise<SafeHtml> {
  if (!web.user) {
    return html`<h2>Is this your product?</h2><p><a href="${withQuery('/sign-in', { next: `/listings/${listing.slug}/claim` })}">Sign in to claim ${listing.name}</a> and manage it.</p>`;
  }
  const l = await publicListingBySlug(deps.store.db, listing.slug);
  if (!l || (l.owner_id === web.user.id && l.verified_at !== null)) return html``;
  // The owner of a listing not verified yet proves it the same way (claim_listing allows it).
  const own = l.owner_id === web.user.id;
  return html`<section aria-labelledby="claim-h" id="claim"><h2 id="claim-h">${own ? 'Your listing is not verified' : 'Is this your product?'}</h2>
<p>${own ? html`Prove that you control ${l.domain} and your listing shows the Verified badge.` : html`Prove that you control ${l.domain} and the listing moves to your account, with the Verified badge.`}</p>
<details class="claim"><summary>${own ? 'Verify this listing' : 'Claim this listing'}</summary>
${claimForm(
  listing.slug,
  l.domain,
  web,
  problems(null, () => null),
  null,
)}</details></section>`;
}

async function claimFormPage(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  slug: string,
  refused: { error: ApiError; form: Form } | null = null,
): Promise<FastifyReply> {
  const web = await signedIn(deps, req, reply, `/listings/${slug}/claim`);
  if (!web) return reply;
  const l = isSlug(slug) ? await publicListingBySlug(deps.store.db, slug) : undefined;
  if (!l) return sendNotFoundPage(deps, req, reply);
  const p = problems(refused?.error, claimFieldOf);
  return sendMakerPage(
    reply,
    web,
    { title: `Claim ${l.name}`, narrow: true },
    html`
<nav class="crumbs" aria-label="Breadcrumb">${pageLink(l)} › <span aria-current="page">Claim</span></nav>
<h1>Claim ${l.name}</h1>
<p class="lede">Prove that you control ${l.domain}: the listing then moves to your account and shows the Verified badge. Verified is not the same as paid.</p>
${p.summary('The claim was not started:')}
${claimForm(l.slug, l.domain, web, p, refused?.form ?? null)}
<p><a href="/claims">Your claims</a></p>`,
    refused ? statusOf(reply, refused.error) : 200,
  );
}

async function postClaim(deps: AppDeps, req: FastifyRequest, reply: FastifyReply, slug: string): Promise<FastifyReply> {
  const web = await signedInPost(deps, req, reply, `/listings/${slug}/claim`);
  if (!web) return reply;
  const f = formOf(req);
  const email = one(f, 'email').trim();
  const r = await attempt(deps, req, web, claimListing, {
    body: { slug, method: one(f, 'method'), ...(email ? { email } : {}) },
  });
  if (r.ok) return reply.redirect(`/claims/${r.value.id}`, 303);
  return claimFormPage(deps, req, reply, slug, { error: r.error, form: f });
}

// ------------------------------------------------------------------ a claim

/** One of the person's claims, found through list_my_claims (the operations have no single-claim read). */
async function myClaim(deps: AppDeps, req: FastifyRequest, web: SignedIn, id: string): Promise<Claim | null> {
  if (!/^\d{1,10}$/.test(id)) return null;
  for (let page = 1; page <= 50; page++) {
    const r = await act(deps, req, web, listMyClaims, { query: { page, per_page: 100 } });
    const hit = r.items.find((c) => String(c.id) === id);
    if (hit) return hit;
    if (!r.has_more) return null;
  }
  return null;
}

/** What to publish: the claim's instructions, which take the shape of its method. */
function instructions(c: Claim): SafeHtml {
  const i = c.instructions;
  if (c.method === 'dns' && 'record_type' in i)
    return html`<p>At the DNS provider of your domain, add this record, wait until it is published (it can take a while), then press <em>Check now</em>.</p>
<dl class="facts"><dt>Type</dt><dd><code>${i.record_type}</code></dd><dt>Name</dt><dd><code class="secret">${i.host}</code></dd><dt>Value</dt><dd><code class="secret">${i.value}</code></dd></dl>`;
  if (c.method === 'meta' && 'tag' in i)
    return html`<p>Put this tag ${i.where}, then press <em>Check now</em>:</p><code class="secret" id="claim-tag">${i.tag}</code>`;
  if (c.method === 'file' && 'content' in i)
    return html`<p>Serve a plain-text file at <code>${i.url}</code> whose whole content is the token below, then press <em>Check now</em>:</p><code class="secret">${i.content}</code>`;
  if (c.method === 'email' && 'sent_to' in i)
    return html`<p>We emailed a link to <strong>${i.sent_to}</strong>. Whoever reads that mailbox opens it and confirms${i.expires_at ? html` by ${when(i.expires_at)}` : ' within 24 hours'}; that verifies the claim. To use another address at the domain, <a href="/listings/${c.listing?.slug}/claim">claim again</a> with it.</p>`;
  return html`<p>${i.how}</p>`;
}

async function claimPage(
  _deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  web: SignedIn,
  c: Claim,
  refused: ApiError | null = null,
): Promise<FastifyReply> {
  const l = c.listing;
  const name = l?.name ?? 'a listing';
  const checked = qs(req, 'notice') === 'checked';
  const flash = refused
    ? { kind: 'error' as const, text: refused.message }
    : checked
      ? c.status === 'verified'
        ? { kind: 'success' as const, text: `Verified: ${name} is now yours.` }
        : { kind: 'info' as const, text: `Checked: not found yet. ${c.last_error ?? ''}` }
      : null;
  const canCheck = c.status === 'pending' && c.method !== 'email';
  const body = html`<nav class="crumbs" aria-label="Breadcrumb"><a href="/claims">Your claims</a> › <span aria-current="page">${name}</span></nav>
<h1>Your claim of ${name}</h1>
<dl class="facts" id="claim-facts">
<dt>Status</dt><dd><span class="state" data-state="${c.status}">${STATUS_WORDS[c.status]}</span></dd>
<dt>Method</dt><dd>${METHODS.find(([m]) => m === c.method)?.[1] ?? c.method}</dd>
<dt>Started</dt><dd>${when(c.created_at)}</dd>
${c.checked_at ? html`<dt>Last check</dt><dd>${when(c.checked_at)}${c.last_error ? html`: <span id="claim-last-error">${c.last_error}</span>` : ''}</dd>` : ''}
${c.verified_at ? html`<dt>Verified</dt><dd>${when(c.verified_at)}</dd>` : ''}
</dl>
${
  c.status === 'verified'
    ? html`<p>The listing is yours and shows the Verified badge. <a href="/my/listings">Manage it in your listings</a>.</p>`
    : c.status === 'pending'
      ? html`<h2>What to publish</h2>${instructions(c)}`
      : html`<p>${c.last_error ?? 'This claim is closed.'} Start a new claim from the listing's page.</p>`
}
${canCheck ? html`<form method="post" action="/claims/${c.id}/verify" class="check-now">${csrfField(web.csrf)}<button type="submit">Check now</button></form>` : ''}
<p class="meta">${c.note}</p>`;
  return sendMakerPage(reply, web, { title: `Claim of ${name}`, flash }, body, statusOf(reply, refused));
}

async function claimsList(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const web = await signedIn(deps, req, reply, req.url);
  if (!web) return reply;
  const r = await act(deps, req, web, listMyClaims, { query: { page: qs(req, 'page') } });
  const rows = r.items.map(
    (c) => html`<tr><td><a href="/claims/${c.id}">${c.listing?.name ?? `Claim ${c.id}`}</a></td>
<td>${METHODS.find(([m]) => m === c.method)?.[1] ?? c.method}</td>
<td><span class="state" data-state="${c.status}">${STATUS_WORDS[c.status]}</span></td><td>${fmtDate(c.created_at)}</td></tr>`,
  );
  return sendMakerPage(
    reply,
    web,
    { title: 'Your claims' },
    html`<h1>Your claims</h1>
<p>A claim proves that you control a listed product's domain; the listing then moves to your account. Start one from the listing's page (“Is this your product?”).</p>
${
  r.items.length
    ? html`<table><caption class="sr-only">Your claims, newest first</caption>
<thead><tr><th scope="col">Listing</th><th scope="col">Method</th><th scope="col">Status</th><th scope="col">Started</th></tr></thead>
<tbody>${rows}</tbody></table>${pager(r, (n) => withQuery('/claims', { page: n }))}`
    : html`<p>You have no claims.</p>`
}
<p><a href="/my/listings">Your listings</a> · <a href="/drafts">Your drafts</a></p>`,
  );
}

export function registerClaimMakerPages(app: FastifyInstance, deps: AppDeps): void {
  app.get('/listings/:slug/claim', async (req, reply) =>
    claimFormPage(deps, req, reply, (req.params as { slug: string }).slug),
  );
  app.post('/listings/:slug/claim', async (req, reply) =>
    postClaim(deps, req, reply, (req.params as { slug: string }).slug),
  );
  app.get('/claims', async (req, reply) => claimsList(deps, req, reply));
  app.get('/claims/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const web = await signedIn(deps, req, reply, `/claims/${id}`);
    if (!web) return reply;
    const c = await myClaim(deps, req, web, id);
    return c ? claimPage(deps, req, reply, web, c) : sendNotFoundPage(deps, req, reply);
  });
  app.post('/claims/:id/verify', async (req, reply) => {
    const { id } = req.params as { id: string };
    const web = await signedInPost(deps, req, reply, `/claims/${id}`);
    if (!web) return reply;
    const r = await attempt(deps, req, web, verifyClaim, { params: { claim_id: id } });
    if (r.ok) return reply.redirect(`/claims/${id}?notice=checked`, 303);
    const c = await myClaim(deps, req, web, id);
    return c ? claimPage(deps, req, reply, web, c, r.error) : sendNotFoundPage(deps, req, reply);
  });
}
