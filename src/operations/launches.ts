import { z } from 'zod';
import { defineOperation } from './define.ts';
import { invalid } from './errors.ts';
import {
  JsonObject,
  Paged,
  Pagination,
  Slug,
  WEEK_WORDS,
  WeekRef,
  offsetOf,
  paged,
  weekRef,
  weekRule,
} from './schemas.ts';
import { isDateString, resolveWeek, weekInfo } from '../domain/weeks.ts';
import { TRENDING_FORMULA } from '../domain/ranking.ts';
import {
  BOARDS,
  BOARD_INFO,
  LAUNCH_SECTIONS,
  launchSection,
  launchesOfWeek,
  leaderboard,
} from '../store/repos/launches.ts';
import { listAwardItems } from '../store/repos/awards.ts';

export { LAUNCH_SECTIONS, BOARDS };

/** The most launches get_launch_week returns for one week (it is not paginated). */
export const WEEK_LIMIT = 100;

const SUMMARY_TEXT =
  'A listing summary is `{slug, name, url, tagline, logo_url, votes (all-time), primary_category: {slug, name}, status, launch_week, launched_at}`.';

/** The words community-weekly takes: next week has no votes yet. */
const BOARD_WEEK_WORDS = ['this', 'last'] as const;

function weekOrThrow(ref: string, now: Date, where: 'path' | 'query', words: readonly string[]): string {
  try {
    return resolveWeek(ref, now);
  } catch {
    return invalid(
      `${where}.week`,
      isDateString(ref)
        ? 'the week of this date and the Monday after it must fall within the years 0000–9999'
        : weekRule(words, 'a real calendar date YYYY-MM-DD'),
    );
  }
}

export const getLaunchWeek = defineOperation({
  name: 'get_launch_week',
  method: 'GET',
  path: '/launches/weeks/{week}',
  access: 'public',
  tags: ['Launches'],
  summary: 'The launches of one week, ranked by community votes',
  description:
    "One launch week (Monday to Sunday, UTC; ISO weeks). `week` is `this`, `next`, `last`, or a date YYYY-MM-DD, which snaps to its Monday. Returns the week's live launches ranked by community votes cast during that week (Monday 00:00 to the next Monday 00:00 UTC; ties: the earlier launch first), and for a future week the launches scheduled for it (no ranks: `rank` and `votes` are null). A week with no launches answers 200 with an empty list.\n\n" +
    `Returns \`{week: {start (Monday), end (Sunday), iso_week (e.g. "2026-W47"), is_current, is_future, is_past}, launches: [{rank, listing, votes (cast in that week)}], total, truncated}\` — at most ${WEEK_LIMIT} launches; \`total\` counts them all. ${SUMMARY_TEXT}`,
  params: z.object({ week: WeekRef }),
  response: JsonObject,
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => {
    const now = ctx.now();
    const monday = weekOrThrow(input.week, now, 'path', WEEK_WORDS);
    const { items, total } = await launchesOfWeek(ctx.db, monday, now, WEEK_LIMIT);
    return { week: weekInfo(monday, now), launches: items, total, truncated: total > items.length };
  },
});

export const listLaunches = defineOperation({
  name: 'list_launches',
  method: 'GET',
  path: '/launches',
  access: 'public',
  tags: ['Launches'],
  summary: 'Launches by section',
  description:
    'Launches in one section:\n' +
    '- `today`: live listings launched today (UTC), most voted first;\n' +
    "- `this-week` (default): this week's live launches by votes cast this week (`week_votes`);\n" +
    `- \`trending\`: time-decayed votes — ${TRENDING_FORMULA}; the score is \`trending_score\`;\n` +
    '- `most-voted`: all-time votes; `recent`: newest launches first; `most-viewed`: page views; `most-followed`: followers;\n' +
    '- `upcoming`: listings scheduled for a future launch week (status scheduled or awaiting_badge), soonest week first.\n\n' +
    `Returns \`{section, items, page, per_page, total, has_more}\`; each item is a listing summary plus \`views\`, \`followers\`, and \`rank\` in ranked sections (all but recent and upcoming). ${SUMMARY_TEXT}`,
  query: z.object({ section: z.enum(LAUNCH_SECTIONS).default('this-week'), ...Pagination }),
  response: Paged(JsonObject),
  status: 200,
  idempotencyKey: false,
  paginated: true,
  handler: async (ctx, input) => {
    const { items, total } = await launchSection(
      ctx.db,
      ctx.engine,
      input.section,
      ctx.now(),
      input.per_page,
      offsetOf(input),
    );
    return { section: input.section, ...paged(items, total, input) };
  },
});

