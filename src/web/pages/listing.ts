// A listing's public profile (/listings/:slug), its badge page (/listings/:slug/badges), and the
// only way votes and follows are cast: POST /listings/:slug/vote and /listings/:slug/follow.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { ResultOf } from '../../operations/define.ts';
import { compareListings, getAlternatives, getListing } from '../../operations/listings.ts';
import { getBadges } from '../../operations/badges.ts';
import type { FactValue } from '../../operations/profile.ts';
import { react, reactedSlugs, type Reaction, type ReactionAction } from '../../store/repos/votes.ts';
import { voteContextOf, voteKey, voteWeightsOf } from '../../services/vote-context.ts';
import { VOTE_REASON_TEXT, type VoteReason } from '../../domain/vote-weight.ts';
import { attributeLabel } from '../../store/repos/listings.ts';
import { checkCsrf, getWebContext, type WebContext } from '../context.ts';
import { csrfField, html, raw, safeHref, type SafeHtml } from '../layout.ts';
import { ApiError } from '../../operations/errors.ts';
import { sendErrorPage, sendNotFoundPage } from './errors.ts';
import { claimBox } from '../maker/claims.ts';
import {
  extLink,
  fmtDate,
  fmtNum,
  listingList,
  logo,
  pageLink,
  paragraphs,
  plural,
  qs,
  read,
  safeBack,
  selectField,
  send,
  socialsList,
  updateCard,
  viewerFor,
  type Shared,
  voteButton,
  withQuery,
  type RowOptions,
  type Viewer,
} from './shared.ts';
import { STORY_SECTIONS, isSlug } from '../../domain/vocabulary.ts';

/** What a draft's and a listing's profile fields are called on the site. */
export const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  tagline: 'Tagline',
  short_description: 'Short description',
  description: 'Description',
  stage: 'Business stage',
  categories: 'Categories',
  tags: 'Tags',
  pricing_model: 'Pricing model',
  pricing_summary: 'Pricing details',
  country: 'Country',
  city: 'City',
  founded_year: 'Year founded',
  features: 'Features',
  usps: 'What sets it apart',
  keywords: 'Keywords',
  contact_email: 'Contact email',
  demo_video_url: 'Demo video',
  logo_url: 'Logo',
};

export const STAGES: Record<string, string> = {
  idea: 'Idea',
  mvp: 'MVP',
  launched: 'Launched',
  growing: 'Growing',
  profitable: 'Profitable',
  scaling: 'Scaling',
  mature: 'Mature',
};
export const stageName = (stage: unknown): string => STAGES[String(stage).toLowerCase()] ?? String(stage);

// Made on first use: creating it costs ~25 ms (ICU data), a share of a cold start.
let regions: Intl.DisplayNames | undefined;
/** Names already looked up (there are fewer than 300 regions; Intl's lookup costs microseconds a call). */
const countryNames = new Map<string, string>();
export function countryName(code: string | null | undefined): string {
  if (!code) return '';
  const known = countryNames.get(code);
  if (known !== undefined) return known;
  let name: string;
  try {
    name = (regions ??= new Intl.DisplayNames(['en'], { type: 'region' })).of(code.toUpperCase()) ?? code;
  } catch {
    name = code;
  }
  if (countryNames.size < 1000) countryNames.set(code, name);
  return name;
}

type Profile = ResultOf<typeof getListing>;
type Alternatives = ResultOf<typeof getAlternatives>;

function factValue(v: z.output<typeof FactValue>): string {
  if (v === true) return 'Yes';
  if (v === false) return 'No';
  if (Array.isArray(v)) return v.map(String).join(', ');
  return String(v);
}

