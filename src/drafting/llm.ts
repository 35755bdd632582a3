/**
 * Optional LLM drafter (Vercel AI SDK) against any OpenAI-compatible endpoint. It may propose the
 * tagline, description, categories (only names from the directory's list) and features — every
 * proposal with quotes from the crawled pages. Nothing is taken on trust:
 *
 * - each quote must be found verbatim (whitespace-normalised, case-insensitive) on the crawled
 *   pages (`verifyEvidence` / `verifyItems`), else the value is dropped;
 * - the words of a value must be mostly in its own quotes (≥ 50 % of its content words), so a
 *   real quote cannot carry an invented claim;
 * - a category that is not in the given list is dropped.
 * Dropped proposals are reported in `dropped`. Configuration (LLM_BASE_URL, LLM_MODEL, LLM_API_KEY)
 * is passed in by the caller; this module reads no environment variables.
 */
// The AI SDK is loaded on first use: a server without an LLM configured never pays its memory or start-up time.
import type { LanguageModel } from 'ai';
import { z } from 'zod';
import { verifyEvidence, verifyItems } from './extract/evidence.ts';
import { gateField, gateFailures } from './extract/gate.ts';
import { visibleTextOfHtml, loadHtml, metaContent, titleOf } from './extract/html.ts';
import { coverage } from './extract/text.ts';
import { found, notFound, type Draft, type Evidence, type FieldDraft, type SourcePage } from './extract/types.ts';

export interface LlmConfig {
  /** LLM_BASE_URL, e.g. http://localhost:11434/v1 */
  baseURL: string;
  /** LLM_MODEL */
  model: string;
  /** LLM_API_KEY (optional for local servers) */
  apiKey?: string;
  /** Send a JSON schema as response_format (default true; turn off for servers without it). */
  structuredOutputs?: boolean;
}

/** A chat model on an OpenAI-compatible endpoint. */
export async function createLlmModel(cfg: LlmConfig): Promise<LanguageModel> {
  const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
  const provider = createOpenAICompatible({
    name: 'launchlist-llm',
    baseURL: cfg.baseURL,
    apiKey: cfg.apiKey,
    supportsStructuredOutputs: cfg.structuredOutputs ?? true,
  });
  return provider.chatModel(cfg.model);
}

export const LLM_FIELDS = ['tagline', 'description', 'categories', 'features'] as const;
export type LlmField = (typeof LLM_FIELDS)[number];

const Quote = z.object({
  quote: z.string().describe('exact words copied from the page text, 3 to 300 characters'),
  url: z.string().describe('URL of the page the quote is copied from'),
});
const Quoted = z.object({
  value: z.string(),
  quotes: z.array(Quote).describe('one or more verbatim quotes supporting the value'),
});
export const LlmProposalSchema = z.object({
  tagline: Quoted.nullable()
    .optional()
    .describe('short tagline of the product (max 12 words), or null if the site states none'),
  description: Quoted.nullable()
    .optional()
    .describe('2–4 sentence description built only from what the site says, or null'),
  categories: z
    .array(z.object({ name: z.string(), quotes: z.array(Quote) }))
    .nullable()
    .optional()
    .describe('at most 4 category names copied exactly from the allowed list, most fitting first'),
  features: z
    .array(Quoted)
    .nullable()
    .optional()
    .describe('up to 12 product features, each a short phrase, each with quotes'),
});
export type LlmProposal = z.infer<typeof LlmProposalSchema>;

export interface LlmDraftOptions {
  model: LanguageModel;
  /** Category names of the directory; proposals outside this list are dropped. */
  categoryNames: readonly string[];
  /** Only these fields (default all four). */
  fields?: readonly LlmField[];
  /** Characters of page text sent at most (default 24 000). */
  maxInputChars?: number;
  abortSignal?: AbortSignal;
  /** Time cap for the model call (default 60 s). */
  timeoutMs?: number;
  maxRetries?: number;
}

export interface DroppedProposal {
  field: LlmField;
  value: string;
  reason:
    | 'quote_not_found'
    | 'not_supported_by_quotes'
    | 'category_not_allowed'
    | 'no_quotes'
    | 'too_long'
    | 'value_not_in_quotes';
}

