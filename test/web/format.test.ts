import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeHtml } from '../../src/web/layout.ts';
import { fmtDate, fmtNum, fmtRange, selectField } from '../../src/web/pages/shared.ts';

// The pages format dates and numbers by hand (Intl per call cost microseconds on every row); what a
// visitor reads must stay exactly what Intl's en-GB / en-US formatters write.
test('dates read as Intl en-GB writes them, September included', () => {
  const full = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const short = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  for (let t = Date.UTC(1999, 0, 1); t < Date.UTC(2031, 0, 1); t += 86_400_000 * 5 + 3_600_000 * 7) {
    const iso = new Date(t).toISOString();
    assert.equal(fmtDate(iso), full.format(new Date(iso)), iso);
    const day = iso.slice(0, 10);
    assert.equal(
      fmtRange(day, day),
      `${short.format(new Date(`${day}T00:00:00Z`))} – ${full.format(new Date(`${day}T00:00:00Z`))}`,
    );
  }
  assert.equal(fmtDate('2026-09-07'), '7 Sept 2026');
  assert.equal(fmtDate('not a date'), '');
  assert.equal(fmtDate(null), '');
});

test('numbers are grouped as en-US writes them', () => {
  for (const n of [0, 7, 999, 1000, 12_345, 1_234_567, -1234, 2 ** 40, 0.5, 1234.56])
    assert.equal(fmtNum(n), n.toLocaleString('en-US'));
  assert.equal(fmtNum(null), '');
});

test('escaping: text with nothing to escape is kept, markup characters are escaped', () => {
  assert.equal(escapeHtml('plain text'), 'plain text');
  assert.equal(escapeHtml(`<a href="x">'&'</a>\``), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;&#96;');
  const s = selectField(
    'c',
    'country',
    'Country',
    [
      ['de', 'Germany'],
      ['x"y', 'A <b> & C'],
    ],
    'DE',
  ).value;
  assert.match(s, /<option value="de" selected>Germany<\/option>/);
  assert.match(s, /<option value="x&quot;y">A &lt;b&gt; &amp; C<\/option>/);
});
