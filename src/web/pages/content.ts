// Founders, the blog, and the latest updates makers post about their products.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { getFounder, listFounders } from '../../operations/founders.ts';
import { getBlogPost, listBlogPosts } from '../../operations/blog.ts';
import { Page, offsetOf, paged } from '../../operations/schemas.ts';
import { checkIntegerText, parseOrThrow } from '../../operations/validation.ts';
import { latestUpdates } from '../../store/repos/listings.ts';
import { html } from '../layout.ts';
import { sendNotFoundPage } from './errors.ts';
import { renderMarkdown } from './markdown.ts';
import { countryName } from './listing.ts';
import {
  fmtDate,
  listingList,
  logo,
  pager,
  paragraphs,
  plural,
  qs,
  read,
  searchForm,
  send,
  socialsList,
  updateCard,
  viewerFor,
  type Shared,
  withQuery,
} from './shared.ts';
import { STORY_SECTIONS, isSlug } from '../../domain/vocabulary.ts';
import { TRENDING_FORMULA } from '../../domain/ranking.ts';
import { voteWeightRules } from '../../domain/vote-weight.ts';
import { voteWeightsOf } from '../../services/vote-context.ts';

// ------------------------------------------------------------------ founders

async function founders(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const q = (qs(req, 'q') ?? '').trim();
  const country = qs(req, 'country');
  const r = await read(deps, req, listFounders, {
    query: { q, country, page: qs(req, 'page'), per_page: 24 },
  });
  const v = await viewerFor(deps, req, reply);
  const body = html`
<h1>Founders</h1>
<p class="lede">The people behind the products on Launchlist.</p>
${searchForm(q, { action: '/founders', label: 'Search founders by name', id: 'founder-q' })}
<p role="status">${plural(r.total, 'founder')}${q ? html` named like “${q}”` : ''}${country ? html` in ${countryName(country)}` : ''}.</p>
<ul class="grid">${r.items.map(
    (f) => html`<li>
<div class="item" style="border:none;padding:0">${logo({ name: f.name, logo_url: f.avatar_url })}<div class="body"><h2><a href="/founders/${f.slug}">${f.name}</a></h2>
<p class="meta">${[f.title, countryName(f.country)].filter(Boolean).join(' · ')}</p></div></div>
${f.bio_excerpt ? html`<p>${f.bio_excerpt}</p>` : ''}
${f.companies.length ? html`<p class="meta">${f.companies.map((c, i) => html`${i ? ', ' : ''}<a href="/listings/${c.slug}">${c.name}</a>`)}</p>` : ''}
</li>`,
  )}</ul>
${pager(r, (page) => withQuery('/founders', { q, country, page }))}`;
  return send(
    deps,
    reply,
    v,
    {
      title: q ? `Founders: ${q}` : 'Founders',
      description: 'The founders behind the products launched on Launchlist.',
      path: '/founders',
      current: '/founders',
      noindex: Boolean(q || country) || r.page > 1,
    },
    body,
  );
}

