// Browsing pages: home, search, launches (sections and weeks), leaderboards, awards, categories.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import type { ResultOf } from '../../operations/define.ts';
import { getCategory, listCategories } from '../../operations/categories.ts';
import { getLaunchWeek, getLeaderboard, listAwards, listLaunches } from '../../operations/launches.ts';
import { searchListings } from '../../operations/listings.ts';
import { BOARDS } from '../../store/repos/launches.ts';
import { weekStamps } from '../../store/week-stamps.ts';
import type { SharedOptions } from '../page-cache.ts';
import { addWeeks, mondayOf, WEEK_MS, weekInfo } from '../../domain/weeks.ts';
import { featuredNow } from '../../store/repos/featured.ts';
import { countries } from '../../domain/countries.ts';
import { PRICING_MODELS } from '../../drafting/extract/types.ts';
import { STAGES } from './listing.ts';
import { html, raw, type SafeHtml } from '../layout.ts';
import { sendNotFoundPage } from './errors.ts';
import {
  entryOf,
  fmtDate,
  fmtNum,
  fmtRange,
  listingList,
  pager,
  plural,
  qs,
  read,
  readDerived,
  searchForm,
  selectField,
  send,
  viewerFor,
  withQuery,
  type Shared,
  type Viewer,
} from './shared.ts';
import { isSlug } from '../../domain/vocabulary.ts';
import { signedInText } from '../personal.ts';
import { getWebContext } from '../context.ts';
import { fairWindow, seededShuffle } from '../../domain/ranking.ts';
import { visitorSeed, voteKey } from '../../services/vote-context.ts';

const NOTICES: Record<string, string> = {
  'signed-out': 'You are signed out. See you soon.',
  'signed-in': 'You are signed in.',
};

const SECTION_LABELS: Array<[string, string]> = [
  ['today', 'Today'],
  ['this-week', 'This week'],
  ['trending', 'Trending'],
  ['most-voted', 'Most voted'],
  ['recent', 'Newest'],
  ['most-viewed', 'Most viewed'],
  ['most-followed', 'Most followed'],
  ['upcoming', 'Upcoming'],
];

const BOARD_TABS: Array<[string, string]> = [
  ['community-weekly', 'This week'],
  ['community-all-time', 'All time'],
  ['billboard', 'Billboard (paid)'],
  ['domain-rating', 'Domain Rating'],
  ['revenue', 'Revenue'],
];

function tabs(items: Array<[string, string]>, current: string, href: (key: string) => string, label: string): SafeHtml {
  return html`<nav aria-label="${label}"><ul class="tabs">${items.map(([k, text]) => html`<li><a href="${href(k)}"${k === current ? raw(' aria-current="page"') : ''}>${text}</a></li>`)}</ul></nav>`;
}

const pageNum = (req: FastifyRequest) => qs(req, 'page');

// ------------------------------------------------------------------ home

/** Listings with a running featured placement (the paid featured product), always labelled as paid. */
function featuredBlock(v: Viewer, items: Awaited<ReturnType<typeof featuredNow>>, id: string, where: string): SafeHtml {
  if (!items.length) return html``;
  return html`<section class="featured" aria-labelledby="${id}">
<h2 id="${id}">Featured <span class="tag-paid">Paid placement</span></h2>
<p class="meta">Makers paid to be shown here${where}. Rankings, votes and awards are not affected.</p>
${listingList(v, items, { compact: true, rows: () => ({ vote: false }) })}
</section>`;
}

/** At most this many featured listings at a time on the home page and on a category page. */
const FEATURED_HOME = 4;
const FEATURED_CATEGORY = 3;

/** " Sign in to vote." for people signed out. */
function signInHint(v: Viewer): SafeHtml | string {
  const hint = html` <a href="/sign-in">Sign in</a> to vote.`;
  if (v.slots) return v.slots.add(signedInText(hint, ''));
  return v.signedIn ? '' : hint;
}

