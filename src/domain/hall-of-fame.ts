// The Hall of Fame rule (issue #21), computed from the weekly Launch of the Week results only. Pure.
//
//   Launch of the Week: every week's #1.
//   A week belongs to the month, and to the year, of its Thursday (as ISO 8601 weeks do), so every week
//   counts in exactly one month and one year.
//   Launch of the Month / of the Year: among the listings with a Launch of the Week award (#1, #2 or #3)
//   in a week of that month / year, the most award points: #1 = 3 points, #2 = 2, #3 = 1.
//   Ties: more #1 awards, then more counted votes summed over those awards, then the earlier first
//   award in the period, then the lower listing id.
//   A month or year is final once its last week has ended (the Monday after the week holding its
//   last Thursday, 00:00 UTC); before that its leader is shown as "so far" (final: false).

import { addDays, dayStart, isoWeek, toDateString, DAY_MS } from './weeks.ts';

export const HALL_OF_FAME_RULE =
  'Launch of the Week: each week’s #1. A week belongs to the month and the year of its Thursday. Launch of the Month and of the Year: the most award points from the Launch of the Week awards of that month or year (#1 = 3, #2 = 2, #3 = 1); ties: more #1 awards, then more counted votes over those awards, then the earlier first award, then the lower listing id. A month or year is final when its last week has ended; until then its leader is shown as “so far”.';

export const AWARD_POINTS: Readonly<Record<number, number>> = { 1: 3, 2: 2, 3: 1 };

export interface WeeklyResult {
  week: string; // Monday
  rank: number;
  listing_id: number;
  votes: number;
}

export interface PeriodWinner {
  /** "2026-11" for a month, "2026" for a year. */
  period: string;
  listing_id: number;
  points: number;
  firsts: number;
  votes: number;
  /** The weeks (Mondays) of the awards that counted, oldest first. */
  weeks: string[];
  final: boolean;
}

/** The Thursday of the week starting `monday`. */
function thursdayOf(monday: string): string {
  return addDays(monday, 3);
}

/** The month ("YYYY-MM") a week belongs to. */
export function monthOfWeek(monday: string): string {
  return thursdayOf(monday).slice(0, 7);
}

/** The year ("YYYY") a week belongs to: its ISO week-numbering year. */
export function yearOfWeek(monday: string): string {
  return String(isoWeek(monday).year).padStart(4, '0');
}

/** When a month ("YYYY-MM") or year ("YYYY") is over: the Monday after its last week, 00:00 UTC. */
export function periodEnd(period: string): Date {
  const [y, m] = period.split('-').map(Number);
  const last = period.length === 4 ? `${period}-12-31` : toDateString(new Date(Date.UTC(y, m, 1) - DAY_MS));
  const d = dayStart(last);
  const dow = (d.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6; Thursday 3
  const lastThursday = addDays(last, -((dow - 3 + 7) % 7));
  return dayStart(addDays(lastThursday, 4)); // Thursday + 4 days = the next Monday
}

/** Orders candidates by the Hall of Fame rule (best first). */
export function compareCandidates(a: PeriodWinner, b: PeriodWinner): number {
  if (a.points !== b.points) return b.points - a.points;
  if (a.firsts !== b.firsts) return b.firsts - a.firsts;
  if (a.votes !== b.votes) return b.votes - a.votes;
  const fa = a.weeks[0] ?? '';
  const fb = b.weeks[0] ?? '';
  if (fa !== fb) return fa < fb ? -1 : 1;
  return a.listing_id - b.listing_id;
}

/** The winner of every period that has awards, newest period first. */
function winnersBy(results: readonly WeeklyResult[], periodOf: (monday: string) => string, now: Date): PeriodWinner[] {
  const byPeriod = new Map<string, Map<number, PeriodWinner>>();
  const sorted = [...results].sort((a, b) => (a.week < b.week ? -1 : a.week > b.week ? 1 : a.rank - b.rank));
  for (const r of sorted) {
    const points = AWARD_POINTS[r.rank];
    if (!points) continue;
    const period = periodOf(r.week);
    let m = byPeriod.get(period);
    if (!m) byPeriod.set(period, (m = new Map()));
    let c = m.get(r.listing_id);
    if (!c)
      m.set(
        r.listing_id,
        (c = { period, listing_id: r.listing_id, points: 0, firsts: 0, votes: 0, weeks: [], final: false }),
      );
    c.points += points;
    if (r.rank === 1) c.firsts += 1;
    c.votes += r.votes;
    c.weeks.push(r.week);
  }
  const out: PeriodWinner[] = [];
  for (const [period, m] of byPeriod) {
    const best = [...m.values()].sort(compareCandidates)[0];
    out.push({ ...best, final: now.getTime() >= periodEnd(period).getTime() });
  }
  return out.sort((a, b) => (a.period < b.period ? 1 : a.period > b.period ? -1 : 0));
}

export interface HallOfFame {
  weeks: WeeklyResult[];
  months: PeriodWinner[];
  years: PeriodWinner[];
}

/** The Hall of Fame from every weekly result: weeks' #1 newest first, months and years by the rule above. */
export function hallOfFame(results: readonly WeeklyResult[], now: Date): HallOfFame {
  return {
    weeks: results.filter((r) => r.rank === 1).sort((a, b) => (a.week < b.week ? 1 : a.week > b.week ? -1 : 0)),
    months: winnersBy(results, monthOfWeek, now),
    years: winnersBy(results, yearOfWeek, now),
  };
}
