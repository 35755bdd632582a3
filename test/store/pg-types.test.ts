// PostgreSQL's timestamptz text, read by hand into the ISO string Date would give (store/connect.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timestamptzIso } from '../../src/store/connect.ts';

/** A time as PostgreSQL writes it in a UTC session, with 0 to 6 fraction digits. */
function pgText(ms: number, micros: number, digits: number): string {
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const frac = (iso.slice(20, 23) + String(micros).padStart(3, '0')).slice(0, digits).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''}+00`;
}

test('timestamptz text becomes the same ISO string as Date gives, over 1970–2100 and every fraction length', () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 5000; i++) {
    const ms = Math.floor(rand() * Date.UTC(2100, 0, 1));
    const text = pgText(ms, Math.floor(rand() * 1000), i % 7);
    assert.equal(timestamptzIso(text), new Date(text).toISOString(), text);
  }
});

test('other offsets and forms go through Date; year 1 stays year 1 (Date reads "0001" as 2001)', () => {
  assert.equal(timestamptzIso('2026-11-27 21:15:57.139+01'), '2026-11-27T20:15:57.139Z');
  assert.equal(timestamptzIso('0001-01-01 00:00:00+00'), '0001-01-01T00:00:00.000Z');
});
