// The built-in test provider (the default while STRIPE_SECRET_KEY is unset): no money moves and
// nothing about the card is stored. Test cards:
//   4242 4242 4242 4242  succeeds
//   4000 0000 0000 0002  is declined
// Any future expiry date and any 3- or 4-digit CVC.
import { randomBytes } from 'node:crypto';
import type { CardFormProvider, ChargeResult, PaymentOrder, TestCard } from './types.ts';

export const TEST_CARD_OK = '4242424242424242';
export const TEST_CARD_DECLINED = '4000000000000002';

/** Reads the card fields of the checkout form; field errors in plain words (nothing is kept). */
export function parseCard(
  form: { card_number?: unknown; card_expiry?: unknown; card_cvc?: unknown },
  now = new Date(),
): { ok: true; card: TestCard } | { ok: false; errors: Array<{ field: string; message: string }> } {
  const errors: Array<{ field: string; message: string }> = [];
  const number = String(form.card_number ?? '').replace(/[\s-]/g, '');
  const expiry = String(form.card_expiry ?? '').trim();
  const cvc = String(form.card_cvc ?? '').trim();
  if (!/^\d{12,19}$/.test(number))
    errors.push({ field: 'card_number', message: 'Enter the card number (12 to 19 digits).' });
  const m = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(expiry);
  let month = 0;
  let year = 0;
  if (!m) errors.push({ field: 'card_expiry', message: 'Enter the expiry date as MM/YY.' });
  else {
    month = Number(m[1]);
    year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
    const endOfMonth = Date.UTC(year, month, 1); // first day of the next month
    if (month < 1 || month > 12) errors.push({ field: 'card_expiry', message: 'The expiry month must be 01 to 12.' });
    else if (endOfMonth <= now.getTime()) errors.push({ field: 'card_expiry', message: 'This card has expired.' });
  }
  if (!/^\d{3,4}$/.test(cvc)) errors.push({ field: 'card_cvc', message: 'Enter the 3- or 4-digit security code.' });
  return errors.length ? { ok: false, errors } : { ok: true, card: { number, exp_month: month, exp_year: year, cvc } };
}

export function testProvider(): CardFormProvider {
  return {
    kind: 'card-form',
    name: 'test',
    test: true,
    async charge(order: PaymentOrder, card: TestCard): Promise<ChargeResult> {
      if (!Number.isInteger(order.total_cents) || order.total_cents < 0)
        return { ok: false, message: 'The amount is not valid.' };
      if (card.number === TEST_CARD_OK) return { ok: true, ref: `test_${randomBytes(12).toString('hex')}` };
      if (card.number === TEST_CARD_DECLINED)
        return { ok: false, message: 'Your card was declined. Nothing was charged.' };
      return {
        ok: false,
        message:
          'This is the test payment form: only the test cards work (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined). Nothing was charged.',
      };
    },
  };
}
