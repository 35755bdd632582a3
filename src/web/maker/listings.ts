// A maker's own listings: /my/listings (list_my_listings) and /my/listings/{id} (get_my_listing):
// status, plan, launch week, the operation's next steps and the badge page, with the actions that
// publish it — "Publish free" (choose_free_listing), "Buy a launch" (create_checkout, then our own
// checkout page) — and "Post an update" (post_listing_update). Its "Edit the listing" links the
// pages that edit it: the profile (edit.ts), the founder story and the milestones (sections.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { chooseFreeListing, getMyListing, listMyListings, postListingUpdate } from '../../operations/my-listings.ts';
import { createCheckout, listProducts } from '../../operations/orders.ts';
import type { ResultOf } from '../../operations/define.ts';
import type { ApiError } from '../../operations/errors.ts';
import { PROFILE_FIELDS, type ListingPlan, type ListingStatus } from '../../domain/vocabulary.ts';
import { PUBLIC_STATUSES } from '../../store/repos/summary.ts';
import { csrfField, html, type SafeHtml } from '../layout.ts';
import { fmtDate, pager, qs, read, updateCard, withQuery } from '../pages/shared.ts';
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
  type Form,
  type Problems,
  type SignedIn,
} from './act.ts';
import { nextSteps } from '../../services/own-listing.ts';

/** A listing as get_my_listing answers it. */
type OwnListing = ResultOf<typeof getMyListing>;

/**
 * What the page reads of list_products and create_checkout. (Those operations' results are typed by
 * their own response schemas; until they have them, these read them.)
 */
const Offer = z.object({
  free_queue_week: z.string(),
  products: z.array(
    z.object({ code: z.string(), description: z.string(), price: z.string(), weeks: z.array(z.string()).optional() }),
  ),
});
type Offer = z.infer<typeof Offer>;
const Checkout = z.object({ checkout_url: z.string() });

const STATUS_WORDS: Record<ListingStatus, string> = {
  draft: 'Saved, not published',
  awaiting_badge: 'Waiting for your badge',
  scheduled: 'Scheduled',
  live: 'Live',
};
const PLAN_WORDS: Record<ListingPlan, string> = { none: 'None chosen yet', free: 'Free', paid: 'Paid' };

const week = (monday: string | null | undefined): string => (monday ? `the week of ${fmtDate(monday)}` : '');

/** Field names from a query parameter (a comma-separated list), only the draft's profile fields, in words. */
function fieldWords(list: string | undefined): string[] {
  return (list ?? '')
    .split(',')
    .filter((f) => (PROFILE_FIELDS as readonly string[]).includes(f))
    .map((f) => f.replace(/_/g, ' '));
}

function notice(
  key: string | undefined,
  l: OwnListing,
  q: (name: string) => string | undefined,
): { kind: 'success'; text: string } | null {
  switch (key) {
    case 'resubmitted': {
      const changed = fieldWords(q('changed'));
      const kept = fieldWords(q('kept'));
      return {
        kind: 'success',
        text:
          (changed.length
            ? `Your draft went to this listing as an edit: ${changed.join(', ')} changed. Like every edit, it is kept in the listing's history and the site team reviews it.`
            : 'Your draft went to this listing: nothing in it changed since it last reached the listing, so the listing is as it was.') +
          (kept.length
            ? ` The listing keeps its own ${kept.join(', ')} (edited since): to replace ${kept.length === 1 ? 'it' : 'them'} with the draft's, change ${kept.length === 1 ? 'it' : 'them'} in the draft.`
            : ''),
      };
    }
    case 'saved':
      return {
        kind: 'success',
        text: 'Saved as your listing. It is not public yet: publish it free or buy a launch below.',
      };
    case 'free':
      return {
        kind: 'success',
        text: `You chose the free plan: your listing is queued for ${week(l.launch_week)}. It goes live then once a Launchlist badge is on your homepage.`,
      };
    case 'update':
      return { kind: 'success', text: 'Your update is posted; followers are told by email.' };
    default:
      return null;
  }
}

/** Which panel a refused form belongs to, and what the person had typed. */
interface Refusal {
  panel: 'free' | 'launch' | 'update';
  error: ApiError;
  form: Form;
}