async function home(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const now = new Date();
  const [week, trending, upcoming, featured] = await Promise.all([
    read(deps, req, listLaunches, { query: { section: 'this-week', per_page: 30 } }),
    // Shared by anonymous visitors for SHARED_CACHE_MS like every public read (it was a minute: a vote must
    // show to everyone within the bound).
    read(deps, req, listLaunches, { query: { section: 'trending', per_page: 5 } }),
    read(deps, req, listLaunches, { query: { section: 'upcoming', per_page: 5 } }),
    featuredNow(deps.store.db, now, { limit: FEATURED_HOME }),
  ]);
  const thisWeek = weekInfo(mondayOf(now), now);
  const v = await viewerFor(
    deps,
    req,
    reply,
    [...week.items, ...trending.items].map((s) => s.slug),
  );
  const fair = week.fair_start_until;
  // A result may be shared with other requests (the kernel's result cache): shuffled as a copy.
  const weekItems = fair ? seededShuffle(week.items, await seedOf(deps, req, reply, thisWeek.start)) : week.items;
  const notice = entryOf(NOTICES, qs(req, 'notice'));
  const body = html`
<h1>This week's launches</h1>
<p class="lede">New products launched ${fmtRange(thisWeek.start, thisWeek.end)}, ${fair ? 'in an order shuffled for you' : 'ranked by the votes people cast this week'}.${signInHint(v)}</p>
${fair ? fairNotice(fair) : ''}
${searchForm(qs(req, 'q') ?? '')}
<div class="cols">
<section aria-labelledby="week-h">
<h2 id="week-h" class="sr-only">Ranked launches of this week</h2>
${listingList(fair ? { ...v, hideCounts: true } : v, weekItems, {
  ranked: !fair,
  rows: (s) => ({
    rank: s.rank,
    metric: s.week_votes !== undefined && s.week_votes !== s.votes ? `${plural(s.week_votes, 'vote')} this week` : null,
  }),
  empty: html`No launches yet this week. See <a href="/launches/weeks/last">last week's launches</a>.`,
})}
${week.total > week.items.length ? html`<p><a href="/launches/weeks/this">All ${fmtNum(week.total)} launches of this week →</a></p>` : ''}
</section>
<aside aria-label="More launches">
${featuredBlock(v, featured, 'featured-h', ' for a few days')}
${
  fair
    ? '' // its order would show this week's leaders during the fair first hours
    : html`<h2 id="trending-h">Trending</h2>
${listingList(v, trending.items, { compact: true, rows: () => ({ vote: false }), empty: 'Nothing is trending yet.' })}
<p><a href="/launches?section=trending">More trending →</a></p>`
}
<h2 id="upcoming-h">Upcoming</h2>
${listingList(v, upcoming.items, { compact: true, rows: () => ({ vote: false }), empty: 'No launches are scheduled yet.' })}
<p><a href="/launches?section=upcoming">All upcoming launches →</a></p>
<h2>Explore</h2>
<ul><li><a href="/leaderboards/community-weekly">Leaderboards</a></li><li><a href="/awards">Launch of the Week awards</a></li><li><a href="/hall-of-fame">Hall of Fame</a></li><li><a href="/programmes">Programmes</a></li><li><a href="/categories">All categories</a></li><li><a href="/blog">Blog</a></li></ul>
</aside>
</div>`;
  return send(
    deps,
    reply,
    v,
    {
      title: 'New products, launched every week',
      description:
        'Launchlist is a launch directory and weekly launch calendar: discover new products, ranked by community votes.',
      path: '/',
      flash: notice ? { kind: 'success', text: notice } : null,
    },
    body,
  );
}

// ------------------------------------------------------------------ search

const SORTS: ReadonlyArray<readonly [string, string]> = Object.freeze([
  ['relevance', 'Best match'],
  ['votes', 'Most votes'],
  ['trending', 'Trending'],
  ['newest', 'Newest'],
  ['most_viewed', 'Most viewed'],
  ['most_followed', 'Most followed'],
] as const);
const STATUSES: ReadonlyArray<readonly [string, string]> = Object.freeze([
  ['live', 'Live'],
  ['upcoming', 'Upcoming'],
] as const);
// the search filters' fixed lists, made once (frozen: selectField keeps their markup)
const STAGE_OPTIONS = Object.freeze([['', 'Any stage'] as const, ...Object.entries(STAGES)]);
const PRICING_OPTIONS = Object.freeze([['', 'Any pricing'] as const, ...PRICING_MODELS.map((m) => [m, m] as const)]);
let countryOptions: ReadonlyArray<readonly [string, string]> | undefined; // Intl's names: on first use
const COUNTRY_OPTIONS = () =>
  (countryOptions ??= Object.freeze([
    ['', 'Any country'] as const,
    ...countries().map((c) => [c.code, c.name] as const),
  ]));

/**
 * The search filter's category options: any category, then each top-level category and its subcategories
 * under it. Frozen, and made once per shared read of the tree (readDerived), so selectField keeps its
 * markup too.
 */
function categoryOptions(r: ResultOf<typeof listCategories>): ReadonlyArray<readonly [string, string]> {
  return Object.freeze([
    Object.freeze(['', 'Any category'] as const),
    ...r.categories.flatMap((c) => [
      Object.freeze([c.slug, c.name] as const),
      ...c.subcategories.map((s) => Object.freeze([s.slug, `${c.name} › ${s.name}`] as const)),
    ]),
  ]);
}

async function search(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const q = (qs(req, 'q') ?? '').trim();
  // The filters go to search_listings as given: a value it refuses is its 400, shown as the site's error page.
  const f = {
    category: qs(req, 'category'),
    stage: qs(req, 'stage'),
    country: qs(req, 'country'),
    pricing_model: qs(req, 'pricing_model'),
    status: qs(req, 'status'),
    sort: qs(req, 'sort'),
  };
  const [result, categories] = await Promise.all([
    read(deps, req, searchListings, { query: { q, ...f, page: pageNum(req), per_page: 20 } }),
    // Its counts are kept until the directory's membership changes (store/membership.ts).
    readDerived(deps, req, listCategories, { query: {} }, categoryOptions),
  ]);
  const v = await viewerFor(
    deps,
    req,
    reply,
    result.items.map((s) => s.slug),
  );
  const categoryName = f.category ? categories.find(([slug]) => slug === f.category)?.[1] : undefined;
  const upcoming = f.status === 'upcoming';
  const filtered = Boolean(f.category || f.stage || f.country || f.pricing_model || upcoming);
  const n = result.total;
  const found = q
    ? html`${n === 1 ? 'matches' : 'match'} “${q}”`
    : html`${n === 1 ? 'is' : 'are'} ${upcoming ? 'upcoming' : 'live'}`;
  const where = categoryName ? html` in <a href="/categories/${f.category}">${categoryName}</a>` : '';
  const body = html`
