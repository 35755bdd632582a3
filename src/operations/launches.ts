import { z } from 'zod';
import { defineOperation } from './define.ts';
import { invalid } from './errors.ts';
import {
  DateString,
  ListingSummary,
  Paged,
  Pagination,
  Slug,
  WEEK_WORDS,
  WeekRef,
  WeekString,
  offsetOf,
  paged,
  weekRef,
  weekRule,
} from './schemas.ts';
import { EXAMPLE_SUMMARY } from './examples.ts';
import { isDateString, mondayOf, resolveWeek, weekInfo } from '../domain/weeks.ts';
import { AWARD_KIND, TRENDING_FORMULA, TRENDS, fairStartUntil } from '../domain/ranking.ts';
import {
  BOARDS,
  BOARD_INFO,
  BOARD_METRICS,
  DOMAIN_RATING_SOURCE,
  LAUNCH_SECTIONS,
  launchSection,
  launchesOfWeek,
  leaderboard,
} from '../store/repos/launches.ts';
import { listAwardItems } from '../store/repos/awards.ts';
import { byArchivedWeek } from '../store/week-stamps.ts';

export { LAUNCH_SECTIONS, BOARDS };

/** The most launches get_launch_week returns for one week (it is not paginated). */
export const WEEK_LIMIT = 100;

const SUMMARY_TEXT = [
  'A listing summary is `{slug, name, url, tagline, logo_url, votes (all-time), primary_category: {slug, name},',
  'status, launch_week, launched_at}`.',
].join(' ');

// ------------------------------------------------------------------ response schemas

/** A launch week (domain/weeks.ts weekInfo). */
const WeekInfo = z.strictObject({
  start: WeekString.describe('The Monday the week starts on, YYYY-MM-DD.'),
  end: DateString.describe('The Sunday it ends on, YYYY-MM-DD.'),
  iso_week: z.string().describe('The ISO week, e.g. "2026-W47".'),
  is_current: z.boolean().describe('The week of today (UTC).'),
  is_future: z.boolean().describe('A week still to come.'),
  is_past: z.boolean().describe('A week that has ended.'),
});

const LaunchWeek = z.strictObject({
  week: WeekInfo.describe('The week asked about.'),
  launches: z
    .array(
      z.strictObject({
        rank: z
          .number()
          .int()
          .nullable()
          .describe(
            '1 = the most counted votes cast in the week; null for a future week (not ranked) and during the fair first hours.',
          ),
        listing: ListingSummary,
        votes: z
          .number()
          .nullable()
          .describe(
            'Counted votes cast during that week: the sum of their weights (each in [0, 1], see /how-ranking-works), 2 decimals; the figure the week is ranked and awarded by. Null for a future week and during the fair first hours.',
          ),
      }),
    )
    .describe(`Ranked (a future week, or the fair first hours: by name); at most ${WEEK_LIMIT}.`),
  total: z.number().int().describe("All of the week's launches, listed or not."),
  truncated: z.boolean().describe('True when `total` is more than the launches listed.'),
  fair_start_until: z
    .string()
    .nullable()
    .describe(
      'During the fair first hours of the current launch week (FAIR_START_HOURS after Monday 00:00 UTC): when they end (ISO 8601); null otherwise. While set, no vote figure or rank of the week is published (see /how-ranking-works).',
    ),
});

const SectionItem = ListingSummary.extend({
  rank: z
    .number()
    .int()
    .optional()
    .describe('Position in the section (1-based, across pages); absent in `recent` and `upcoming`.'),
  views: z.number().int().describe('Page views, all time.'),
  followers: z.number().int().describe('People following it.'),
  week_votes: z
    .number()
    .optional()
    .describe(
      '`this-week` only: counted (weighted) votes cast this week, 2 decimals; absent during the fair first hours.',
    ),
  trending_score: z
    .number()
    .optional()
    .describe('`trending` only: the time-decayed score (4 decimals) the section is ranked by.'),
});

const LaunchSection = z.strictObject({
  section: z.enum(LAUNCH_SECTIONS).describe('The section listed.'),
  fair_start_until: z
    .string()
    .nullable()
    .describe(
      '`this-week` and `today` during the fair first hours of the current launch week (FAIR_START_HOURS after Monday 00:00 UTC): when they end (ISO 8601); null otherwise. While set, they list by name with no `rank` nor `week_votes` (see /how-ranking-works).',
    ),
  ...Paged(SectionItem).shape,
});

const Trend = z.enum(TRENDS).describe('Against the previous reading: up, down, flat, or new (no earlier reading).');

