// Tunables and test hooks of the services, as the typed `services` of a server holds them. Kept apart
// from the services themselves so that the kernel's types (operations/context.ts) can name them
// without importing the services (which import the kernel's types).
import type { LanguageModel } from 'ai';
import type { Config } from '../config.ts';
import type { CrawlOptions } from '../drafting/crawler/crawl.ts';
import type { Resolver } from '../drafting/crawler/guarded-fetch.ts';
import type { RobotsCache } from '../drafting/crawler/robots.ts';
import type { ProfileField } from '../drafting/extract/types.ts';
import type { CategoryModel } from '../drafting/classify.ts';
import type { Draft as ProfileDraft, SourcePage } from '../drafting/extract/types.ts';

/** Turns crawled pages into a profile draft (the rules extractor, then the LLM when configured). */
export type Drafter = (
  pages: SourcePage[],
  opts: {
    categoryNames: readonly string[];
    /** The categories classifier trained on the directory (drafting/category-model.ts). */
    categoryModel?: CategoryModel | null;
    fields?: readonly ProfileField[];
    signal?: AbortSignal;
    config: Config;
    services: { drafting: DraftingOptions };
  },
) => Promise<ProfileDraft>;

/** Tunables of the drafting pipeline (services.drafting; tests set them). */
export interface DraftingOptions {
  /** Total time cap of one draft build, crawl and drafting together (default 90 s). */
  totalTimeMs?: number;
  /** Extra crawl options (maxPages, pageTimeoutMs, robots cache, resolver…). */
  crawl?: Partial<CrawlOptions>;
  /** The drafter; defaults to the rules extractor (+ LLM when LLM_* is configured). */
  drafter?: Drafter;
  /** Time cap of reading a competitor's site (default 12 s). */
  competitorTimeMs?: number;
  /** The LLM to use instead of the one configured by LLM_BASE_URL/LLM_MODEL (tests pass the AI SDK's mock model); null turns it off. */
  llmModel?: LanguageModel | null;
}

/** Tunables of listing claims (services.claims; tests set them). */
export interface ClaimOptions {
  /** TXT look-up (default: node:dns/promises with a 5 s timeout). Returns records as arrays of chunks. */
  resolveTxt?: (host: string) => Promise<string[][]>;
  /** Minimum time between two checks of one claim (default 10 000 ms). */
  checkIntervalMs?: number;
  /** Time cap of one site fetch (default 10 000 ms). */
  fetchTimeoutMs?: number;
  /** Address resolver of the guarded fetcher (tests simulate DNS answers). */
  resolve?: Resolver;
}

/** Tunables of the homepage badge checks (services.badgeChecks; tests set them). */
export interface BadgeCheckOptions {
  /** The robots.txt cache the checks use (default: one per process, kept an hour). */
  robots?: RobotsCache;
}
