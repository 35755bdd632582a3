// EU VAT rules for orders: rates from the settings table, reverse charge, VAT number formats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_VAT_RATES_BP,
  EU_COUNTRIES,
  decideVat,
  isEuCountry,
  normaliseVatNumber,
  vatNumberCountry,
  vatNumberFormatValid,
  vatRatesFrom,
} from '../../src/domain/vat.ts';

const rates = vatRatesFrom({ DE: 1600, NL: 2100 });

test('the rates table: the setting wins, every EU country has a rate, junk entries are ignored', () => {
  assert.equal(rates.DE, 1600, 'the admin-set rate from vat_rates_bp');
  assert.equal(rates.FR, DEFAULT_VAT_RATES_BP.FR, 'a country missing from the setting falls back to the default table');
  for (const c of EU_COUNTRIES) assert.ok(Number.isInteger(rates[c]) && rates[c] > 0, `${c} has a rate`);
  const junk = vatRatesFrom({ DE: -5, FR: 'twenty', ES: 20000, it: 2300 });
  assert.equal(junk.DE, DEFAULT_VAT_RATES_BP.DE);
  assert.equal(junk.FR, DEFAULT_VAT_RATES_BP.FR);
  assert.equal(junk.ES, DEFAULT_VAT_RATES_BP.ES);
  assert.equal(junk.IT, 2300, 'lower-case keys are accepted');
  assert.deepEqual(vatRatesFrom(null), { ...DEFAULT_VAT_RATES_BP });
  assert.equal(EU_COUNTRIES.length, 27);
  assert.equal(isEuCountry('de'), true);
  assert.equal(isEuCountry('GB'), false);
  assert.equal(isEuCountry('CH'), false);
});

test('VAT number formats per country (prefix included; Greece is EL)', () => {
  for (const ok of [
    'DE123456789',
    'de 123 456 789',
    'ATU12345678',
    'NL123456789B01',
    'FR12345678901',
    'FRAB123456789',
    'EL123456789',
    'IE1234567T',
    'IE1234567TW',
    'ESX1234567X',
    'SE123456789001',
    'BE0123456789',
    'DK12345678',
    'PL1234567890',
    'IT12345678901',
  ]) {
    assert.equal(vatNumberFormatValid(ok), true, ok);
  }
  for (const bad of [
    'DE12345678',
    'DE1234567890',
    'ATU1234567',
    'AT123456789',
    'NL123456789',
    'GR123456789',
    'BE2123456789',
    'SE1234567890',
    'US123456789',
    '123456789',
    '',
    'DEABCDEFGHI',
  ]) {
    assert.equal(vatNumberFormatValid(bad), false, bad);
  }
  assert.equal(normaliseVatNumber(' de-123.456 789 '), 'DE123456789');
  assert.equal(vatNumberCountry('EL123456789'), 'GR');
  assert.equal(vatNumberCountry('GR123456789'), null, 'Greek numbers use the EL prefix');
  assert.equal(vatNumberCountry('GB123456789'), null);
});

test("an EU consumer pays their country's rate; outside the EU no VAT; unknown country: none yet", () => {
  const de = decideVat({ billingCountry: 'de', rates });
  assert.ok(de.ok);
  assert.deepEqual(
    { country: de.vat.country, rate: de.vat.rate_bp, rc: de.vat.reverse_charge },
    { country: 'DE', rate: 1600, rc: false },
  );
  assert.match(de.vat.note, /16%/);

  const us = decideVat({ billingCountry: 'US', rates });
  assert.ok(us.ok);
  assert.equal(us.vat.rate_bp, 0);
  assert.match(us.vat.note, /outside the EU/);

  const none = decideVat({ rates });
  assert.ok(none.ok);
  assert.equal(none.vat.country, null);
  assert.equal(none.vat.rate_bp, 0);
  assert.match(none.vat.note, /billing country/);
});

test("an EU business with a valid number gets the reverse charge, except in the seller's own country", () => {
  const rc = decideVat({ billingCountry: 'DE', vatNumber: 'DE 136 695 976', rates });
  assert.ok(rc.ok);
  assert.equal(rc.vat.reverse_charge, true);
  assert.equal(rc.vat.rate_bp, 0);
  assert.equal(rc.vat.vat_number, 'DE136695976');
  assert.match(rc.vat.note, /Reverse charge/);

  const fromNumber = decideVat({ vatNumber: 'NL004495445B01', rates });
  assert.ok(fromNumber.ok);
  assert.equal(fromNumber.vat.country, 'NL', 'the number names the country when billing_country is missing');
  assert.equal(fromNumber.vat.reverse_charge, true);

  const noPrefix = decideVat({ billingCountry: 'GR', vatNumber: '094259216', rates });
  assert.ok(noPrefix.ok);
  assert.equal(noPrefix.vat.vat_number, 'EL094259216', "a number typed without its prefix gets the billing country's");

  const domestic = decideVat({ billingCountry: 'NL', vatNumber: 'NL004495445B01', sellerCountry: 'NL', rates });
  assert.ok(domestic.ok);
  assert.equal(domestic.vat.reverse_charge, false);
  assert.equal(domestic.vat.rate_bp, 2100);
});

test('a VAT number of the wrong format or another country is refused, naming vat_number', () => {
  const bad = decideVat({ billingCountry: 'DE', vatNumber: 'DE1234', rates });
  assert.equal(bad.ok, false);
  if (!bad.ok) {
    assert.equal(bad.field, 'vat_number');
    assert.match(bad.message, /not a valid DE VAT number/);
  }
  const mismatch = decideVat({ billingCountry: 'FR', vatNumber: 'DE136695976', rates });
  assert.equal(mismatch.ok, false);
  if (!mismatch.ok) assert.match(mismatch.message, /DE.*FR/);
  const unknown = decideVat({ vatNumber: '123456789', rates });
  assert.equal(unknown.ok, false);
  // A business outside the EU: its number is kept, no VAT.
  const ch = decideVat({ billingCountry: 'CH', vatNumber: 'CHE-123.456.789', rates });
  assert.ok(ch.ok);
  assert.equal(ch.vat.rate_bp, 0);
  assert.equal(ch.vat.reverse_charge, false);
});

test('a billing country must be a country: ZZ, XX and EU are refused naming billing_country (they would be charged no VAT)', () => {
  for (const code of ['ZZ', 'XX', 'EU', 'uk']) {
    const r = decideVat({ billingCountry: code, rates });
    assert.equal(r.ok, false, code);
    if (!r.ok) assert.equal(r.field, 'billing_country', code);
  }
  for (const code of ['GB', 'ch', 'JP', 'DE']) assert.ok(decideVat({ billingCountry: code, rates }).ok, code);
});
