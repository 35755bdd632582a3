// One website, one listing (issue #19 item 8). A draft or a listing for a website that is already
// listed (same registrable domain, port and path: domain/urls.ts siteKeyOf) is refused with 409
// conflict, naming the listing and how to claim it (error.existing_listing). What counts:
//
//   - another person's listing that is public (live, scheduled or awaiting_badge) blocks: it has a
//     page, and claim_listing can move it to whoever proves control of the domain;
//   - another person's listing that is not public (saved from a draft, never published) does not: it
//     has no page and cannot be claimed, and naming it would tell a stranger about someone's unpublished
//     work; the first of two to be published wins (choose_free_listing refuses the second);
//   - the caller's own listing of the site, in any status, is not a duplicate: submitting a draft of it
//     is a resubmission and goes through the listing-edit path (services/draft-listing.ts).
//
// There are no rejected or removed statuses: a listing the site team takes down is deleted, and a
// deleted listing blocks nothing.
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../store/types.ts';
import type { Config } from '../config.ts';
import { ApiError, type ExistingListing } from '../operations/errors.ts';
import { siteKeyOf } from '../domain/urls.ts';
import { listingPageUrl } from '../domain/badges.ts';
import { listingsOfSite, type SameSiteListing } from '../store/repos/same-site.ts';
import { PUBLIC_STATUSES } from '../store/repos/summary.ts';

type Db = Kysely<DB> | Transaction<DB>;

const isPublic = (l: SameSiteListing) => (PUBLIC_STATUSES as readonly string[]).includes(l.status);

/** What the listings of `url`'s website mean for `userId`: their own listing of it, and another person's public one. */
export async function siteListings(
  db: Db,
  url: string,
  userId: number,
): Promise<{ own: SameSiteListing | undefined; other: SameSiteListing | undefined }> {
  const key = siteKeyOf(url);
  if (!key) return { own: undefined, other: undefined };
  const rows = await listingsOfSite(db, key);
  const mine = rows.filter((l) => l.owner_id === userId);
  return {
    // A public one of their own first (the one people see), else the oldest.
    own: mine.find(isPublic) ?? mine[0],
    other: rows.find((l) => l.owner_id !== userId && isPublic(l)),
  };
}

export function existingListingOf(config: Pick<Config, 'publicUrl'>, l: SameSiteListing): ExistingListing {
  const page = listingPageUrl(config.publicUrl, l.slug);
  return {
    slug: l.slug,
    name: l.name,
    url: l.url,
    page_url: page,
    claim: { operation: 'claim_listing', slug: l.slug, page_url: `${page}/claim` },
  };
}

/** The 409 for a website that is already listed as `l`; `path`: the request field that named the website, if one did. */
export function alreadyListed(
  config: Pick<Config, 'publicUrl'>,
  url: string,
  l: SameSiteListing,
  path?: string,
): ApiError {
  const existing = existingListingOf(config, l);
  return new ApiError(
    'conflict',
    `${url} is already listed as "${l.name}" (${l.url}): ${existing.page_url}. A website has one listing. ` +
      `If the product is yours, claim that listing instead of submitting it again: claim_listing with slug ` +
      `"${l.slug}" (or ${existing.claim.page_url}); once verified it moves to your account and you edit it there.`,
    path ? [{ path, message: `this website is already listed as "${l.name}" (/listings/${l.slug})` }] : undefined,
    undefined,
    existing,
  );
}

/** Refuses (409) a website another person has a public listing of, unless the caller has a listing of it too. */
export async function refuseListedSite(db: Db, config: Pick<Config, 'publicUrl'>, url: string, userId: number) {
  const found = await siteListings(db, url, userId);
  if (found.other && !found.own) throw alreadyListed(config, url, found.other, 'body.url');
  return found;
}