async function founder(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const { slug } = req.params as { slug: string };
  if (!isSlug(slug)) return sendNotFoundPage(deps, req, reply);
  const f = await read(deps, req, getFounder, { params: { slug } });
  const companies = f.companies;
  const v = await viewerFor(
    deps,
    req,
    reply,
    companies.map((c) => c.slug),
  );
  const stories = f.stories;
  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/founders">Founders</a> › <span aria-current="page">${f.name}</span></nav>
<div class="profile-head">${logo({ name: f.name, logo_url: f.avatar_url }, true)}<div class="title">
<h1>${f.name}</h1>
<p class="lede">${[f.title, countryName(f.country)].filter(Boolean).join(' · ')}</p>
${socialsList(f.socials)}
</div></div>
${f.bio ? html`<h2>About</h2>${paragraphs(f.bio)}` : ''}
<h2>Products</h2>
${listingList(v, companies, { rows: (c) => ({ metric: c.role ? `${f.name}: ${c.role}` : null }) })}
<p><a href="/founders/${f.slug}/trophies">${f.name}'s trophy cabinet</a>: the awards and trophies of these products.</p>
${stories.map(
  (s) => html`<section class="card" aria-labelledby="story-${s.listing.slug}">
<h2 id="story-${s.listing.slug}">${s.title || html`The story of ${s.listing.name}`}</h2>
<p class="meta">Founder story of <a href="/listings/${s.listing.slug}">${s.listing.name}</a>, updated ${fmtDate(s.updated_at)}</p>
${STORY_SECTIONS.filter(([k]) => s[k]).map(([k, label]) => html`<h3>${label}</h3>${paragraphs(s[k])}`)}
</section>`,
)}`;
  return send(
    deps,
    reply,
    v,
    {
      title: f.title ? `${f.name}, ${f.title}` : f.name,
      description: f.bio ? f.bio.slice(0, 160) : `${f.name} on Launchlist.`,
      path: `/founders/${f.slug}`,
      current: '/founders',
    },
    body,
  );
}

// ------------------------------------------------------------------ blog

async function blog(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const q = (qs(req, 'q') ?? '').trim();
  const r = await read(deps, req, listBlogPosts, {
    query: { q, page: qs(req, 'page'), per_page: 20 },
  });
  const v = await viewerFor(deps, req, reply);
  const body = html`
<h1>Blog</h1>
<p class="lede">Guides for makers, and how Launchlist works.</p>
${searchForm(q, { action: '/blog', label: 'Search the blog', id: 'blog-q' })}
${q ? html`<p role="status">${plural(r.total, 'post')} about “${q}”.</p>` : ''}
${
  r.items.length
    ? html`<ul class="items">${r.items.map(
        (p) => html`<li class="item"><div class="body">
<h2><a href="/blog/${p.slug}">${p.title}</a></h2>
<p>${p.excerpt}</p>
<p class="meta">${p.author} · <time datetime="${p.published_at}">${fmtDate(p.published_at)}</time> · ${p.reading_minutes} min read</p>
</div></li>`,
      )}</ul>`
    : html`<p class="muted">No posts${q ? ' match' : ' yet'}.</p>`
}
${pager(r, (page) => withQuery('/blog', { q, page }))}`;
  return send(
    deps,
    reply,
    v,
    {
      title: 'Blog',
      description: 'Guides for makers launching on Launchlist.',
      path: '/blog',
      current: '/blog',
      noindex: Boolean(q) || r.page > 1,
    },
    body,
  );
}

async function post(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const { slug } = req.params as { slug: string };
  if (!isSlug(slug)) return sendNotFoundPage(deps, req, reply);
  const p = await read(deps, req, getBlogPost, { params: { slug } });
  const v = await viewerFor(deps, req, reply);
  const faqs = p.faqs;
  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/blog">Blog</a> › <span aria-current="page">${p.title}</span></nav>
<article class="article" aria-labelledby="post-title">
<h1 id="post-title">${p.title}</h1>
<p class="meta">${p.author} · <time datetime="${p.published_at}">${fmtDate(p.published_at)}</time> · ${p.reading_minutes} min read${p.tags.length ? html` · ${p.tags.join(', ')}` : ''}</p>
${renderMarkdown(p.body_markdown, { topLevel: 2, dropTitle: p.title })}
${faqs.length ? html`<section aria-labelledby="faq-h"><h2 id="faq-h">Questions</h2><dl class="faq">${faqs.map((f) => html`<dt>${f.question}</dt><dd>${f.answer}</dd>`)}</dl></section>` : ''}
<p><a href="/blog">← All posts</a></p>
</article>`;
  return send(
    deps,
    reply,
    v,
    { title: p.title, description: p.excerpt, path: `/blog/${p.slug}`, current: '/blog' },
    body,
  );
}

// ------------------------------------------------------------------ latest updates

const UPDATES_PER_PAGE = 30;
const PageQuery = z.object({ page: Page });

/** The page of /updates: no operation reads this feed, so its `page` is checked as the API checks one (400 when it is not 1 to 1000). */
function updatesPageOf(req: FastifyRequest): number {
  const query = { page: qs(req, 'page') || undefined }; // an empty page= is the first, as on the other pages
  checkIntegerText(PageQuery, query, 'query');
  return parseOrThrow(PageQuery, query, 'query').page;
}

async function updates(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const at = { page: updatesPageOf(req), per_page: UPDATES_PER_PAGE };
  const found = await latestUpdates(deps.store.db, at.per_page, offsetOf(at));
  const r = paged(found.items, found.total, at);
  const v = await viewerFor(deps, req, reply);
  const body = html`
<h1>Latest updates</h1>
<p class="lede">News from the makers of the products on Launchlist, newest first. Follow a product to have its updates mailed to you.</p>
${r.items.length ? r.items.map((u) => updateCard(u, { heading: 'h2', about: html`<a href="/listings/${u.listing.slug}">${u.listing.name}</a>` })) : html`<p class="muted">No updates${r.page > 1 ? ' on this page' : ' yet'}.</p>`}
${pager(r, (page) => withQuery('/updates', { page }))}`;
  return send(
    deps,
    reply,
    v,
    {
      title: 'Latest updates',
      description: 'The latest news from the makers of products on Launchlist, newest first.',
      path: '/updates',
      current: '/updates',
      noindex: r.page > 1,
    },
    body,
  );
}

