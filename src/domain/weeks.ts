// Launch weeks: ISO weeks, Monday to Sunday, in UTC. Pure functions, no I/O.
// A week is named by its Monday as YYYY-MM-DD; any date snaps to the Monday of its ISO week.

export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Midnight UTC of year `y`, month `m0` (0–11), day `d`. Date.UTC reads the years 0–99 as 1900–1999;
 * setUTCFullYear does not, so every year 0000–9999 is itself.
 */
function utcDate(y: number, m0: number, d: number): Date {
  const t = new Date(0);
  t.setUTCFullYear(y, m0, d);
  return t;
}

/** The UTC calendar date of an instant, as YYYY-MM-DD. Throws RangeError outside the years 0000–9999 (no four-digit form). */
export function toDateString(d: Date): string {
  const y = d.getUTCFullYear();
  if (!(y >= 0 && y <= 9999))
    throw new RangeError(`a date outside the years 0000–9999 has no YYYY-MM-DD form (year ${y})`);
  return d.toISOString().slice(0, 10);
}

/** True when `s` is a real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isDateString(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = utcDate(y, mo - 1, d);
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** Midnight UTC of a YYYY-MM-DD date (or a copy of a Date truncated to its UTC day). Throws RangeError on a bad date. */
export function dayStart(date: Date | string): Date {
  if (typeof date === 'string') {
    if (!isDateString(date)) throw new RangeError(`not a calendar date YYYY-MM-DD: ${JSON.stringify(date)}`);
    return new Date(date + 'T00:00:00.000Z');
  }
  if (Number.isNaN(date.getTime())) throw new RangeError('invalid Date');
  return utcDate(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

export function addDays(date: Date | string, n: number): string {
  return toDateString(new Date(dayStart(date).getTime() + n * DAY_MS));
}

/** The Monday (YYYY-MM-DD) of the ISO week holding `date`. */
export function mondayOf(date: Date | string): string {
  const d = dayStart(date);
  const dow = (d.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return toDateString(new Date(d.getTime() - dow * DAY_MS));
}

export function isMonday(s: string): boolean {
  return isDateString(s) && mondayOf(s) === s;
}

export function addWeeks(monday: string, n: number): string {
  return addDays(monday, 7 * n);
}

/** ISO 8601 week-numbering year and week (1–53) of a date. */
export function isoWeek(date: Date | string): { year: number; week: number } {
  const d = dayStart(date);
  const dow = (d.getUTCDay() + 6) % 7;
  const thursday = new Date(d.getTime() + (3 - dow) * DAY_MS); // the week belongs to the year of its Thursday
  const year = thursday.getUTCFullYear();
  const dayOfYear = Math.floor((thursday.getTime() - utcDate(year, 0, 1).getTime()) / DAY_MS);
  return { year, week: Math.floor(dayOfYear / 7) + 1 };
}

/** "2026-W53" */
export function isoWeekLabel(date: Date | string): string {
  const { year, week } = isoWeek(date);
  return `${String(year).padStart(4, '0')}-W${String(week).padStart(2, '0')}`;
}

/**
 * Resolves a week reference to its Monday: `this`, `next`, `last` (relative to `now`), or a date
 * YYYY-MM-DD, which snaps to its Monday. Throws RangeError for anything else.
 */
export function resolveWeek(ref: string, now: Date): string {
  const current = mondayOf(now);
  if (ref === 'this') return current;
  if (ref === 'next') return addWeeks(current, 1);
  if (ref === 'last') return addWeeks(current, -1);
  if (!isDateString(ref)) throw new RangeError('must be this, next, last or a real date YYYY-MM-DD');
  const monday = mondayOf(ref);
  addDays(monday, 7); // the week and the Monday after it must have a YYYY-MM-DD form too (RangeError after 9999-12-26)
  return monday;
}

export interface WeekBounds {
  /** Monday, YYYY-MM-DD */
  start: string;
  /** Sunday, YYYY-MM-DD */
  end: string;
  /** Monday 00:00:00.000Z, inclusive (ISO timestamp) */
  from: string;
  /** next Monday 00:00:00.000Z, exclusive (ISO timestamp) */
  to: string;
}

export function weekBounds(monday: string): WeekBounds {
  const start = mondayOf(monday);
  return { start, end: addDays(start, 6), from: start + 'T00:00:00.000Z', to: addDays(start, 7) + 'T00:00:00.000Z' };
}

export interface WeekInfo {
  start: string;
  end: string;
  iso_week: string;
  is_current: boolean;
  is_future: boolean;
  is_past: boolean;
}

export function weekInfo(monday: string, now: Date): WeekInfo {
  const start = mondayOf(monday);
  const current = mondayOf(now);
  return {
    start,
    end: addDays(start, 6),
    iso_week: isoWeekLabel(start),
    is_current: start === current,
    is_future: start > current,
    is_past: start < current,
  };
}

/** The UTC day of `now` as [00:00, next 00:00) ISO timestamps. */
export function dayBounds(now: Date): { from: string; to: string } {
  const d = dayStart(now);
  return { from: d.toISOString(), to: new Date(d.getTime() + DAY_MS).toISOString() };
}

/** Launch weeks offered for sale: `count` Mondays starting next week. */
export function launchWeeksOffered(now: Date, count = 8): string[] {
  const next = addWeeks(mondayOf(now), 1);
  return Array.from({ length: count }, (_, i) => addWeeks(next, i));
}

/** The week a free listing queued now is given: the current Monday plus the free-queue setting (in weeks). */
export function freeQueueWeek(now: Date, freeQueueWeeks: number): string {
  return addWeeks(mondayOf(now), Math.max(1, Math.floor(freeQueueWeeks)));
}

/** Weeks a free listing may skip the queue to: from next week up to (not including) its free-queue week. */
export function skipQueueWeeks(now: Date, freeQueueWeeks: number, count = 8): string[] {
  const limit = freeQueueWeek(now, freeQueueWeeks);
  return launchWeeksOffered(now, count).filter((w) => w < limit);
}

/** Products sold for a launch week, and whether an order item must name the week. */
export const WEEK_PRODUCTS: Readonly<Record<string, 'optional' | 'required'>> = {
  launch: 'optional',
  launch_bundle: 'optional',
  relaunch: 'required',
  skip_queue: 'required',
};

/**
 * The Mondays a product may be ordered for, or null when the product takes no week:
 * launch, launch_bundle and relaunch — the next `count` weeks from next week; skip_queue — those of
 * them before the free-queue week (skipping to a later week would not skip anything).
 */
export function productWeeks(code: string, now: Date, freeQueueWeeks: number, count = 8): string[] | null {
  if (!(code in WEEK_PRODUCTS)) return null;
  return code === 'skip_queue' ? skipQueueWeeks(now, freeQueueWeeks, count) : launchWeeksOffered(now, count);
}
