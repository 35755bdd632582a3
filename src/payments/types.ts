// The payment-provider interface. The person pays on our checkout page (src/web/checkout.ts); the
// API never takes payment details. Two kinds of provider:
//   - 'card-form': the page shows a card form and the provider charges it (the built-in test provider);
//   - 'redirect': the page sends the person to the provider's own hosted page (Stripe Checkout), and
//     the provider confirms the payment when they come back (or when it calls our webhook).

/** What a provider needs to know about an order. */
export interface PaymentOrder {
  number: string;
  /** Amount to charge, VAT included, in the currency's smallest unit. */
  total_cents: number;
  currency: string;
  description: string;
}

export type ChargeResult = { ok: true; ref: string } | { ok: false; message: string };

export interface TestCard {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

export interface CardFormProvider {
  kind: 'card-form';
  name: string;
  /** Shown on the page: this provider takes no real money. */
  test: boolean;
  charge(order: PaymentOrder, card: TestCard): Promise<ChargeResult>;
}

export interface ProviderPayment {
  /** True once the provider holds the money. */
  paid: boolean;
  amount_cents: number | null;
  currency: string | null;
  /** The order number we gave the provider. */
  order_number: string | null;
  /** The provider's id of the payment. */
  ref: string;
}

export interface RedirectProvider {
  kind: 'redirect';
  name: string;
  test: boolean;
  /** Opens a payment on the provider's hosted page; returns where to send the person and the provider's id for it. */
  startCheckout(
    order: PaymentOrder,
    urls: { successUrl: string; cancelUrl: string },
  ): Promise<{ url: string; ref: string }>;
  /** Reads a payment back from the provider (never trusts what the browser says). */
  retrieve(ref: string): Promise<ProviderPayment>;
}

export type PaymentProvider = CardFormProvider | RedirectProvider;