const FIELDS: Record<string, { id: string; label: string }> = {
  week: { id: 'launch-week', label: 'Launch week' },
  title: { id: 'update-title', label: 'Title' },
  body: { id: 'update-body', label: 'What is new' },
};
function listingFieldOf(path: string): { id: string; label: string } | null {
  if (/^items\.\d+\.week$/.test(path)) return FIELDS.week;
  return path === 'title' || path === 'body' ? FIELDS[path] : null;
}

/** What a refused form of each panel did not do: the top of its summary. */
const REFUSED: Record<Refusal['panel'], string> = {
  free: 'Not published:',
  launch: 'The order was not built:',
  update: 'The update was not posted:',
};

function freePanel(l: OwnListing, products: Offer, web: SignedIn, p: Problems | null): SafeHtml | null {
  if (l.status !== 'draft' || l.plan === 'paid') return null;
  return html`<section class="panel" aria-labelledby="free-h" id="free"><h2 id="free-h">Publish free</h2>
${p ? p.summary(REFUSED.free) : ''}
<p>Free listings launch in turn: one chosen now is queued for <strong id="free-week">${week(products.free_queue_week)}</strong>, and goes live that week once a Launchlist badge (or a link to your listing page) is on your homepage.</p>
<form method="post" action="/my/listings/${l.listing_id}/free">${csrfField(web.csrf)}<button type="submit">Publish free</button></form></section>`;
}

function launchPanel(
  l: OwnListing,
  products: Offer,
  web: SignedIn,
  p: Problems | null,
  form: Form | null,
): SafeHtml | null {
  const launch = products.products.find((x) => x.code === 'launch');
  if (!launch || l.status === 'live' || l.plan === 'paid') return null;
  const chosen = form ? one(form, 'week') : '';
  const id = FIELDS.week.id;
  return html`<section class="panel" aria-labelledby="launch-h" id="launch"><h2 id="launch-h">Buy a launch</h2>
${p ? p.summary(REFUSED.launch) : ''}
<p>${launch.description} <strong>${launch.price}</strong> (USD, VAT extra where it applies). Live as soon as it is paid, or in the week you choose. You review the order and pay on the next page.</p>
<form method="post" action="/my/listings/${l.listing_id}/launch" class="stack">${csrfField(web.csrf)}
<div><label for="${id}">${FIELDS.week.label}</label>
<select id="${id}" name="week"${p ? invalidAttrs(p, id) : ''}><option value="">As soon as it is paid</option>${(launch.weeks ?? []).map((w) => html`<option value="${w}"${w === chosen ? html` selected` : ''}>Week of ${fmtDate(w)}</option>`)}</select>
${p ? fieldMessage(p, id) : ''}</div>
<div><button type="submit">Buy a launch</button></div></form></section>`;
}

function updatePanel(l: OwnListing, web: SignedIn, p: Problems | null, form: Form | null): SafeHtml {
  const t = FIELDS.title.id;
  const b = FIELDS.body.id;
  const updates = l.latest_updates.map((u) => ({ ...u, created_at: u.created_at ?? '' })); // posted updates have a date
  return html`<section class="panel" aria-labelledby="update-h" id="update"><h2 id="update-h">Post an update</h2>
${p ? p.summary(REFUSED.update) : ''}
<p>Tell people what is new. Updates show on your listing and on <a href="/updates">the latest updates</a>, and your followers get them by email.</p>
<form method="post" action="/my/listings/${l.listing_id}/updates" class="stack" novalidate>${csrfField(web.csrf)}
<div><label for="${t}">${FIELDS.title.label}</label><input type="text" id="${t}" name="title" maxlength="200" value="${form ? one(form, 'title') : ''}"${p ? invalidAttrs(p, t) : ''}>${p ? fieldMessage(p, t) : ''}</div>
<div><label for="${b}">${FIELDS.body.label} <span class="hint">(plain text)</span></label><textarea id="${b}" name="body" rows="5" maxlength="5000"${p ? invalidAttrs(p, b) : ''}>${form ? one(form, 'body') : ''}</textarea>${p ? fieldMessage(p, b) : ''}</div>
<div><button type="submit">Post the update</button></div></form>
${updates.length ? html`<h3>Posted</h3>${updates.map((u) => updateCard(u, { heading: 'h3' }))}` : ''}</section>`;
}

