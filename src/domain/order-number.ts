// Order numbers that tell nobody how many orders there are: a readable prefix with the year, then 12
// random characters of Crockford's base32 (no I, L, O or U, so none is read as another), in groups of
// four: LL-2026-K7Q4-M9XD-2TPA. 60 random bits: with a million orders the chance that two ever drew the
// same number is below one in two million, and the orders table's unique index refuses it if they do.
// Orders made before this kept their sequential numbers (LL-2026-000123); both shapes are looked up alike.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const ORDER_NUMBER = /^LL-\d{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** A new order number for an order made at `at` (ISO text or Date). */
export function newOrderNumber(at: string | Date, random: (n: number) => Uint8Array = randomBytes): string {
  const year = (typeof at === 'string' ? at : at.toISOString()).slice(0, 4);
  // 12 characters × 5 bits = 60 bits, from 8 random bytes (the top 4 bits unused).
  let n = 0n;
  for (const b of random(8)) n = (n << 8n) | BigInt(b);
  let chars = '';
  for (let i = 0; i < 12; i++) {
    chars = ALPHABET[Number(n & 31n)] + chars;
    n >>= 5n;
  }
  return `LL-${year}-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}
