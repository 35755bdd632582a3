import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineOperation } from './define.ts';
import { notFound } from './errors.ts';
import { JsonObject, Slug } from './schemas.ts';
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
  type BadgeMode,
  type BadgeShape,
  type BadgeSize,
  type BadgeStyle,
} from '../domain/badges.ts';
import { isoWeekLabel } from '../domain/weeks.ts';

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
  awards?: Array<{ week: string; iso_week: string; votes: number }>;
}

/**
 * The badges a listing may show: listed (always), upcoming (scheduled or awaiting its badge),
 * launched (live), featured (bought the featured product), verified (ownership proved),
 * launch_of_the_week_1/2/3 (won that award at least once).
 */
export async function availableBadges(db: Kysely<DB>, l: BadgeListing): Promise<AvailableBadge[]> {
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
        awards: won.map((a) => ({ week: a.week, iso_week: isoWeekLabel(a.week), votes: a.votes })),
      });
  }
  return out;
}

export const getBadges = defineOperation({
  name: 'get_badges',
  method: 'GET',
  path: '/listings/{slug}/badges',
  access: 'public',
  tags: ['Badges'],
  summary: 'Embeddable badges of a listing',
  description:
    'Badges the listing may show — `listed` (always), `launched` (once live), `upcoming` (while scheduled), `featured` (bought the featured placement), `verified` (ownership proved; not the same as paid), `launch_of_the_week_1`/`_2`/`_3` (won that award) — with ready-to-paste HTML embed code and SVG image URLs in the chosen style (`shape` standard|outline|pill|banner|square, `mode` light|dark|auto, `size` s|m|l), plus the URLs of every other shape, mode and size. In `auto` mode the HTML uses a <picture> that switches to the dark image when the visitor prefers a dark colour scheme (the auto SVG also switches by itself). A free listing goes live once a badge (or a link to its listing page) is on its homepage. Works for live, scheduled and awaiting-badge listings; others answer 404.\n\n' +
    'Returns `{listing, listing_url, style: {shape, mode, size}, badges: [{key, name, description, alt, width, height, svg_url, html, markdown, variants: {shape: {mode: {size: svg_url}}}, awards? [{week, iso_week, votes}]}], shapes, modes, sizes}`.',
  params: z.object({ slug: Slug }),
  query: BadgeQuery,
  response: JsonObject,
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => {
    const l = await badgeListing(ctx.db, input.slug);
    if (!l) return notFound('listing', input.slug);
    const base = ctx.config.publicUrl;
    const style: BadgeStyle = { shape: input.shape, mode: input.mode, size: input.size };
    const slug = l.summary.slug;
    const name = l.summary.name;
    const badges = (await availableBadges(ctx.db, l)).map((b) => {
      const t = badgeText(b.kind);
      const variants = {} as Record<BadgeShape, Record<BadgeMode, Record<BadgeSize, string>>>;
      for (const shape of BADGE_SHAPES) {
        variants[shape] = {} as Record<BadgeMode, Record<BadgeSize, string>>;
        for (const mode of BADGE_MODES) {
          variants[shape][mode] = {} as Record<BadgeSize, string>;
          for (const size of BADGE_SIZES)
            variants[shape][mode][size] = badgeSvgUrl(base, slug, b.kind, { shape, mode, size });
        }
      }
      return {
        key: b.kind,
        name: t.sentence,
        description: t.description,
        alt: `${t.sentence}: ${name}`,
        ...badgeDimensions(style.shape, style.size),
        svg_url: badgeSvgUrl(base, slug, b.kind, style),
        html: badgeEmbedHtml({ publicUrl: base, slug, kind: b.kind, listingName: name, ...style }),
        markdown: badgeMarkdown({ publicUrl: base, slug, kind: b.kind, listingName: name, ...style }),
        variants,
        ...(b.awards ? { awards: b.awards } : {}),
      };
    });
    return {
      listing: l.summary,
      listing_url: listingPageUrl(base, slug),
      style,
      badges,
      shapes: [...BADGE_SHAPES],
      modes: [...BADGE_MODES],
      sizes: [...BADGE_SIZES],
    };
  },
});