/** A small line chart of the Domain Rating history (we draw it from numbers only). */
function sparkline(history: Array<{ date: string; rating: number }>): SafeHtml {
  if (history.length < 2) return html``;
  const w = 180;
  const h = 40;
  const values = history.map((p) => p.rating);
  const lo = Math.max(0, Math.min(...values) - 5);
  const hi = Math.min(100, Math.max(...values) + 5);
  const span = Math.max(1, hi - lo);
  const pts = history
    .map(
      (p, i) =>
        `${((i / (history.length - 1)) * (w - 4) + 2).toFixed(1)},${(h - 2 - ((p.rating - lo) / span) * (h - 4)).toFixed(1)}`,
    )
    .join(' ');
  const first = history[0];
  const last = history[history.length - 1];
  return html`<svg class="spark" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="Domain Rating from ${first.rating} on ${fmtDate(first.date)} to ${last.rating} on ${fmtDate(last.date)}"><polyline fill="none" stroke="#0b57d0" stroke-width="2" points="${pts}"/></svg>`;
}

function domainRating(dr: Profile['domain_rating']): SafeHtml {
  if (dr.value === null) return html`<p class="muted">No Domain Rating reading yet.</p>`;
  const t = dr.trend;
  const arrow =
    t.direction === 'up'
      ? '↑ rising'
      : t.direction === 'down'
        ? '↓ falling'
        : t.direction === 'flat'
          ? '→ steady'
          : 'new';
  const change = (n: number | null | undefined, label: string) =>
    n === null || n === undefined ? '' : html` · ${n > 0 ? '+' : ''}${n} in ${label}`;
  return html`<p><span class="stat">${dr.value}</span> <span class="muted">/ 100</span>
<span class="trend ${t.direction}">${arrow}</span>${change(t.change_30d, '30 days')}${change(t.change_90d, '90 days')}</p>
${sparkline(dr.history)}
<p class="meta">A third-party SEO metric of the website's backlinks${dr.as_of ? html`, as of ${fmtDate(dr.as_of)}` : ''}. It says nothing about votes or quality.</p>`;
}

function followButton(v: Viewer, p: Pick<Profile, 'slug' | 'name' | 'followers'>, following: boolean): SafeHtml {
  const slot = { kind: 'follow' as const, slug: p.slug, name: p.name, followers: p.followers, back: v.here };
  return v.slots ? v.slots.add(slot) : followForm(v.web, slot, following);
}

/** The follow button for this person: a link to sign in first, or the form (following or not). */
export function followForm(
  web: WebContext,
  p: { slug: string; name: string; followers: number; back: string },
  following: boolean,
): SafeHtml {
  const count = html`<span class="sr-only">, </span><span class="muted">${plural(p.followers, 'follower')}</span>`;
  if (!web.user)
    return html`<a class="follow-btn" href="${withQuery('/sign-in', { next: p.back })}">Follow<span class="sr-only"> ${p.name} (sign in first)</span></a> ${count}`;
  return html`<form method="post" action="/listings/${p.slug}/follow" class="follow">${csrfField(web.csrf)}<input type="hidden" name="next" value="${p.back.split('#')[0] + '#act'}"><input type="hidden" name="action" value="${following ? 'remove' : 'add'}">
<button type="submit" class="follow-btn" aria-pressed="${following ? 'true' : 'false'}">${following ? '✓ Following' : 'Follow'}<span class="sr-only"> ${p.name}${following ? ' (press to unfollow)' : ''}</span></button> ${count}</form>`;
}

function media(items: NonNullable<Profile['media']>): SafeHtml {
  const out = items.map((m) => {
    const href = safeHref(m.url);
    if (!href || href.startsWith('/')) return '';
    const alt = m.alt ?? '';
    return m.type === 'image'
      ? html`<figure style="margin:0"><img src="${href}" alt="${alt}" loading="lazy">${alt ? html`<figcaption class="meta">${alt}</figcaption>` : ''}</figure>`
      : html`<p>${extLink(href, alt || m.type)}</p>`;
  });
  return html`<div class="media">${out}</div>`;
}