export interface LlmDraftResult {
  fields: Partial<{
    tagline: FieldDraft<string>;
    description: FieldDraft<string>;
    categories: FieldDraft<string[]>;
    features: FieldDraft<string[]>;
  }>;
  dropped: DroppedProposal[];
  /** Set when the model call failed; `fields` is then empty and the rules draft stands. */
  error?: string;
}

const SYSTEM = `You draft a product listing from the text of the product's own website.
Rules:
- Use only what the pages say. Never add facts, numbers, names, or claims that are not on the pages.
- Every value must come with one or more quotes copied character for character from the page text given, with that page's URL.
- If the site does not state something, return null for it.
- Categories must be copied exactly from the allowed list; pick none if none fits.
- Write in the language the site is written in (never translate), plainly, without hype.`;

function pageDigest(pages: readonly SourcePage[], maxChars: number): string {
  const per = Math.max(1500, Math.floor(maxChars / Math.max(1, pages.length)));
  const parts: string[] = [];
  let used = 0;
  for (const p of pages) {
    const $ = loadHtml(p.html);
    const title = p.title ?? titleOf($);
    const desc = metaContent($, 'description', 'og:description');
    const text = (p.text ?? visibleTextOfHtml(p.html)).slice(0, per);
    const block = `=== PAGE ${p.url}\nTITLE: ${title}\n${desc ? `META DESCRIPTION: ${desc}\n` : ''}TEXT: ${text}\n`;
    if (used + block.length > maxChars && parts.length > 0) break;
    parts.push(block);
    used += block.length;
  }
  return parts.join('\n');
}

function quotesOf(q: Array<{ quote: string; url: string }> | undefined | null): Array<{ quote: string; url: string }> {
  return (q ?? []).filter((x) => x && typeof x.quote === 'string' && x.quote.trim().length > 0);
}

/** The value's own words must mostly come from its quotes. */
function supported(value: string, quotes: Array<{ quote: string }>): boolean {
  return coverage(value, quotes.map((q) => q.quote).join(' ')) >= 0.5;
}

/** Check proposals against the crawled pages; keep only what is quoted and supported. */
export function verifyProposal(
  proposal: LlmProposal,
  pages: readonly SourcePage[],
  categoryNames: readonly string[],
  only?: readonly LlmField[],
): LlmDraftResult {
  const fields: LlmDraftResult['fields'] = {};
  const dropped: DroppedProposal[] = [];
  const want = new Set<LlmField>(only ?? LLM_FIELDS);

  const single = (
    field: 'tagline' | 'description',
    p: z.infer<typeof Quoted> | null | undefined,
    max: number,
  ): void => {
    if (!want.has(field) || !p?.value?.trim()) return;
    const value = p.value.trim();
    const q = quotesOf(p.quotes);
    if (q.length === 0) return void dropped.push({ field, value, reason: 'no_quotes' });
    if (value.length > max) return void dropped.push({ field, value, reason: 'too_long' });
    const v = verifyEvidence(value, q, pages);
    if (v.state !== 'ai') return void dropped.push({ field, value, reason: 'quote_not_found' });
    if (!supported(value, q)) return void dropped.push({ field, value, reason: 'not_supported_by_quotes' });
    if (
      gateFailures(
        field,
        value,
        q.map((x) => x.quote),
      ).length
    )
      return void dropped.push({ field, value, reason: 'value_not_in_quotes' });
    fields[field] = v as FieldDraft<string>;
  };
  single('tagline', proposal.tagline, 200);
  single('description', proposal.description, 20_000);

  if (want.has('categories') && proposal.categories) {
    const canon = new Map(categoryNames.map((c) => [c.trim().toLowerCase(), c]));
    const kept: string[] = [];
    const evidence: Evidence[] = [];
    for (const c of proposal.categories) {
      const name = canon.get((c?.name ?? '').trim().toLowerCase());
      if (!name) {
        dropped.push({ field: 'categories', value: String(c?.name ?? ''), reason: 'category_not_allowed' });
        continue;
      }
      const q = quotesOf(c.quotes);
      if (q.length === 0) {
        dropped.push({ field: 'categories', value: name, reason: 'no_quotes' });
        continue;
      }
      const v = verifyEvidence(name, q, pages);
      if (v.state !== 'ai') {
        dropped.push({ field: 'categories', value: name, reason: 'quote_not_found' });
        continue;
      }
      if (kept.includes(name) || kept.length >= 4) continue;
      kept.push(name);
      for (const e of v.evidence) evidence.push({ ...e, item: kept.length - 1 });
    }
    if (kept.length) fields.categories = found(kept, evidence);
  }

  if (want.has('features') && proposal.features) {
    const candidates: Array<{ value: string; evidence: Array<{ quote: string; url: string }> }> = [];
    for (const f of proposal.features.slice(0, 20)) {
      const value = (f?.value ?? '').trim();
      if (!value) continue;
      const q = quotesOf(f.quotes);
      if (q.length === 0) dropped.push({ field: 'features', value, reason: 'no_quotes' });
      else if (value.length > 200) dropped.push({ field: 'features', value, reason: 'too_long' });
      else if (!supported(value, q)) dropped.push({ field: 'features', value, reason: 'not_supported_by_quotes' });
      else if (
        gateFailures(
          'features',
          value,
          q.map((x) => x.quote),
        ).length
      )
        dropped.push({ field: 'features', value, reason: 'value_not_in_quotes' });
      else candidates.push({ value, evidence: q });
    }
    const r = verifyItems(candidates, pages);
    for (const v of r.dropped) dropped.push({ field: 'features', value: v, reason: 'quote_not_found' });
    if (r.field.state === 'ai') fields.features = r.field;
  }
  return { fields, dropped };
}

