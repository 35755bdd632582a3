// Order numbers cannot be enumerated (issue #20, item 6): a readable prefix and 60 random bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newOrderNumber, ORDER_NUMBER } from '../../src/domain/order-number.ts';

test('an order number is LL-<year>- and 12 random Crockford base32 characters in groups of four', () => {
  const n = newOrderNumber('2026-03-04T05:06:07.000Z');
  assert.match(n, ORDER_NUMBER);
  assert.ok(n.startsWith('LL-2026-'));
  assert.equal(newOrderNumber(new Date('2027-01-01T00:00:00Z')).slice(0, 8), 'LL-2027-');
  // The characters come from the random bytes alone: all zeros and all ones give the ends of the alphabet.
  assert.equal(
    newOrderNumber('2026', (k) => new Uint8Array(k)),
    'LL-2026-0000-0000-0000',
  );
  assert.equal(
    newOrderNumber('2026', (k) => new Uint8Array(k).fill(255)),
    'LL-2026-ZZZZ-ZZZZ-ZZZZ',
  );
  assert.doesNotMatch(n.slice(8), /[ILOU]/);
});

test('consecutive order numbers share nothing but the prefix: no order, no count to read', () => {
  const made = Array.from({ length: 5000 }, () => newOrderNumber('2026-01-01T00:00:00Z'));
  assert.equal(new Set(made).size, made.length, 'no two alike');
  const sorted = [...made].sort();
  assert.notDeepEqual(sorted, made, 'not made in order');
  // Each of the 12 positions takes many values (a counter would leave the leading ones fixed).
  for (const pos of [8, 9, 13, 14, 18, 19]) assert.ok(new Set(made.map((m) => m[pos])).size >= 30, `position ${pos}`);
});
