// Cache hit and miss counts of this process, as plain numbers: the code that looks a cache up adds one
// (an increment, nothing else on the hot path); ops/metrics.ts reports them at scrape time as
// launchlist_cache_requests_total{cache, result}.

export interface HitMiss {
  hit: number;
  miss: number;
}

export const cacheCounts = {
  /** get_listing: the stored profile (listing_profiles) was current (miss: rebuilt on that read). */
  profile_stored: { hit: 0, miss: 0 } as HitMiss,
  /** PostgreSQL get_listing: the database sent no text because this process held the current one. */
  profile_text: { hit: 0, miss: 0 } as HitMiss,
  /** PostgreSQL get_listing: answered from what this process held, with no round trip (PROFILE_FRESH_MS). */
  profile_fresh: { hit: 0, miss: 0 } as HitMiss,
  /** OAuth client ID metadata documents (memory or Redis). */
  cimd: { hit: 0, miss: 0 } as HitMiss,
  /** Public pages shared by anonymous visitors (SHARED_CACHE_MS; miss: rendered for everyone on that request). */
  shared_page: { hit: 0, miss: 0 } as HitMiss,
  /** A kept page's compressed copy for an encoding, written to everyone signed out (miss: compressed on that request). */
  shared_page_compressed: { hit: 0, miss: 0 } as HitMiss,
  /** Public API reads shared by anonymous callers (an operation's cacheMs within SHARED_CACHE_MS). */
  shared_result: { hit: 0, miss: 0 } as HitMiss,
  /** Per-category counts kept until the directory's membership changes (miss: counted again). */
  membership: { hit: 0, miss: 0 } as HitMiss,
  /** VIES answers for VAT numbers (memory or Redis). */
  vies: { hit: 0, miss: 0 } as HitMiss,
};
