import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addWeeks,
  dayBounds,
  freeQueueWeek,
  isDateString,
  isMonday,
  isoWeek,
  isoWeekLabel,
  launchWeeksOffered,
  mondayOf,
  productWeeks,
  resolveWeek,
  skipQueueWeeks,
  weekBounds,
  weekInfo,
} from '../../src/domain/weeks.ts';

test('ISO weeks across year boundaries, including week 53', () => {
  const cases: Array<[string, number, number, string]> = [
    ['2026-12-31', 2026, 53, '2026-12-28'], // Thursday of 2026-W53
    ['2027-01-03', 2026, 53, '2026-12-28'], // Sunday still in 2026-W53
    ['2027-01-04', 2027, 1, '2027-01-04'], // Monday starts 2027-W01
    ['2026-12-28', 2026, 53, '2026-12-28'],
    ['2021-01-01', 2020, 53, '2020-12-28'], // a Friday belonging to the previous ISO year
    ['2024-12-30', 2025, 1, '2024-12-30'], // a Monday in December that starts the next ISO year
    ['2025-12-31', 2026, 1, '2025-12-29'],
    ['2010-01-03', 2009, 53, '2009-12-28'],
    ['2026-01-01', 2026, 1, '2025-12-29'],
    ['2026-11-21', 2026, 47, '2026-11-16'],
    ['2024-02-29', 2024, 9, '2024-02-26'], // leap day
  ];
  for (const [date, year, week, monday] of cases) {
    assert.deepEqual(isoWeek(date), { year, week }, date);
    assert.equal(mondayOf(date), monday, date);
    assert.equal(resolveWeek(date, new Date('2026-06-01T00:00:00Z')), monday, date);
  }
  assert.equal(isoWeekLabel('2027-01-03'), '2026-W53');
  assert.equal(isoWeekLabel('2027-01-04'), '2027-W01');
});

test('resolveWeek: this, next and last relative to now, across a year boundary', () => {
  const now = new Date('2026-12-31T23:59:59.999Z'); // Thursday of 2026-W53
  assert.equal(resolveWeek('this', now), '2026-12-28');
  assert.equal(resolveWeek('next', now), '2027-01-04');
  assert.equal(resolveWeek('last', now), '2026-12-21');
  const sunday = new Date('2027-01-03T23:59:59.999Z');
  assert.equal(
    resolveWeek('this', sunday),
    '2026-12-28',
    'Sunday 23:59 still belongs to the week that began on Monday',
  );
  const monday = new Date('2027-01-04T00:00:00.000Z');
  assert.equal(resolveWeek('this', monday), '2027-01-04', 'Monday 00:00 UTC starts the new week');
  assert.equal(resolveWeek('last', monday), '2026-12-28');
});

test('resolveWeek refuses anything that is not this/next/last or a real date', () => {
  const now = new Date('2026-11-21T10:00:00Z');
  for (const bad of ['2026-02-30', '2026-13-01', '2026-1-05', 'tomorrow', '', 'THIS', '2026-11-21T00:00']) {
    assert.throws(() => resolveWeek(bad, now), RangeError, bad);
  }
  assert.equal(isDateString('2024-02-29'), true);
  assert.equal(isDateString('2025-02-29'), false);
});

test('week bounds and info', () => {
  assert.deepEqual(weekBounds('2026-12-31'), {
    start: '2026-12-28',
    end: '2027-01-03',
    from: '2026-12-28T00:00:00.000Z',
    to: '2027-01-04T00:00:00.000Z',
  });
  const now = new Date('2026-11-21T10:00:00Z');
  assert.deepEqual(weekInfo('2026-11-16', now), {
    start: '2026-11-16',
    end: '2026-11-22',
    iso_week: '2026-W47',
    is_current: true,
    is_future: false,
    is_past: false,
  });
  assert.equal(weekInfo('2026-11-23', now).is_future, true);
  assert.equal(weekInfo('2026-11-09', now).is_past, true);
  assert.deepEqual(dayBounds(now), { from: '2026-11-21T00:00:00.000Z', to: '2026-11-22T00:00:00.000Z' });
  assert.equal(isMonday('2026-11-16'), true);
  assert.equal(isMonday('2026-11-17'), false);
  assert.equal(addWeeks('2026-12-28', 1), '2027-01-04');
});

test('weeks offered for sale and the free-queue limit', () => {
  const now = new Date('2026-12-30T12:00:00Z'); // Wednesday of 2026-W53
  assert.deepEqual(launchWeeksOffered(now, 3), ['2027-01-04', '2027-01-11', '2027-01-18']);
  assert.equal(launchWeeksOffered(now).length, 8);
  assert.equal(freeQueueWeek(now, 4), '2027-01-25');
  assert.deepEqual(
    skipQueueWeeks(now, 4),
    ['2027-01-04', '2027-01-11', '2027-01-18'],
    'only weeks before the free-queue week',
  );
  assert.deepEqual(skipQueueWeeks(now, 1), [], 'a one-week queue leaves nothing to skip to');
  assert.deepEqual(productWeeks('relaunch', now, 4), launchWeeksOffered(now));
  assert.deepEqual(productWeeks('skip_queue', now, 2), ['2027-01-04']);
  assert.equal(productWeeks('featured', now, 4), null);
});

test('every year 0000–9999 is itself (Date.UTC would read 0–99 as 1900–1999); a week past 9999 is refused', () => {
  const now = new Date('2026-11-21T10:00:00Z');
  assert.equal(isDateString('0050-06-15'), true);
  assert.equal(isDateString('0001-01-01'), true);
  assert.equal(isDateString('0100-02-29'), false, '100 is not a leap year');
  assert.equal(mondayOf('0100-01-01'), '0099-12-28', 'a Friday whose Monday is in the year before');
  assert.equal(resolveWeek('0100-01-01', now), '0099-12-28');
  assert.equal(mondayOf('0001-01-01'), '0001-01-01', 'a Monday in the proleptic Gregorian calendar');
  assert.deepEqual(isoWeek('0050-06-15'), { year: 50, week: 24 });
  assert.deepEqual(weekBounds('0099-12-31'), {
    start: '0099-12-28',
    end: '0100-01-03',
    from: '0099-12-28T00:00:00.000Z',
    to: '0100-01-04T00:00:00.000Z',
  });
  assert.equal(resolveWeek('9999-12-26', now), '9999-12-20');
  assert.throws(() => resolveWeek('9999-12-31', now), RangeError, 'its Sunday would be in the year 10000');
});
