// Shared zod pieces. Every rule of spec parts 4 and 8 lives in a schema here or in the operation files.
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from './errors.ts';
import { LISTING_STATUSES, SLUG_PATTERN, SLUG_RULE } from '../domain/vocabulary.ts';

export const Slug = z.string().regex(SLUG_PATTERN, SLUG_RULE);
export const Page = z.coerce.number().int().min(1).max(1000).default(1).describe('Page number, 1-based (1 to 1000).');
export const PerPage = z.coerce.number().int().min(1).max(100).default(20).describe('Items per page (1 to 100).');
export const Pagination = { page: Page, per_page: PerPage };
export const Country = z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code');
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine(
    (s) => !Number.isNaN(Date.parse(s + 'T00:00:00Z')) && new Date(s + 'T00:00:00Z').toISOString().startsWith(s),
    'must be a real calendar date',
  );
/** The largest id a record can have: PostgreSQL's integer (serial) columns stop at 2^31 − 1. */
export const MAX_ID = 2_147_483_647;
/** A record id in a JSON body. */
export const Id = z.number().int().min(1).max(MAX_ID);
/** A record id written in a website path (digits, 1 to MAX_ID), or undefined: such a page answers 404 for anything else. */
export function recordIdOf(text: string): number | undefined {
  if (!/^[0-9]{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id >= 1 && id <= MAX_ID ? id : undefined;
}
/** A record id in a path (text, coerced). */
export const IntId = z.coerce.number().int().min(1).max(MAX_ID);
/**
 * Any id of the 8-4-4-4-12 hexadecimal shape (version and variant bits are not checked: an unknown id is a 404, not a 400),
 * in either case: a UUID is case-insensitive (RFC 9562), and ours are stored in lower case.
 */
export const Uuid = z
  .guid({ error: 'must be a UUID: 8-4-4-4-12 hexadecimal digits, e.g. 3f2a9c4e-1b7d-4e8a-9c0f-5d6e7f8a9b0c' })
  .transform((s) => s.toLowerCase());
export const Email = z.email().max(254);
export const HttpsUrl = (max: number) =>
  z
    .string()
    .max(max)
    .url()
    .refine((s) => s.startsWith('https://'), 'must be an https:// link');
export const QueryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], {
    error: 'must be true or false (1 and 0 are accepted too)',
  })
  .transform((v) => v === true || v === 'true' || v === '1');
/** What a week parameter taking `words` (this, next, last …) or a date accepts, said in its errors. */
export const weekRule = (words: readonly string[], date = 'a date YYYY-MM-DD') =>
  `must be ${words.join(', ')} or ${date}`;
/** A week: one of `words`, or a date YYYY-MM-DD (snaps to its Monday). */
export const weekRef = (words: readonly string[]) =>
  z
    .string()
    .max(10)
    .refine(
      (s) => words.includes(s) || (/^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s + 'T00:00:00Z'))),
      weekRule(words),
    );
/** A week: this, next, last, or a date YYYY-MM-DD (snaps to its Monday). */
export const WEEK_WORDS = ['this', 'next', 'last'] as const;
export const WeekRef = weekRef(WEEK_WORDS);
export const Cents = z.number().int().describe('Amount in USD cents, excluding VAT unless named otherwise.');

export const SOCIAL_PLATFORMS = [
  'linkedin',
  'x',
  'facebook',
  'instagram',
  'tiktok',
  'youtube',
  'threads',
  'pinterest',
  'github',
  'reddit',
  'medium',
  'website',
  'custom',
  'productlaunch',
] as const;
export const Socials = z.partialRecord(z.enum(SOCIAL_PLATFORMS), z.string().max(500));

export const Faq = z.strictObject({ question: z.string().max(300), answer: z.string().max(1500) });
export const Faqs = z.array(Faq).max(10);

