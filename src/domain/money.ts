// Money is integer cents (USD unless named). Pure helpers, no I/O.

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string): Intl.NumberFormat {
  const key = currency.toUpperCase();
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: key,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(key, f);
  }
  return f;
}

/** 123456 → "$1,234.56"; negative amounts → "-$12.00". */
export function formatCents(cents: number, currency = 'usd'): string {
  if (!Number.isInteger(cents)) throw new RangeError(`cents must be an integer, got ${cents}`);
  return formatter(currency).format(cents / 100);
}

/** 123456 → "1234.56" (no symbol, no grouping): for CSV and payment providers. */
export function centsToDecimal(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`cents must be an integer, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** VAT on a net amount at a rate in basis points (2100 = 21 %), rounded half up to a whole cent. */
export function vatCents(netCents: number, rateBp: number): number {
  if (!Number.isInteger(netCents) || !Number.isInteger(rateBp)) throw new RangeError('net and rate must be integers');
  return Math.round((netCents * rateBp) / 10_000);
}