async function profilePage(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  slug: string,
): Promise<FastifyReply> {
  if (!isSlug(slug)) return sendNotFoundPage(deps, req, reply);
  const p = await read(deps, req, getListing, { params: { slug } });
  const alts = await read(deps, req, getAlternatives, { params: { slug } });
  const v = await viewerFor(deps, req, reply, [slug, ...alts.items.map((a) => a.slug)]);
  // viewerFor read the person's votes; only the follow is left to read
  const following = v.web.user ? (await reactedSlugs(deps.store.db, 'follow', v.web.user.id, [slug])).has(slug) : false;
  const claim = v.slots ? v.slots.add({ kind: 'claim', slug: p.slug, name: p.name }) : await claimBox(deps, v.web, p);
  const shared = req.pageRender;
  if (shared?.kept) {
    // Served from the shared page cache, the page still counts a view per request (as get_listing does).
    const hit = await deps.services.profiles.get(slug);
    if (hit) shared.onHit = () => deps.services.views.record(hit.id);
  }

  const cats = p.categories;
  const founders = p.founders;
  const faqs = p.faqs;
  const updates = p.latest_updates;
  const notFound = p.not_found_on_website;
  const facts = Object.entries(p.facts).filter(([, val]) => val !== '');
  const rating = p.community_rating;
  const location = [p.city, countryName(p.country)].filter(Boolean).join(', ');
  const details: Array<[string, SafeHtml | string]> = [];
  if (p.pricing.model) details.push(['Pricing model', p.pricing.model]);
  if (p.stage) details.push(['Stage', stageName(p.stage)]);
  if (p.founded_year) details.push(['Founded', String(p.founded_year)]);
  if (location) details.push(['Based in', location]);
  details.push(['Website', extLink(p.url, p.domain ?? p.url)]);
  if (p.links.demo_video) details.push(['Demo video', extLink(p.links.demo_video, 'Watch the demo')]);
  if (p.contact_email) details.push(['Contact', html`<a href="mailto:${p.contact_email}">${p.contact_email}</a>`]);
  if (p.launched_at)
    details.push([
      'Launched',
      html`${fmtDate(p.launched_at)}${p.launch_week ? html` (<a href="/launches/weeks/${p.launch_week}">launch week</a>)` : ''}`,
    ]);
  details.push(['Views', fmtNum(p.views)]);

  const story = p.story;
  const storyBody = story
    ? STORY_SECTIONS.filter(([k]) => story[k]).map(([k, label]) => html`<h3>${label}</h3>${paragraphs(story[k])}`)
    : [];
  const awards = p.awards;

  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/">Home</a> › ${cats[0] ? html`<a href="/categories/${cats[0].slug}">${cats[0].name}</a> › ` : ''}<span aria-current="page">${p.name}</span></nav>
<article aria-labelledby="listing-name">
<div class="profile-head">
  ${logo(p, true)}
  <div class="title">
    <h1 id="listing-name">${p.name}</h1>
    ${p.tagline ? html`<p class="lede">${p.tagline}</p>` : ''}
    <ul class="chips">${cats.map((c) => html`<li><a href="/categories/${c.slug}">${c.name}</a></li>`)}${p.verified ? html`<li><span class="tag-ok" title="Ownership proved by the maker">Verified</span></li>` : ''}</ul>
    ${awards.length ? html`<p class="award">${awards.map((a, i) => html`${i ? ' · ' : ''}🏆 <a href="/awards/${a.week}/${a.rank}" title="Verify the signed award">${a.title}</a> (<a href="/launches/weeks/${a.week}">week of ${fmtDate(a.week)}</a>)`)} · <a href="/listings/${p.slug}/trophies">Trophy cabinet</a></p>` : ''}
    <div class="profile-actions" id="act">
      ${voteButton(v, { slug: p.slug, name: p.name, votes: p.votes, status: p.status }, { anchor: 'act' })}
      <span class="muted">${plural(p.votes, 'vote')}</span>
      ${followButton(v, p, following)}
      ${extLink(p.url, html`Visit website<span class="sr-only"> of ${p.name}</span> ↗`)}
    </div>
  </div>
</div>

<div class="cols">
<div>
  ${p.headline ? html`<h2>${p.headline}</h2>` : html`<h2>About ${p.name}</h2>`}
  ${paragraphs(p.description || p.short_description || p.summary)}
  ${p.features.length ? html`<h2>Features</h2><ul>${p.features.map((f) => html`<li>${f}</li>`)}</ul>` : ''}
  ${p.usps.length ? html`<h2>What sets it apart</h2><ul>${p.usps.map((f) => html`<li>${f}</li>`)}</ul>` : ''}
  <h2>Pricing</h2>
  ${p.pricing.model || p.pricing.summary ? html`<p>${p.pricing.model ? html`<strong>${p.pricing.model}</strong>` : ''}${p.pricing.model && p.pricing.summary ? '. ' : ''}${p.pricing.summary ?? ''}</p>` : html`<p class="muted">The website does not state its pricing.</p>`}
  ${facts.length ? html`<h2>At a glance</h2><dl class="facts">${facts.map(([k, val]) => html`<dt>${attributeLabel(k)}</dt><dd>${factValue(val)}</dd>`)}</dl>` : ''}
  ${p.media?.length ? html`<h2>Media</h2>${media(p.media)}` : ''}
  ${storyBody.length ? html`<section aria-labelledby="story-h"><h2 id="story-h">${story?.title || 'Founder story'}</h2>${storyBody}</section>` : ''}
  ${p.milestones?.length ? html`<section aria-labelledby="ms-h"><h2 id="ms-h">Milestones</h2><ol class="timeline">${p.milestones.map((m) => html`<li><strong>${fmtDate(m.date)}</strong> — ${m.url ? extLink(m.url, m.title) : m.title}${m.description ? html`<br><span class="muted">${m.description}</span>` : ''}</li>`)}</ol></section>` : ''}
  <section aria-labelledby="updates-h"><h2 id="updates-h">Latest updates</h2>
  ${updates.length ? updates.map((u) => updateCard(u)) : html`<p class="muted">No updates posted yet.</p>`}
  <p><a href="/updates">Latest updates from every product →</a></p></section>
  ${faqs.length ? html`<section aria-labelledby="faq-h"><h2 id="faq-h">Questions and answers</h2><dl class="faq">${faqs.map((f) => html`<dt>${f.question}</dt><dd>${f.answer}</dd>`)}</dl></section>` : ''}
</div>
<aside aria-label="About this listing">
  <h2>Details</h2>
  <dl class="facts">${details.map(([k, val]) => html`<dt>${k}</dt><dd>${val}</dd>`)}</dl>
  ${voteIntegrity(p)}
  <h2>Community rating</h2>
  ${rating.count ? html`<p><span class="stat">${rating.average}</span> <span class="muted">/ 5</span><br><span class="meta">from ${plural(rating.count, 'genuine review')}</span></p>` : html`<p class="muted">No genuine reviews yet.</p>`}
  <h2>Domain Rating</h2>
  ${domainRating(p.domain_rating)}
  ${founders.length ? html`<h2>Founders</h2><ul class="items compact">${founders.map((f) => html`<li class="item">${logo({ name: f.name, logo_url: f.avatar_url })}<div class="body"><h3><a href="/founders/${f.slug}">${f.name}</a></h3>${f.title ? html`<p class="meta">${f.title}</p>` : ''}</div></li>`)}</ul>` : ''}
  ${Object.keys(p.socials).length ? html`<h2>Elsewhere</h2>${socialsList(p.socials)}` : ''}
  ${notFound.length ? html`<h2>Not on the website</h2><p class="note">The company's own website does not state: ${notFound.map((k, i) => html`${i ? ', ' : ''}${FIELD_LABELS[k] ?? attributeLabel(k)}`)}. We leave these blank on purpose rather than guess.</p>` : ''}
  <h2>Badge</h2>
  <p><img src="/badges/${p.slug}/launched.svg" alt="Launched on Launchlist: ${p.name}" height="54" loading="lazy"></p>
  <p><a href="/listings/${p.slug}/badges">Get the badge embed code</a> for ${p.name}'s website.</p>
  ${p.status === 'live' ? html`<p><a href="/listings/${p.slug}/trophies">${p.name}'s trophy cabinet</a>: awards, programmes, badges and milestones.</p>` : ''}
  ${claim}
</aside>
</div>
<section aria-labelledby="alt-h"><h2 id="alt-h">Alternatives to ${p.name}</h2>
${
  alts.items.length
    ? html`${listingList(v, alts.items.slice(0, ALTERNATIVES_SHOWN), { rows: alternativeRow(p) })}
<p><a href="/listings/${p.slug}/alternatives">All alternatives to ${p.name} →</a></p>`
    : html`<p class="muted">No alternatives yet.</p>`
}
<p><a href="/compare?a=${p.slug}">Compare ${p.name} with…</a></p>
</section>
</article>`;

  return send(
    deps,
    reply,
    v,
    {
      title: p.seo.title || (p.tagline ? `${p.name} — ${p.tagline}` : p.name),
      description: p.seo.description || p.short_description || p.tagline || `${p.name} on Launchlist.`,
      path: `/listings/${p.slug}`,
    },
    body,
  );
}

/** The vote integrity report: what the listing's votes counted, and why some counted less. */
function voteIntegrity(p: Pick<Profile, 'votes' | 'vote_integrity'>): SafeHtml {
  const vi = p.vote_integrity;
  const reasons = Object.entries(vi.by_reason) as Array<[VoteReason, number]>;
  return html`<section class="vote-integrity" aria-labelledby="vi-h"><h2 id="vi-h">Vote integrity</h2>
  ${
    p.votes
      ? html`<p><span class="stat">${fmtNum(vi.counted)}</span> <span class="muted">counted of ${plural(p.votes, 'vote')}</span></p>
  ${
    vi.discounted
      ? html`<p class="meta">${plural(vi.discounted, 'vote')} counted less:</p><ul class="meta">${reasons.map(([r, n]) => html`<li>${fmtNum(n)} — ${VOTE_REASON_TEXT[r] ?? r}</li>`)}</ul>`
      : html`<p class="meta">Every vote counts in full.</p>`
  }`
      : html`<p class="muted">No votes yet.</p>`
  }
  <p class="meta"><a href="/how-ranking-works">How votes are counted</a></p></section>`;
}

// ------------------------------------------------------------------ alternatives

/** How many alternatives the listing page shows (the alternatives page shows all get_alternatives gives). */
const ALTERNATIVES_SHOWN = 5;

/** A row of an alternatives list: the maker's own picks are marked, and each offers a comparison with the listing. */
function alternativeRow(of: { slug: string; name: string }): (s: Alternatives['items'][number]) => RowOptions {
  return (s) => ({
    tag: s.approved
      ? html`<span class="tag-ok" title="${of.name}'s maker names it as an alternative">Approved by the maker</span>`
      : null,
    metric: html`<a href="${withQuery('/compare', { a: of.slug, b: s.slug })}">Compare with ${of.name}</a>`,
  });
}

async function alternativesPage(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  slug: string,
): Promise<FastifyReply> {
  if (!isSlug(slug)) return sendNotFoundPage(deps, req, reply);
  const r = await read(deps, req, getAlternatives, { params: { slug } });
  const l = r.listing;
  const v = await viewerFor(
    deps,
    req,
    reply,
    r.items.map((a) => a.slug),
  );
  const approved = r.items.filter((a) => a.approved).length;
  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/">Home</a> › <a href="/listings/${l.slug}">${l.name}</a> › <span aria-current="page">Alternatives</span></nav>
<h1>Alternatives to ${l.name}</h1>
<p class="lede">${approved ? html`${plural(approved, 'product')} named by ${l.name}'s maker ${approved === 1 ? 'comes' : 'come'} first, then the` : 'The'} most voted live products in ${l.primary_category ? html`<a href="/categories/${l.primary_category.slug}">${l.primary_category.name}</a>` : 'its category'}.</p>
${listingList(v, r.items, { heading: 'h2', rows: alternativeRow(l), empty: html`No alternatives yet. <a href="/categories">Browse the categories</a>.` })}
<p><a href="/compare?a=${l.slug}">Compare ${l.name} with another product</a> · <a href="/listings/${l.slug}">Back to ${l.name}</a></p>`;
  return send(
    deps,
    reply,
    v,
    {
      title: `Alternatives to ${l.name}`,
      description: `Products like ${l.name} on Launchlist: alternatives its maker names, and the most voted in its category.`,
      path: `/listings/${l.slug}/alternatives`,
    },
    body,
  );
}

async function badgesPage(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  slug: string,
): Promise<FastifyReply> {
  if (!isSlug(slug)) return sendNotFoundPage(deps, req, reply);
  const style = { shape: qs(req, 'shape'), mode: qs(req, 'mode'), size: qs(req, 'size') };
  const b = await read(deps, req, getBadges, { params: { slug }, query: style });
  const web = await getWebContext(deps, req, reply);
  const listing = b.listing;
  const choice = (name: string, values: readonly string[], current: string, label: string) =>
    selectField(
      `b-${name}`,
      name,
      label,
      values.map((x) => [x, x] as const),
      current,
    );
  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/">Home</a> › ${pageLink(listing)} › <span aria-current="page">Badges</span></nav>
<h1>Badges for ${listing.name}</h1>
<p class="lede">Paste a badge on your website to show you are on Launchlist. Each badge links to ${listing.status === 'live' ? 'your listing' : 'your listing page'}.${listing.status === 'awaiting_badge' ? ' Free listings go live once a badge is on their homepage.' : ''}</p>
<form method="get" action="/listings/${listing.slug}/badges" class="filters">
${choice('shape', b.shapes, b.style.shape, 'Shape')}${choice('mode', b.modes, b.style.mode, 'Colours')}${choice('size', b.sizes, b.style.size, 'Size')}
<div><button type="submit" class="secondary">Show</button></div></form>
${b.badges.map(
  (x) => html`<section class="card" aria-labelledby="badge-${x.key}">
<h2 id="badge-${x.key}">${x.name}</h2><p class="meta">${x.description}</p>
<p><img src="${x.svg_url}" alt="${x.alt}" width="${x.width}" height="${x.height}"></p>
<label for="html-${x.key}">HTML</label><textarea id="html-${x.key}" class="snippet" readonly>${x.html}</textarea>
<label for="md-${x.key}">Markdown</label><textarea id="md-${x.key}" class="snippet" readonly rows="2">${x.markdown}</textarea>
</section>`,
)}
<p class="meta">The same code is available to scripts from <a href="/api/v1/listings/${listing.slug}/badges">the badges API</a>.</p>`;
  return send(
    deps,
    reply,
    web,
    {
      title: `Badges for ${listing.name}`,
      description: `Embeddable Launchlist badges for ${listing.name}.`,
      path: `/listings/${listing.slug}/badges`,
      noindex: listing.status !== 'live',
    },
    body,
  );
}

