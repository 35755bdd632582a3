// The payment provider of this server: Stripe when STRIPE_SECRET_KEY is set, the built-in test
// provider otherwise. Kept in services.payments (a test may put another provider there).
import type { Config } from '../config.ts';
import type { PaymentProvider } from './types.ts';
import { testProvider } from './test-provider.ts';
import { stripeProvider } from './stripe.ts';

export type { PaymentProvider, PaymentOrder } from './types.ts';
export { testProvider, parseCard } from './test-provider.ts';
export { stripeProvider } from './stripe.ts';

/** The provider a server starts with (services.payments; a test may put another there). */
export function paymentProvider(config: Pick<Config, 'STRIPE_SECRET_KEY'>): PaymentProvider {
  return config.STRIPE_SECRET_KEY ? stripeProvider(config.STRIPE_SECRET_KEY) : testProvider();
}
