// The trophy pages (issue #21), each reading its operation as an anonymous caller:
//   /listings/:slug/trophies   a listing's trophy cabinet (get_trophy_cabinet)
//   /founders/:slug/trophies   a founder's (get_founder_trophy_cabinet)
//   /trophies                  trophy leaderboards: all-time, ?year=, ?category= (get_trophy_leaderboard)
//   /hall-of-fame              every Launch of the Week #1, Launch of the Month and of the Year (get_hall_of_fame)
//   /programmes, /programmes/:slug   programmes, entries and results (list_programmes, get_programme);
//                              signed-in makers enter on /programmes/:slug/enter (web/maker/programmes.ts)
//   /awards/:week/:rank        an award's verification: the signed statement, signature, key, snapshot (verify_award)
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import type { ResultOf } from '../../operations/define.ts';
import {
  getFounderTrophyCabinet,
  getHallOfFame,
  getProgramme,
  getTrophyCabinet,
  getTrophyLeaderboard,
  listProgrammes,
  verifyAward,
} from '../../operations/trophies.ts';
import { listCategories } from '../../operations/categories.ts';
import { AWARD_KEYS_PATH } from '../../domain/award-statement.ts';
import { HALL_OF_FAME_RULE } from '../../domain/hall-of-fame.ts';
import { isSlug } from '../../domain/vocabulary.ts';
import { html, raw, type SafeHtml } from '../layout.ts';
import { sendNotFoundPage } from './errors.ts';
import {
  fmtDate,
  fmtNum,
  fmtRange,
  logo,
  pager,
  plural,
  qs,
  read,
  send,
  viewerFor,
  withQuery,
  type Shared,
} from './shared.ts';

type Cabinet = ResultOf<typeof getTrophyCabinet>;
type Award = Cabinet['awards'][number];
type Summary = Cabinet['listing'];

/** A place as a medal: a gold, silver or bronze disc with the number (text, so it shows without an emoji font). */
const medal = (place: number): SafeHtml =>
  html`<span class="medal m${place <= 3 ? place : 'x'}" aria-hidden="true">${place}</span>`;
const awardPath = (a: { week: string; rank: number }) => `/awards/${a.week}/${a.rank}`;
const votesText = (n: number) => `${fmtNum(Math.round(n * 100) / 100)} counted ${n === 1 ? 'vote' : 'votes'}`;

function listingName(s: Summary): SafeHtml {
  return s.status === 'live' ? html`<a href="/listings/${s.slug}">${s.name}</a>` : html`${s.name}`;
}

function awardLine(a: Award): SafeHtml {
  return html`<li class="item trophy">${medal(a.rank)}<div class="body"><h3>${a.title}</h3>
<p class="meta"><a href="/launches/weeks/${a.week}">${a.iso_week}</a> · ${fmtRange(a.week, a.week_end)} · ${votesText(a.votes)}</p></div>
${a.signed ? html`<a class="verify" href="${awardPath(a)}">Verify signature</a>` : html`<span class="muted">Not signed yet</span>`}</li>`;
}

/** One cabinet's shelves: awards, Hall of Fame, programmes, badges, milestones. */
function shelves(c: Cabinet, h: 'h2' | 'h3' = 'h2'): SafeHtml {
  const H = (id: string, text: string) => raw(`<${h} id="${id}">${text}</${h}>`);
  const id = (x: string) => `${c.listing.slug}-${x}`;
  return html`
<ul class="stats" aria-label="Trophy counts"><li><span class="stat">${fmtNum(c.counts.awards)}</span> ${c.counts.awards === 1 ? 'award' : 'awards'}</li><li><span class="stat">${fmtNum(c.counts.firsts)}</span> × #1</li><li><span class="stat">${fmtNum(c.counts.hall_of_fame)}</span> Hall of Fame</li><li><span class="stat">${fmtNum(c.counts.programme_wins)}</span> programme ${c.counts.programme_wins === 1 ? 'place' : 'places'}</li></ul>
<section aria-labelledby="${id('awards')}">${H(id('awards'), 'Launch of the Week awards')}
${c.awards.length ? html`<ul class="items compact">${c.awards.map(awardLine)}</ul>` : html`<p class="muted">No awards yet.</p>`}</section>
${
  c.hall_of_fame.length
    ? html`<section aria-labelledby="${id('hof')}">${H(id('hof'), 'Hall of Fame')}<ul class="chips">${c.hall_of_fame.map((x) => html`<li><a class="chip" href="/hall-of-fame">${x.title}, ${x.label}${x.final ? '' : ' (so far)'}</a></li>`)}</ul></section>`
    : ''
}
<section aria-labelledby="${id('progs')}">${H(id('progs'), 'Programmes')}
${
  c.programmes.length
    ? html`<ul class="items compact">${c.programmes.map((p) => html`<li class="item"><div class="body"><h3><a href="/programmes/${p.programme.slug}">${p.programme.name}</a></h3><p class="meta">Entered ${fmtDate(p.entered_at)} · ${p.place !== null ? html`<strong>Place ${p.place}</strong>` : p.decided ? 'Not placed' : p.programme.state === 'open' ? 'Running' : 'Results to come'}</p></div></li>`)}</ul>`
    : html`<p class="muted">No programmes entered. <a href="/programmes">See the programmes</a>.</p>`
}</section>
<section aria-labelledby="${id('badges')}">${H(id('badges'), 'Badges earned')}
<ul class="badge-list">${c.badges.map((b) => html`<li><img src="${b.svg_url}" alt="${b.name}" height="40" loading="lazy"><span class="meta">${b.earned_at ? `since ${fmtDate(b.earned_at)}` : ''}</span></li>`)}</ul></section>
${
  c.milestones.length
    ? html`<section aria-labelledby="${id('ms')}">${H(id('ms'), 'Milestones')}<ul class="timeline">${c.milestones.map((m) => html`<li><span class="meta">${fmtDate(m.date)}</span> ${m.title}</li>`)}</ul></section>`
    : ''
}`;
}

