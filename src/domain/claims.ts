// Claims of existing listings: how a person proves control of a listing's domain, and where a claim
// stands. One source for the services, the operations' schemas, the Kysely schema and the pages.

/**
 * dns: a TXT record at _launchlist.<domain>; meta: a tag in the <head> of the homepage; file: a file
 * under /.well-known/; email: a link mailed to an address at the domain.
 */
export const CLAIM_METHODS = ['dns', 'meta', 'file', 'email'] as const;
export type ClaimMethod = (typeof CLAIM_METHODS)[number];

/**
 * pending: waiting for its check (or for the emailed link to be opened); verified: the listing moved
 * to the claimant; failed: closed (another claim of the listing verified first); expired: an email
 * link not opened in time.
 */
export const CLAIM_STATUSES = ['pending', 'verified', 'failed', 'expired'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
