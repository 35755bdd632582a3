// The three scopes a credential can hold, and what each allows in plain words: the one wording shown
// on the consent page, the API-keys page, GET /me and in the OpenAPI document's OAuth flow.
export type Scope = 'account:read' | 'listings:write' | 'orders:write';
export const SCOPES: readonly Scope[] = ['account:read', 'listings:write', 'orders:write'];

export const SCOPE_WORDS: Readonly<Record<Scope, string>> = {
  'account:read': 'See your account, your drafts, listings, claims and orders',
  'listings:write': 'Draft, edit and publish your listings, post updates and claim listings for you',
  'orders:write': 'Price products and prepare orders for you to pay yourself (it never sees or enters payment details)',
};

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}