async function listingCabinet(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const { slug } = req.params as { slug: string };
  if (!isSlug(slug)) return sendNotFoundPage(deps, req, reply);
  const c = await read(deps, req, getTrophyCabinet, { params: { slug } });
  const v = await viewerFor(deps, req, reply);
  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/listings/${c.listing.slug}">${c.listing.name}</a> › <span aria-current="page">Trophy cabinet</span></nav>
<div class="profile-head">${logo(c.listing, true)}<div class="title"><h1>${c.listing.name}: trophy cabinet</h1>
${c.listing.tagline ? html`<p class="lede">${c.listing.tagline}</p>` : ''}</div></div>
${shelves(c)}
<p class="meta">Every award is signed: its verification page shows the signed statement and how to check it with our <a href="${AWARD_KEYS_PATH}">published keys</a>. Also available from <a href="/api/v1/listings/${c.listing.slug}/trophies">the API</a>.</p>`;
  return send(
    deps,
    reply,
    v,
    {
      title: `${c.listing.name}: trophy cabinet`,
      description: `Awards, Hall of Fame titles, programmes, badges and milestones of ${c.listing.name} on Launchlist.`,
      path: `/listings/${c.listing.slug}/trophies`,
    },
    body,
  );
}

async function founderCabinet(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const { slug } = req.params as { slug: string };
  if (!isSlug(slug)) return sendNotFoundPage(deps, req, reply);
  const f = await read(deps, req, getFounderTrophyCabinet, { params: { slug } });
  const v = await viewerFor(deps, req, reply);
  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/founders">Founders</a> › <a href="/founders/${f.founder.slug}">${f.founder.name}</a> › <span aria-current="page">Trophy cabinet</span></nav>
<h1>${f.founder.name}: trophy cabinet</h1>
<p class="lede">${plural(f.counts.awards, 'award')} (${fmtNum(f.counts.firsts)} × #1), ${plural(f.counts.hall_of_fame, 'Hall of Fame title')} and ${plural(f.counts.programme_wins, 'programme place')} across ${plural(f.cabinets.length, 'product')}.</p>
${f.cabinets.map(
  (
    c,
  ) => html`<section class="card" aria-labelledby="${c.listing.slug}-h"><h2 id="${c.listing.slug}-h">${listingName(c.listing)}</h2>
${shelves(c, 'h3')}<p><a href="/listings/${c.listing.slug}/trophies">${c.listing.name}'s cabinet</a></p></section>`,
)}`;
  return send(
    deps,
    reply,
    v,
    {
      title: `${f.founder.name}: trophy cabinet`,
      description: `The awards and trophies of ${f.founder.name}'s products on Launchlist.`,
      path: `/founders/${f.founder.slug}/trophies`,
      current: '/founders',
    },
    body,
  );
}

/** "3 trophies: Launch of the Week #1, 1 Hall of Fame title, 1 programme place" */
function trophyWords(i: ResultOf<typeof getTrophyLeaderboard>['items'][number]): string {
  const parts = [
    ...[
      [i.firsts, 1],
      [i.seconds, 2],
      [i.thirds, 3],
    ]
      .filter(([n]) => n)
      .map(([n, r]) => `${n > 1 ? `${n} × ` : ''}Launch of the Week #${r}`),
    ...(i.hall_of_fame ? [plural(i.hall_of_fame, 'Hall of Fame title')] : []),
    ...(i.programme_places ? [plural(i.programme_places, 'programme place')] : []),
  ];
  return `${plural(i.trophies, 'trophy', 'trophies')}: ${parts.join(', ')}`;
}

