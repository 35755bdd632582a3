// Ranking rules shared by launches, leaderboards, awards and search. Pure functions, no I/O.

/**
 * Trending = time-decayed community votes. Every vote counts 0.5^(age_hours / 48): a vote cast now
 * counts 1, one cast two days ago 0.5, four days ago 0.25. A listing's score is the sum over its votes.
 * Votes older than TRENDING_WINDOW_DAYS are left out (each would count less than 0.8 %).
 */
export const TRENDING_HALF_LIFE_HOURS = 48;
export const TRENDING_WINDOW_DAYS = 14;
export const TRENDING_FORMULA = `score = Σ over the listing's votes of weight × 0.5^(age_hours / ${TRENDING_HALF_LIFE_HOURS}) (each vote, weighing 0 to 1, loses half its weight every ${TRENDING_HALF_LIFE_HOURS} hours; a listing is listed while it has a vote from the last ${TRENDING_WINDOW_DAYS} days, and votes more than ${TRENDING_WINDOW_DAYS} days older than its latest vote are left out); ties: more counted votes in total, then the earlier launch`;

export function voteWeight(ageHours: number): number {
  if (ageHours < 0) ageHours = 0; // a clock a little ahead never gives a vote more than full weight
  return 0.5 ** (ageHours / TRENDING_HALF_LIFE_HOURS);
}

export function trendingScore(voteTimes: ReadonlyArray<Date | string>, now: Date): number {
  const cutoff = now.getTime() - TRENDING_WINDOW_DAYS * 86_400_000;
  let score = 0;
  for (const t of voteTimes) {
    const ms = typeof t === 'string' ? Date.parse(t) : t.getTime();
    if (ms < cutoff) continue;
    score += voteWeight((now.getTime() - ms) / 3_600_000);
  }
  return score;
}

/** Rounds a score for display (4 decimals) so responses stay stable across engines. */
export function roundScore(score: number): number {
  return Math.round(score * 10_000) / 10_000;
}

export interface WeeklyCandidate {
  id: number;
  votes: number;
  launched_at: string | null;
}

/**
 * Order of a launch week and of its awards: votes cast in the week (most first), then the earlier
 * launch, then the lower id. Listings with no launch time sort after those with one.
 */
export function compareWeekly(a: WeeklyCandidate, b: WeeklyCandidate): number {
  if (a.votes !== b.votes) return b.votes - a.votes;
  const la = a.launched_at ?? '\uffff';
  const lb = b.launched_at ?? '\uffff';
  if (la !== lb) return la < lb ? -1 : 1;
  return a.id - b.id;
}

/** Launch of the Week goes to the top three of a finished week with at least one vote. */
export const AWARD_KIND = 'launch_of_the_week';
export const AWARD_RANKS = [1, 2, 3] as const;

export function pickAwardWinners<T extends WeeklyCandidate>(candidates: readonly T[]): Array<T & { rank: number }> {
  return [...candidates]
    .filter((c) => c.votes > 0)
    .sort(compareWeekly)
    .slice(0, AWARD_RANKS.length)
    .map((c, i) => ({ ...c, rank: i + 1 }));
}

export function awardTitle(rank: number): string {
  return `Launch of the Week #${rank}`;
}

/** How a Domain Rating moved against the reading before: `new` when there is none. */
export const TRENDS = ['up', 'down', 'flat', 'new'] as const;
export type Trend = (typeof TRENDS)[number];

/** Domain Rating trend between an earlier and the latest reading. */
export function trendOf(latest: number, previous: number | null | undefined): Trend {
  if (previous === null || previous === undefined) return 'new';
  if (latest > previous) return 'up';
  if (latest < previous) return 'down';
  return 'flat';
}

/**
 * Fair first hours: for `hours` after a launch week starts (Monday 00:00 UTC) its launches are shown
 * in an order shuffled per visitor, with no vote figures. Returns when the window of the week holding
 * `now` ends (ISO), or null when `now` is outside it (or hours is 0).
 */
export function fairStartUntil(now: Date, weekMonday: string, hours: number): string | null {
  const w = fairWindow(weekMonday, hours);
  const t = now.getTime();
  return w && t >= w.start && t < w.end ? new Date(w.end).toISOString() : null;
}

/** The fair first hours of the week starting `weekMonday`, as [start, end) in ms; null when hours is 0. */
export function fairWindow(weekMonday: string, hours: number): { start: number; end: number } | null {
  if (hours <= 0) return null;
  const start = Date.parse(weekMonday + 'T00:00:00.000Z');
  return { start, end: start + hours * 3_600_000 };
}

/** A deterministic shuffle (Fisher–Yates driven by a 32-bit seed): the same seed, the same order. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
