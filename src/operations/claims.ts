import { z } from 'zod';
import { defineOperation } from './define.ts';
import { notImplemented } from './errors.ts';
import { Email, IntId, JsonObject, Paged, Pagination } from './schemas.ts';

export const claimListing = defineOperation({
  name: 'claim_listing', method: 'POST', path: '/claims', access: 'listings:write', tags: ['Claims'],
  summary: 'Claim an existing listing',
  description: 'Starts a claim of an existing listing and returns 201 with what to publish: `dns` (a TXT record), `meta` (a tag on the homepage), `file` (a file at a given path) or `email` (a link sent to an address at the company\'s domain). Then call verify_claim (email claims verify when the link is opened). Verified is not the same as paid.',
  body: z.strictObject({
    slug: z.string().min(1).max(220),
    method: z.enum(['dns', 'meta', 'file', 'email']),
    email: Email.optional().describe("For method=email: an address at the company's domain."),
  }),
  response: JsonObject, status: 201, idempotencyKey: true, paginated: false, openWorld: true,
  pending: 'a later issue (claims)',
  handler: async () => notImplemented('claims issue'),
});

export const listMyClaims = defineOperation({
  name: 'list_my_claims', method: 'GET', path: '/claims', access: 'account:read', tags: ['Claims'],
  summary: "The caller's claims",
  description: "The caller's claims, newest first, with status and instructions.",
  query: z.object({ ...Pagination }),
  response: Paged(JsonObject), status: 200, idempotencyKey: false, paginated: true,
  pending: 'a later issue (claims)',
  handler: async () => notImplemented('claims issue'),
});

export const verifyClaim = defineOperation({
  name: 'verify_claim', method: 'POST', path: '/claims/{claim_id}/verify', access: 'listings:write', tags: ['Claims'],
  summary: 'Check a pending claim',
  description: 'Checks the DNS record, meta tag or file of a pending claim and returns the claim with its new status.',
  params: z.object({ claim_id: IntId }),
  response: JsonObject, status: 200, idempotencyKey: true, paginated: false, openWorld: true,
  pending: 'a later issue (claims)',
  handler: async () => notImplemented('claims issue'),
});