<h1>${q ? html`Search results for “${q}”` : upcoming ? 'Upcoming products' : 'Browse products'}</h1>
<form class="filters" role="search" method="get" action="/search">
<div><label for="search-q">Search</label><input type="search" id="search-q" name="q" value="${q}" maxlength="200"></div>
${selectField('search-category', 'category', 'Category', categories, f.category)}
${selectField('search-stage', 'stage', 'Stage', STAGE_OPTIONS, f.stage)}
${selectField('search-country', 'country', 'Country', COUNTRY_OPTIONS(), f.country)}
${selectField('search-pricing', 'pricing_model', 'Pricing', PRICING_OPTIONS, f.pricing_model)}
${selectField('search-status', 'status', 'Status', STATUSES, f.status ?? 'live')}
${selectField('search-sort', 'sort', 'Sort by', SORTS, f.sort ?? 'relevance')}
<div><button type="submit">Search</button></div>
</form>
<p role="status">${n ? html`${plural(n, 'product')} ${found}${where}.` : html`No product matches${q ? html` “${q}”` : ''}${where}. Try other words${filtered ? html`, <a href="${withQuery('/search', { q })}">clear the filters</a>` : ''} or <a href="/categories">browse the categories</a>.`}</p>
${listingList(v, result.items, { heading: 'h2' })}
${pager(result, (page) => withQuery('/search', { q, ...f, page }))}`;
  return send(
    deps,
    reply,
    v,
    {
      title: q ? `Search: ${q}` : upcoming ? 'Upcoming products' : 'Browse products',
      description: q ? `Products matching “${q}” on Launchlist.` : 'Browse every live product on Launchlist.',
      path: '/search',
      noindex: Boolean(q) || filtered || result.page > 1,
    },
    body,
  );
}

// ------------------------------------------------------------------ launches

async function launches(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const section = qs(req, 'section') ?? 'this-week';
  const result = await read(deps, req, listLaunches, { query: { section, page: pageNum(req), per_page: 30 } });
  const v = await viewerFor(
    deps,
    req,
    reply,
    result.items.map((s) => s.slug),
  );
  // Fair first hours (this-week and today): shuffled for this visitor, counts hidden; not shared (routes).
  const fair = result.fair_start_until;
  const items = fair ? seededShuffle(result.items, await seedOf(deps, req, reply, mondayOf(new Date()))) : result.items;
  if (fair) v.hideCounts = true;
  const label = SECTION_LABELS.find(([k]) => k === result.section)?.[1] ?? result.section;
  const metric = (s: ResultOf<typeof listLaunches>['items'][number]): string | null => {
    switch (result.section) {
      case 'this-week':
        return s.week_votes !== undefined ? `${plural(s.week_votes, 'vote')} this week` : null;
      case 'most-viewed':
        return plural(s.views, 'view');
      case 'most-followed':
        return plural(s.followers, 'follower');
      default:
        return null;
    }
  };
  const body = html`
