// Entering a programme on the website (issue #21), as the signed-in maker, through the operations:
//   GET  /programmes/:slug/enter   the form: one of your live listings (list_my_listings), the rules
//   POST /programmes/:slug/enter   enter_programme; a refusal (409 naming the rule) is shown on the form
//   GET  /my/programmes            your entries (list_my_programme_entries)
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import type { ApiError } from '../../operations/errors.ts';
import { enterProgramme, getProgramme, listMyProgrammeEntries } from '../../operations/trophies.ts';
import { listMyListings } from '../../operations/my-listings.ts';
import { isSlug } from '../../domain/vocabulary.ts';
import { csrfField, html, raw } from '../layout.ts';
import { sendNotFoundPage } from '../pages/errors.ts';
import { fmtDate, qs, read } from '../pages/shared.ts';
import { act, attempt, formOf, one, sendMakerPage, signedIn, signedInPost, statusOf, type SignedIn } from './act.ts';

async function enterPage(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  web: SignedIn,
  slug: string,
  refused: { error: ApiError; listing: string } | null = null,
): Promise<FastifyReply> {
  const p = await read(deps, req, getProgramme, { params: { slug } });
  const mine = await act(deps, req, web, listMyListings, { query: { per_page: 100 } });
  const live = mine.items.filter((l) => l.status === 'live');
  const entered = new Set(p.entry_list.map((e) => e.listing.slug));
  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/programmes">Programmes</a> › <a href="/programmes/${p.slug}">${p.name}</a> › <span aria-current="page">Enter</span></nav>
<h1>Enter ${p.name}</h1>
<h2>Who can enter</h2>
<ul>${p.rule_words.map((r) => html`<li>${r.text}</li>`)}</ul>
${
  p.state !== 'open'
    ? html`<p class="note">${p.state === 'upcoming' ? `Entries open on ${fmtDate(p.starts_on)}.` : `Entries closed on ${fmtDate(p.ends_on)}.`}</p>`
    : ''
}
${
  live.length
    ? html`<form method="post" action="/programmes/${p.slug}/enter" class="stack">${csrfField(web.csrf)}
<div><label for="enter-listing">Your product</label>
<select id="enter-listing" name="listing_id"${refused ? raw(' aria-invalid="true" aria-describedby="enter-listing-error"') : ''}>${live.map((l) => html`<option value="${l.listing_id}"${refused?.listing === String(l.listing_id) ? raw(' selected') : ''}>${l.name}${entered.has(l.slug) ? ' (entered)' : ''}</option>`)}</select>
${refused ? html`<p class="field-error" id="enter-listing-error">${refused.error.message}</p>` : ''}</div>
<div><button type="submit">Enter</button></div></form>`
    : html`<p class="muted">You have no live product to enter. <a href="/my/listings">Your listings</a> · <a href="/submit">Submit a product</a></p>`
}
<p><a href="/my/programmes">Your programme entries</a></p>`;
  return sendMakerPage(
    reply,
    web,
    { title: `Enter ${p.name}`, narrow: true, flash: refused ? { kind: 'error', text: refused.error.message } : null },
    body,
    refused ? statusOf(reply, refused.error) : 200,
  );
}

async function myEntries(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const web = await signedIn(deps, req, reply, '/my/programmes');
  if (!web) return reply;
  const r = await act(deps, req, web, listMyProgrammeEntries);
  const entered = qs(req, 'notice') === 'entered';
  const body = html`
<h1>Your programme entries</h1>
${
  r.items.length
    ? html`<ul class="items compact">${r.items.map((e) => html`<li class="item"><div class="body"><h2><a href="/programmes/${e.programme.slug}">${e.programme.name}</a></h2><p class="meta">${e.listing.name} · entered ${fmtDate(e.entered_at)} · ${e.place !== null ? html`<strong>place ${e.place}</strong>` : e.decided ? 'not placed' : e.programme.state === 'ended' ? 'results to come' : 'running'}</p></div></li>`)}</ul>`
    : html`<p class="muted">No entries yet. <a href="/programmes">See the programmes</a>.</p>`
}`;
  return sendMakerPage(
    reply,
    web,
    {
      title: 'Your programme entries',
      flash: entered ? { kind: 'success', text: 'Entered: your product is in the programme.' } : null,
    },
    body,
  );
}

export function registerProgrammeEntryPages(app: FastifyInstance, deps: AppDeps): void {
  app.get('/programmes/:slug/enter', async (req, reply) => {
    const { slug } = req.params as { slug: string };
    if (!isSlug(slug)) return sendNotFoundPage(deps, req, reply);
    const web = await signedIn(deps, req, reply, `/programmes/${slug}/enter`);
    if (!web) return reply;
    return enterPage(deps, req, reply, web, slug);
  });
  app.post('/programmes/:slug/enter', async (req, reply) => {
    const { slug } = req.params as { slug: string };
    if (!isSlug(slug)) return sendNotFoundPage(deps, req, reply);
    const web = await signedInPost(deps, req, reply, `/programmes/${slug}/enter`);
    if (!web) return reply;
    const listing = one(formOf(req), 'listing_id');
    const r = await attempt(deps, req, web, enterProgramme, {
      params: { slug },
      body: { listing_id: /^\d{1,10}$/.test(listing) ? Number(listing) : listing },
    });
    if (r.ok) return reply.redirect('/my/programmes?notice=entered', 303);
    return enterPage(deps, req, reply, web, slug, { error: r.error, listing });
  });
  app.get('/my/programmes', async (req, reply) => myEntries(deps, req, reply));
}
