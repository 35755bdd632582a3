// The trophy group (issue #21): trophy cabinets (a listing's, a founder's), trophy leaderboards, the
// Hall of Fame, programmes to enter, and the verification of signed awards. Tag `trophies`.
import { z } from 'zod';
import { defineOperation } from './define.ts';
import { ApiError, notFound } from './errors.ts';
import { userOf, type Ctx } from './context.ts';
import {
  Id,
  IsoDate,
  ListingSummary as ListingSummarySchema,
  Pagination,
  Paged,
  Slug,
  Timestamp,
  DateString,
  WeekString,
  offsetOf,
  paged,
} from './schemas.ts';
import { EXAMPLE_SUMMARY } from './examples.ts';
import { summariesByIds, type ListingSummary } from '../store/repos/summary.ts';
import {
  awardAt,
  awardsOf,
  cabinetListing,
  categoryExists,
  entriesOf,
  entryFacts,
  founderWithListings,
  insertEntry,
  listProgrammeRows,
  milestonesOf,
  programmeById,
  programmeBySlug,
  listingsInCategory,
  weeklyResults,
  type CabinetListing,
  type EntryRow,
  type ProgrammeRow,
  type SignedAwardRow,
} from '../store/repos/trophies.ts';
import { publicKeys, sha256Hex, verifyBytes } from '../store/repos/award-keys.ts';
import { awardTitle } from '../domain/ranking.ts';
import { addDays, isoWeekLabel, mondayOf, toDateString } from '../domain/weeks.ts';
import { badgeSvgUrl, badgeText, DEFAULT_STYLE, type BadgeKind } from '../domain/badges.ts';
import {
  AWARD_KEYS_PATH,
  awardApiPath,
  awardPagePath,
  parseStatement,
  STATEMENT_TYPE,
} from '../domain/award-statement.ts';
import { HALL_OF_FAME_RULE, hallOfFame, yearOfWeek, type PeriodWinner } from '../domain/hall-of-fame.ts';
import {
  RULE_NAMES,
  WINNER_RULES,
  WINNER_RULE_WORDS,
  entryRefusal,
  isTrophyMilestone,
  programmeState,
  ruleWords,
} from '../domain/programmes.ts';

const TAGS = ['trophies'];

// ------------------------------------------------------------------ schemas

const Votes = z
  .number()
  .describe(
    "Counted votes: the vote figure the week's ranking reported for the listing when the week ended (the figure the award was decided on).",
  );

const AwardRef = z.strictObject({
  week: WeekString,
  week_end: DateString.describe('The Sunday the week ends on.'),
  iso_week: z.string().describe('The ISO week, e.g. "2026-W47".'),
  rank: z.number().int().min(1).max(3).describe('1, 2 or 3.'),
  title: z.string().describe('"Launch of the Week #1" …'),
  votes: Votes,
  signed: z.boolean().describe('True when the award carries an Ed25519-signed statement (verify_award).'),
  verify_url: z.string().describe("The award's verification page on the website."),
  verification: z.string().describe('verify_award for this award (REST URL).'),
});

const HallEntry = z.strictObject({
  title: z.enum(['Launch of the Month', 'Launch of the Year']).describe('Which Hall of Fame title.'),
  period: z.string().describe('"2026-11" for a month, "2026" for a year.'),
  label: z.string().describe('The period in words, e.g. "November 2026".'),
  final: z.boolean().describe('False while the period has not ended: the listing leads it so far.'),
});

const EarnedBadge = z.strictObject({
  key: z.string().describe('The badge key (as get_badges names it).'),
  name: z.string().describe('The badge in words.'),
  earned_at: z
    .string()
    .nullable()
    .describe('When it was earned (ISO timestamp or date YYYY-MM-DD); null when no date is on record.'),
  svg_url: z.string().describe('Its image.'),
});

const ProgrammeRef = z.strictObject({
  slug: z.string().describe('The programme; get_programme takes it.'),
  name: z.string(),
  state: z.enum(['upcoming', 'open', 'ended']).describe('upcoming, open (entries accepted) or ended.'),
});

const ProgrammeResult = z.strictObject({
  programme: ProgrammeRef,
  entered_at: Timestamp,
  place: z
    .number()
    .int()
    .nullable()
    .describe('Its place among the winners once decided (1 = winner), or null (not placed, or not decided yet).'),
  decided: z.boolean().describe('True once the winners are known.'),
});

const CabinetMilestone = z.strictObject({
  date: DateString,
  title: z.string(),
  url: z.string().nullable(),
});

const Cabinet = z.strictObject({
  listing: ListingSummarySchema,
  cabinet_url: z.string().describe('The cabinet page on the website.'),
  counts: z.strictObject({
    awards: z.number().int().describe('Launch of the Week awards.'),
    firsts: z.number().int().describe('Of which #1.'),
    hall_of_fame: z.number().int().describe('Hall of Fame titles (final ones).'),
    badges: z.number().int(),
    programmes_entered: z.number().int(),
    programme_wins: z.number().int().describe('Programmes where it placed.'),
    milestones: z.number().int().describe('Milestones that count as trophies.'),
  }),
  awards: z.array(AwardRef).describe('Launch of the Week awards, newest first.'),
  hall_of_fame: z.array(HallEntry).describe('Launch of the Month / of the Year titles, newest first.'),
  badges: z.array(EarnedBadge).describe('Badges earned, with dates.'),
  programmes: z.array(ProgrammeResult).describe('Programmes entered and how it did.'),
  milestones: z
    .array(CabinetMilestone)
    .describe(
      'Milestones that count as trophies (titles naming customers, users, revenue, MRR/ARR, funding, downloads, stars, an award or a win, profitability or an acquisition), newest first.',
    ),
});

