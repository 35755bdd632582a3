import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  awardTitle,
  compareWeekly,
  pickAwardWinners,
  trendOf,
  trendingScore,
  voteWeight,
  TRENDING_HALF_LIFE_HOURS,
} from '../../src/domain/ranking.ts';
import { centsToDecimal, formatCents, vatCents } from '../../src/domain/money.ts';

test('a vote loses half its trending weight every 48 hours', () => {
  assert.equal(TRENDING_HALF_LIFE_HOURS, 48);
  assert.equal(voteWeight(0), 1);
  assert.equal(voteWeight(48), 0.5);
  assert.equal(voteWeight(96), 0.25);
  assert.equal(voteWeight(-5), 1, 'a vote from a clock slightly ahead counts fully, never more');
});

test('trending score: recent votes beat more, older votes; votes older than 14 days are left out', () => {
  const now = new Date('2026-11-21T12:00:00Z');
  const ago = (h: number) => new Date(now.getTime() - h * 3_600_000);
  const fresh = trendingScore([ago(1), ago(2), ago(3)], now);
  const stale = trendingScore([ago(240), ago(240), ago(240), ago(240), ago(240)], now);
  assert.ok(fresh > stale, `3 fresh votes (${fresh}) should outrank 5 ten-day-old votes (${stale})`);
  assert.ok(Math.abs(stale - 5 * 0.5 ** 5) < 1e-9);
  assert.equal(trendingScore([ago(15 * 24)], now), 0);
  assert.equal(trendingScore([ago(48).toISOString()], now), 0.5, 'accepts ISO strings');
});

test('weekly order and awards: votes, then earlier launch, then id; zero votes never win', () => {
  const c = [
    { id: 1, votes: 3, launched_at: '2026-11-10T09:00:00.000Z' },
    { id: 2, votes: 5, launched_at: '2026-11-11T09:00:00.000Z' },
    { id: 3, votes: 3, launched_at: '2026-11-09T09:00:00.000Z' },
    { id: 4, votes: 3, launched_at: '2026-11-09T09:00:00.000Z' },
    { id: 5, votes: 0, launched_at: '2026-11-09T00:00:00.000Z' },
  ];
  assert.deepEqual(
    [...c].sort(compareWeekly).map((x) => x.id),
    [2, 3, 4, 1, 5],
  );
  assert.deepEqual(
    pickAwardWinners(c).map((w) => [w.id, w.rank]),
    [
      [2, 1],
      [3, 2],
      [4, 3],
    ],
  );
  assert.deepEqual(pickAwardWinners([{ id: 9, votes: 0, launched_at: null }]), []);
  assert.equal(awardTitle(2), 'Launch of the Week #2');
});

test('Domain Rating trend', () => {
  assert.equal(trendOf(40, 35), 'up');
  assert.equal(trendOf(30, 35), 'down');
  assert.equal(trendOf(35, 35), 'flat');
  assert.equal(trendOf(35, null), 'new');
});

test('money: cents formatting and VAT', () => {
  assert.equal(formatCents(123456), '$1,234.56');
  assert.equal(formatCents(500), '$5.00');
  assert.equal(formatCents(-1200), '-$12.00');
  assert.equal(centsToDecimal(4905), '49.05');
  assert.equal(centsToDecimal(-7), '-0.07');
  assert.equal(vatCents(4900, 2100), 1029);
  assert.equal(vatCents(999, 1900), 190); // 189.81 rounds to 190
  assert.throws(() => formatCents(1.5));
});
