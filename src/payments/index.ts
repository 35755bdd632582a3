// The payment provider of this server: Stripe when STRIPE_SECRET_KEY is set, the built-in test
// provider otherwise. Kept in deps.services.payments (a test may put another provider there).
import type { Config } from '../config.ts';
import type { PaymentProvider } from './types.ts';
import { testProvider } from './test-provider.ts';
import { stripeProvider } from './stripe.ts';

export type {
  PaymentProvider,
  CardFormProvider,
  RedirectProvider,
  PaymentOrder,
  ChargeResult,
  ProviderPayment,
} from './types.ts';
export { testProvider, parseCard, TEST_CARD_OK, TEST_CARD_DECLINED } from './test-provider.ts';
export { stripeProvider } from './stripe.ts';

export function paymentProvider(
  services: Record<string, unknown>,
  config: Pick<Config, 'STRIPE_SECRET_KEY'>,
): PaymentProvider {
  let p = services.payments as PaymentProvider | undefined;
  if (!p) services.payments = p = config.STRIPE_SECRET_KEY ? stripeProvider(config.STRIPE_SECRET_KEY) : testProvider();
  return p;
}