// ------------------------------------------------------------------ compare

const SIDES: Array<['a' | 'b', string]> = [
  ['a', 'First product'],
  ['b', 'Second product'],
];

const NOT_STATED = html`<span class="muted">Not stated</span>`;

/** A compared fact as text: country codes and stages by their names, the rest as the listing page shows facts. */
function compareValue(key: string, v: z.output<typeof FactValue> | null): SafeHtml | string {
  if (v === null) return NOT_STATED;
  if (key === 'country') return countryName(String(v));
  if (key === 'stage') return stageName(v);
  return factValue(v);
}

/**
 * The form of /compare: two listing slugs. `error` is compare_listings' 400 (an unknown or non-live
 * slug, or one that is not a slug), shown above the form with the field it names marked.
 */
function compareForm(q: { a: string; b: string }, error: ApiError | null, suggest: Alternatives['items']): SafeHtml {
  const named = new Set((error?.details ?? []).map((d) => d.path.replace(/^query\./, '')));
  const invalid = (side: string) =>
    named.has(side) ? raw(' aria-invalid="true" aria-describedby="compare-error"') : '';
  return html`${
    error
      ? html`<div class="field-error" role="alert" id="compare-error"><p>These cannot be compared:</p>
<ul>${(error.details?.length ? error.details : [{ path: '', message: error.message }]).map((d) => html`<li>${SIDES.find(([k]) => `query.${k}` === d.path)?.[1] ?? 'Request'}: ${d.message}</li>`)}</ul></div>`
      : ''
  }
<form method="get" action="/compare" class="filters">
${SIDES.map(([k, label]) => html`<div><label for="compare-${k}">${label}</label><input type="text" id="compare-${k}" name="${k}" value="${q[k]}" maxlength="220" autocapitalize="none" spellcheck="false"${invalid(k)}></div>`)}
<div><button type="submit">Compare</button></div>
</form>
<p class="hint">Each product is named as in the address of its page: for <code>/listings/acme</code>, type <code>acme</code>.</p>
${suggest.length ? html`<h2>Compare with an alternative</h2><ul>${suggest.map((s) => html`<li><a href="${withQuery('/compare', { a: q.a, b: s.slug })}">${s.name}</a>${s.tagline ? html` <span class="muted">— ${s.tagline}</span>` : ''}</li>`)}</ul>` : ''}`;
}