export const getLeaderboard = defineOperation({
  name: 'get_leaderboard',
  method: 'GET',
  path: '/leaderboards/{board}',
  access: 'public',
  tags: ['Leaderboards'],
  summary: 'A leaderboard',
  description:
    'One ranking of live listings: `community-weekly` (votes cast in one week; `week` = this (default), last or a date YYYY-MM-DD that snaps to its Monday), `community-all-time` (all votes), `billboard` (a PAID ranking by money contributed — always present it as paid: the board and every item carry `paid: true`), `domain-rating` (a third-party SEO metric, with its trend) or `revenue` (latest monthly revenue). `week` is accepted only for community-weekly.\n\n' +
    'Returns `{board: {key, name, description, paid, notice?, metric}, week? (community-weekly: {start, end, iso_week, is_current, is_future, is_past}), items: [{rank, listing, metric: {name, value, …}, paid? }], page, per_page, total, has_more}`. ' +
    'Metrics: votes `{name: "votes", value, votes}`; billboard `{name: "amount_cents", value, amount_cents, amount (formatted USD), paid: true}`; domain-rating `{name: "domain_rating", value, as_of, previous, previous_date, change, trend: up|down|flat|new}`; revenue `{name: "monthly_revenue_cents", value, amount, month, verified}`. ' +
    `Listings without a value for the metric are not ranked. ${SUMMARY_TEXT}`,
  params: z.object({ board: z.enum(BOARDS) }),
  query: z.object({
    week: weekRef(BOARD_WEEK_WORDS)
      .optional()
      .describe('Only for community-weekly: this, last or a date YYYY-MM-DD (next week has no votes yet).'),
    ...Pagination,
  }),
  response: Paged(JsonObject),
  status: 200,
  idempotencyKey: false,
  paginated: true,
  handler: async (ctx, input) => {
    const now = ctx.now();
    let week: string | null = null;
    if (input.week !== undefined && input.board !== 'community-weekly')
      return invalid('query.week', `is accepted only for the community-weekly board (not ${input.board})`);
    if (input.board === 'community-weekly') {
      week = weekOrThrow(input.week ?? 'this', now, 'query', BOARD_WEEK_WORDS);
    }
    const { items, total } = await leaderboard(ctx.db, input.board, week, input.per_page, offsetOf(input));
    return {
      board: BOARD_INFO[input.board],
      ...(week ? { week: weekInfo(week, now) } : {}),
      ...paged(items, total, input),
    };
  },
});

export const listAwards = defineOperation({
  name: 'list_awards',
  method: 'GET',
  path: '/awards',
  access: 'public',
  tags: ['Awards'],
  summary: 'Launch of the Week awards',
  description:
    "Awards (Launch of the Week #1, #2, #3), newest week first, each with the winning listing. Awards follow community votes only (votes cast during the launch week among that week's launches; ties: the earlier launch) and are decided when a week ends — billboard money plays no part. `listing` narrows to one listing's awards; a slug that names no live listing gives an empty page (the spec keeps 404 for identifiers in the path).\n\n" +
    `Returns \`{items: [{week (Monday), week_end (Sunday), iso_week, rank, title ("Launch of the Week #1"), kind ("launch_of_the_week"), votes (cast in that week), listing}], page, per_page, total, has_more}\`. ${SUMMARY_TEXT}`,
  query: z.object({ listing: Slug.optional(), ...Pagination }),
  response: Paged(JsonObject),
  status: 200,
  idempotencyKey: false,
  paginated: true,
  handler: async (ctx, input) => {
    let listingId: number | null = null;
    if (input.listing !== undefined) {
      const l = await ctx.db
        .selectFrom('listings')
        .select('id')
        .where('slug', '=', input.listing)
        .where('status', '=', 'live')
        .executeTakeFirst();
      if (!l) return paged([], 0, input);
      listingId = l.id;
    }
    const { items, total } = await listAwardItems(ctx.db, listingId, input.per_page, offsetOf(input));
    return paged(items, total, input);
  },
});
