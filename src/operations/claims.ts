import { z } from 'zod';
import { defineOperation } from './define.ts';
import { Email, IntId, ListingSummary, Paged, Pagination, Timestamp, offsetOf, paged } from './schemas.ts';
import { EXAMPLE_SUMMARY } from './examples.ts';
import { CLAIM_METHODS, CLAIM_STATUSES } from '../domain/claims.ts';
import {
  claimListing as startClaim,
  listMyClaims as listClaims,
  verifyClaim as checkClaim,
} from '../services/claims.ts';

const CLAIM_DOC = [
  [
    'A claim is {id (integer), status, method, listing (the listing summary), email (email claims only, else null),',
    'created_at, verified_at, checked_at (last check), last_error (what the last check found, e.g. "no TXT record',
    'launchlist-verification=… at _launchlist.acme.example"), expires_at (email claims: when the link stops working),',
    'instructions, note}.',
  ],
  [
    'Status: `pending` (publish what the instructions say, then call verify_claim; a failed check leaves the claim',
    'pending with last_error), `verified` (the listing moved to the caller and shows the Verified badge), `failed`',
    '(closed: another claim of the listing verified first), `expired` (an email link not opened within 24 h).',
  ],
  [
    'Instructions by method — dns: {record_type: "TXT", host: "_launchlist.<domain>" (the apex is not checked), value:',
    '"launchlist-verification=<token>"}; meta: {tag: `<meta name="launchlist-verification" content="<token>">`, where:',
    '"in the <head> of https://<domain>/", url}; file: {url: ' +
      '"https://<domain>/.well-known/launchlist-verification.txt",',
    'content: "<token>"} (the whole file, surrounding whitespace ignored, at most 4096 bytes); email: {sent_to, note:',
    '"open the link in the email within 24 h", expires_at}. Each also has `how`, a sentence for the person.',
  ],
  [
    'Verified is not the same as paid: verifying proves control of the domain and moves ownership; it unlocks no paid',
    'plan or section (those come from orders).',
  ],
]
  .map((sentence) => sentence.join(' '))
  .join(' ');

const How = z.string().describe('What to do, in a sentence for the person.');

/** What to publish, by method (services/claims.ts instructionsOf). */
const Instructions = z
  .union([
    z
      .strictObject({
        record_type: z.literal('TXT'),
        host: z.string().describe("The record's name: _launchlist.<domain> (the apex is not checked)."),
        value: z.string().describe("The record's value: launchlist-verification=<token>."),
        how: How,
      })
      .describe('dns: a TXT record.'),
    z
      .strictObject({
        tag: z.string().describe('The tag: <meta name="launchlist-verification" content="<token>">.'),
        where: z.string().describe('Where the tag goes: in the <head> of the homepage.'),
        url: z.string().describe("The homepage that is read (the origin of the listing's url)."),
        how: How,
      })
      .describe('meta: a tag on the homepage.'),
    z
      .strictObject({
        url: z.string().describe('Where the file is served: <origin>/.well-known/launchlist-verification.txt.'),
        content: z
          .string()
          .describe('The whole content of the file: the token (surrounding whitespace ignored, at most 4096 bytes).'),
        how: How,
      })
      .describe('file: a file on the website.'),
    z
      .strictObject({
        sent_to: z.string().nullable().describe('The address the link was emailed to.'),
        note: z.string().describe('"open the link in the email within 24 h" (or "the listing no longer exists").'),
        expires_at: Timestamp.nullable().describe('When the link stops working.'),
        how: How,
      })
      .describe('email: a link mailed to an address at the domain.'),
  ])
  .describe('What to publish, by method: dns, meta, file or email.');

const Claim = z.strictObject({
  id: z.number().int().describe('The claim id (claim_id of verify_claim).'),
  status: z
    .enum(CLAIM_STATUSES)
    .describe(
      "pending (publish, then verify_claim), verified (the listing is the caller's), failed (closed: another claim " +
        'verified first), expired (an email link not opened within 24 h).',
    ),
  method: z.enum(CLAIM_METHODS),
  listing: ListingSummary.nullable().describe('The listing claimed; null if it no longer exists.'),
  email: z.string().nullable().describe('The address at the domain (email claims only, else null).'),
  created_at: Timestamp,
  verified_at: Timestamp.nullable().describe('When it verified, or null.'),
  checked_at: Timestamp.nullable().describe('When it was last checked, or null.'),
  last_error: z
    .string()
    .nullable()
    .describe(
      'What the last check found instead, e.g. "no TXT record launchlist-verification=… at ' +
        '_launchlist.acme.example"; why a failed or expired claim closed; null otherwise.',
    ),
  expires_at: Timestamp.nullable().describe('Email claims: when the link stops working; null for the other methods.'),
  instructions: Instructions,
  note: z.string().describe('Verified is not the same as paid: what verifying does and does not unlock.'),
});