async function leaderboard(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const year = qs(req, 'year');
  const category = qs(req, 'category');
  const r = await read(deps, req, getTrophyLeaderboard, {
    query: { year, category, page: qs(req, 'page'), per_page: 50 },
  });
  const cats = await read(deps, req, listCategories, { query: {} });
  const v = await viewerFor(deps, req, reply);
  const options: Array<[string, string]> = [['', 'All categories']];
  for (const c of cats.categories) {
    options.push([c.slug, c.name]);
    for (const s of c.subcategories) options.push([s.slug, `— ${s.name}`]);
  }
  const scope = [
    r.year ? `in ${r.year}` : 'all-time',
    r.category ? `in ${options.find(([s]) => s === r.category)?.[1].replace('— ', '') ?? r.category}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const body = html`
<h1>Trophy leaderboard</h1>
<p class="lede">Products with the most trophies ${scope}: Launch of the Week awards, Launch of the Month and of the Year titles, and programme places. Awards follow community votes only.</p>
<form method="get" action="/trophies" class="filters">
<div><label for="tl-year">Year</label><select id="tl-year" name="year"><option value="">All-time</option>${r.years.map((y) => html`<option value="${y}"${String(r.year) === y ? raw(' selected') : ''}>${y}</option>`)}</select></div>
<div><label for="tl-cat">Category</label><select id="tl-cat" name="category">${options.map(([s, n]) => html`<option value="${s}"${(r.category ?? '') === s ? raw(' selected') : ''}>${n}</option>`)}</select></div>
<div><button type="submit">Show</button></div></form>
${
  r.items.length
    ? html`<ol class="items">${r.items.map(
        (
          i,
        ) => html`<li class="item"><span class="rank"><span class="sr-only">Rank </span>${i.rank}</span>${logo(i.listing)}<div class="body"><h2>${listingName(i.listing)}</h2>
<p class="meta">${trophyWords(i)} · <a href="/listings/${i.listing.slug}/trophies">Trophy cabinet</a></p></div></li>`,
      )}</ol>`
    : html`<p class="muted">No trophies ${scope} yet.</p>`
}
${pager(r, (page) => withQuery('/trophies', { year: r.year ?? undefined, category: r.category ?? undefined, page }))}
<p class="meta">See also the <a href="/hall-of-fame">Hall of Fame</a> and <a href="/awards">every award</a>.</p>`;
  return send(
    deps,
    reply,
    v,
    {
      title: 'Trophy leaderboard',
      description: 'Launchlist products with the most Launch of the Week awards, all-time, by year and by category.',
      path: withQuery('/trophies', { year: r.year ?? undefined, category: r.category ?? undefined }),
      current: '/leaderboards/community-weekly',
    },
    body,
  );
}

type HallWinner = ResultOf<typeof getHallOfFame>['months'][number];

function winnerCard(w: HallWinner, title: string): SafeHtml {
  return html`<li class="item trophy">${logo(w.listing)}<div class="body"><h3>${listingName(w.listing)}</h3>
<p class="meta">${title} ${w.label}${w.final ? '' : html` · <strong>so far</strong>`} · ${plural(w.points, 'point')} from ${plural(w.award_weeks.length, 'award')}${w.firsts ? ` (${w.firsts} × #1)` : ''}</p></div></li>`;
}

async function hallOfFamePage(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const h = await read(deps, req, getHallOfFame);
  const v = await viewerFor(deps, req, reply);
  const body = html`
<h1>Hall of Fame</h1>
<p class="lede">Every Launch of the Week #1, and the Launch of the Month and of the Year, computed from the weekly results alone.</p>
<details class="note"><summary>How Launch of the Month and of the Year are decided</summary><p>${HALL_OF_FAME_RULE}</p></details>
<section aria-labelledby="hof-years"><h2 id="hof-years">Launch of the Year</h2>
${h.years.length ? html`<ul class="items">${h.years.map((w) => winnerCard(w, 'Launch of the Year'))}</ul>` : html`<p class="muted">None yet.</p>`}</section>
<section aria-labelledby="hof-months"><h2 id="hof-months">Launch of the Month</h2>
${h.months.length ? html`<ul class="items compact">${h.months.map((w) => winnerCard(w, 'Launch of the Month'))}</ul>` : html`<p class="muted">None yet.</p>`}</section>
<section aria-labelledby="hof-weeks"><h2 id="hof-weeks">Launch of the Week #1</h2>
${
  h.weeks.length
    ? html`<ul class="items compact">${h.weeks.map((w) => html`<li class="item trophy">${logo(w.listing)}<div class="body"><h3>${listingName(w.listing)}</h3><p class="meta"><a href="/launches/weeks/${w.award.week}">${w.award.iso_week}</a> · ${fmtRange(w.award.week, w.award.week_end)} · ${votesText(w.award.votes)}</p></div>${w.award.signed ? html`<a class="verify" href="${awardPath(w.award)}">Verify</a>` : ''}</li>`)}</ul>`
    : html`<p class="muted">No awards yet: the first are decided when the first launch week ends.</p>`
}</section>`;
  return send(
    deps,
    reply,
    v,
    {
      title: 'Hall of Fame',
      description: 'Every Launch of the Week #1, Launch of the Month and Launch of the Year on Launchlist.',
      path: '/hall-of-fame',
    },
    body,
  );
}

type Programme = ResultOf<typeof listProgrammes>['items'][number];
const STATE_WORDS: Record<Programme['state'], string> = {
  upcoming: 'Opens soon',
  open: 'Open for entries',
  ended: 'Ended',
};

function programmeCard(p: Programme): SafeHtml {
  return html`<li><h2><a href="/programmes/${p.slug}">${p.name}</a></h2>
<p class="meta"><span class="chip state-${p.state}">${STATE_WORDS[p.state]}</span> ${fmtDate(p.starts_on)} – ${fmtDate(p.ends_on)} · ${plural(p.entries, 'entry', 'entries')}</p>
<p>${p.description}</p></li>`;
}

async function programmesPage(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const r = await read(deps, req, listProgrammes);
  const v = await viewerFor(deps, req, reply);
  const body = html`
<h1>Programmes</h1>
<p class="lede">Programmes run by the Launchlist team: enter a live product of yours while a programme is open; winners are chosen by community votes during the period or by a jury, as each programme says.</p>
${r.items.length ? html`<ul class="grid">${r.items.map(programmeCard)}</ul>` : html`<p class="muted">No programmes yet.</p>`}`;
  return send(
    deps,
    reply,
    v,
    { title: 'Programmes', description: 'Launchlist programmes a product can enter.', path: '/programmes' },
    body,
  );
}

type Entry = ResultOf<typeof getProgramme>['entry_list'][number];

function entryList(items: Entry[], ranked: boolean): SafeHtml {
  const rows = items.map(
    (e) =>
      html`<li class="item">${ranked && e.place !== null ? html`<span class="rank"><span class="sr-only">Place </span>${medal(e.place)}</span>` : ''}${logo(e.listing)}<div class="body"><h3>${listingName(e.listing)}</h3><p class="meta">Entered ${fmtDate(e.entered_at)} · ${plural(e.period_votes, 'vote')} during the programme</p></div></li>`,
  );
  return ranked ? html`<ol class="items compact">${rows}</ol>` : html`<ul class="items compact">${rows}</ul>`;
}

async function programmePage(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const { slug } = req.params as { slug: string };
  if (!isSlug(slug)) return sendNotFoundPage(deps, req, reply);
  const p = await read(deps, req, getProgramme, { params: { slug } });
  const v = await viewerFor(deps, req, reply);
  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/programmes">Programmes</a> › <span aria-current="page">${p.name}</span></nav>
<h1>${p.name}</h1>
<p class="lede">${p.description}</p>
<p><span class="chip state-${p.state}">${STATE_WORDS[p.state]}</span> ${fmtDate(p.starts_on)} – ${fmtDate(p.ends_on)}</p>
<div class="cols"><div>
<h2>Who can enter</h2>
<ul>${p.rule_words.map((r) => html`<li>${r.text}</li>`)}</ul>
<h2>How winners are chosen</h2>
<p>${p.winners.count} ${p.winners.count === 1 ? 'place' : 'places'}: ${p.winners.description}.</p>
${p.state === 'open' ? html`<p><a class="button" href="/programmes/${p.slug}/enter">Enter one of your products</a></p>` : ''}
</div></div>
${
  p.results.decided
    ? html`<section aria-labelledby="res-h"><h2 id="res-h">Results</h2>${p.results.winners.length ? entryList(p.results.winners, true) : html`<p class="muted">No entry placed.</p>`}</section>`
    : ''
}
<section aria-labelledby="ent-h"><h2 id="ent-h">${plural(p.entry_list.length, 'entry', 'entries')}</h2>
${p.entry_list.length ? entryList(p.entry_list, false) : html`<p class="muted">No entries yet.</p>`}</section>`;
  return send(deps, reply, v, { title: p.name, description: p.description, path: `/programmes/${p.slug}` }, body);
}

type Verification = ResultOf<typeof verifyAward>;

function verificationBody(a: Verification, jwks: string): SafeHtml {
  const d = a.decoded;
  return html`
<p class="${a.valid ? 'verdict ok' : 'verdict bad'}" role="status">${a.valid ? '✔ The signature is valid' : '✘ The signature does not verify'}${a.snapshot.matches ? '' : ' · the ranking snapshot does not match its hash'}</p>
<dl class="facts">
<dt>Award</dt><dd>${d.title}</dd>
<dt>Product</dt><dd>${a.listing ? listingName(a.listing) : d.listing.name} <span class="meta">(listing ${d.listing.id}, ${d.listing.slug})</span></dd>
<dt>Week</dt><dd><a href="/launches/weeks/${d.week}">${d.iso_week}</a> (from ${fmtDate(d.week)})</dd>
<dt>Counted votes</dt><dd>${fmtNum(d.votes)}</dd>
<dt>Ranking snapshot</dt><dd><code class="wrap">sha256:${d.snapshot_sha256}</code></dd>
<dt>Signed</dt><dd>${fmtDate(d.issued_at)} with key <code class="wrap">${a.kid}</code> (Ed25519)</dd>
</dl>
<h2>Check it yourself</h2>
<p>The statement below is the exact signed text (base64url of its bytes). Take the key with the kid above from <a href="${jwks}">our published keys</a> (a JWKS), decode the statement and the signature from base64url, and verify the Ed25519 signature over the statement bytes as they are. Changing one byte makes it fail.</p>
<label for="stmt">Statement (base64url)</label><textarea id="stmt" class="snippet" readonly>${a.statement}</textarea>
<label for="sig">Signature (base64url)</label><textarea id="sig" class="snippet" readonly>${a.signature}</textarea>
<details><summary>The week's frozen ranking (its SHA-256 is in the statement)</summary><pre class="snippet">${a.snapshot.canonical}</pre></details>
<p class="meta">The same from <a href="/api/v1/awards/${d.week}/${d.rank}/verification">the API</a> (verify_award). A standalone check: <code>node scripts/verify-award.ts &lt;site&gt; ${d.week} ${d.rank}</code> from the source repository.</p>`;
}

async function verificationPage(deps: AppDeps, req: FastifyRequest, reply: FastifyReply) {
  const { week, rank } = req.params as { week: string; rank: string };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(week) || !/^[123]$/.test(rank)) return sendNotFoundPage(deps, req, reply);
  const a = await read(deps, req, verifyAward, { params: { week, rank } });
  const v = await viewerFor(deps, req, reply);
  const body = html`
<nav class="crumbs" aria-label="Breadcrumb"><a href="/awards">Awards</a> › <span aria-current="page">${a.decoded.iso_week} #${a.decoded.rank}</span></nav>
<h1>${a.decoded.title}: ${a.decoded.listing.name}</h1>
${verificationBody(a, deps.config.publicUrl + AWARD_KEYS_PATH)}`;
  return send(
    deps,
    reply,
    v,
    {
      title: `${a.decoded.title}, ${a.decoded.iso_week}: ${a.decoded.listing.name} (verification)`,
      description: `The signed statement of ${a.decoded.listing.name}'s ${a.decoded.title} award, and how to verify it.`,
      path: `/awards/${a.decoded.week}/${a.decoded.rank}`,
    },
    body,
  );
}

export function registerTrophyPages(app: FastifyInstance, deps: AppDeps, shared: Shared): void {
  app.get(
    '/listings/:slug/trophies',
    shared((req, reply) => listingCabinet(deps, req, reply)),
  );
  app.get(
    '/founders/:slug/trophies',
    shared((req, reply) => founderCabinet(deps, req, reply)),
  );
  app.get(
    '/trophies',
    shared((req, reply) => leaderboard(deps, req, reply)),
  );
  app.get(
    '/hall-of-fame',
    shared((req, reply) => hallOfFamePage(deps, req, reply)),
  );
  app.get(
    '/programmes',
    shared((req, reply) => programmesPage(deps, req, reply)),
  );
  app.get(
    '/programmes/:slug',
    shared((req, reply) => programmePage(deps, req, reply)),
  );
  app.get(
    '/awards/:week/:rank',
    shared((req, reply) => verificationPage(deps, req, reply)),
  );
}
