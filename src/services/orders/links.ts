// Checkout links: the secret in an order's checkout_url is derived from its number with a key from
// the server secrets, so only its hash is stored and the link can be shown again (get_order, the
// checkout page) on any instance, after any restart.
import { createHash, createHmac } from 'node:crypto';
import type { Services } from '../../operations/context.ts';

export const CHECKOUT_NOTE = 'Hand this link to the person; they pay on our page. Never ask for card details.';

const linkKeys = new WeakMap<object, Buffer>();

/** The key checkout links are derived from (from the server secrets, so it survives restarts and is shared by instances). */
export function checkoutKey(services: Pick<Services, 'secrets'>): Buffer {
  const { secrets } = services;
  let k = linkKeys.get(secrets);
  if (!k)
    linkKeys.set(secrets, (k = createHmac('sha256', secrets.csrfKey).update('launchlist checkout links v1').digest()));
  return k;
}

/** The secret in an order's checkout link. Derived from the order number, so only its hash is stored and the link can be shown again. */
export function checkoutToken(key: Buffer, number: string): string {
  return createHmac('sha256', key).update(`checkout\0${number}`).digest('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function checkoutUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/checkout/${token}`;
}