<h1>Launches</h1>
<p class="lede">Every week new products launch on Launchlist. Weeks run Monday to Sunday (UTC).</p>
${tabs(SECTION_LABELS, result.section, (k) => withQuery('/launches', { section: k === 'this-week' ? undefined : k }), 'Launch sections')}
<h2>${label}</h2>
${fair ? fairNotice(fair) : ''}
${listingList(v, items, { ranked: !fair && result.section !== 'recent' && result.section !== 'upcoming', rows: (s) => ({ rank: s.rank ?? null, metric: metric(s) }), empty: 'Nothing here yet.' })}
${pager(result, (page) => withQuery('/launches', { section: result.section === 'this-week' ? undefined : result.section, page }))}
<h2>Browse by week</h2>
<ul><li><a href="/launches/weeks/last">Last week</a></li><li><a href="/launches/weeks/this">This week</a></li><li><a href="/launches/weeks/next">Next week</a></li><li><a href="/awards">Launch of the Week awards</a></li></ul>`;
  return send(
    deps,
    reply,
    v,
    {
      title: `Launches: ${label}`,
      description: `${label} on Launchlist: new products, ranked by community votes.`,
      path: '/launches',
      current: '/launches',
      noindex: result.section !== 'this-week' || result.page > 1,
    },
    body,
  );
}

async function launchWeek(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const { week } = req.params as { week: string };
  const r = await read(deps, req, getLaunchWeek, { params: { week } });
  const w = r.week;
  const fair = r.fair_start_until;
  let items = r.launches.map((x) => ({ ...x.listing, rank: x.rank, week_votes: x.votes }));
  const v = await viewerFor(
    deps,
    req,
    reply,
    items.map((s) => s.slug),
  );
  if (fair) {
    // Fair first hours: this page is not shared (registerBrowsePages), so the order is this visitor's own.
    items = seededShuffle(items, await seedOf(deps, req, reply, w.start));
    v.hideCounts = true;
  }
  const heading = w.is_current ? "This week's launches" : w.is_future ? 'Launches scheduled' : 'Launches';
  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/launches">Launches</a> › <span aria-current="page">${w.iso_week}</span></nav>
<h1>${heading}: ${fmtRange(w.start, w.end)}</h1>
<p class="lede">Week ${w.iso_week}. ${w.is_future ? 'These products are scheduled to launch this week; voting opens when they go live.' : fair ? '' : 'Ranked by the votes people cast during this week.'}</p>
${fair ? fairNotice(fair) : ''}
<nav class="pager" aria-label="Weeks"><a href="/launches/weeks/${addWeeks(w.start, -1)}" rel="prev">← Week before</a><a href="/launches/weeks/this">This week</a><a href="/launches/weeks/${addWeeks(w.start, 1)}" rel="next">Week after →</a></nav>
${listingList(v, items, {
  ranked: !w.is_future && !fair,
  rows: (s) => ({ rank: s.rank, metric: s.week_votes === null ? null : `${plural(s.week_votes, 'vote')} that week` }),
  empty: w.is_future ? 'Nothing is scheduled for this week yet.' : 'No launches this week.',
})}
${r.truncated ? html`<p class="muted">Showing the top ${items.length} of ${fmtNum(r.total)} launches.</p>` : ''}`;
  return send(
    deps,
    reply,
    v,
    {
      title: `Launches of ${w.iso_week}`,
      description: `Products launched on Launchlist in ${w.iso_week} (${fmtRange(w.start, w.end)}), ranked by community votes.`,
      path: `/launches/weeks/${w.start}`,
    },
    body,
  );
}

