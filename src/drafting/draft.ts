/**
 * The drafting pipeline: draftPages (the draft job's drafter, services/drafting.ts) and draftSite (crawl +
 * draftPages, for tools and tests): draft by the rules, optionally let an LLM
 * propose verified values on top, and report completeness and what is missing.
 */
import type { LanguageModel } from 'ai';
import { crawlSite, type CrawlOptions, type CrawlResult } from './crawler/crawl.ts';
import {
  completeness,
  extractProfile,
  gateFields,
  missing,
  type Completeness,
  type Draft,
  type ProfileField,
  type SourcePage,
} from './extract/index.ts';
import type { CategoryModel } from './classify.ts';
import { draftWithLlm, LLM_FIELDS, mergeLlmDraft, type DroppedProposal, type LlmField } from './llm.ts';

export interface DraftSiteOptions extends CrawlOptions {
  /** Category names offered by the directory (for `categories`). */
  categoryNames?: readonly string[];
  /** The categories classifier (classify.ts); when given it chooses `categories`. */
  categoryModel?: CategoryModel | null;
  /** When given, the model proposes tagline/description/categories/features; only verified proposals are kept. */
  llm?: { model: LanguageModel; fields?: readonly LlmField[]; prefer?: 'llm' | 'rules'; timeoutMs?: number } | null;
}

export interface DraftSiteResult {
  draft: Draft;
  completeness: Completeness;
  missing: ProfileField[];
  crawl: Pick<CrawlResult, 'homeUrl' | 'errors' | 'robotsBlocked' | 'crawlDelaySeconds' | 'durationMs'> & {
    pages: Array<{ url: string; title: string }>;
  };
  llm: { used: boolean; dropped: DroppedProposal[]; error?: string };
}

export interface DraftPagesOptions {
  /** Category names offered by the directory (for `categories`). */
  categoryNames?: readonly string[];
  /** The categories classifier (classify.ts); when given it chooses `categories`. */
  categoryModel?: CategoryModel | null;
  /** The site's home page (default: the first page). */
  homeUrl?: string;
  /** When given, the model proposes tagline/description/categories/features; only verified proposals are kept. */
  llm?: { model: LanguageModel; fields?: readonly LlmField[]; prefer?: 'llm' | 'rules'; timeoutMs?: number } | null;
  signal?: AbortSignal;
}

/**
 * The drafter, for the draft job and for draftSite alike: the rules extractor; then, when a model is
 * given, its proposals (each kept only when its quotes are found on the pages, drafting/llm.ts; a
 * failing model leaves the rules draft as it is); and last, whoever proposed the values, the evidence
 * gate (extract/gate.ts).
 */
export async function draftPages(
  pages: readonly SourcePage[],
  opts: DraftPagesOptions = {},
): Promise<{ draft: Draft; llm: DraftSiteResult['llm'] }> {
  let draft = extractProfile(pages, {
    categoryNames: opts.categoryNames,
    categoryModel: opts.categoryModel,
    homeUrl: opts.homeUrl ?? pages[0]?.url,
  });
  const llmInfo: DraftSiteResult['llm'] = { used: false, dropped: [] };
  if (opts.llm) {
    // categories are the classifier's when it has the directory to learn from; the model proposes the rest
    const fields = (opts.llm.fields ?? LLM_FIELDS).filter((f) => f !== 'categories' || !opts.categoryModel);
    if (fields.length) {
      const r = await draftWithLlm(pages, {
        model: opts.llm.model,
        categoryNames: opts.categoryNames ?? [],
        fields,
        abortSignal: opts.signal,
        timeoutMs: opts.llm.timeoutMs,
      });
      draft = mergeLlmDraft(draft, r, { prefer: opts.llm.prefer });
      llmInfo.used = !r.error;
      llmInfo.dropped = r.dropped;
      if (r.error) llmInfo.error = r.error;
    }
  }
  // The evidence gate is the last step, whoever proposed the values.
  return { draft: { ...draft, fields: gateFields(draft.fields).fields }, llm: llmInfo };
}

/** Crawl and draft a site. Throws CrawlError (with a `reason`) when the home page cannot be read. */
export async function draftSite(url: string, opts: DraftSiteOptions = {}): Promise<DraftSiteResult> {
  const crawl = await crawlSite(url, opts);
  const { draft, llm } = await draftPages(crawl.pages, { ...opts, homeUrl: crawl.homeUrl });
  return {
    draft,
    completeness: completeness(draft),
    missing: missing(draft),
    crawl: {
      homeUrl: crawl.homeUrl,
      pages: crawl.pages.map((p) => ({ url: p.url, title: p.title })),
      errors: crawl.errors,
      robotsBlocked: crawl.robotsBlocked,
      crawlDelaySeconds: crawl.crawlDelaySeconds,
      durationMs: crawl.durationMs,
    },
    llm,
  };
}