async function comparePage(deps: AppDeps, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const q = { a: (qs(req, 'a') ?? '').trim(), b: (qs(req, 'b') ?? '').trim() };
  let r: ResultOf<typeof compareListings> | null = null;
  let error: ApiError | null = null;
  if (q.a && q.b) {
    try {
      r = await read(deps, req, compareListings, { query: q });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 400) throw e;
      error = e;
    }
  }
  const v = await viewerFor(deps, req, reply);
  if (!r) {
    // One product chosen (the listing page's "Compare with…"): offer its alternatives as the other.
    const suggest =
      q.a && !q.b && isSlug(q.a)
        ? await read(deps, req, getAlternatives, { params: { slug: q.a } }).then(
            (x) => x.items,
            (e) => {
              if (e instanceof ApiError) return []; // not a live listing: the form alone
              throw e;
            },
          )
        : [];
    const body = html`<h1>Compare products</h1>
<p class="lede">Two products side by side: pricing, stage, where they are based and the facts their categories compare.</p>
${compareForm(q, error, suggest)}`;
    return send(
      deps,
      reply,
      v,
      {
        title: 'Compare products',
        description: 'Compare two products on Launchlist side by side.',
        path: '/compare',
        noindex: true,
      },
      body,
      error ? 400 : 200,
    );
  }
  const { a, b, attributes: rows } = r;
  type Side = typeof a;
  const head = (s: Side) => html`<th scope="col">${logo(s)} <a href="/listings/${s.slug}">${s.name}</a></th>`;
  const line = (label: string, x: SafeHtml | string, y: SafeHtml | string) =>
    html`<tr><th scope="row">${label}</th><td>${x}</td><td>${y}</td></tr>`;
  const category = (s: Side) =>
    s.primary_category
      ? html`<a href="/categories/${s.primary_category.slug}">${s.primary_category.name}</a>`
      : NOT_STATED;
  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/compare">Compare</a> › <span aria-current="page">${a.name} and ${b.name}</span></nav>
