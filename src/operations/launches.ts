import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notImplemented } from './errors.ts';
import { JsonObject, Paged, Pagination, Slug, WeekRef } from './schemas.ts';

export const LAUNCH_SECTIONS = ['today', 'this-week', 'trending', 'most-voted', 'recent', 'most-viewed', 'most-followed', 'upcoming'] as const;
export const BOARDS = ['community-weekly', 'community-all-time', 'billboard', 'domain-rating', 'revenue'] as const;

export const getLaunchWeek = defineOperation({
  name: 'get_launch_week', method: 'GET', path: '/launches/weeks/{week}', access: 'public', tags: ['Launches'],
  summary: 'The launches of one week, ranked by community votes',
  description: 'One launch week (Monday to Sunday, UTC). `week` is `this`, `next`, `last`, or a date YYYY-MM-DD, which snaps to its Monday. Returns the week\'s live launches ranked by community votes cast during that week, and for a future week the launches scheduled for it.',
  params: z.object({ week: WeekRef }),
  response: JsonObject, status: 200, idempotencyKey: false, paginated: false,
  handler: async () => notImplemented('issue #2'),
});

export const listLaunches = defineOperation({
  name: 'list_launches', method: 'GET', path: '/launches', access: 'public', tags: ['Launches'],
  summary: 'Launches by section',
  description: 'Launches in one section: `today`, `this-week` (default), `trending` (time-decayed votes), `most-voted`, `recent`, `most-viewed`, `most-followed`, `upcoming`.',
  query: z.object({ section: z.enum(LAUNCH_SECTIONS).default('this-week'), ...Pagination }),
  response: Paged(JsonObject), status: 200, idempotencyKey: false, paginated: true,
  handler: async () => notImplemented('issue #2'),
});

export const getLeaderboard = defineOperation({
  name: 'get_leaderboard', method: 'GET', path: '/leaderboards/{board}', access: 'public', tags: ['Leaderboards'],
  summary: 'A leaderboard',
  description: 'One ranking: `community-weekly` (votes cast in a week; `week` = this, last or a date), `community-all-time` (all votes), `billboard` (a PAID ranking by money contributed — always present it as paid), `domain-rating` (a third-party SEO metric) or `revenue`. Each item has a rank, the listing and the metric.',
  params: z.object({ board: z.enum(BOARDS) }),
  query: z.object({ week: WeekRef.optional().describe('Only for community-weekly: this, last or a date YYYY-MM-DD.'), ...Pagination }),
  response: Paged(JsonObject), status: 200, idempotencyKey: false, paginated: true,
  handler: async () => notImplemented('issue #2'),
});

export const listAwards = defineOperation({
  name: 'list_awards', method: 'GET', path: '/awards', access: 'public', tags: ['Awards'],
  summary: 'Launch of the Week awards',
  description: 'Awards (Launch of the Week #1, #2, #3), newest week first, each with the winning listing. Awards follow community votes only and are decided when a week ends. `listing` narrows to one listing\'s awards.',
  query: z.object({ listing: Slug.optional(), ...Pagination }),
  response: Paged(JsonObject), status: 200, idempotencyKey: false, paginated: true,
  handler: async () => notImplemented('issue #2'),
});