// ------------------------------------------------------------------ leaderboards

/** What a board item is ranked by, in words (each board has its own metric). */
function boardMetric(m: ResultOf<typeof getLeaderboard>['items'][number]['metric']): SafeHtml | string {
  switch (m.name) {
    case 'amount_cents': // the billboard
      return html`<strong>${m.amount}</strong> contributed <span class="tag-paid">Paid</span>`;
    case 'domain_rating': {
      const arrow = m.trend === 'up' ? '↑' : m.trend === 'down' ? '↓' : m.trend === 'flat' ? '→' : '';
      return html`Domain Rating <strong>${m.value}</strong> ${arrow}${m.change ? html` (${m.change > 0 ? '+' : ''}${m.change})` : ''}`;
    }
    case 'monthly_revenue_cents':
      return html`<strong>${m.amount}</strong> a month${m.month ? html` (${m.month})` : ''}${m.verified ? ' · verified' : ''}`;
    case 'votes':
      return plural(m.value, 'vote');
  }
}

async function leaderboardPage(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const { board } = req.params as { board: string };
  if (!(BOARDS as readonly string[]).includes(board)) return sendNotFoundPage(deps, req, reply);
  const week = board === 'community-weekly' ? qs(req, 'week') : undefined;
  const r = await read(deps, req, getLeaderboard, {
    params: { board },
    query: { week, page: pageNum(req), per_page: 50 },
  });
  const info = r.board;
  const w = r.week;
  if (r.fair_start_until && w) return fairBoard(deps, req, reply, r.fair_start_until, w.start, info.name);
  const items = r.items.map((x) => ({ ...x.listing, rank: x.rank, metric: x.metric }));
  const v = await viewerFor(
    deps,
    req,
    reply,
    items.map((s) => s.slug),
  );
  const community = board.startsWith('community');
  const body = html`
<h1>${info.paid ? html`${info.name}: a paid ranking` : html`Leaderboard: ${info.name}`}</h1>
${tabs(BOARD_TABS, board, (k) => `/leaderboards/${k}`, 'Leaderboards')}
${info.paid ? html`<p class="paid-notice" role="note"><strong>This is a PAID ranking.</strong> ${info.notice ?? ''} ${info.description} Community votes and Launch of the Week awards are not affected by it.</p>` : html`<p class="lede">${info.description}</p>`}
${
  w
    ? html`<p>Week ${w.iso_week}: ${fmtRange(w.start, w.end)}.</p>
<nav class="pager" aria-label="Weeks"><a href="${withQuery(`/leaderboards/${board}`, { week: addWeeks(w.start, -1) })}" rel="prev">← Week before</a>${w.is_current ? '' : html`<a href="/leaderboards/${board}">This week</a><a href="${withQuery(`/leaderboards/${board}`, { week: addWeeks(w.start, 1) })}" rel="next">Week after →</a>`}</nav>`
    : ''
}
${board === 'domain-rating' ? html`<p class="note">Domain Rating is a third-party SEO metric of a website's backlinks (0–100). It is not a community ranking.</p>` : ''}
${listingList(v, items, {
  ranked: true,
  rows: (s) => ({ rank: s.rank, metric: boardMetric(s.metric), vote: community }),
  empty: info.paid ? 'No one has contributed to the billboard yet.' : 'Nothing is ranked here yet.',
})}
${pager(r, (page) => withQuery(`/leaderboards/${board}`, { week, page }))}
<p class="meta">Other rankings: community votes decide the weekly and all-time boards and the <a href="/awards">Launch of the Week awards</a> (see the <a href="/trophies">trophy leaderboard</a> and the <a href="/hall-of-fame">Hall of Fame</a>; <a href="/how-ranking-works">how votes are counted</a>); the billboard is paid; Domain Rating is a third-party metric.</p>`;
  return send(
    deps,
    reply,
    v,
    {
      title: info.paid ? `${info.name} (paid ranking)` : `${info.name} leaderboard`,
      description: info.paid
        ? `The Launchlist billboard is a PAID ranking by money contributed. ${info.description}`
        : info.description,
      path: `/leaderboards/${board}`,
      current: '/leaderboards/community-weekly',
    },
    body,
  );
}

// ------------------------------------------------------------------ awards

async function awards(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const r = await read(deps, req, listAwards, { query: { page: pageNum(req), per_page: 30 } });
  const v = await viewerFor(deps, req, reply);
  const weeks = new Map<string, typeof r.items>();
  for (const a of r.items) weeks.set(a.week, [...(weeks.get(a.week) ?? []), a]);
  const body = html`
<h1>Launch of the Week awards</h1>
<p class="lede">When a launch week ends, its three most-voted launches win Launch of the Week #1, #2 and #3. Awards follow community votes only: money plays no part.</p>
<p>Every award is signed when its week ends: follow “Verify” to check it. See also the <a href="/hall-of-fame">Hall of Fame</a>, the <a href="/trophies">trophy leaderboard</a> and the <a href="/programmes">programmes</a>.</p>
${
  weeks.size
    ? [...weeks].map(
        ([week, list]) => html`<section class="card" aria-labelledby="w-${week}">
<h2 id="w-${week}"><a href="/launches/weeks/${week}">${list[0].iso_week}</a> <span class="meta">${fmtRange(week, list[0].week_end)}</span></h2>
<ol class="items compact">${list.map((a) => html`<li class="item"><span class="rank">🏆 #${a.rank}</span><div class="body"><h3><a href="/listings/${a.listing.slug}">${a.listing.name}</a></h3><p class="meta">${a.title} · ${plural(a.votes, 'vote')} that week · <a href="/awards/${a.week}/${a.rank}">Verify</a></p></div></li>`)}</ol>
</section>`,
      )
    : html`<p class="muted">No awards yet: the first are decided when the first launch week ends.</p>`
}
${pager(r, (page) => withQuery('/awards', { page }))}`;
  return send(
    deps,
    reply,
    v,
    {
      title: 'Launch of the Week awards',
      description: 'Launch of the Week #1, #2 and #3 of every week on Launchlist, decided by community votes.',
      path: '/awards',
    },
    body,
  );
}

// ------------------------------------------------------------------ categories

async function categories(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const r = await read(deps, req, listCategories, { query: {} });
  const v = await viewerFor(deps, req, reply);
  const body = html`
<h1>Categories</h1>
<p class="lede">${plural(r.total_categories, 'category', 'categories')} of products. Counts are live products.</p>
<ul class="grid">${r.categories.map(
    (c) => html`<li>
<h2><a href="/categories/${c.slug}">${c.name}</a> <span class="meta">(${fmtNum(c.live_listings)})</span></h2>
<p class="meta">${c.description}</p>
${c.subcategories.length ? html`<ul class="chips">${c.subcategories.map((s) => html`<li><a href="/categories/${s.slug}">${s.name} <span class="muted">${fmtNum(s.live_listings)}</span></a></li>`)}</ul>` : ''}
</li>`,
  )}</ul>`;
  return send(
    deps,
    reply,
    v,
    {
      title: 'Categories',
      description: 'Browse Launchlist products by category.',
      path: '/categories',
      current: '/categories',
    },
    body,
  );
}

async function category(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const { slug } = req.params as { slug: string };
  if (!isSlug(slug)) return sendNotFoundPage(deps, req, reply);
  const c = await read(deps, req, getCategory, {
    params: { slug },
    query: { page: pageNum(req), per_page: 30 },
  });
  const featured =
    c.page === 1 ? await featuredNow(deps.store.db, new Date(), { limit: FEATURED_CATEGORY, category: c.slug }) : [];
  const v = await viewerFor(
    deps,
    req,
    reply,
    c.items.map((s) => s.slug),
  );
  const offset = (c.page - 1) * c.per_page;
  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/categories">Categories</a> › ${c.parent ? html`<a href="/categories/${c.parent.slug}">${c.parent.name}</a> › ` : ''}<span aria-current="page">${c.name}</span></nav>
<h1>${c.name}</h1>
<p class="lede">${c.description}</p>
${c.subcategories.length ? html`<h2 class="sr-only">Subcategories</h2><ul class="chips">${c.subcategories.map((s) => html`<li><a href="/categories/${s.slug}">${s.name} <span class="muted">${fmtNum(s.live_listings)}</span></a></li>`)}</ul>` : ''}
${searchForm('', { action: '/search', label: `Search all products`, id: 'cat-q' })}
${featuredBlock(v, featured, 'featured-h', ` in ${c.name}`)}
<h2>${plural(c.total, 'live product')}, most voted first</h2>
${listingList(v, c.items, { ranked: true, rows: (_s, i) => ({ rank: offset + i + 1 }), empty: 'No live products in this category yet.' })}
${pager(c, (page) => withQuery(`/categories/${c.slug}`, { page }))}
${c.faqs.length ? html`<h2>Questions about ${c.name}</h2><dl class="faq">${c.faqs.map((f) => html`<dt>${f.question}</dt><dd>${f.answer}</dd>`)}</dl>` : ''}`;
  return send(
    deps,
    reply,
    v,
    {
      title: `${c.name}: best products`,
      description: c.description || `${c.name} products on Launchlist, most voted first.`,
      path: `/categories/${c.slug}`,
      current: '/categories',
    },
    body,
  );
}

// ------------------------------------------------------------------ fair first hours

/** The current week (ms from its Monday to the next) and its fair first hours (fairWindow), by FAIR_START_HOURS. */
const fairWeeks = new Map<number, { from: number; to: number; fair: ReturnType<typeof fairWindow> }>();

/**
 * True while the current launch week is in its fair first hours (FAIR_START_HOURS), as fairStartUntil()
 * says, with the week's window worked out once a week, not per request (the date arithmetic was ~2 µs a page).
 */
function fairStartNow(deps: AppDeps, now = Date.now()): boolean {
  const hours = deps.config.FAIR_START_HOURS;
  let w = fairWeeks.get(hours);
  if (!w || now < w.from || now >= w.to) {
    const monday = mondayOf(new Date(now));
    const from = Date.parse(`${monday}T00:00:00.000Z`);
    fairWeeks.set(hours, (w = { from, to: from + WEEK_MS, fair: fairWindow(monday, hours) }));
  }
  return w.fair !== null && now >= w.fair.start && now < w.fair.end;
}

/**
 * A page that shows this week's order: shared with other visitors as usual, but rendered for each
 * request during the fair first hours, when every visitor sees their own shuffled order.
 */
function fairOrShared(
  deps: AppDeps,
  shared: Shared,
  handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  opts?: SharedOptions,
): RouteHandlerMethod {
  const cached = shared(handler, opts);
  return function (this: FastifyInstance, req, reply) {
    return fairStartNow(deps) ? handler(req, reply) : cached.call(this, req, reply);
  };
}

async function seedOf(deps: AppDeps, req: FastifyRequest, reply: FastifyReply, week: string): Promise<number> {
  const web = await getWebContext(deps, req, reply);
  return visitorSeed(voteKey(deps.services), req, web.user?.id ?? null, week);
}

function fairNotice(until: string): SafeHtml {
  return html`<p class="note fair-start" role="note"><strong>Fair first hours.</strong> Until ${until.slice(11, 16)} UTC on ${fmtDate(until)}, this week's launches are shown in an order shuffled for each visitor, with vote counts hidden, so that no launch gets ahead just by being seen first. <a href="/how-ranking-works">How ranking works</a>.</p>`;
}

/** The weekly board during the fair first hours: the week's launches, shuffled for this visitor, no counts. */
async function fairBoard(
  deps: AppDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  until: string,
  monday: string,
  name: string,
) {
  const r = await read(deps, req, getLaunchWeek, { params: { week: monday } });
  const items = seededShuffle(
    r.launches.map((x) => x.listing),
    await seedOf(deps, req, reply, monday),
  );
  const v = await viewerFor(
    deps,
    req,
    reply,
    items.map((s) => s.slug),
  );
  v.hideCounts = true;
  const body = html`
<h1>Leaderboard: ${name}</h1>
${tabs(BOARD_TABS, 'community-weekly', (k) => `/leaderboards/${k}`, 'Leaderboards')}
<p>Week ${r.week.iso_week}: ${fmtRange(r.week.start, r.week.end)}.</p>
${fairNotice(until)}
${listingList(v, items, { ranked: false, empty: 'No launches yet this week.' })}`;
  return send(
    deps,
    reply,
    v,
    {
      title: `${name} leaderboard`,
      description: `This week's launches on Launchlist; the ranking is published after the fair first hours.`,
      path: '/leaderboards/community-weekly',
      current: '/leaderboards/community-weekly',
    },
    body,
  );
}

export function registerBrowsePages(app: FastifyInstance, deps: AppDeps, shared: Shared): void {
  const stampOf = weekStamps(deps.store);
  app.get(
    '/',
    fairOrShared(deps, shared, (req, reply) => home(deps, req, reply)),
  );
  app.get(
    '/search',
    shared((req, reply) => search(deps, req, reply)),
  );
  app.get(
    '/launches',
    fairOrShared(deps, shared, (req, reply) => launches(deps, req, reply)),
  );
  app.get(
    '/launches/weeks/:week',
    fairOrShared(deps, shared, (req, reply) => launchWeek(deps, req, reply), {
      // an archived week's page is kept until a launch of that week changes (store/week-stamps.ts)
      stamp: (req) => stampOf((req.params as { week: string }).week),
    }),
  );
  app.get('/leaderboards', (_req, reply) => reply.redirect('/leaderboards/community-weekly', 302));
  app.get(
    '/leaderboards/:board',
    fairOrShared(deps, shared, (req, reply) => leaderboardPage(deps, req, reply)),
  );
  app.get(
    '/awards',
    shared((req, reply) => awards(deps, req, reply)),
  );
  app.get(
    '/categories',
    shared((req, reply) => categories(deps, req, reply)),
  );
  app.get(
    '/categories/:slug',
    shared((req, reply) => category(deps, req, reply)),
  );
}
