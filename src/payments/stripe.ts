// The Stripe adapter: a Checkout Session on Stripe's hosted page (cards, wallets and the other
// methods enabled in the Stripe account), read back by id when the person returns or when Stripe
// calls our webhook. The `stripe` package is loaded only when this provider is used.
import type { ProviderPayment, PaymentOrder, RedirectProvider } from './types.ts';

export interface StripeOptions {
  /** For tests against a local stand-in: host, port and protocol of the API. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  timeoutMs?: number;
}

type StripeClient = import('stripe').Stripe;

export function stripeProvider(secretKey: string, opts: StripeOptions = {}): RedirectProvider {
  let client: Promise<StripeClient> | undefined;
  const stripe = () =>
    (client ??= import('stripe').then(
      ({ default: Stripe }) =>
        new Stripe(secretKey, {
          maxNetworkRetries: 2,
          timeout: opts.timeoutMs ?? 20_000,
          appInfo: { name: 'Launchlist' },
          ...(opts.host ? { host: opts.host } : {}),
          ...(opts.port ? { port: opts.port } : {}),
          ...(opts.protocol ? { protocol: opts.protocol } : {}),
        }),
    ));
  return {
    kind: 'redirect',
    name: 'stripe',
    test: secretKey.startsWith('sk_test_'),
    async startCheckout(order: PaymentOrder, urls: { successUrl: string; cancelUrl: string }) {
      const s = await (await stripe()).checkout.sessions.create({
        mode: 'payment',
        client_reference_id: order.number,
        metadata: { order_number: order.number },
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: order.currency,
              unit_amount: order.total_cents,
              product_data: {
                name: `Launchlist order ${order.number}`,
                description: order.description.slice(0, 500) || undefined,
              },
            },
          },
        ],
        success_url: urls.successUrl,
        cancel_url: urls.cancelUrl,
      });
      if (!s.url) throw new Error('Stripe returned a Checkout Session without a URL');
      return { url: s.url, ref: s.id };
    },
    async retrieve(ref: string): Promise<ProviderPayment> {
      const s = await (await stripe()).checkout.sessions.retrieve(ref);
      const pi = s.payment_intent;
      return {
        paid: s.status === 'complete' && (s.payment_status === 'paid' || s.payment_status === 'no_payment_required'),
        amount_cents: s.amount_total,
        currency: s.currency,
        order_number: s.client_reference_id,
        ref: typeof pi === 'string' ? pi : (pi?.id ?? s.id),
      };
    },
  };
}
