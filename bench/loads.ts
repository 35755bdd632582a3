/**
 * The loads `npm run bench` puts on a running server, as a visitor, a voter and an API client meet it
 * (issue #18): each a stream of distinct requests drawn from the directory itself.
 *
 *   api     get_listing, search_listings (typo queries), get_category, get_launch_week, get_leaderboard
 *   page    anonymous page views: /, /listings/{slug}, /categories/{slug}, /launches/weeks/{week},
 *           /leaderboards/{board}, /search?q=<typo>
 *   signed  the same pages for signed-in people (a session cookie each, 200 people taking turns)
 *   vote    votes cast through the site: the real form post (session cookie, CSRF token), as the vote
 *           buttons send it; a 303 back to the page is the answer. Two loads: votes spread over the
 *           directory (200 people taking turns), and launch day's, every vote for the same listing (the most
 *           voted), each from a new person (HOT_VOTERS of them, each round sending its share)
 *
 * prepareLoads() reads what to ask for from the database (before the server starts) and makes the
 * voters (accounts with a confirmed email, and their sessions).
 */
import { sql } from 'kysely';
import { createSession } from '../src/auth/sessions.ts';
import { createUser } from '../src/auth/users.ts';
import type { Store } from '../src/store/connect.ts';
import { createRng } from '../src/store/seed/prng.ts';

export type Group = 'api' | 'page' | 'signed' | 'vote';
export const GROUPS: readonly Group[] = ['api', 'page', 'signed', 'vote'];

export interface Req {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Load {
  name: string;
  group: Group;
  next: () => Req;
  /**
   * How many requests it can make before they repeat, when a repeated one would measure something else
   * (a second vote by the same person is no vote): the bench then sends each round its share of them,
   * not a duration's worth.
   */
  distinct?: number;
}

/** Rotates through `items` (distinct until they run out). */
function rotate<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length];
}

const VOTERS = 200;
/** People who each vote once for the one listing of the launch-day load (each round sends its share of them). */
const HOT_VOTERS = 20_000;

/** A vote as the listing page's button posts it: the person's session and CSRF token, back to the page. */
function voteFor(p: { cookie: string; csrf: string }, slug: string): Req {
  const q = encodeURIComponent;
  return {
    method: 'POST',
    path: `/listings/${slug}/vote`,
    headers: { cookie: p.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: `_csrf=${q(p.csrf)}&action=add&next=${q(`/listings/${slug}`)}`,
  };
}

/** `n` people with a confirmed email and a session each (`tag` keeps their addresses apart between runs). */
async function voters(db: Store['db'], n: number, tag: string): Promise<Array<{ cookie: string; csrf: string }>> {
  const out: Array<{ cookie: string; csrf: string }> = [];
  for (let i = 0; i < n; i += 50)
    out.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, n - i) }, async (_, k) => {
          const user = await createUser(db, {
            email: `voter-${tag}-${i + k}@bench.example`,
            name: `Voter ${i + k}`,
            emailVerified: true,
          });
          const { token, session } = await createSession(db, user.id);
          return { cookie: `ll_session=${token}`, csrf: session.csrf };
        }),
      )),
    );
  return out;
}