const ProgrammeRules = z.strictObject({
  launched_from: DateString.optional().describe('Launched on or after this date.'),
  launched_to: DateString.optional().describe('Launched on or before this date.'),
  categories: z
    .array(z.string())
    .optional()
    .describe('In one of these categories (slugs; a parent admits its subcategories).'),
  verified_only: z.boolean().optional().describe('Ownership of the listing must be verified.'),
});

const Programme = z.strictObject({
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  starts_on: DateString.describe('First day entries are accepted (UTC).'),
  ends_on: DateString.describe('Last day of the programme (UTC); votes during the period count for community_votes.'),
  state: z.enum(['upcoming', 'open', 'ended']),
  rules: ProgrammeRules.describe('The entry rules, as data.'),
  rule_words: z
    .array(z.strictObject({ rule: z.enum(RULE_NAMES), text: z.string() }))
    .describe('The entry rules in words; a refused entry names the rule it broke.'),
  winners: z.strictObject({
    rule: z.enum(WINNER_RULES).describe('community_votes or jury.'),
    count: z.number().int().describe('How many places are awarded.'),
    description: z.string().describe('How winners are chosen, in words.'),
  }),
  entries: z.number().int().describe('Live listings entered.'),
  url: z.string().describe('The programme page on the website.'),
});

const ProgrammeEntry = z.strictObject({
  listing: ListingSummarySchema,
  entered_at: Timestamp,
  period_votes: z.number().int().describe('Community votes cast for it during the programme period.'),
  place: z.number().int().nullable().describe('Its place once decided, else null.'),
});

const ProgrammeDetail = Programme.extend({
  entry_list: z.array(ProgrammeEntry).describe('Entries (live listings), earliest first.'),
  results: z.strictObject({
    decided: z.boolean().describe('True once the winners are known.'),
    winners: z.array(ProgrammeEntry).describe('The placed entries, by place.'),
  }),
});

const MyEntry = z.strictObject({
  id: z.number().int().describe('The entry.'),
  programme: ProgrammeRef,
  listing: ListingSummarySchema,
  entered_at: Timestamp,
  place: z.number().int().nullable(),
  decided: z.boolean(),
});

// ------------------------------------------------------------------ building results

const pageUrl = (ctx: Ctx, path: string) => ctx.config.publicUrl + path;