<h1>${a.name} vs ${b.name}</h1>
<p class="lede">Side by side, as each product states it. “Not stated” means that product does not say.</p>
<table class="compare">
<caption class="sr-only">${a.name} and ${b.name} compared</caption>
<thead><tr><th scope="col">Fact</th>${head(a)}${head(b)}</tr></thead>
<tbody>
${line('Tagline', a.tagline ?? NOT_STATED, b.tagline ?? NOT_STATED)}
${line('Category', category(a), category(b))}
${line('Votes', fmtNum(a.votes), fmtNum(b.votes))}
${line('Launched', fmtDate(a.launched_at), fmtDate(b.launched_at))}
${rows.map((c) => line(c.label, compareValue(c.key, c.a), compareValue(c.key, c.b)))}
</tbody>
</table>
<p><a href="${withQuery('/compare', { a: b.slug, b: a.slug })}">Swap the columns</a></p>
<h2>Compare other products</h2>
${compareForm(q, null, [])}`;
  return send(
    deps,
    reply,
    v,
    {
      title: `${a.name} vs ${b.name}`,
      description: `${a.name} and ${b.name} compared side by side on Launchlist.`,
      path: withQuery('/compare', { a: a.slug, b: b.slug }),
    },
    body,
  );
}

// ------------------------------------------------------------------ votes and follows

function formOf(req: FastifyRequest): Record<string, string> {
  const b = req.body;
  const out: Record<string, string> = {};
  if (!b || typeof b !== 'object') return out;
  for (const [k, v] of Object.entries(b as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
    else if (Array.isArray(v) && typeof v[0] === 'string') out[k] = v[0];
  }
  return out;
}

async function reactRoute(
  deps: AppDeps,
  kind: Reaction,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { slug } = req.params as { slug: string };
  const f = formOf(req);
  const back = safeBack(f.next, `/listings/${slug}`);
  const web = await getWebContext(deps, req, reply);
  // Signed out: nothing changes; the person signs in first and comes back to the page.
  if (!web.user) return reply.redirect(withQuery('/sign-in', { next: back }), 303);
  if (!(await checkCsrf(deps, req, reply))) return reply;
  if (!isSlug(slug)) return sendNotFoundPage(deps, req, reply);
  const action: ReactionAction = f.action === 'add' || f.action === 'remove' ? f.action : 'toggle';
  // Votes make the rankings and the awards: a vote counts from an account whose email is confirmed,
  // so that a vote costs more than a made-up address. Taking a vote back is always allowed.
  if (kind === 'vote' && action !== 'remove' && !web.user.email_verified) {
    return sendErrorPage(
      deps,
      req,
      reply,
      403,
      'Confirm your email to vote',
      html`<h1>Confirm your email to vote</h1>