const BoardMetric = z
  .discriminatedUnion('name', [
    z.strictObject({
      name: z.literal('votes'),
      value: z.number().describe('The same as `votes`.'),
      votes: z
        .number()
        .describe(
          'Counted community votes (the sum of their weights, 2 decimals): cast in the week (weekly) or ever (all time).',
        ),
    }),
    z.strictObject({
      name: z.literal('amount_cents'),
      value: z.number().int().describe('The same as `amount_cents`.'),
      amount_cents: z.number().int().describe('Money contributed to the billboard, USD cents, all time (PAID).'),
      amount: z.string().describe('The same, formatted in USD, e.g. "$1,250.00".'),
      paid: z.literal(true).describe('Always true: the billboard is a PAID ranking.'),
    }),
    z.strictObject({
      name: z.literal('domain_rating'),
      value: z.number().describe('The same as `domain_rating`.'),
      domain_rating: z.number().describe('The latest Domain Rating (0–100), a third-party SEO metric.'),
      as_of: DateString.nullable().describe('Date of the latest reading, or null when no reading is on record.'),
      previous: z.number().nullable().describe('The reading before the latest one, or null.'),
      previous_date: DateString.nullable().describe('Its date, or null.'),
      change: z.number().nullable().describe('`value` minus `previous`, or null.'),
      trend: Trend,
      source: z.literal(DOMAIN_RATING_SOURCE).describe('Where the number comes from: not a Launchlist ranking.'),
    }),
    z.strictObject({
      name: z.literal('monthly_revenue_cents'),
      value: z.number().int().describe('The same as `monthly_revenue_cents`.'),
      monthly_revenue_cents: z.number().int().describe('The latest reported monthly revenue, USD cents.'),
      amount: z.string().describe('The same, formatted in USD.'),
      month: z.string().nullable().describe('The month of the latest figure, YYYY-MM, or null when none is on record.'),
      verified: z.boolean().describe('The latest figure is verified.'),
    }),
  ])
  .describe("What the board ranks by; `name` says which metric (the board's `metric`).");

const BoardItem = z.strictObject({
  rank: z.number().int().describe('Position on the board (1-based, across pages).'),
  paid: z
    .literal(true)
    .optional()
    .describe('Present (true) on billboard items only: a PAID placement by money contributed, not a community rank.'),
  listing: ListingSummary,
  metric: BoardMetric,
});

const Leaderboard = z.strictObject({
  board: z
    .strictObject({
      key: z.enum(BOARDS).describe('The board (the path parameter).'),
      name: z.string().describe('The board name to show.'),
      description: z.string().describe('What it ranks by, in plain words.'),
      paid: z
        .boolean()
        .describe('True for the billboard: a PAID ranking by money contributed; always present it as paid.'),
      notice: z.string().optional().describe('Billboard only: the paid-placement notice to show with it.'),
      metric: z.enum(BOARD_METRICS).describe("The items' `metric.name`."),
    })
    .describe('The board: what it ranks by, and whether it is paid.'),
  week: WeekInfo.optional().describe('community-weekly only: the week ranked.'),
  fair_start_until: z
    .string()
    .optional()
    .describe(
      'community-weekly of the current week during its fair first hours: when they end (ISO 8601). Until then the board publishes no items (total 0).',
    ),
  ...Paged(BoardItem).shape,
});

const AwardItem = z.strictObject({
  week: WeekString,
  week_end: DateString.describe('The Sunday the week ends on.'),
  iso_week: z.string().describe('The ISO week, e.g. "2026-W47".'),
  rank: z.number().int().describe('1, 2 or 3.'),
  title: z.string().describe('e.g. "Launch of the Week #1".'),
  kind: z.literal(AWARD_KIND).describe('The award: Launch of the Week (the only kind).'),
  votes: z
    .number()
    .describe('Community votes counted for it during its launch week (the weighted sum the ranking used, 2 decimals).'),
  listing: ListingSummary.describe('The winning listing.'),
});

const EXAMPLE_WEEK = {
  start: '2026-11-16',
  end: '2026-11-22',
  iso_week: '2026-W47',
  is_current: false,
  is_future: false,
  is_past: true,
};

