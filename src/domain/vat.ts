// EU VAT for orders: which rate applies, when an EU business gets the reverse charge, and whether a
// VAT number has the shape of its country's numbers. Pure functions, no I/O: the rates come from the
// settings (`vat_rates_bp`), read by the caller.
//
// Rules (prices always exclude VAT; VAT is added on the discounted subtotal):
//   - billing country outside the EU → no VAT;
//   - billing country in the EU, no VAT number → that country's rate (an EU consumer);
//   - an EU VAT number of the right format → reverse charge (no VAT; the business accounts for it),
//     unless the business is in the seller's own country (`vat_seller_country`), which is a domestic
//     sale charged at the local rate;
//   - no billing country yet → no VAT in the preview; it is worked out at checkout.
// The number's format and its check digits are checked here (jsvat, a maintained library of each
// country's checksum rules); whether it is registered is asked of VIES by services/vat-check.ts (I/O).

import { checkVAT, countries as jsvatCountries } from 'jsvat';
import { isCountry } from './countries.ts';

/** The 27 EU member states (ISO 3166-1 alpha-2). */
export const EU_COUNTRIES: readonly string[] = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
];
const EU = new Set(EU_COUNTRIES);

/**
 * Standard rates in basis points (2100 = 21 %), used for any EU country the `vat_rates_bp` setting
 * does not list. The setting is what the admin keeps current; this is the fallback when it is missing.
 */
export const DEFAULT_VAT_RATES_BP: Readonly<Record<string, number>> = {
  AT: 2000,
  BE: 2100,
  BG: 2000,
  HR: 2500,
  CY: 1900,
  CZ: 2100,
  DK: 2500,
  EE: 2400,
  FI: 2550,
  FR: 2000,
  DE: 1900,
  GR: 2400,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LV: 2100,
  LT: 2100,
  LU: 1700,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SK: 2300,
  SI: 2200,
  ES: 2100,
  SE: 2500,
};

/** VAT number prefixes are ISO codes, except Greece (EL). */
const PREFIX_TO_COUNTRY: Readonly<Record<string, string>> = { EL: 'GR' };
const COUNTRY_TO_PREFIX: Readonly<Record<string, string>> = { GR: 'EL' };