/** Links to the pages that edit the listing: its profile, founder story and milestones. */
function editSection(l: OwnListing): SafeHtml {
  const shown = (section: string) => (l.unlocked.includes(section) ? 'shown publicly' : 'not shown publicly yet');
  const milestones = l.milestones.length;
  return html`<section aria-labelledby="edit-h" id="edit"><h2 id="edit-h">Edit the listing</h2>
<ul>
<li><a href="/my/listings/${l.listing_id}/edit" id="edit-link">Edit the profile</a>: tagline, descriptions, pricing, features, links to your profiles, FAQs…</li>
<li><a href="/my/listings/${l.listing_id}/story" id="story-link">Founder story</a> <span class="muted">(${l.story ? 'written' : 'not written yet'}; ${shown('story')})</span></li>
<li><a href="/my/listings/${l.listing_id}/milestones" id="milestones-link">Milestones</a> <span class="muted">(${milestones ? `${milestones} so far` : 'none yet'}; ${shown('milestones')})</span></li>
</ul>
<p>Edits publish at once and are kept in the version history.</p></section>`;
}

async function listingPage(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  web: SignedIn,
  l: OwnListing,
  refused: Refusal | null = null,
): Promise<FastifyReply> {
  const products = Offer.parse(await read(deps, req, listProducts));
  const p = refused ? problems(refused.error, listingFieldOf) : null;
  const on = (panel: Refusal['panel']) => (refused?.panel === panel ? p : null);
  const formOn = (panel: Refusal['panel']) => (refused?.panel === panel ? refused.form : null);
  // The API's next_steps name operations; the page says the same in terms of its own buttons.
  const steps = nextSteps(l, deps.config.publicUrl, { audience: 'web', lastCheck: l.last_badge_check });
  const panels: Record<Refusal['panel'], SafeHtml | null> = {
    free: freePanel(l, products, web, on('free')),
    launch: launchPanel(l, products, web, on('launch'), formOn('launch')),
    update: updatePanel(l, web, on('update'), formOn('update')),
  };
  // A form posted from a page that was out of date (the listing was bought or published since) is
  // refused for a panel the page no longer shows: the refusal is said at the top instead.
  const unplaced = refused && p && !panels[refused.panel] ? p.summary(REFUSED[refused.panel]) : '';
  const body = html`<nav class="crumbs" aria-label="Breadcrumb"><a href="/my/listings">Your listings</a> › <span aria-current="page">${l.name}</span></nav>
<h1>${l.name}</h1>
${l.tagline ? html`<p class="lede">${l.tagline}</p>` : ''}
${unplaced}
<dl class="facts" id="listing-facts">
<dt>Status</dt><dd><span class="state" data-state="${l.status}">${STATUS_WORDS[l.status] ?? l.status}</span></dd>
<dt>Plan</dt><dd>${PLAN_WORDS[l.plan] ?? l.plan}</dd>
<dt>Launch week</dt><dd>${l.launch_week ? html`<a href="/launches/weeks/${l.launch_week}">${week(l.launch_week)}</a>` : html`<span class="muted">not set</span>`}</dd>
${l.launched_at ? html`<dt>Launched</dt><dd>${fmtDate(l.launched_at)}</dd>` : ''}
<dt>Ownership</dt><dd>${l.verified ? html`<span class="tag-ok">Verified</span>` : (PUBLIC_STATUSES as readonly string[]).includes(l.status) ? html`Not verified · <a href="/listings/${l.slug}/claim" id="verify-link">Prove that you own it</a>` : html`Not verified <span class="muted">(you can prove it once the listing is published)</span>`}</dd>
<dt>Public page</dt><dd>${l.status === 'live' ? html`<a href="/listings/${l.slug}">/listings/${l.slug}</a>` : html`<span class="muted">shown once it is live</span>`}</dd>
<dt>Badge</dt><dd>${(PUBLIC_STATUSES as readonly string[]).includes(l.status) ? html`<a href="/listings/${l.slug}/badges" id="badge-link">Your badge snippets</a>` : html`<span class="muted">snippets once it is published (free or paid)</span>`}${l.badge_seen_at ? html` · seen on your homepage ${fmtDate(l.badge_seen_at)}` : ''}</dd>
</dl>
${steps.length ? html`<section aria-labelledby="next-h" id="next-steps"><h2 id="next-h">What to do next</h2><ul class="steps">${steps.map((s) => html`<li>${s}</li>`)}</ul></section>` : ''}
${panels.free}
${panels.launch}
${panels.update}
${editSection(l)}`;
  return sendMakerPage(
    reply,
    web,
    { title: l.name, flash: notice(qs(req, 'notice'), l, (name) => qs(req, name)) },
    body,
    refused ? statusOf(reply, refused.error) : 200,
  );
}