function awardRef(base: string, a: SignedAwardRow): z.input<typeof AwardRef> {
  return {
    week: a.week,
    week_end: addDays(a.week, 6),
    iso_week: isoWeekLabel(a.week),
    rank: a.rank,
    title: awardTitle(a.rank),
    votes: a.votes,
    signed: a.statement !== null,
    verify_url: base + awardPagePath(a.week, a.rank),
    verification: `${base}/api/v1${awardApiPath(a.week, a.rank)}`,
  };
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
export function periodLabel(period: string): string {
  return period.length === 4 ? period : `${MONTHS[Number(period.slice(5, 7)) - 1]} ${period.slice(0, 4)}`;
}

function hallEntry(w: PeriodWinner, title: 'Launch of the Month' | 'Launch of the Year'): z.input<typeof HallEntry> {
  return { title, period: w.period, label: periodLabel(w.period), final: w.final };
}

/** Results of the programmes entries belong to: place is the jury's, or (community votes) by votes once ended. */
function placesOf(p: ProgrammeRow, entries: readonly EntryRow[], today: string): Map<number, number> {
  const places = new Map<number, number>();
  if (programmeState(p, today) !== 'ended') return places;
  if (p.winners === 'jury') {
    for (const e of entries) if (e.place !== null) places.set(e.id, e.place);
    return places;
  }
  const ranked = entries
    .filter((e) => e.period_votes > 0)
    .sort((a, b) => b.period_votes - a.period_votes || (a.created_at < b.created_at ? -1 : 1) || a.id - b.id);
  ranked.slice(0, p.winners_count).forEach((e, i) => places.set(e.id, i + 1));
  return places;
}

function decidedOf(p: ProgrammeRow, entries: readonly EntryRow[], today: string): boolean {
  if (programmeState(p, today) !== 'ended') return false;
  return p.winners === 'community_votes' || entries.some((e) => e.place !== null);
}

const todayOf = (ctx: Ctx) => toDateString(ctx.now());

function programmeOut(ctx: Ctx, p: ProgrammeRow): z.input<typeof Programme> {
  return {
    slug: p.slug,
    name: p.name,
    description: p.description,
    starts_on: p.starts_on,
    ends_on: p.ends_on,
    state: programmeState(p, todayOf(ctx)),
    rules: p.rules,
    rule_words: ruleWords(p),
    winners: { rule: p.winners, count: p.winners_count, description: WINNER_RULE_WORDS[p.winners] },
    entries: p.entries,
    url: pageUrl(ctx, `/programmes/${p.slug}`),
  };
}

/** Cabinets of live listings, in the given order. */
async function cabinets(ctx: Ctx, listings: readonly CabinetListing[]): Promise<Array<z.input<typeof Cabinet>>> {
  const base = ctx.config.publicUrl;
  const ids = listings.map((l) => l.id);
  const awards = await awardsOf(ctx.db, ids);
  const hof = hallOfFame(await weeklyResults(ctx.db), ctx.now());
  const milestones = await milestonesOf(ctx.db, ids);
  const entries = await entriesOf(ctx.db, { listingIds: ids });
  const programmes = new Map<number, ProgrammeRow>();
  for (const e of entries)
    if (!programmes.has(e.programme_id)) {
      const p = await programmeById(ctx.db, e.programme_id);
      if (p) programmes.set(p.id, p);
    }
  const today = todayOf(ctx);
  const placeOf = new Map<number, number>();
  const decided = new Map<number, boolean>();
  for (const p of programmes.values()) {
    const all = await entriesOf(ctx.db, { programmeIds: [p.id] });
    for (const [id, place] of placesOf(p, all, today)) placeOf.set(id, place);
    decided.set(p.id, decidedOf(p, all, today));
  }
  return listings.map((l) => {
    const mine = awards.filter((a) => a.listing_id === l.id);
    const hall = [
      ...hof.years.filter((w) => w.listing_id === l.id).map((w) => hallEntry(w, 'Launch of the Year')),
      ...hof.months.filter((w) => w.listing_id === l.id).map((w) => hallEntry(w, 'Launch of the Month')),
    ];
    const badge = (key: BadgeKind, earned_at: string | null) => ({
      key,
      name: badgeText(key).sentence,
      earned_at,
      svg_url: badgeSvgUrl(base, l.summary.slug, key, DEFAULT_STYLE),
    });
    const badges = [badge('listed', l.created_at), badge('launched', l.summary.launched_at)];
    if (l.unlocked.includes('featured')) badges.push(badge('featured', l.featured_at));
    if (l.verified_at) badges.push(badge('verified', l.verified_at));
    for (const rank of [3, 2, 1] as const) {
      const first = mine.filter((a) => a.rank === rank).at(-1);
      if (first) badges.push(badge(`launch_of_the_week_${rank}`, addDays(first.week, 6)));
    }
    const progs = entries
      .filter((e) => e.listing_id === l.id)
      .flatMap((e) => {
        const p = programmes.get(e.programme_id);
        if (!p) return [];
        return [
          {
            programme: { slug: p.slug, name: p.name, state: programmeState(p, today) },
            entered_at: e.created_at,
            place: placeOf.get(e.id) ?? null,
            decided: decided.get(p.id) ?? false,
          },
        ];
      });
    const trophyMilestones = milestones
      .filter((m) => m.listing_id === l.id && isTrophyMilestone(m.title))
      .map((m) => ({ date: m.date, title: m.title, url: m.url }));
    return {
      listing: l.summary,
      cabinet_url: `${base}/listings/${l.summary.slug}/trophies`,
      counts: {
        awards: mine.length,
        firsts: mine.filter((a) => a.rank === 1).length,
        hall_of_fame: hall.filter((h) => h.final).length,
        badges: badges.length,
        programmes_entered: progs.length,
        programme_wins: progs.filter((p) => p.place !== null).length,
        milestones: trophyMilestones.length,
      },
      awards: mine.map((a) => awardRef(base, a)),
      hall_of_fame: hall,
      badges,
      programmes: progs,
      milestones: trophyMilestones,
    };
  });
}

// ------------------------------------------------------------------ examples

const EX_BASE = 'https://launchlist.example';
const EX_AWARD: z.input<typeof AwardRef> = {
  week: '2026-11-16',
  week_end: '2026-11-22',
  iso_week: '2026-W47',
  rank: 1,
  title: 'Launch of the Week #1',
  votes: 96,
  signed: true,
  verify_url: `${EX_BASE}/awards/2026-11-16/1`,
  verification: `${EX_BASE}/api/v1/awards/2026-11-16/1/verification`,
};
const EX_CABINET: z.input<typeof Cabinet> = {
  listing: EXAMPLE_SUMMARY,
  cabinet_url: `${EX_BASE}/listings/funnelry/trophies`,
  counts: {
    awards: 1,
    firsts: 1,
    hall_of_fame: 1,
    badges: 3,
    programmes_entered: 1,
    programme_wins: 1,
    milestones: 1,
  },
  awards: [EX_AWARD],
  hall_of_fame: [{ title: 'Launch of the Month', period: '2026-11', label: 'November 2026', final: true }],
  badges: [
    {
      key: 'listed',
      name: 'Listed on Launchlist',
      earned_at: '2026-11-02T10:00:00.000Z',
      svg_url: `${EX_BASE}/badges/funnelry/listed.svg?shape=standard&mode=light&size=m`,
    },
    {
      key: 'launched',
      name: 'Launched on Launchlist',
      earned_at: '2026-11-16T09:00:00.000Z',
      svg_url: `${EX_BASE}/badges/funnelry/launched.svg?shape=standard&mode=light&size=m`,
    },
    {
      key: 'launch_of_the_week_1',
      name: 'Launch of the Week #1',
      earned_at: '2026-11-22',
      svg_url: `${EX_BASE}/badges/funnelry/launch_of_the_week_1.svg?shape=standard&mode=light&size=m`,
    },
  ],
  programmes: [
    {
      programme: { slug: 'class-of-2026', name: 'Class of 2026', state: 'ended' },
      entered_at: '2026-11-17T08:00:00.000Z',
      place: 1,
      decided: true,
    },
  ],
  milestones: [{ date: '2026-10-01', title: '1,000 paying customers', url: null }],
};
const EX_PROGRAMME: z.input<typeof Programme> = {
  slug: 'class-of-2026',
  name: 'Class of 2026',
  description: 'The best products launched this year, chosen by the community.',
  starts_on: '2026-11-01',
  ends_on: '2026-12-31',
  state: 'open',
  rules: { launched_from: '2026-01-01', launched_to: '2026-12-31' },
  rule_words: [
    { rule: 'period', text: 'Entries are open from 2026-11-01 to 2026-12-31 (UTC).' },
    { rule: 'live', text: 'The listing is live on Launchlist and yours.' },
    { rule: 'launched_from', text: 'Launched in 2026.' },
  ],
  winners: { rule: 'community_votes', count: 3, description: WINNER_RULE_WORDS.community_votes },
  entries: 12,
  url: `${EX_BASE}/programmes/class-of-2026`,
};
const EX_STATEMENT = {
  typ: STATEMENT_TYPE,
  award: 'launch_of_the_week',
  title: 'Launch of the Week #1',
  week: '2026-11-16',
  iso_week: '2026-W47',
  rank: 1,
  listing: { id: 12, slug: 'funnelry', name: 'Funnelry' },
  votes: 96,
  snapshot_sha256: '9f2c4b7a1e0d3c5b8a6f4e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b',
  issued_at: '2026-11-23T00:05:00.000Z',
  kid: 'Xk3vQe9yT1c2Hq0pL4m8N7bR5sW6uZ1aB2cD3eF4gH8',
} as const;

// ------------------------------------------------------------------ operations

const CABINET_TEXT =
  'A cabinet holds: `awards` (Launch of the Week #1–#3, each with `signed`, its `verify_url` page and the `verification` URL of verify_award), `hall_of_fame` (Launch of the Month / of the Year titles by the Hall of Fame rule, `final` false while the period runs), `badges` earned with dates, `programmes` entered with their `place` once decided, and `milestones` that count as trophies (titles naming customers, users, revenue, MRR/ARR, funding, downloads, stars, an award or a win, profitability or an acquisition), plus `counts` of each.';

export const getTrophyCabinet = defineOperation({
  name: 'get_trophy_cabinet',
  method: 'GET',
  cacheMs: 1000,
  path: '/listings/{slug}/trophies',
  access: 'public',
  tags: TAGS,
  summary: "A listing's trophy cabinet",
  description: [
    "Everything a live listing has won or earned on Launchlist, in one answer. Use it to show a product's achievements; every award in it can be checked with verify_award. A listing that is not live answers 404.",
    CABINET_TEXT,
  ].join('\n\n'),
  params: z.object({ slug: Slug }),
  response: Cabinet,
  examples: { response: EX_CABINET },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => {
    const l = await cabinetListing(ctx.db, input.slug);
    if (!l) return notFound('live listing', input.slug);
    return (await cabinets(ctx, [l]))[0];
  },
});

export const getFounderTrophyCabinet = defineOperation({
  name: 'get_founder_trophy_cabinet',
  method: 'GET',
  cacheMs: 1000,
  path: '/founders/{slug}/trophies',
  access: 'public',
  tags: TAGS,
  summary: "A founder's trophy cabinet",
  description: [
    "The trophy cabinets of every live listing a founder is behind, with the founder's totals. A founder with no live listing answers 404.",
    "Returns `{founder: {slug, name, title, avatar_url}, counts: {…totals of the cabinets}, cabinets: [cabinet]}`, each cabinet as get_trophy_cabinet answers it, the founder's listings in their order.",
    CABINET_TEXT,
  ].join('\n\n'),
  params: z.object({ slug: Slug }),
  response: z.strictObject({
    founder: z.strictObject({
      slug: z.string(),
      name: z.string(),
      title: z.string().nullable(),
      avatar_url: z.string().nullable(),
    }),
    cabinet_url: z.string().describe('The founder cabinet page on the website.'),
    counts: Cabinet.shape.counts.describe('Totals over the cabinets.'),
    cabinets: z.array(Cabinet).describe("One per live listing of the founder's."),
  }),
  examples: {
    response: {
      founder: { slug: 'ada-lovelace', name: 'Ada Lovelace', title: 'Founder', avatar_url: null },
      cabinet_url: `${EX_BASE}/founders/ada-lovelace/trophies`,
      counts: EX_CABINET.counts,
      cabinets: [EX_CABINET],
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => {
    const f = await founderWithListings(ctx.db, input.slug);
    if (!f) return notFound('founder', input.slug);
    const listings: CabinetListing[] = [];
    const slugs = await summariesByIds(ctx.db, f.listing_ids);
    for (const id of f.listing_ids) {
      const s = slugs.get(id);
      const l = s && (await cabinetListing(ctx.db, s.slug));
      if (l) listings.push(l);
    }
    const cs = await cabinets(ctx, listings);
    const counts = {
      awards: 0,
      firsts: 0,
      hall_of_fame: 0,
      badges: 0,
      programmes_entered: 0,
      programme_wins: 0,
      milestones: 0,
    };
    for (const c of cs) for (const k of Object.keys(counts) as Array<keyof typeof counts>) counts[k] += c.counts[k];
    return {
      founder: { slug: f.slug, name: f.name, title: f.title, avatar_url: f.avatar_url },
      cabinet_url: `${ctx.config.publicUrl}/founders/${f.slug}/trophies`,
      counts,
      cabinets: cs,
    };
  },
});

const BoardItem = z.strictObject({
  rank: z.number().int().describe('Position on this board (1-based, across pages).'),
  listing: ListingSummarySchema,
  trophies: z
    .number()
    .int()
    .describe('All trophies counted here: awards + hall_of_fame + programme_places (the order of the board).'),
  awards: z.number().int().describe('Launch of the Week awards won.'),
  firsts: z.number().int().describe('Of which #1.'),
  seconds: z.number().int().describe('Of which #2.'),
  thirds: z.number().int().describe('Of which #3.'),
  hall_of_fame: z.number().int().describe('Final Launch of the Month and Launch of the Year titles.'),
  programme_places: z.number().int().describe('Places won in programmes whose results are decided.'),
});

interface BoardRow {
  listing_id: number;
  trophies: number;
  awards: number;
  firsts: number;
  seconds: number;
  thirds: number;
  hall_of_fame: number;
  programme_places: number;
}

/** Every trophy of live listings, with the year it counts in (the award week's ISO year, the title's period, the programme's end). */
async function allTrophies(
  ctx: Ctx,
): Promise<Array<{ listing_id: number; year: string; kind: 'award' | 'hof' | 'programme'; rank: number }>> {
  const out: Array<{ listing_id: number; year: string; kind: 'award' | 'hof' | 'programme'; rank: number }> = [];
  const awards = await awardsOf(ctx.db);
  for (const a of awards) out.push({ listing_id: a.listing_id, year: yearOfWeek(a.week), kind: 'award', rank: a.rank });
  const hof = hallOfFame(
    awards.map((a) => ({ week: a.week, rank: a.rank, listing_id: a.listing_id, votes: a.votes })),
    ctx.now(),
  );
  for (const w of [...hof.months, ...hof.years])
    if (w.final) out.push({ listing_id: w.listing_id, year: w.period.slice(0, 4), kind: 'hof', rank: 1 });
  const today = todayOf(ctx);
  for (const p of await listProgrammeRows(ctx.db)) {
    if (programmeState(p, today) !== 'ended') continue;
    const entries = await entriesOf(ctx.db, { programmeIds: [p.id] });
    const places = placesOf(p, entries, today);
    for (const e of entries) {
      const place = places.get(e.id);
      if (place !== undefined)
        out.push({ listing_id: e.listing_id, year: p.ends_on.slice(0, 4), kind: 'programme', rank: place });
    }
  }
  return out;
}

/** Orders a trophy board: more trophies, then more #1 awards, more Hall of Fame titles, more programme places, more #2, more #3, then the lower id. */
function compareBoard(a: BoardRow, b: BoardRow): number {
  return (
    b.trophies - a.trophies ||
    b.firsts - a.firsts ||
    b.hall_of_fame - a.hall_of_fame ||
    b.programme_places - a.programme_places ||
    b.seconds - a.seconds ||
    b.thirds - a.thirds ||
    a.listing_id - b.listing_id
  );
}

export const getTrophyLeaderboard = defineOperation({
  name: 'get_trophy_leaderboard',
  method: 'GET',
  cacheMs: 1000,
  path: '/trophies/leaderboard',
  access: 'public',
  tags: TAGS,
  summary: 'Listings with the most trophies',
  description: [
    'Live listings by trophies won: Launch of the Week awards, final Hall of Fame titles (Launch of the Month, Launch of the Year) and places in decided programmes. All-time by default; in one year (`year`: the ISO week-numbering year of an award week, the year of a Hall of Fame period, the year a programme ended); in one category (`category`: a category slug; a parent category counts its subcategories); or both. Order: more trophies, then more #1 awards, more Hall of Fame titles, more programme places, more #2, more #3. An unknown category answers 404. A listing launches in one week, so it can win one Launch of the Week award; the other trophies are what set the leaders apart.',
    'Returns `{items: [{rank, listing, trophies, awards, firsts, seconds, thirds, hall_of_fame, programme_places}], page, per_page, total, has_more, year, category, years}` (`years`: the years that have trophies, newest first, for choosing one).',
  ].join('\n\n'),
  query: z.object({
    year: z.coerce.number().int().min(2000).max(9998).optional().describe('Only trophies of this year.'),
    category: Slug.optional().describe('Only listings in this category.'),
    ...Pagination,
  }),
  response: Paged(BoardItem).extend({
    year: z.number().int().nullable().describe('The year asked for, or null (all-time).'),
    category: z.string().nullable().describe('The category asked for, or null.'),
    years: z.array(z.string()).describe('Years that have trophies, newest first.'),
  }),
  examples: {
    response: {
      items: [
        {
          rank: 1,
          listing: EXAMPLE_SUMMARY,
          trophies: 3,
          awards: 1,
          firsts: 1,
          seconds: 0,
          thirds: 0,
          hall_of_fame: 1,
          programme_places: 1,
        },
      ],
      page: 1,
      per_page: 20,
      total: 1,
      has_more: false,
      year: null,
      category: null,
      years: ['2026'],
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: true,
  handler: async (ctx, input) => {
    if (input.category !== undefined && !(await categoryExists(ctx.db, input.category)))
      return notFound('category', input.category);
    const all = await allTrophies(ctx);
    const years = [...new Set(all.map((x) => x.year))].sort().reverse();
    let trophies = input.year === undefined ? all : all.filter((x) => x.year === String(input.year));
    if (input.category !== undefined) {
      const inCategory = await listingsInCategory(ctx.db, input.category, [
        ...new Set(trophies.map((x) => x.listing_id)),
      ]);
      trophies = trophies.filter((x) => inCategory.has(x.listing_id));
    }
    const rows = new Map<number, BoardRow>();
    for (const x of trophies) {
      let r = rows.get(x.listing_id);
      if (!r)
        rows.set(
          x.listing_id,
          (r = {
            listing_id: x.listing_id,
            trophies: 0,
            awards: 0,
            firsts: 0,
            seconds: 0,
            thirds: 0,
            hall_of_fame: 0,
            programme_places: 0,
          }),
        );
      r.trophies += 1;
      if (x.kind === 'award') {
        r.awards += 1;
        if (x.rank === 1) r.firsts += 1;
        else if (x.rank === 2) r.seconds += 1;
        else r.thirds += 1;
      } else if (x.kind === 'hof') r.hall_of_fame += 1;
      else r.programme_places += 1;
    }
    const sorted = [...rows.values()].sort(compareBoard);
    const offset = offsetOf(input);
    const pageRows = sorted.slice(offset, offset + input.per_page);
    const summaries = await summariesByIds(
      ctx.db,
      pageRows.map((r) => r.listing_id),
    );
    const items = pageRows.flatMap(({ listing_id, ...counts }, i) => {
      const listing = summaries.get(listing_id);
      return listing ? [{ rank: offset + i + 1, listing, ...counts }] : [];
    });
    return {
      ...paged(items, sorted.length, input),
      year: input.year ?? null,
      category: input.category ?? null,
      years,
    };
  },
});

const HallWinner = z.strictObject({
  period: z.string().describe('"2026-11" (month) or "2026" (year).'),
  label: z.string().describe('"November 2026" or "2026".'),
  final: z.boolean().describe('False while the period runs: the leader so far.'),
  listing: ListingSummarySchema,
  points: z.number().int().describe('Award points in the period (#1 = 3, #2 = 2, #3 = 1).'),
  firsts: z.number().int(),
  votes: z.number().describe('Counted votes summed over the awards that counted.'),
  award_weeks: z.array(WeekString).describe('The weeks of the awards that counted, oldest first.'),
});

export const getHallOfFame = defineOperation({
  name: 'get_hall_of_fame',
  method: 'GET',
  cacheMs: 1000,
  path: '/hall-of-fame',
  access: 'public',
  tags: TAGS,
  summary: 'Hall of Fame: Launch of the Week #1s, Launch of the Month and of the Year',
  description: [
    'Every Launch of the Week #1, and the Launch of the Month and Launch of the Year computed from the weekly results alone by a published rule (in `rule`). Newest first.',
    `The rule: ${HALL_OF_FAME_RULE}`,
    'Returns `{rule, weeks: [{award (as in a cabinet), listing}], months: [{period, label, final, listing, points, firsts, votes, award_weeks}], years: [same]}`.',
  ].join('\n\n'),
  response: z.strictObject({
    rule: z.string().describe('The Hall of Fame rule in words.'),
    weeks: z
      .array(z.strictObject({ award: AwardRef, listing: ListingSummarySchema }))
      .describe('Every Launch of the Week #1, newest first.'),
    months: z.array(HallWinner).describe('Launch of the Month, newest first.'),
    years: z.array(HallWinner).describe('Launch of the Year, newest first.'),
  }),
  examples: {
    response: {
      rule: HALL_OF_FAME_RULE,
      weeks: [{ award: EX_AWARD, listing: EXAMPLE_SUMMARY }],
      months: [
        {
          period: '2026-11',
          label: 'November 2026',
          final: false,
          listing: EXAMPLE_SUMMARY,
          points: 6,
          firsts: 2,
          votes: 180,
          award_weeks: ['2026-11-09', '2026-11-16'],
        },
      ],
      years: [],
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx) => {
    const awards = await awardsOf(ctx.db);
    const hof = hallOfFame(
      awards.map((a) => ({ week: a.week, rank: a.rank, listing_id: a.listing_id, votes: a.votes })),
      ctx.now(),
    );
    const summaries = await summariesByIds(ctx.db, [
      ...hof.weeks.map((w) => w.listing_id),
      ...hof.months.map((w) => w.listing_id),
      ...hof.years.map((w) => w.listing_id),
    ]);
    const base = ctx.config.publicUrl;
    const winner = (w: PeriodWinner) => {
      const listing = summaries.get(w.listing_id);
      return listing
        ? [
            {
              period: w.period,
              label: periodLabel(w.period),
              final: w.final,
              listing,
              points: w.points,
              firsts: w.firsts,
              votes: w.votes,
              award_weeks: w.weeks,
            },
          ]
        : [];
    };
    return {
      rule: HALL_OF_FAME_RULE,
      weeks: hof.weeks.flatMap((w) => {
        const a = awards.find((x) => x.week === w.week && x.rank === 1);
        const listing = summaries.get(w.listing_id);
        return a && listing ? [{ award: awardRef(base, a), listing }] : [];
      }),
      months: hof.months.flatMap(winner),
      years: hof.years.flatMap(winner),
    };
  },
});

export const listProgrammes = defineOperation({
  name: 'list_programmes',
  method: 'GET',
  cacheMs: 1000,
  path: '/programmes',
  access: 'public',
  tags: TAGS,
  summary: 'Programmes a listing can enter',
  description: [
    'Programmes defined by the site team: a name, a period, entry rules (e.g. launched in 2026, in given categories), and how winners are chosen (`community_votes`: most votes cast during the period; `jury`: the site team picks). Latest period first. Enter a listing with enter_programme while a programme is `open`.',
    'Returns `{items: [{slug, name, description, starts_on, ends_on, state, rules, rule_words: [{rule, text}], winners: {rule, count, description}, entries, url}]}`.',
  ].join('\n\n'),
  response: z.strictObject({ items: z.array(Programme) }),
  examples: { response: { items: [EX_PROGRAMME] } },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx) => ({ items: (await listProgrammeRows(ctx.db)).map((p) => programmeOut(ctx, p)) }),
});

async function programmeDetail(ctx: Ctx, p: ProgrammeRow): Promise<z.input<typeof ProgrammeDetail>> {
  const entries = await entriesOf(ctx.db, { programmeIds: [p.id] });
  const today = todayOf(ctx);
  const places = placesOf(p, entries, today);
  const summaries = await summariesByIds(
    ctx.db,
    entries.map((e) => e.listing_id),
  );
  const out = entries.flatMap((e) => {
    const listing = summaries.get(e.listing_id);
    return listing
      ? [{ id: e.id, listing, entered_at: e.created_at, period_votes: e.period_votes, place: places.get(e.id) ?? null }]
      : [];
  });
  const strip = ({ id: _, ...e }: (typeof out)[number]) => e;
  return {
    ...programmeOut(ctx, p),
    entry_list: out.map(strip),
    results: {
      decided: decidedOf(p, entries, today),
      winners: out
        .filter((e) => e.place !== null)
        .sort((a, b) => (a.place ?? 0) - (b.place ?? 0))
        .map(strip),
    },
  };
}

export const getProgramme = defineOperation({
  name: 'get_programme',
  method: 'GET',
  cacheMs: 1000,
  path: '/programmes/{slug}',
  access: 'public',
  tags: TAGS,
  summary: 'A programme, its entries and results',
  description: [
    'One programme with its entry rules, its entries (live listings, earliest first, with the community votes cast for each during the period) and its results. Results are decided when the period has ended: for `community_votes` the entries with the most votes in the period (ties: the earlier entry), for `jury` the places the site team set.',
    'Returns the programme as list_programmes does, plus `entry_list: [{listing, entered_at, period_votes, place}]` and `results: {decided, winners: [entry]}`.',
  ].join('\n\n'),
  params: z.object({ slug: Slug }),
  response: ProgrammeDetail,
  examples: {
    response: {
      ...EX_PROGRAMME,
      entry_list: [{ listing: EXAMPLE_SUMMARY, entered_at: '2026-11-17T08:00:00.000Z', period_votes: 41, place: null }],
      results: { decided: false, winners: [] },
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => {
    const p = await programmeBySlug(ctx.db, input.slug);
    if (!p) return notFound('programme', input.slug);
    return programmeDetail(ctx, p);
  },
});

export const enterProgramme = defineOperation({
  name: 'enter_programme',
  method: 'POST',
  path: '/programmes/{slug}/entries',
  access: 'listings:write',
  tags: TAGS,
  summary: 'Enter one of your listings in a programme',
  description: [
    "Enters a listing the caller owns (`listing_id`, from list_my_listings) in a programme. The listing must meet every entry rule of the programme (its `rule_words`): entries are open (between `starts_on` and `ends_on`), the listing is live, and the programme's own rules (launch dates, categories, verified ownership). When it does not, the answer is 409 `conflict` whose message says which rule and why, and whose `details[0].path` is `rules.<rule>` (period, live, launched_from, launched_to, categories or verified_only). Another person's listing, or none, is 404. Entering again is harmless: the existing entry is answered with `created: false`. Send an Idempotency-Key to make retries safe.",
    'Returns `{created, entry: {id, programme: {slug, name, state}, listing, entered_at, place, decided}}` (status 201).',
  ].join('\n\n'),
  params: z.object({ slug: Slug }),
  body: z.strictObject({ listing_id: Id.describe('The listing to enter (one of yours).') }),
  response: z.strictObject({
    created: z.boolean().describe('False when the listing had already been entered.'),
    entry: MyEntry,
  }),
  examples: {
    request: { listing_id: 12 },
    response: {
      created: true,
      entry: {
        id: 4,
        programme: { slug: 'class-of-2026', name: 'Class of 2026', state: 'open' },
        listing: EXAMPLE_SUMMARY,
        entered_at: '2026-11-24T10:00:00.000Z',
        place: null,
        decided: false,
      },
    },
  },
  status: 201,
  idempotencyKey: true,
  paginated: false,
  handler: async (ctx, input) => {
    const user = userOf(ctx);
    const p = await programmeBySlug(ctx.db, input.slug);
    if (!p) return notFound('programme', input.slug);
    const facts = await entryFacts(ctx.db, input.listing_id, user.userId);
    if (!facts) return notFound('listing', input.listing_id);
    const today = todayOf(ctx);
    const refusal = entryRefusal(p, facts, today);
    if (refusal)
      throw new ApiError(
        'conflict',
        `This listing may not enter ${p.name}: ${refusal.message} (rule "${refusal.rule}").`,
        [{ path: `rules.${refusal.rule}`, message: refusal.message }],
      );
    const e = await insertEntry(ctx.db, p.id, input.listing_id, user.userId, ctx.now());
    const listing = (await summariesByIds(ctx.db, [input.listing_id])).get(input.listing_id) as ListingSummary;
    return {
      created: e.created,
      entry: {
        id: e.id,
        programme: { slug: p.slug, name: p.name, state: programmeState(p, today) },
        listing,
        entered_at: e.created_at,
        place: null,
        decided: false,
      },
    };
  },
});

export const listMyProgrammeEntries = defineOperation({
  name: 'list_my_programme_entries',
  method: 'GET',
  path: '/me/programme-entries',
  access: 'account:read',
  tags: TAGS,
  summary: "Your listings' programme entries",
  description:
    'Every programme entry of the listings the caller owns (any status), earliest first, with the place once decided. Returns `{items: [{id, programme: {slug, name, state}, listing, entered_at, place, decided}]}`.',
  response: z.strictObject({ items: z.array(MyEntry) }),
  examples: {
    response: {
      items: [
        {
          id: 4,
          programme: { slug: 'class-of-2026', name: 'Class of 2026', state: 'open' },
          listing: EXAMPLE_SUMMARY,
          entered_at: '2026-11-24T10:00:00.000Z',
          place: null,
          decided: false,
        },
      ],
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx) => {
    const user = userOf(ctx);
    const mine = await entriesOf(ctx.db, { userId: user.userId });
    const today = todayOf(ctx);
    const summaries = await summariesByIds(
      ctx.db,
      mine.map((e) => e.listing_id),
    );
    const items: Array<z.input<typeof MyEntry>> = [];
    for (const pid of new Set(mine.map((e) => e.programme_id))) {
      const p = await programmeById(ctx.db, pid);
      if (!p) continue;
      const all = await entriesOf(ctx.db, { programmeIds: [pid] });
      const places = placesOf(p, all, today);
      const decided = decidedOf(p, all, today);
      for (const e of mine.filter((x) => x.programme_id === pid)) {
        const listing = summaries.get(e.listing_id);
        if (!listing) continue;
        items.push({
          id: e.id,
          programme: { slug: p.slug, name: p.name, state: programmeState(p, today) },
          listing,
          entered_at: e.created_at,
          place: places.get(e.id) ?? null,
          decided,
        });
      }
    }
    items.sort((a, b) => (a.entered_at < b.entered_at ? -1 : a.entered_at > b.entered_at ? 1 : a.id - b.id));
    return { items };
  },
});

const Decoded = z.strictObject({
  typ: z.literal(STATEMENT_TYPE).describe('The statement format.'),
  award: z.string().describe('"launch_of_the_week".'),
  title: z.string(),
  week: WeekString,
  iso_week: z.string(),
  rank: z.number().int(),
  listing: z
    .strictObject({ id: z.number().int(), slug: z.string(), name: z.string() })
    .describe('The winner as named when signed.'),
  votes: Votes,
  snapshot_sha256: z.string().describe("SHA-256 (hex) of the week's frozen ranking in its canonical form."),
  issued_at: Timestamp.describe('When the award was decided and signed.'),
  kid: z.string().describe('The signing key.'),
});

export const verifyAward = defineOperation({
  name: 'verify_award',
  method: 'GET',
  cacheMs: 1000,
  path: '/awards/{week}/{rank}/verification',
  access: 'public',
  tags: TAGS,
  summary: 'Verify a signed award',
  description: [
    `Launch of the Week awards are signed when their week ends: the awards job freezes the week's final ranking as a snapshot (its canonical text and SHA-256) and signs a statement of each award with Ed25519. The public keys are published as a JWKS (OKP/Ed25519, by \`kid\`) at ${AWARD_KEYS_PATH}; retired keys stay there. This answers an award's exact signed statement and signature, checks them here (\`valid\`), and decodes the statement. Anyone can check it offline with only the JWKS: take the key whose \`kid\` matches, decode \`statement\` and \`signature\` from base64url, and verify the signature over the statement bytes as they are (never re-serialise the JSON). A changed byte fails. The snapshot's canonical text is included so its hash can be recomputed.`,
    '`week` is the Monday of the launch week (any date of the week is accepted), `rank` 1, 2 or 3. An award that does not exist is 404; one decided before awards were signed answers 404 until the awards job has signed it.',
    'Returns `{valid, kid, statement, signature, decoded: {typ, award, title, week, iso_week, rank, listing: {id, slug, name}, votes, snapshot_sha256, issued_at, kid}, snapshot: {sha256, canonical, matches}, jwks_url, verify_url, listing}`.',
  ].join('\n\n'),
  params: z.object({
    week: IsoDate.describe('The Monday of the launch week (YYYY-MM-DD); another day of the week snaps to it.'),
    rank: z.coerce.number().int().min(1).max(3).describe('1, 2 or 3.'),
  }),
  response: z.strictObject({
    valid: z
      .boolean()
      .describe('True when the signature verifies with the published key `kid` over the statement bytes.'),
    kid: z.string().describe('Key id of the signing key in the JWKS.'),
    statement: z
      .string()
      .describe('base64url (no padding) of the exact signed bytes: UTF-8 JSON, format in the README.'),
    signature: z.string().describe('base64url of the 64-byte Ed25519 signature.'),
    decoded: Decoded.describe('The statement, decoded.'),
    snapshot: z.strictObject({
      sha256: z.string().describe('SHA-256 (hex) of `canonical`.'),
      canonical: z
        .string()
        .describe(
          "The week's frozen ranking in canonical form (one line per launch: rank, listing id, slug, counted votes).",
        ),
      matches: z.boolean().describe("True when sha256(canonical) equals the statement's snapshot_sha256."),
    }),
    jwks_url: z.string().describe('The published award keys (JWKS).'),
    verify_url: z.string().describe('The verification page on the website.'),
    listing: ListingSummarySchema.nullable().describe('The winning listing now, or null when it is no longer public.'),
  }),
  examples: {
    response: {
      valid: true,
      kid: EX_STATEMENT.kid,
      statement: Buffer.from(JSON.stringify(EX_STATEMENT)).toString('base64url'),
      signature: 'q5bH1m0r2d0pUeJf3X4n0R6lQy8w1g3t5k7j9s0a2c4e6g8i0k2m4o6q8s0u2w4y6A8C0E2G4I6K8M0O2Q4S6UA',
      decoded: EX_STATEMENT,
      snapshot: {
        sha256: EX_STATEMENT.snapshot_sha256,
        canonical: 'launchlist-ranking-snapshot/1\nkind launch_of_the_week\nweek 2026-11-16\n1\t12\tfunnelry\t96\n',
        matches: true,
      },
      jwks_url: `${EX_BASE}${AWARD_KEYS_PATH}`,
      verify_url: `${EX_BASE}/awards/2026-11-16/1`,
      listing: EXAMPLE_SUMMARY,
    },
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => {
    const week = mondayOf(input.week);
    const a = await awardAt(ctx.db, week, input.rank);
    if (!a) return notFound('award', `${week} #${input.rank}`);
    if (!a.statement || !a.signature || !a.kid)
      throw new ApiError(
        'not_found',
        `The award ${week} #${input.rank} has not been signed yet: the awards job signs it on its next run.`,
      );
    const bytes = Buffer.from(a.statement, 'base64url');
    const decoded = parseStatement(bytes.toString('utf8'));
    if (!decoded) throw new ApiError('internal', 'The stored statement could not be read.');
    const key = (await publicKeys(ctx.db)).find((k) => k.jwk.kid === a.kid);
    const valid = key ? verifyBytes(key.jwk, bytes, a.signature) : false;
    const canonical = a.snapshot ?? '';
    const listing = (await summariesByIds(ctx.db, [a.listing_id])).get(a.listing_id);
    const base = ctx.config.publicUrl;
    return {
      valid,
      kid: a.kid,
      statement: a.statement,
      signature: a.signature,
      decoded,
      snapshot: {
        sha256: a.snapshot_hash ?? '',
        canonical,
        matches: sha256Hex(canonical) === decoded.snapshot_sha256,
      },
      jwks_url: base + AWARD_KEYS_PATH,
      verify_url: base + awardPagePath(week, input.rank),
      listing: listing && listing.status === 'live' ? listing : null,
    };
  },
});