// ------------------------------------------------------------------ operations

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
  cacheMs: 1000,
  path: '/launches/weeks/{week}',
  access: 'public',
  tags: ['Launches'],
  summary: 'The launches of one week, ranked by community votes',
  description: [
    [
      'One launch week (Monday to Sunday, UTC; ISO weeks). `week` is `this`, `next`, `last`, or a date',
      "YYYY-MM-DD, which snaps to its Monday. Returns the week's live launches ranked by community votes",
      'cast during that week (Monday 00:00 to the next Monday 00:00 UTC; ties: the earlier launch first),',
      'and for a future week the launches scheduled for it (no ranks: `rank` and `votes` are null). A week',
      'with no launches answers 200 with an empty list. `votes` are counted votes: each vote weighs 0 to 1',
      '(rules at /how-ranking-works). Fair first hours: for FAIR_START_HOURS (default 4) after the current',
      'week starts, `fair_start_until` says when they end and the launches come by name with `rank` and',
      '`votes` null (the website shows them shuffled per visitor); do not present that order as a ranking.',
    ].join(' '),
    [
      'Returns `{week: {start (Monday), end (Sunday), iso_week (e.g. "2026-W47"), is_current, is_future,',
      'is_past}, launches: [{rank, listing, votes (cast in that week)}], total, truncated}` — at most',
      `${WEEK_LIMIT} launches; \`total\` counts them all. ${SUMMARY_TEXT}`,
    ].join(' '),
  ].join('\n\n'),
  params: z.object({ week: WeekRef }),
  response: LaunchWeek,
  examples: {
    response: {
      week: EXAMPLE_WEEK,
      launches: [{ rank: 1, listing: EXAMPLE_SUMMARY, votes: 95.5 }],
      total: 1,
      truncated: false,
      fair_start_until: null,
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => {
    const now = ctx.now();
    const monday = weekOrThrow(input.week, now, 'path', WEEK_WORDS);
    const fair = fairStartUntil(now, monday, ctx.config.FAIR_START_HOURS);
    // an archived week's launches are read again only when one of them changed (store/week-stamps.ts)
    const { items, total } = await byArchivedWeek(
      ctx.db,
      monday,
      `launches ${WEEK_LIMIT}`,
      () => launchesOfWeek(ctx.db, monday, now, WEEK_LIMIT, { hideCounts: fair !== null }),
      now,
    );
    return {
      week: weekInfo(monday, now),
      launches: items,
      total,
      truncated: total > items.length,
      fair_start_until: fair,
    };
  },
});

