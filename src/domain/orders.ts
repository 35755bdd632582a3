// Order statuses, one source for the services, the operations' schemas and the Kysely schema.
//
//   pending    built by create_checkout; waiting for the person to pay at checkout_url
//   paid       payment succeeded; the lines were fulfilled in the same transaction (services/orders/fulfilment.ts)
//   expired    still unpaid ORDER_TTL_DAYS (services/orders/checkout.ts) after it was built; it can no longer be paid
//   cancelled  the person cancelled it on the checkout page; it can no longer be paid
export const ORDER_STATUSES = ['pending', 'paid', 'expired', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
