// The Hall of Fame rule, programme entry rules and the statement format (pure, domain/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hallOfFame, monthOfWeek, periodEnd, yearOfWeek } from '../../src/domain/hall-of-fame.ts';
import { entryRefusal, isTrophyMilestone, programmeState, ruleWords } from '../../src/domain/programmes.ts';
import { parseStatement, statementText } from '../../src/domain/award-statement.ts';

test('a week belongs to the month and the year of its Thursday', () => {
  assert.equal(monthOfWeek('2026-06-29'), '2026-07'); // Thursday 2 July
  assert.equal(monthOfWeek('2026-11-23'), '2026-11');
  assert.equal(yearOfWeek('2024-12-30'), '2025'); // Thursday 2 January 2025
  assert.equal(yearOfWeek('2026-12-28'), '2026'); // Thursday 31 December 2026
});

test('a month or year ends on the Monday after the week of its last Thursday', () => {
  assert.equal(periodEnd('2026-11').toISOString(), '2026-11-30T00:00:00.000Z'); // last Thursday 26 Nov
  assert.equal(periodEnd('2026-12').toISOString(), '2027-01-04T00:00:00.000Z'); // last Thursday 31 Dec
  assert.equal(periodEnd('2026').toISOString(), '2027-01-04T00:00:00.000Z');
});

test('Launch of the Month: points 3/2/1, then more #1, then votes, then the earlier award, then the lower id', () => {
  const r = (week: string, rank: number, listing_id: number, votes = 10) => ({ week, rank, listing_id, votes });
  const results = [
    r('2026-11-02', 1, 1),
    r('2026-11-02', 2, 2),
    r('2026-11-09', 1, 2),
    r('2026-11-09', 3, 1),
    r('2026-11-16', 2, 3),
    r('2026-11-16', 1, 4),
  ];
  // 1: 3+1 = 4, 2: 2+3 = 5, 3: 2, 4: 3 → listing 2
  const h = hallOfFame(results, new Date('2026-12-01T00:00:00Z'));
  assert.equal(h.months[0].listing_id, 2);
  assert.equal(h.months[0].points, 5);
  assert.equal(h.months[0].final, true);
  assert.deepEqual(
    h.weeks.map((w) => w.listing_id),
    [4, 2, 1],
  );
  // tie on points (3 each): more #1 wins; then more votes; then the earlier award
  const tie = hallOfFame(
    [r('2026-10-05', 1, 5, 1), r('2026-10-12', 2, 6, 50), r('2026-10-19', 3, 6, 50)],
    new Date('2026-10-20T00:00:00Z'),
  );
  assert.equal(tie.months[0].listing_id, 5);
  assert.equal(tie.months[0].final, false, 'October 2026 ends on 2 November');
  const votes = hallOfFame([r('2026-10-05', 1, 7, 5), r('2026-10-12', 1, 8, 9)], new Date('2027-01-01T00:00:00Z'));
  assert.equal(votes.months[0].listing_id, 8);
  const earlier = hallOfFame([r('2026-10-05', 1, 9, 5), r('2026-10-12', 1, 8, 5)], new Date('2027-01-01T00:00:00Z'));
  assert.equal(earlier.months[0].listing_id, 9);
  assert.equal(earlier.years[0].period, '2026');
  assert.equal(earlier.years[0].final, false);
});

test('programme entry rules: the first rule broken is named', () => {
  const p = {
    starts_on: '2026-11-01',
    ends_on: '2026-12-31',
    rules: { launched_from: '2026-01-01', launched_to: '2026-12-31', categories: ['analytics'], verified_only: true },
  };
  const l = {
    status: 'live',
    launched_at: '2026-03-04T10:00:00.000Z',
    categories: ['analytics', 'web-analytics'],
    verified: true,
  };
  assert.equal(entryRefusal(p, l, '2026-11-20'), null);
  assert.equal(entryRefusal(p, l, '2026-10-31')?.rule, 'period');
  assert.equal(entryRefusal(p, l, '2027-01-01')?.rule, 'period');
  assert.equal(entryRefusal(p, { ...l, status: 'scheduled' }, '2026-11-20')?.rule, 'live');
  assert.equal(entryRefusal(p, { ...l, launched_at: '2025-12-31T23:00:00.000Z' }, '2026-11-20')?.rule, 'launched_from');
  assert.equal(entryRefusal(p, { ...l, categories: ['design'] }, '2026-11-20')?.rule, 'categories');
  assert.equal(entryRefusal(p, { ...l, verified: false }, '2026-11-20')?.rule, 'verified_only');
  assert.equal(programmeState(p, '2026-12-31'), 'open');
  assert.deepEqual(
    ruleWords(p).map((w) => w.text),
    [
      'Entries are open from 2026-11-01 to 2026-12-31 (UTC).',
      'The listing is live on Launchlist and yours.',
      'Launched in 2026.',
      'In one of the categories: analytics.',
      'Ownership of the listing is verified.',
    ],
  );
});

test('milestones that count as trophies', () => {
  for (const t of [
    'First paying customer',
    '10,000 users',
    'Raised a seed round',
    'Won Best DevTool 2026',
    '#1 on Hacker News',
  ])
    assert.equal(isTrophyMilestone(t), true, t);
  for (const t of ['Company founded', 'Public beta', 'Moved offices']) assert.equal(isTrophyMilestone(t), false, t);
});

test('the statement text: fixed key order, no whitespace, read back', () => {
  const text = statementText({
    award: 'launch_of_the_week',
    title: 'Launch of the Week #1',
    week: '2026-11-16',
    iso_week: '2026-W47',
    rank: 1,
    listing: { id: 12, slug: 'acme', name: 'Acme "Co"' },
    votes: 96,
    snapshot_sha256: 'ab'.repeat(32),
    issued_at: '2026-11-23T00:05:00.000Z',
    kid: 'k1',
  });
  assert.equal(
    text,
    '{"typ":"launchlist-award/1","award":"launch_of_the_week","title":"Launch of the Week #1","week":"2026-11-16","iso_week":"2026-W47","rank":1,"listing":{"id":12,"slug":"acme","name":"Acme \\"Co\\""},"votes":96,"snapshot_sha256":"' +
      'ab'.repeat(32) +
      '","issued_at":"2026-11-23T00:05:00.000Z","kid":"k1"}',
  );
  assert.equal(parseStatement(text)?.listing.name, 'Acme "Co"');
  assert.equal(parseStatement('{"typ":"other"}'), null);
  assert.equal(parseStatement('not json'), null);
});
