// Reading a listing's homepage for our badge (the free plan's condition to go live): the guarded
// fetcher (public addresses only), robots.txt respected (RFC 9309: an unreadable robots.txt means
// "read nothing"), and the badge detection of domain/badges.ts. Never throws for a site that cannot
// be read: the answer says why, in words the owner sees (services/listings.ts records each check).
import { homepageHasBadge, listingPageUrl } from '../../domain/badges.ts';
import { checkUrl, guardedFetch, isFetchError } from './guarded-fetch.ts';
import { RobotsCache } from './robots.ts';

export const BADGE_FETCH_TIMEOUT_MS = 10_000;

export interface HomepageCheck {
  found: boolean;
  /** What was seen, in plain words (kept in badge_checks and shown to the owner). */
  detail: string;
}

export interface HomepageCheckOptions {
  /** host[:port] exempt from the public-address rule (FETCH_ALLOW_HOSTS). */
  allowHosts: readonly string[];
  /** The site's public URL: the badge links to its listing pages. */
  publicUrl: string;
  /** The robots.txt cache (default: one per process, kept an hour). */
  robots?: RobotsCache;
  signal?: AbortSignal;
}

const defaultRobots = new RobotsCache({ ttlMs: 60 * 60 * 1000 });

/** Reads a homepage (guarded fetcher, robots.txt respected) and looks for our badge or a link to the listing page. */
export async function checkHomepageBadge(
  listing: { slug: string; url: string },
  opts: HomepageCheckOptions,
): Promise<HomepageCheck> {
  const { allowHosts, signal } = opts;
  const robots = opts.robots ?? defaultRobots;
  try {
    checkUrl(listing.url, allowHosts); // refuses non-public addresses before anything is requested
    const policy = await robots.get(listing.url, { allowHosts, signal, timeoutMs: BADGE_FETCH_TIMEOUT_MS });
    if (policy.status === 'unreachable' && policy.error === 'address_not_public') {
      return { found: false, detail: `refused to read ${listing.url}: it resolves to an address that is not public` };
    }
    if (policy.status === 'unreachable') {
      // RFC 9309: a robots.txt that cannot be fetched (network failure, 5xx) means "read nothing".
      const why = policy.httpStatus ? `HTTP ${policy.httpStatus}` : (policy.error ?? 'no answer');
      return {
        found: false,
        detail: `could not read ${policy.robotsUrl} (${why}), so the homepage ${listing.url} was not read either`,
      };
    }
    if (!policy.isAllowed(listing.url)) {
      return {
        found: false,
        detail: `robots.txt of ${policy.origin} does not let LaunchlistBot read ${listing.url}; allow it so the badge can be seen`,
      };
    }
    const res = await guardedFetch(listing.url, {
      allowHosts,
      accept: 'html',
      timeoutMs: BADGE_FETCH_TIMEOUT_MS,
      truncate: true,
      signal,
    });
    const found = homepageHasBadge(res.body, opts.publicUrl, listing.slug);
    return found
      ? { found, detail: `badge found on ${res.url}` }
      : {
          found,
          detail: `no Launchlist badge or link to ${listingPageUrl(opts.publicUrl, listing.slug)} on ${res.url}`,
        };
  } catch (e) {
    if (isFetchError(e)) return { found: false, detail: `could not read ${listing.url}: ${e.message}` };
    throw e;
  }
}