export const MilestoneInput = z.strictObject({
  date: IsoDate,
  title: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  url: HttpsUrl(500).optional(),
});
// ------------------------------------------------------------------ response pieces
// Every response object is strict (z.strictObject): what the schema does not name is never sent, and
// the OpenAPI document and MCP outputSchema say so (additionalProperties: false).

/** An ISO 8601 timestamp in UTC, e.g. 2026-11-23T09:30:00.000Z. */
export const Timestamp = z.string().describe('ISO 8601 timestamp, UTC.');
/** A calendar date YYYY-MM-DD. */
export const DateString = z.string().describe('A date, YYYY-MM-DD.');
/** The Monday YYYY-MM-DD a launch week starts on. */
export const WeekString = z.string().describe('The Monday (YYYY-MM-DD) the launch week starts on.');

/** A page of items (spec 4.2). */
export function Paged<T extends z.ZodType>(item: T) {
  return z.strictObject({
    items: z.array(item).describe('This page of results.'),
    page: z.number().int().describe('The page number (1-based).'),
    per_page: z.number().int().describe('Items per page.'),
    total: z.number().int().describe('All matching items, on every page.'),
    has_more: z.boolean().describe('True when a later page has more items.'),
  });
}

export const ListingStatus = z
  .enum(LISTING_STATUSES)
  .describe(
    'draft (saved, not public), awaiting_badge (free plan, waiting for our badge on its homepage), scheduled (cleared for its launch week), live (public).',
  );

/** A category named by slug and name. */
export const CategoryRef = z.strictObject({
  slug: z.string().describe('Category slug.'),
  name: z.string().describe('Category name.'),
});

/** The one listing summary every public list uses (store/repos/summary.ts toSummary). */
export const ListingSummary = z.strictObject({
  slug: z.string().describe("The listing's slug: its page is /listings/{slug}."),
  name: z.string().describe('Product name.'),
  url: z.string().describe("The product's website."),
  tagline: z.string().nullable().describe('One-line pitch, or null.'),
  logo_url: z.string().nullable().describe('Logo image URL, or null.'),
  votes: z.number().int().describe('All-time community votes (one per person, cast on the website).'),
  primary_category: CategoryRef.nullable().describe('The primary category, or null.'),
  status: ListingStatus,
  launch_week: WeekString.nullable().describe('The Monday of its launch week, or null.'),
  launched_at: Timestamp.nullable().describe('When it went live, or null while not live.'),
});

export const ErrorBody = z.strictObject({
  error: z.strictObject({
    code: z
      .enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]])
      .describe('Machine-readable snake_case code; each has one HTTP status (x-error-codes).'),
    message: z.string().describe('What was wrong and what is accepted, in plain words.'),
    details: z
      .array(
        z.strictObject({
          path: z.string().describe('Where: path.x, query.x, body.x.y, header.X.'),
          message: z.string().describe('The rule it broke.'),
        }),
      )
      .optional()
      .describe('One entry per field at fault (validation errors).'),
    existing_listing: z
      .strictObject({
        slug: z.string().describe("The listing's slug."),
        name: z.string().describe('Its product name.'),
        url: z.string().describe('The website it lists.'),
        page_url: z.string().describe('Its page on the website.'),
        claim: z
          .strictObject({
            operation: z.literal('claim_listing').describe('The operation that claims it.'),
            slug: z.string().describe('The slug to send to claim_listing.'),
            page_url: z.string().describe('The claim page on the website, for a person.'),
          })
          .describe('How the owner of the website takes the listing over: claim_listing with this slug.'),
      })
      .optional()
      .describe(
        'On a 409 conflict for a website that is already listed (submit_listing, submit_draft): the listing it is listed as, and how to claim it.',
      ),
    request_id: z.string().describe('The X-Request-Id of the request, for our logs.'),
  }),
});

export function paged<T>(items: T[], total: number, input: { page: number; per_page: number }) {
  return { items, page: input.page, per_page: input.per_page, total, has_more: input.page * input.per_page < total };
}
export const offsetOf = (input: { page: number; per_page: number }) => (input.page - 1) * input.per_page;