<p>Votes decide the weekly rankings and the awards, so they count from accounts with a confirmed email address. We sent a link to ${web.user.email} when you signed up.</p>
<form method="post" action="/account/verify-email">${csrfField(web.csrf)}<button type="submit">Send a new confirmation link</button></form>
<p><a href="${back}">Back</a></p>`,
    );
  }
  // A vote keeps its context (keyed hashes, never the address) and is weighed by the configured rules.
  const now = new Date();
  const r = await react(deps.store.db, deps.store.engine, kind, slug, web.user.id, action, {
    now,
    ...(kind === 'vote'
      ? {
          vote: voteContextOf(voteKey(deps.services), web.user, req, f.t, now),
          weights: voteWeightsOf(deps.config),
        }
      : {}),
  });
  if (r.status === 'not_found') return sendNotFoundPage(deps, req, reply);
  if (r.status === 'not_live') {
    const what = kind === 'vote' ? 'voted for' : 'followed';
    return sendErrorPage(
      deps,
      req,
      reply,
      409,
      `${r.name} cannot be ${what} yet`,
      html`<h1>${r.name} is not live yet</h1>
<p>Only live listings can be ${what}. ${r.listingStatus === 'scheduled' || r.listingStatus === 'awaiting_badge' ? 'This one is waiting for its launch week; come back when it launches.' : 'This one is not published.'}</p>
<p><a href="/launches">See this week's launches</a>.</p>`,
    );
  }
  return reply.redirect(back, 303);
}

export function registerListingPages(app: FastifyInstance, deps: AppDeps, shared: Shared): void {
  app.get(
    '/listings/:slug',
    shared((req, reply) => profilePage(deps, req, reply, (req.params as { slug: string }).slug)),
  );
  app.get(
    '/listings/:slug/alternatives',
    shared((req, reply) => alternativesPage(deps, req, reply, (req.params as { slug: string }).slug)),
  );
  app.get(
    '/compare',
    shared((req, reply) => comparePage(deps, req, reply)),
  );
  app.get('/listings/:slug/badges', async (req, reply) =>
    badgesPage(deps, req, reply, (req.params as { slug: string }).slug),
  );
  app.post('/listings/:slug/vote', async (req, reply) => reactRoute(deps, 'vote', req, reply));
  app.post('/listings/:slug/follow', async (req, reply) => reactRoute(deps, 'follow', req, reply));
}