// ------------------------------------------------------------------ how ranking works

/** The public page of the ranking formula and the vote weight rules, with this server's settings. */
async function howRankingWorks(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const c = deps.config;
  const v = await viewerFor(deps, req, reply);
  const rules = voteWeightRules(voteWeightsOf(c));
  const body = html`
<h1>How ranking works</h1>
<p class="lede">Launchlist's community rankings and Launch of the Week awards follow votes from people on this website, and nothing else. Here is exactly how a vote counts.</p>
<h2>Who can vote</h2>
<p>Anyone signed in with a confirmed email address, once per listing, on the website only: there is no voting through the API.</p>
<h2>What a vote weighs</h2>
<ol>${rules.map((r) => html`<li>${r}</li>`)}</ol>
<p>Each vote records the context it was cast in: the account's age and whether its email address was confirmed, how long after the page was served the vote came, and keyed hashes of the voter's network (the /24 of an IPv4 address, the /48 of an IPv6 one) and browser. We never store the address itself, and the hashes cannot be turned back into one.</p>
<h2>The rankings</h2>
<ul>
<li><strong>Launches of a week</strong> and the <strong>weekly board</strong>: the sum of the weights of the votes cast during the week (Monday 00:00 to the next Monday 00:00 UTC); ties go to the earlier launch, then the older listing. <strong>Launch of the Week</strong> #1–#3 are the top three when the week ends.</li>
<li><strong>All-time board</strong> and <strong>most voted</strong>: the sum of the weights of all a listing's votes.</li>
<li><strong>Trending</strong>: ${TRENDING_FORMULA}.</li>
</ul>
<h2>Detection and review</h2>
<p>Every ${plural(c.VOTE_SCAN_MINUTES, 'minute')} a job looks for <strong>bursts</strong> (${c.VOTE_BURST_ACCOUNTS} or more accounts younger than ${plural(c.VOTE_NEW_ACCOUNT_HOURS, 'hour')} voting from one network within ${plural(c.VOTE_BURST_WINDOW_MINUTES, 'minute')}) and <strong>rings</strong> (${c.VOTE_RING_ACCOUNTS} or more accounts that all voted for the same ${c.VOTE_RING_LISTINGS} or more listings within ${plural(c.VOTE_RING_WINDOW_DAYS, 'day')}). What it finds waits for the site team; their decision (discount or restore) is logged with who made it and when.</p>
<h2>Fair first hours</h2>
<p>${
    c.FAIR_START_HOURS > 0
      ? html`For the first ${plural(c.FAIR_START_HOURS, 'hour')} of each launch week (from Monday 00:00 UTC) the week's launches are shown in an order shuffled for each visitor, and their vote counts are hidden, so that an early lead draws no more attention than any other launch. The API lists them by name, with no ranks or counts, until the hours end.`
      : 'Fair first hours are turned off on this server: launches are ranked from the start of the week.'
  }</p>
<h2>What money does not buy</h2>
<p>Paying for a plan, a placement or the billboard never changes a vote, a weight or a community rank. The billboard is a separate, clearly labelled paid ranking.</p>
<h2>On every listing</h2>
<p>Each listing page (and <code>get_listing</code> in the API, as <code>vote_integrity</code>) shows how many of its votes counted in full, how many counted less, and why, by category.</p>`;
  return send(
    deps,
    reply,
    v,
    {
      title: 'How ranking works',
      description: 'The Launchlist ranking formula and vote weight rules, published in full.',
      path: '/how-ranking-works',
    },
    body,
  );
}

export function registerContentPages(app: FastifyInstance, deps: AppDeps, shared: Shared): void {
  app.get(
    '/how-ranking-works',
    shared((req, reply) => howRankingWorks(deps, req, reply)),
  );
  app.get(
    '/updates',
    shared((req, reply) => updates(deps, req, reply)),
  );
  app.get(
    '/founders',
    shared((req, reply) => founders(deps, req, reply)),
  );
  app.get(
    '/founders/:slug',
    shared((req, reply) => founder(deps, req, reply)),
  );
  app.get(
    '/blog',
    shared((req, reply) => blog(deps, req, reply)),
  );
  app.get(
    '/blog/:slug',
    shared((req, reply) => post(deps, req, reply)),
  );
}