/** The national part of each country's VAT number (after the prefix), as published for VIES. */
const VAT_FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  HR: /^\d{11}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  DE: /^\d{9}$/,
  GR: /^\d{9}$/,
  HU: /^\d{8}$/,
  IE: /^(?:\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LV: /^\d{11}$/,
  LT: /^(?:\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SK: /^\d{10}$/,
  SI: /^\d{8}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  SE: /^\d{10}01$/,
};

export function isEuCountry(country: string | null | undefined): boolean {
  return Boolean(country && EU.has(country.toUpperCase()));
}

/** "de 123.456-789 " → "DE123456789": upper case, without spaces, dots and hyphens. */
export function normaliseVatNumber(s: string): string {
  return s.toUpperCase().replace(/[\s.\-/]/g, '');
}

/** The EU country (ISO code) a VAT number's prefix names, or null when it has no EU prefix. */
export function vatNumberCountry(vatNumber: string): string | null {
  const n = normaliseVatNumber(vatNumber);
  const prefix = n.slice(0, 2);
  const country = PREFIX_TO_COUNTRY[prefix] ?? prefix;
  if (!EU.has(country)) return null;
  if (country === 'GR' && prefix !== 'EL') return null; // Greek numbers are written EL…
  return country;
}

/** True when the number has its country's VAT format (prefix included, e.g. DE123456789, EL123456789). */
export function vatNumberFormatValid(vatNumber: string): boolean {
  const n = normaliseVatNumber(vatNumber);
  const country = vatNumberCountry(n);
  if (!country) return false;
  return VAT_FORMATS[country].test(n.slice(2));
}

/** True when the number's check digits are right by its country's rule (jsvat); its format is checked first. */
export function vatNumberChecksumValid(vatNumber: string): boolean {
  const n = normaliseVatNumber(vatNumber);
  if (!vatNumberFormatValid(n)) return false;
  const r = checkVAT(n, jsvatCountries);
  return r.isValid === true;
}

/** An example number for messages, e.g. "DE123456789". */
export function vatNumberExample(country: string): string {
  const examples: Record<string, string> = {
    AT: 'ATU12345678',
    NL: 'NL123456789B01',
    FR: 'FRXX123456789',
    IE: 'IE1234567T',
    SE: 'SE123456789001',
    ES: 'ESX1234567X',
    CY: 'CY12345678X',
    BE: 'BE0123456789',
  };
  return examples[country] ?? `${COUNTRY_TO_PREFIX[country] ?? country}123456789`;
}

/**
 * The rates table from the `vat_rates_bp` setting: its valid entries (two-letter code → integer
 * basis points 0–10000) over the defaults for every EU country.
 */
export function vatRatesFrom(setting: unknown): Record<string, number> {
  const rates: Record<string, number> = { ...DEFAULT_VAT_RATES_BP };
  if (setting && typeof setting === 'object' && !Array.isArray(setting)) {
    for (const [k, v] of Object.entries(setting as Record<string, unknown>)) {
      if (/^[A-Za-z]{2}$/.test(k) && typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 10_000)
        rates[k.toUpperCase()] = v;
    }
  }
  return rates;
}

export interface VatInput {
  /** Two letters, any case; undefined/null when not given yet. */
  billingCountry?: string | null;
  vatNumber?: string | null;
  /** Where the seller is established (`vat_seller_country` setting); null = outside the EU. */
  sellerCountry?: string | null;
  rates: Readonly<Record<string, number>>;
}

export interface VatDecision {
  /** The country VAT is worked out for (upper case), or null while unknown. */
  country: string | null;
  rate_bp: number;
  reverse_charge: boolean;
  /** The VAT number as normalised (null when none was given). */
  vat_number: string | null;
  note: string;
}

export type VatResult =
  | { ok: true; vat: VatDecision }
  | { ok: false; field: 'vat_number' | 'billing_country'; message: string };

function pct(bp: number): string {
  return `${(bp / 100).toFixed(bp % 100 === 0 ? 0 : bp % 10 === 0 ? 1 : 2)}%`;
}

/** Which VAT applies to an order (see the rules at the top of this file). */
export function decideVat(input: VatInput): VatResult {
  const seller = input.sellerCountry ? input.sellerCountry.toUpperCase() : null;
  let country = input.billingCountry ? input.billingCountry.toUpperCase() : null;
  if (country !== null && !isCountry(country))
    return {
      ok: false,
      field: 'billing_country',
      message: `is not a country code (ISO 3166-1 alpha-2, e.g. DE or US): ${JSON.stringify(input.billingCountry)}`,
    };
  const raw = input.vatNumber ?? '';
  let number: string | null = raw.trim() ? normaliseVatNumber(raw) : null;

  if (number) {
    let numberCountry = vatNumberCountry(number);
    // "123456789" with billing country DE: the prefix was left out.
    if (!numberCountry && country && isEuCountry(country) && /^[0-9]/.test(number)) {
      number = (COUNTRY_TO_PREFIX[country] ?? country) + number;
      numberCountry = country;
    }
    if (numberCountry) {
      if (country && country !== numberCountry) {
        return {
          ok: false,
          field: 'vat_number',
          message: `is a VAT number of ${numberCountry}, but billing_country is ${country}; they must be the same country`,
        };
      }
      if (!vatNumberFormatValid(number)) {
        return {
          ok: false,
          field: 'vat_number',
          message: `is not a valid ${numberCountry} VAT number (expected the format of ${vatNumberExample(numberCountry)})`,
        };
      }
      if (!vatNumberChecksumValid(number)) {
        return {
          ok: false,
          field: 'vat_number',
          message: `is not a valid ${numberCountry} VAT number: its check digits do not match (a typing mistake?)`,
        };
      }
      country = numberCountry;
      const rate = input.rates[country] ?? 0;
      if (seller && seller === country) {
        return {
          ok: true,
          vat: {
            country,
            rate_bp: rate,
            reverse_charge: false,
            vat_number: number,
            note: `Domestic sale: VAT at ${pct(rate)} for ${country} is charged even with a VAT number.`,
          },
        };
      }
      return {
        ok: true,
        vat: {
          country,
          rate_bp: 0,
          reverse_charge: true,
          vat_number: number,
          note: `Reverse charge: no VAT is charged; the business (VAT number ${number}, ${country}) accounts for the VAT itself.`,
        },
      };
    }
    if (!country) {
      return {
        ok: false,
        field: 'vat_number',
        message:
          'is not an EU VAT number: start it with its country prefix (e.g. DE123456789), or give billing_country',
      };
    }
    if (isEuCountry(country)) {
      return {
        ok: false,
        field: 'vat_number',
        message: `is not a valid ${country} VAT number (expected the format of ${vatNumberExample(country)})`,
      };
    }
    // A business outside the EU: no EU VAT; the number is kept for the invoice.
    return {
      ok: true,
      vat: {
        country,
        rate_bp: 0,
        reverse_charge: false,
        vat_number: number,
        note: `No VAT: the billing country ${country} is outside the EU.`,
      },
    };
  }

  if (!country) {
    return {
      ok: true,
      vat: {
        country: null,
        rate_bp: 0,
        reverse_charge: false,
        vat_number: null,
        note: "VAT is not included yet: it depends on the billing country (EU customers pay their country's VAT; EU businesses with a valid VAT number get the reverse charge). Give billing_country for the exact figure; it is settled at checkout.",
      },
    };
  }
  if (!isEuCountry(country)) {
    return {
      ok: true,
      vat: {
        country,
        rate_bp: 0,
        reverse_charge: false,
        vat_number: null,
        note: `No VAT: the billing country ${country} is outside the EU.`,
      },
    };
  }
  const rate = input.rates[country] ?? 0;
  return {
    ok: true,
    vat: {
      country,
      rate_bp: rate,
      reverse_charge: false,
      vat_number: null,
      note: `VAT at ${pct(rate)} for ${country} (EU), added to the prices, which exclude VAT.`,
    },
  };
}
