import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineOperation } from './define.ts';
import { notFound } from './errors.ts';
import { ListingSummary as ListingSummarySchema, Slug, WeekString } from './schemas.ts';
import { EXAMPLE_SUMMARY } from './examples.ts';
import type { DB } from '../store/types.ts';
import { fromJson } from '../store/json.ts';
import {
  PUBLIC_STATUSES,
  summaryQuery,
  toSummary,
  type ListingSummary,
  type SummaryRow,
} from '../store/repos/summary.ts';
import { awardsOfListing } from '../store/repos/awards.ts';
import {
  BADGE_KINDS,
  BADGE_MODES,
  BADGE_SHAPES,
  BADGE_SIZES,
  DEFAULT_STYLE,
  badgeDimensions,
  badgeEmbedHtml,
  badgeMarkdown,
  badgeSvgUrl,
  badgeText,
  listingPageUrl,
  type BadgeKind,
  type BadgeStyle,
} from '../domain/badges.ts';
import { isoWeekLabel } from '../domain/weeks.ts';
import { awardPagePath } from '../domain/award-statement.ts';

/** An object with one entry per key, in the keys' order. */
function keyed<K extends string, V>(keys: readonly K[], value: (key: K) => V): Record<K, V> {
  // Object.fromEntries() types its keys as string; every key of `keys` is there, so the record is complete.
  return Object.fromEntries(keys.map((k) => [k, value(k)])) as Record<K, V>;
}

const Style = z.strictObject({
  shape: z.enum(BADGE_SHAPES).describe('standard, outline, pill, banner or square.'),
  mode: z.enum(BADGE_MODES).describe("light, dark, or auto (follows the visitor's colour scheme)."),
  size: z.enum(BADGE_SIZES).describe('s, m or l.'),
});

const BadgeAward = z.strictObject({
  week: WeekString,
  iso_week: z.string().describe('The ISO week, e.g. "2026-W47".'),
  votes: z
    .number()
    .describe('Community votes counted for it during that week (the weighted sum the ranking used, 2 decimals).'),
  verify_url: z
    .string()
    .describe("The award's verification page (its signed statement); the badge links to the newest one."),
});

const Badge = z.strictObject({
  key: z.enum(BADGE_KINDS).describe('The badge; also its image name: /badges/{slug}/{key}.svg.'),
  name: z.string().describe('The badge in words, e.g. "Launched on Launchlist".'),
  description: z.string().describe('When the badge applies.'),
  alt: z.string().describe('Alt text of its image: the badge name and the listing name.'),
  width: z.number().int().describe('Image width in pixels, in the chosen shape and size.'),
  height: z.number().int().describe('Image height in pixels.'),
  svg_url: z.string().describe('The SVG image in the chosen style.'),
  html: z
    .string()
    .describe(
      'Ready-to-paste HTML: the image linked to the listing page (in auto mode a <picture> with the dark image).',
    ),
  markdown: z.string().describe('The same as Markdown.'),
  variants: z
    .strictObject(
      keyed(BADGE_SHAPES, () =>
        z.strictObject(
          keyed(BADGE_MODES, () => z.strictObject(keyed(BADGE_SIZES, () => z.string().describe('SVG image URL.')))),
        ),
      ),
    )
    .describe('The SVG image URL of every style: variants[shape][mode][size].'),
  awards: z
    .array(BadgeAward)
    .optional()
    .describe('launch_of_the_week_1/2/3 only: the weeks it won that award, newest first.'),
});

const Badges = z.strictObject({
  listing: ListingSummarySchema.describe('The listing (live, scheduled or awaiting its badge).'),
  listing_url: z.string().describe("The listing's page, where every badge links."),
  style: Style.describe('The chosen style.'),
  badges: z
    .array(Badge)
    .describe(
      'The badges the listing may show, in this order: listed, launched or upcoming, featured, verified, awards.',
    ),
  shapes: z.array(z.enum(BADGE_SHAPES)).describe('Every shape.'),
  modes: z.array(z.enum(BADGE_MODES)).describe('Every mode.'),
  sizes: z.array(z.enum(BADGE_SIZES)).describe('Every size.'),
});

export const BadgeQuery = z.object({
  shape: z.enum(BADGE_SHAPES).default(DEFAULT_STYLE.shape),
  mode: z.enum(BADGE_MODES).default(DEFAULT_STYLE.mode),
  size: z.enum(BADGE_SIZES).default(DEFAULT_STYLE.size),
});

export interface BadgeListing {
  id: number;
  summary: ListingSummary;
  unlocked: string[];
  verified: boolean;
}

/** A listing whose badges may be shown: live, scheduled or awaiting its badge (a free listing needs the badge before it goes live). */
export async function badgeListing(db: Kysely<DB>, slug: string): Promise<BadgeListing | undefined> {
  const row = await summaryQuery(db)
    .select(['l.unlocked', 'l.verified_at'])
    .where('l.slug', '=', slug)
    .where('l.status', 'in', [...PUBLIC_STATUSES])
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    summary: toSummary(row as SummaryRow),
    unlocked: fromJson<string[]>(row.unlocked, []),
    verified: row.verified_at !== null,
  };
}

export interface AvailableBadge {
  kind: BadgeKind;
  awards?: Array<z.output<typeof BadgeAward>>;
}