const EXAMPLE_CLAIM: z.input<typeof Claim> = {
  id: 12,
  status: 'pending',
  method: 'dns',
  listing: { ...EXAMPLE_SUMMARY, slug: 'acme-notes', name: 'Acme Notes', url: 'https://acme.example/' },
  email: null,
  created_at: '2026-03-02T10:00:00.000Z',
  verified_at: null,
  checked_at: null,
  last_error: null,
  expires_at: null,
  instructions: {
    record_type: 'TXT',
    host: '_launchlist.acme.example',
    value: 'launchlist-verification=3f9c0a7d2b1e4c5f8a6d9e0b1c2d3e4f',
    how: 'At the DNS provider of acme.example, add a TXT record on the name _launchlist.acme.example …',
  },
  note: 'Verified proves that you control the domain … Verified is not the same as paid …',
};

export const claimListing = defineOperation({
  name: 'claim_listing',
  method: 'POST',
  path: '/claims',
  access: 'listings:write',
  tags: ['Claims'],
  summary: 'Claim an existing listing',
  description: [
    'Starts a claim of an existing public listing (live, scheduled or awaiting its badge) and returns 201 ' +
      'with what to publish: `dns` (a TXT record), `meta` (a tag on the homepage), `file` (a file at a given ' +
      "path) or `email` (a link sent to an address at the company's domain). Then call verify_claim (email " +
      'claims verify when the person who reads that mailbox opens the link and confirms).',
    "Rules: `email` is required for method=email and must be an address at the listing's domain or a " +
      'subdomain of it (for acme.example: ceo@acme.example or ceo@mail.acme.example, not ceo@gmail.com); for ' +
      "the other methods it is not used (the claim's `email` is null). An unknown or unpublished listing is a " +
      '400 naming `body.slug` (the spec declares 404 only for identifiers in the path). A listing the caller ' +
      'already owns and has verified is 409. A listing owned by someone else can be claimed: proving control ' +
      'of the domain moves the listing to the caller when the claim verifies, and the previous owner is told ' +
      'by email.',
    'Calling again for the same listing and method while a claim is pending returns that same claim (same ' +
      'token, same instructions, no new record needed); for email with another address, the link is sent to ' +
      'the new address instead (at most once a minute, else 429 with Retry-After) and the old link stops ' +
      'working.',
    CLAIM_DOC,
  ].join(' '),
  body: z.strictObject({
    slug: z.string().min(1).max(220).describe('The listing slug.'),
    method: z.enum(CLAIM_METHODS),
    email: Email.optional().describe("For method=email: an address at the company's domain."),
  }),
  response: Claim,
  status: 201,
  idempotencyKey: true,
  paginated: false,
  openWorld: true,
  examples: {
    request: { slug: 'acme-notes', method: 'dns' },
    response: EXAMPLE_CLAIM,
  },
  handler: async (ctx, input) => startClaim(ctx, input),
});

export const listMyClaims = defineOperation({
  name: 'list_my_claims',
  method: 'GET',
  path: '/claims',
  access: 'account:read',
  tags: ['Claims'],
  summary: "The caller's claims",
  description: `The caller's claims, newest first, with status and instructions. ${CLAIM_DOC}`,
  query: z.object({ ...Pagination }),
  response: Paged(Claim),
  examples: { response: { items: [EXAMPLE_CLAIM], page: 1, per_page: 20, total: 1, has_more: false } },
  status: 200,
  idempotencyKey: false,
  paginated: true,
  handler: async (ctx, input) => {
    const { items, total } = await listClaims(ctx, { limit: input.per_page, offset: offsetOf(input) });
    return paged(items, total, input);
  },
});

export const verifyClaim = defineOperation({
  name: 'verify_claim',
  method: 'POST',
  path: '/claims/{claim_id}/verify',
  access: 'listings:write',
  tags: ['Claims'],
  summary: 'Check a pending claim',
  description: [
    'Checks the DNS record, meta tag or file of a pending claim now and returns the claim with its new ' +
      'status (200 either way).',
    'Found: the claim becomes `verified`, the listing moves to the caller and shows the Verified badge (in ' +
      'one step; the previous owner, if any, is told by email; other pending claims of the listing close as ' +
      '`failed`). Not found: the claim stays `pending` with checked_at and last_error saying what was found ' +
      'instead — fix it and call again.',
    "dns reads TXT records of _launchlist.<domain>; meta reads the listing's homepage (the origin of its " +
      'url) and looks for the tag in <head>; file reads /.well-known/launchlist-verification.txt on the same ' +
      "origin. Redirects are followed only within the listing's domain; only public internet addresses are " +
      'read (a site on a private or loopback address fails the check with last_error saying so).',
    'Each claim is checked at most once every 10 s (else 429 with Retry-After). A claim that is already ' +
      'verified is returned as it is. Email claims are not checked here (409: open the link in the email); ' +
      "failed or expired claims cannot be checked again (409: start a new claim). Someone else's claim is 404.",
    CLAIM_DOC,
  ].join(' '),
  params: z.object({ claim_id: IntId }),
  response: Claim,
  examples: {
    response: {
      ...EXAMPLE_CLAIM,
      checked_at: '2026-03-02T10:05:00.000Z',
      last_error:
        'no TXT record launchlist-verification=3f9c0a7d2b1e4c5f8a6d9e0b1c2d3e4f at _launchlist.acme.example: ' +
        'the name has no TXT records (DNS changes can take a while to appear)',
    },
  },
  status: 200,
  idempotencyKey: true,
  paginated: false,
  openWorld: true,
  handler: async (ctx, input) => checkClaim(ctx, input.claim_id),
});