async function listPage(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const web = await signedIn(deps, req, reply, req.url);
  if (!web) return reply;
  const r = await act(deps, req, web, listMyListings, { query: { page: qs(req, 'page') } });
  const rows = r.items.map(
    (
      l,
    ) => html`<tr><td><a href="/my/listings/${l.listing_id}">${l.name}</a>${l.tagline ? html`<br><span class="meta">${l.tagline}</span>` : ''}</td>
<td><span class="state" data-state="${l.status}">${STATUS_WORDS[l.status] ?? l.status}</span></td><td>${PLAN_WORDS[l.plan] ?? l.plan}</td>
<td>${l.launch_week ? fmtDate(l.launch_week) : html`<span class="muted">—</span>`}</td>
<td>${l.status === 'live' ? html`<a href="/listings/${l.slug}">Public page</a>` : ''}</td></tr>`,
  );
  return sendMakerPage(
    reply,
    web,
    { title: 'Your listings' },
    html`<h1>Your listings</h1>
${
  r.items.length
    ? html`<table><caption class="sr-only">Your listings, newest first</caption>
<thead><tr><th scope="col">Listing</th><th scope="col">Status</th><th scope="col">Plan</th><th scope="col">Launch week</th><th scope="col"></th></tr></thead>
<tbody>${rows}</tbody></table>${pager(r, (n) => withQuery('/my/listings', { page: n }))}`
    : html`<p>You have no listings yet. <a href="/submit">Submit a product</a>, check its draft and save it as your listing.</p>`
}
<p><a href="/drafts">Your drafts</a> · <a href="/claims">Your claims</a> · <a href="/my/interview">Founder interview</a> · <a href="/submit">Submit a product</a></p>`,
  );
}

type Action = (
  deps: AppDeps,
  req: FastifyRequest,
  web: SignedIn,
  id: string,
  f: Form,
) => Promise<{ redirect: string } | Refusal>;

const ACTIONS: Record<string, Action> = {
  free: async (deps, req, web, id, form) => {
    const r = await attempt(deps, req, web, chooseFreeListing, { params: { listing_id: id } });
    return r.ok ? { redirect: `/my/listings/${id}?notice=free` } : { panel: 'free', error: r.error, form };
  },
  launch: async (deps, req, web, id, form) => {
    const w = one(form, 'week');
    const item = { product: 'launch', listing_id: Number(id), ...(w ? { week: w } : {}) };
    const r = await attempt(deps, req, web, createCheckout, { body: { items: [item] } });
    return r.ok ? { redirect: Checkout.parse(r.value).checkout_url } : { panel: 'launch', error: r.error, form };
  },
  updates: async (deps, req, web, id, form) => {
    const r = await attempt(deps, req, web, postListingUpdate, {
      params: { listing_id: id },
      body: { title: one(form, 'title'), body: one(form, 'body') },
    });
    return r.ok ? { redirect: `/my/listings/${id}?notice=update#update` } : { panel: 'update', error: r.error, form };
  },
};

export function registerMyListingPages(app: FastifyInstance, deps: AppDeps): void {
  app.get('/my/listings', async (req, reply) => listPage(deps, req, reply));
  app.get('/my/listings/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const web = await signedIn(deps, req, reply, `/my/listings/${id}`);
    if (!web) return reply;
    return listingPage(deps, req, reply, web, await act(deps, req, web, getMyListing, { params: { listing_id: id } }));
  });
  for (const [name, run] of Object.entries(ACTIONS)) {
    app.post(`/my/listings/:id/${name}`, async (req, reply) => {
      const { id } = req.params as { id: string };
      const web = await signedInPost(deps, req, reply, `/my/listings/${id}`);
      if (!web) return reply;
      // Another person's listing (or no such listing) is the operation's 404, before anything is tried.
      const listing = await act(deps, req, web, getMyListing, { params: { listing_id: id } });
      const out = await run(deps, req, web, id, formOf(req));
      if ('redirect' in out) return reply.redirect(out.redirect, 303);
      return listingPage(deps, req, reply, web, listing, out);
    });
  }
}