/** One badge of get_badges, in `style`, with the URLs of every other style. */
function badgeOf(base: string, listing: { slug: string; name: string }, b: AvailableBadge, style: BadgeStyle) {
  const { slug, name } = listing;
  const t = badgeText(b.kind);
  // An award badge links to the verification page of the newest award it stands for.
  const href = b.awards?.[0]?.verify_url;
  return {
    key: b.kind,
    name: t.sentence,
    description: t.description,
    alt: `${t.sentence}: ${name}`,
    ...badgeDimensions(style.shape, style.size),
    svg_url: badgeSvgUrl(base, slug, b.kind, style),
    html: badgeEmbedHtml({ publicUrl: base, slug, kind: b.kind, listingName: name, href, ...style }),
    markdown: badgeMarkdown({ publicUrl: base, slug, kind: b.kind, listingName: name, href, ...style }),
    variants: keyed(BADGE_SHAPES, (shape) =>
      keyed(BADGE_MODES, (mode) =>
        keyed(BADGE_SIZES, (size) => badgeSvgUrl(base, slug, b.kind, { shape, mode, size })),
      ),
    ),
    ...(b.awards ? { awards: b.awards } : {}),
  } satisfies z.input<typeof Badge>;
}

/** get_badges' answer for a listing that may show `available`. */
function badgesResult(base: string, listing: ListingSummary, available: AvailableBadge[], style: BadgeStyle) {
  return {
    listing,
    listing_url: listingPageUrl(base, listing.slug),
    style,
    badges: available.map((b) => badgeOf(base, listing, b, style)),
    shapes: [...BADGE_SHAPES],
    modes: [...BADGE_MODES],
    sizes: [...BADGE_SIZES],
  } satisfies z.input<typeof Badges>;
}

/**
 * The badges a listing may show: listed (always), upcoming (scheduled or awaiting its badge),
 * launched (live), featured (bought the featured product), verified (ownership proved),
 * launch_of_the_week_1/2/3 (won that award at least once).
 */
export async function availableBadges(db: Kysely<DB>, l: BadgeListing, base = ''): Promise<AvailableBadge[]> {
  const out: AvailableBadge[] = [{ kind: 'listed' }];
  if (l.summary.status === 'live') out.push({ kind: 'launched' });
  else out.push({ kind: 'upcoming' });
  if (l.unlocked.includes('featured')) out.push({ kind: 'featured' });
  if (l.verified) out.push({ kind: 'verified' });
  const awards = l.summary.status === 'live' ? await awardsOfListing(db, l.id) : [];
  for (const rank of [1, 2, 3] as const) {
    const won = awards.filter((a) => a.rank === rank);
    if (won.length)
      out.push({
        kind: `launch_of_the_week_${rank}`,
        awards: won.map((a) => ({
          week: a.week,
          iso_week: isoWeekLabel(a.week),
          votes: a.votes,
          verify_url: base + awardPagePath(a.week, rank),
        })),
      });
  }
  return out;
}

export const getBadges = defineOperation({
  name: 'get_badges',
  method: 'GET',
  cacheMs: 1000,
  path: '/listings/{slug}/badges',
  access: 'public',
  tags: ['Badges'],
  summary: 'Embeddable badges of a listing',
  description: [
    [
      'Badges the listing may show — `listed` (always), `launched` (once live), `upcoming` (while',
      'scheduled), `featured` (bought the featured placement), `verified` (ownership proved; not the same',
      'as paid), `launch_of_the_week_1`/`_2`/`_3` (won that award; its embed code links to the award’s verification page) — with ready-to-paste HTML embed code',
      'and SVG image URLs in the chosen style (`shape` standard|outline|pill|banner|square, `mode`',
      'light|dark|auto, `size` s|m|l), plus the URLs of every other shape, mode and size. In `auto` mode',
      'the HTML uses a <picture> that switches to the dark image when the visitor prefers a dark colour',
      'scheme (the auto SVG also switches by itself). A free listing goes live once a badge (or a link to',
      'its listing page) is on its homepage. Works for live, scheduled and awaiting-badge listings; others',
      'answer 404.',
    ].join(' '),
    [
      'Returns `{listing, listing_url, style: {shape, mode, size}, badges: [{key, name, description, alt,',
      'width, height, svg_url, html, markdown, variants: {shape: {mode: {size: svg_url}}}, awards? [{week,',
      'iso_week, votes, verify_url}]}], shapes, modes, sizes}`.',
    ].join(' '),
  ].join('\n\n'),
  params: z.object({ slug: Slug }),
  query: BadgeQuery,
  response: Badges,
  examples: {
    response: badgesResult(
      'https://launchlist.example',
      EXAMPLE_SUMMARY,
      [
        { kind: 'launched' },
        {
          kind: 'launch_of_the_week_1',
          awards: [
            {
              week: '2026-11-16',
              iso_week: '2026-W47',
              votes: 96,
              verify_url: 'https://launchlist.example/awards/2026-11-16/1',
            },
          ],
        },
      ],
      DEFAULT_STYLE,
    ),
  },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => {
    const l = await badgeListing(ctx.db, input.slug);
    if (!l) return notFound('listing', input.slug);
    const style: BadgeStyle = { shape: input.shape, mode: input.mode, size: input.size };
    return badgesResult(ctx.config.publicUrl, l.summary, await availableBadges(ctx.db, l, ctx.config.publicUrl), style);
  },
});
