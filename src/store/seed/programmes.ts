// Demo programmes (issue #21): one open ("Class of <year>", community votes), one ended and decided by
// votes (a category cup), one ended and decided by a jury, and one upcoming; with entries from live
// listings that meet each programme's rules.
import type { Kysely } from 'kysely';
import type { DB } from '../types.ts';
import { toJson } from '../json.ts';
import { addDays, addWeeks, mondayOf, toDateString } from '../../domain/weeks.ts';
import { entryRefusal } from '../../domain/programmes.ts';
import type { ProgrammeInput } from '../repos/trophies.ts';

interface Live {
  id: number;
  owner_id: number | null;
  launched_at: string;
  verified: boolean;
  categories: string[];
}

export async function seedProgrammes(db: Kysely<DB>, now: Date): Promise<number> {
  const rows = await db
    .selectFrom('listings as l')
    .leftJoin('listing_categories as lc', 'lc.listing_id', 'l.id')
    .leftJoin('categories as c', 'c.id', 'lc.category_id')
    .leftJoin('categories as p', 'p.id', 'c.parent_id')
    .select(['l.id', 'l.owner_id', 'l.launched_at', 'l.verified_at', 'c.slug', 'p.slug as parent'])
    .where('l.status', '=', 'live')
    .where('l.launched_at', 'is not', null)
    .orderBy('l.launched_at', 'desc')
    .orderBy('l.id')
    .execute();
  const live = new Map<number, Live>();
  for (const r of rows) {
    let l = live.get(r.id);
    if (!l)
      live.set(
        r.id,
        (l = {
          id: r.id,
          owner_id: r.owner_id,
          launched_at: String(r.launched_at),
          verified: r.verified_at !== null,
          categories: [],
        }),
      );
    for (const s of [r.slug, r.parent]) if (s && !l.categories.includes(s)) l.categories.push(s);
  }
  // award winners enter first (their cabinets then show awards, titles and programme places together)
  const won = new Map<number, number>();
  for (const a of await db.selectFrom('awards').select(['listing_id', 'rank']).execute())
    won.set(a.listing_id, Math.max(won.get(a.listing_id) ?? 0, 4 - a.rank));
  const all = [...live.values()].sort((a, b) => (won.get(b.id) ?? 0) - (won.get(a.id) ?? 0));
  const counts = new Map<string, number>();
  for (const l of all) for (const c of l.categories) counts.set(c, (counts.get(c) ?? 0) + 1);
  const topParent = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
  const thisMonday = mondayOf(now);
  const year = String(now.getUTCFullYear());
  const today = toDateString(now);

  const plans: Array<ProgrammeInput & { entries: number; jury?: boolean }> = [
    {
      slug: `class-of-${year}`,
      name: `Class of ${year}`,
      description: `Every product launched on Launchlist in ${year} can enter. The three entries with the most community votes during the year win.`,
      starts_on: `${year}-01-01`,
      ends_on: `${year}-12-31`,
      rules: { launched_from: `${year}-01-01`, launched_to: `${year}-12-31` },
      winners: 'community_votes',
      winners_count: 3,
      entries: 14,
    },
    ...(topParent
      ? [
          {
            slug: `${topParent}-cup`,
            name: `${topParent.replace(/-/g, ' ').replace(/^\w/, (c) => c.toUpperCase())} Cup`,
            description: `A six-week cup for ${topParent.replace(/-/g, ' ')} products, decided by community votes cast during the cup.`,
            starts_on: addWeeks(thisMonday, -9),
            ends_on: addDays(addWeeks(thisMonday, -3), 6),
            rules: { categories: [topParent] },
            winners: 'community_votes' as const,
            winners_count: 3,
            entries: 9,
          },
        ]
      : []),
    {
      slug: 'makers-choice',
      name: "Makers' Choice",
      description:
        'Products whose makers proved they own them, judged by the Launchlist team on craft, clarity and care.',
      starts_on: addWeeks(thisMonday, -12),
      ends_on: addDays(addWeeks(thisMonday, -2), 6),
      rules: { verified_only: true },
      winners: 'jury',
      winners_count: 3,
      entries: 7,
      jury: true,
    },
    {
      slug: 'winter-launch-festival',
      name: 'Winter Launch Festival',
      description: 'Launch in the festival weeks and compete for the winter trophies. Entries open soon.',
      starts_on: addWeeks(thisMonday, 3),
      ends_on: addDays(addWeeks(thisMonday, 8), 6),
      rules: { launched_from: addWeeks(thisMonday, 3) },
      winners: 'community_votes',
      winners_count: 3,
      entries: 0,
    },
  ];
  let n = 0;
  for (const [i, p] of plans.entries()) {
    const { id } = await db
      .insertInto('programmes')
      .values({
        slug: p.slug,
        name: p.name,
        description: p.description,
        starts_on: p.starts_on,
        ends_on: p.ends_on,
        rules: toJson(p.rules),
        winners: p.winners,
        winners_count: p.winners_count,
        created_at: new Date(Date.parse(p.starts_on) - (i + 1) * 86_400_000).toISOString(),
        updated_at: new Date(Date.parse(p.starts_on) - (i + 1) * 86_400_000).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // entries are made while the programme is open, by listings that meet its rules on that day
    const day = p.starts_on < today ? (p.ends_on < today ? addDays(p.starts_on, 2) : today) : today;
    const fit = all.filter((l) => !entryRefusal(p, { ...l, status: 'live' }, day)).slice(0, p.entries);
    for (const [k, l] of fit.entries()) {
      const at = Math.max(Date.parse(p.starts_on + 'T08:00:00.000Z'), Date.parse(l.launched_at)) + k * 3_600_000;
      await db
        .insertInto('programme_entries')
        .values({
          programme_id: id,
          listing_id: l.id,
          user_id: l.owner_id,
          place: p.jury && k < p.winners_count ? [2, 1, 3][k] : null,
          created_at: new Date(Math.min(at, now.getTime())).toISOString(),
        })
        .execute();
      n++;
    }
  }
  return n;
}
