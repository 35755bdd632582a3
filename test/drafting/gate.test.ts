/** The evidence gate: every checkable fact of a value must be in that value's own quotes. */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { gateFailures, gateField, gateFields } from '../../src/drafting/extract/gate.ts';
import { found, notFound, PROFILE_FIELDS, type ProfileFields } from '../../src/drafting/extract/types.ts';

const U = 'https://acme.test/';
const ok = (field: string, value: string, ...quotes: string[]): void =>
  assert.deepEqual(gateFailures(field, value, quotes), [], `${field}=${value} should pass`);
const fails = (field: string, value: string, ...quotes: string[]): void =>
  assert.ok(gateFailures(field, value, quotes).length > 0, `${field}=${value} should fail`);

describe('gateFailures', () => {
  test('numbers must be in the quotes (separators folded)', () => {
    ok('pricing_summary', 'Pro: $1399/month', 'Pro $1399 per month');
    fails('pricing_summary', 'Pro: $139/month', 'Pro $1399 per month');
    ok('features', 'Up to 5,000 records', 'up to 5000 records');
    ok('pricing_summary', 'Plus: 0.99€ per month', 'Plus 0,99 € / Monat');
    fails('tagline', 'Trusted by 10,000 teams', 'Trusted by teams everywhere');
  });
  test('an amount needs its currency and period in one quote', () => {
    fails('pricing_summary', 'Pro: $29/month', 'SAVE $29', 'billed monthly');
    fails('pricing_summary', 'Pro: €29/month', 'Pro $29 per month');
    fails('pricing_summary', 'Pro: $29/year', 'Pro $29 per month');
    ok('pricing_summary', 'Pro: $29/year', 'Pro — $29 billed annually');
    ok('pricing_summary', 'Basis: 9 €/Monat', 'Basis 9 € pro Monat');
    ok('pricing_summary', '3,500円', '初回カウンセリング 3,500円（税抜）');
  });
  test('emails and URLs exactly', () => {
    ok('contact_email', 'hello@acme.test', 'Write to hello@acme.test');
    fails('contact_email', 'press@acme.test', 'Write to hello@acme.test');
    ok(
      'demo_video_url',
      'https://www.youtube.com/watch?v=abcdef123',
      '<iframe src="https://www.youtube.com/embed/abcdef123">',
    );
    fails('demo_video_url', 'https://www.youtube.com/watch?v=zzzzzz999', 'youtube.com/embed/abcdef123');
    ok('logo_url', 'https://acme.test/img/logo.svg', '/img/logo.svg');
    fails('description', 'See https://other.test/x for more', 'See our docs for more');
  });
  test('years', () => {
    ok('founded_year', '2014', 'We began in January 2014.');
    fails('founded_year', '2013', 'We began in January 2014.');
  });
  test('places: country by any of its names, city word for word', () => {
    ok('country', 'AT', 'Made in Innsbruck, Austria');
    ok('country', 'AT', 'Entwickelt in Innsbruck, Österreich');
    ok('country', 'JP', '島根県出雲市 日本');
    fails('country', 'US', 'Made in Innsbruck, Austria');
    ok('city', 'Le Havre', 'We are based in Le Havre, France');
    fails('city', 'Race Street San Jose', 'We are based in San Jose, CA');
    fails('description', 'A tool made in Germany', 'A tool made with care');
    ok('description', 'A tool made in Germany', 'A tool made in Germany');
  });
});

describe('gateField / gateFields', () => {
  test('a failing single value becomes not_found', () => {
    const d = gateField('pricing_summary', found('Pro $139/month', [{ quote: 'Pro $1399/month', url: U }]));
    assert.deepEqual(d, notFound());
  });
  test('list fields are gated item by item, with their own quotes', () => {
    const d = gateField(
      'features',
      found(
        ['Sync 3 devices', 'Sync 5 devices', 'Offline mode'],
        [
          { quote: 'sync up to 3 devices', url: U, item: 0 },
          { quote: 'sync up to 3 devices', url: U, item: 1 },
          { quote: 'works offline mode', url: U, item: 2 },
        ],
      ),
    );
    assert.deepEqual(d.value, ['Sync 3 devices', 'Offline mode']);
    assert.deepEqual(
      d.evidence.map((e) => e.item),
      [0, 1],
    );
  });
  test('categories are not gated (names of our own tree)', () => {
    const d = found(['3D printing'], [{ quote: 'print your models', url: U, item: 0 }]);
    assert.equal(gateField('categories', d), d);
  });
  test('gateFields reports what it dropped', () => {
    const fields = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, notFound()])) as ProfileFields;
    fields.founded_year = found('2013', [{ quote: 'Since 2014', url: U }]);
    fields.name = found('Acme 2', [{ quote: 'Acme 2', url: U }]);
    const r = gateFields(fields);
    assert.equal(r.fields.founded_year.state, 'not_found');
    assert.equal(r.fields.name.value, 'Acme 2');
    assert.equal(r.dropped.length, 1);
  });
});