export async function prepareLoads(
  store: Store,
  queries: readonly string[],
  groups: ReadonlySet<Group>,
  /** What the page and signed-in loads send as Accept-Encoding (a browser's), or nothing. */
  acceptEncoding?: string,
): Promise<Load[]> {
  const browser: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
  const db = store.db;
  const rand = createRng(11).next;
  const slugs = (
    await sql<{
      slug: string;
    }>`SELECT slug FROM listings WHERE status = 'live' ORDER BY random() LIMIT 20000`.execute(db)
  ).rows.map((r) => r.slug);
  const categories = (
    await sql<{ slug: string }>`SELECT c.slug FROM categories c
      WHERE EXISTS (SELECT 1 FROM listings l WHERE l.primary_category_id = c.id AND l.status = 'live')`.execute(db)
  ).rows.map((r) => r.slug);
  const weeks = (
    await sql<{
      week: string;
    }>`SELECT DISTINCT launch_week AS week FROM listings WHERE status = 'live' AND launch_week IS NOT NULL`.execute(db)
  ).rows.map((r) => r.week);
  const shuffle = <T>(xs: T[]): T[] => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  };
  shuffle(categories);
  shuffle(weeks);
  const boards = ['community-weekly', 'community-all-time', 'billboard', 'domain-rating', 'revenue'];
  const boardPaths = boards.flatMap((b) => [1, 2, 3].map((p) => `${b}?page=${p}`));
  const q = (s: string) => encodeURIComponent(s);

  const loads: Load[] = [];
  const get = (paths: () => string) => (): Req => ({ method: 'GET', path: paths() });
  if (groups.has('api')) {
    loads.push(
      { name: 'api get_listing', group: 'api', next: get(rotate(slugs.map((s) => `/api/v1/listings/${s}`))) },
      {
        name: 'api search_listings',
        group: 'api',
        next: get(rotate(queries.map((x) => `/api/v1/listings?q=${q(x)}`))),
      },
      { name: 'api get_category', group: 'api', next: get(rotate(categories.map((c) => `/api/v1/categories/${c}`))) },
      { name: 'api get_launch_week', group: 'api', next: get(rotate(weeks.map((w) => `/api/v1/launches/weeks/${w}`))) },
      {
        name: 'api get_leaderboard',
        group: 'api',
        next: get(rotate(boardPaths.map((b) => `/api/v1/leaderboards/${b.replace('?', '?per_page=20&')}`))),
      },
    );
  }
  const pages: Array<[string, () => string]> = [
    ['/', rotate(['/'])],
    ['/listings/{slug}', rotate(slugs.map((s) => `/listings/${s}`))],
    ['/categories/{slug}', rotate(categories.map((c) => `/categories/${c}`))],
    ['/launches/weeks/{week}', rotate(weeks.map((w) => `/launches/weeks/${w}`))],
    ['/leaderboards/{board}', rotate(boardPaths.map((b) => `/leaderboards/${b}`))],
    ['/search?q=', rotate(queries.map((x) => `/search?q=${q(x)}`))],
  ];
  if (groups.has('page'))
    for (const [name, paths] of pages)
      loads.push({
        name: `page ${name}`,
        group: 'page',
        next: () => ({ method: 'GET', path: paths(), headers: browser }),
      });

  if (groups.has('signed') || groups.has('vote')) {
    const tag = Date.now().toString(36);
    const people = await voters(db, VOTERS, tag);
    const person = rotate(people);
    if (groups.has('signed'))
      for (const [name, paths] of pages)
        loads.push({
          name: `signed ${name}`,
          group: 'signed',
          next: () => ({ method: 'GET', path: paths(), headers: { ...browser, cookie: person().cookie } }),
        });
    if (groups.has('vote')) {
      // every person votes for every listing in turn: no pair comes twice (a second vote would change nothing)
      let k = 0;
      loads.push({
        name: 'vote (form post)',
        group: 'vote',
        next: () => {
          const n = k++;
          return voteFor(people[Math.floor(n / slugs.length) % people.length], slugs[n % slugs.length]);
        },
      });
      // launch day: everybody votes for the same launch (the most voted listing), each person once
      const hot = (
        await sql<{
          slug: string;
        }>`SELECT slug FROM listings WHERE status = 'live' ORDER BY votes_count DESC, id LIMIT 1`.execute(db)
      ).rows[0]?.slug;
      const fan = rotate(await voters(db, HOT_VOTERS, `${tag}-hot`));
      if (hot)
        loads.push({
          name: 'vote on one listing',
          group: 'vote',
          next: () => voteFor(fan(), hot),
          distinct: HOT_VOTERS,
        });
    }
  }
  return loads;
}