export const listLaunches = defineOperation({
  name: 'list_launches',
  method: 'GET',
  cacheMs: 1000,
  path: '/launches',
  access: 'public',
  tags: ['Launches'],
  summary: 'Launches by section',
  description: [
    [
      'Launches in one section:',
      '- `today`: live listings launched today (UTC), most voted first;',
      "- `this-week` (default): this week's live launches by votes cast this week (`week_votes`);",
      `- \`trending\`: time-decayed votes — ${TRENDING_FORMULA}; the score is \`trending_score\`;`,
      [
        '- `most-voted`: all-time votes; `recent`: newest launches first; `most-viewed`: page views;',
        '`most-followed`: followers;',
      ].join(' '),
      [
        '- `upcoming`: listings scheduled for a future launch week (status scheduled or awaiting_badge),',
        'soonest week first.',
      ].join(' '),
    ].join('\n'),
    [
      'Returns `{section, items, page, per_page, total, has_more}`; each item is a listing summary plus',
      `\`views\`, \`followers\`, and \`rank\` in ranked sections (all but recent and upcoming). Votes-based sections rank by`,
      'counted votes (each vote weighs 0 to 1; /how-ranking-works). `fair_start_until` is set for this-week and today',
      `during the fair first hours of the week: they then list by name with no rank or week_votes. ${SUMMARY_TEXT}`,
    ].join(' '),
  ].join('\n\n'),
  query: z.object({ section: z.enum(LAUNCH_SECTIONS).default('this-week'), ...Pagination }),
  response: LaunchSection,
  examples: {
    response: {
      section: 'this-week',
      fair_start_until: null,
      items: [{ rank: 1, ...EXAMPLE_SUMMARY, views: 2210, followers: 31, week_votes: 95.5 }],
      page: 1,
      per_page: 20,
      total: 1,
      has_more: false,
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: true,
  handler: async (ctx, input) => {
    const now = ctx.now();
    const fair =
      input.section === 'this-week' || input.section === 'today'
        ? fairStartUntil(now, mondayOf(now), ctx.config.FAIR_START_HOURS)
        : null;
    const { items, total } = await launchSection(
      ctx.db,
      ctx.engine,
      input.section,
      now,
      input.per_page,
      offsetOf(input),
      { hideCounts: fair !== null },
    );
    return { section: input.section, fair_start_until: fair, ...paged(items, total, input) };
  },
});

export const getLeaderboard = defineOperation({
  name: 'get_leaderboard',
  method: 'GET',
  cacheMs: 1000,
  path: '/leaderboards/{board}',
  access: 'public',
  tags: ['Leaderboards'],
  summary: 'A leaderboard',
  description: [
    [
      'One ranking of live listings: `community-weekly` (votes cast in one week; `week` = this (default),',
      'last or a date YYYY-MM-DD that snaps to its Monday), `community-all-time` (all votes), `billboard`',
      '(a PAID ranking by money contributed — always present it as paid: the board and every item carry',
      '`paid: true`), `domain-rating` (a third-party SEO metric, with its trend) or `revenue` (latest',
      'monthly revenue). `week` is accepted only for community-weekly.',
    ].join(' '),
    [
      'Returns `{board: {key, name, description, paid, notice?, metric}, week? (community-weekly: {start,',
      'end, iso_week, is_current, is_future, is_past}), items: [{rank, listing, metric: {name, value, …},',
      'paid? }], page, per_page, total, has_more}`. Metrics: votes `{name: "votes", value, votes}`;',
      'billboard `{name: "amount_cents", value, amount_cents, amount (formatted USD), paid: true}`;',
      'domain-rating `{name: "domain_rating", value, as_of, previous, previous_date, change, trend:',
      'up|down|flat|new}`; revenue `{name: "monthly_revenue_cents", value, amount, month, verified}`.',
      'Community boards rank by counted votes (each vote weighs 0 to 1; /how-ranking-works), 2 decimals. During the',
      'fair first hours of the current week, community-weekly for that week has no items and says `fair_start_until`.',
      `Listings without a value for the metric are not ranked. ${SUMMARY_TEXT}`,
    ].join(' '),
  ].join('\n\n'),
  params: z.object({ board: z.enum(BOARDS) }),
  query: z.object({
    week: weekRef(BOARD_WEEK_WORDS)
      .optional()
      .describe('Only for community-weekly: this, last or a date YYYY-MM-DD (next week has no votes yet).'),
    ...Pagination,
  }),
  response: Leaderboard,
  examples: {
    response: {
      board: BOARD_INFO.billboard,
      items: [
        {
          rank: 1,
          paid: true,
          listing: EXAMPLE_SUMMARY,
          metric: { name: 'amount_cents', value: 125000, amount_cents: 125000, amount: '$1,250.00', paid: true },
        },
      ],
      page: 1,
      per_page: 20,
      total: 1,
      has_more: false,
    },
  },
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
    const fair = week ? fairStartUntil(now, week, ctx.config.FAIR_START_HOURS) : null;
    const { items, total } = fair
      ? { items: [], total: 0 }
      : await leaderboard(ctx.db, ctx.engine, input.board, week, input.per_page, offsetOf(input));
    return {
      board: BOARD_INFO[input.board],
      ...(week ? { week: weekInfo(week, now) } : {}),
      ...(fair ? { fair_start_until: fair } : {}),
      ...paged(items, total, input),
    };
  },
});

export const listAwards = defineOperation({
  name: 'list_awards',
  method: 'GET',
  cacheMs: 1000,
  path: '/awards',
  access: 'public',
  tags: ['Awards'],
  summary: 'Launch of the Week awards',
  description: [
    [
      'Awards (Launch of the Week #1, #2, #3), newest week first, each with the winning listing. Awards',
      "follow community votes only (votes cast during the launch week among that week's launches; ties: the",
      'earlier launch) and are decided when a week ends — billboard money plays no part. `listing` narrows',
      "to one listing's awards; a slug that names no live listing gives an empty page (the spec keeps 404",
      'for identifiers in the path).',
    ].join(' '),
    [
      'Returns `{items: [{week (Monday), week_end (Sunday), iso_week, rank, title ("Launch of the Week',
      '#1"), kind ("launch_of_the_week"), votes (cast in that week), listing}], page, per_page, total,',
      `has_more}\`. ${SUMMARY_TEXT}`,
    ].join(' '),
  ].join('\n\n'),
  query: z.object({ listing: Slug.optional(), ...Pagination }),
  response: Paged(AwardItem),
  examples: {
    response: {
      items: [
        {
          week: '2026-11-16',
          week_end: '2026-11-22',
          iso_week: '2026-W47',
          rank: 1,
          title: 'Launch of the Week #1',
          kind: 'launch_of_the_week',
          votes: 96,
          listing: EXAMPLE_SUMMARY,
        },
      ],
      page: 1,
      per_page: 20,
      total: 1,
      has_more: false,
    },
  },
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