/** Ask the model for proposals and keep only the verified ones. Never throws for model failures. */
export async function draftWithLlm(pages: readonly SourcePage[], opts: LlmDraftOptions): Promise<LlmDraftResult> {
  const only = opts.fields ?? LLM_FIELDS;
  const prompt = [
    `Allowed categories: ${opts.categoryNames.length ? opts.categoryNames.map((c) => JSON.stringify(c)).join(', ') : '(none — return no categories)'}`,
    `Fields wanted: ${only.join(', ')}`,
    '',
    pageDigest(pages, opts.maxInputChars ?? 24_000),
  ].join('\n');
  try {
    const { generateText, Output } = await import('ai');
    const { output } = await generateText({
      model: opts.model,
      system: SYSTEM,
      prompt,
      output: Output.object({ schema: LlmProposalSchema }),
      temperature: 0,
      maxRetries: opts.maxRetries ?? 1,
      abortSignal: opts.abortSignal
        ? AbortSignal.any([opts.abortSignal, AbortSignal.timeout(opts.timeoutMs ?? 60_000)])
        : AbortSignal.timeout(opts.timeoutMs ?? 60_000),
    });
    return verifyProposal(output as LlmProposal, pages, opts.categoryNames, only);
  } catch (e) {
    return { fields: {}, dropped: [], error: (e as Error)?.message ?? String(e) };
  }
}

/**
 * Merge verified LLM fields into a rules draft. By default an LLM value replaces the rules value
 * for the four fields it may propose (it was checked the same way); with `prefer: 'rules'` it only
 * fills fields the rules left empty.
 */
export function mergeLlmDraft(draft: Draft, llm: LlmDraftResult, opts: { prefer?: 'llm' | 'rules' } = {}): Draft {
  const prefer = opts.prefer ?? 'llm';
  const fields = { ...draft.fields };
  for (const f of LLM_FIELDS) {
    // the gate again, as the last step: whatever built the result, no unbacked value gets in
    const v = llm.fields[f] ? gateField(f, llm.fields[f] as FieldDraft) : undefined;
    if (v?.state !== 'ai') continue;
    if (prefer === 'llm' || fields[f].state !== 'ai') fields[f] = v as FieldDraft;
  }
  return { ...draft, fields };
}

export { notFound };
