import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { MockLanguageModelV4 } from 'ai/test';
import { draftWithLlm, mergeLlmDraft, createLlmModel, type LlmProposal } from '../../src/drafting/llm.ts';
import { extractProfile, type SourcePage } from '../../src/drafting/extract/index.ts';

const pages: SourcePage[] = [
  {
    url: 'https://acme.example/',
    html: `<!doctype html><html><head><title>Acme Notes</title><meta name="description" content="Private notes that sync."></head><body>
      <h1>Acme Notes</h1><p>Acme Notes keeps your notes private with end-to-end encryption.</p>
      <p>Your notes sync across phone, tablet and desktop.</p><p>Write offline; changes sync when you are back online.</p></body></html>`,
  },
];

function mockModel(proposal: unknown): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: 'text', text: JSON.stringify(proposal) }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 20, text: 20, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

const U = 'https://acme.example/';

describe('draftWithLlm', () => {
  test('a value with verified quotes is kept', async () => {
    const proposal: LlmProposal = {
      tagline: { value: 'Private notes that sync', quotes: [{ quote: 'Private notes that sync.', url: U }] },
      description: {
        value:
          'Acme Notes keeps notes private with end-to-end encryption and syncs them across phone, tablet and desktop.',
        quotes: [
          { quote: 'Acme Notes keeps your notes private with end-to-end encryption.', url: U },
          { quote: 'Your notes sync across phone, tablet and desktop.', url: U },
        ],
      },
      categories: null,
      features: [
        {
          value: 'Works offline',
          quotes: [{ quote: 'Write offline; changes sync when you are back online.', url: U }],
        },
      ],
    };
    const model = mockModel(proposal);
    const r = await draftWithLlm(pages, { model, categoryNames: ['Productivity'] });
    assert.equal(r.error, undefined);
    assert.equal(r.fields.tagline?.value, 'Private notes that sync');
    assert.equal(r.fields.description?.state, 'ai');
    assert.equal(r.fields.description?.evidence.length, 2);
    assert.deepEqual(r.fields.features?.value, ['Works offline']);
    assert.deepEqual(r.dropped, []);
    // the prompt carried the page and the allowed categories
    const prompt = JSON.stringify(model.doGenerateCalls[0].prompt);
    assert.match(prompt, /acme\.example/);
    assert.match(prompt, /Productivity/);
  });

  test('a value with a fabricated quote is dropped', async () => {
    const proposal: LlmProposal = {
      tagline: {
        value: 'The #1 note app, loved by 2 million users',
        quotes: [{ quote: 'loved by 2 million users', url: U }],
      },
      description: {
        value: 'Acme Notes was founded in 2015 in Berlin.',
        quotes: [{ quote: 'Acme Notes was founded in 2015 in Berlin.', url: U }],
      },
      features: [
        { value: 'End-to-end encryption', quotes: [{ quote: 'private with end-to-end encryption', url: U }] },
        { value: 'AI summaries', quotes: [{ quote: 'Summaries written by AI for every note.', url: U }] },
      ],
    };
    const r = await draftWithLlm(pages, { model: mockModel(proposal), categoryNames: [] });
    assert.equal(r.fields.tagline, undefined);
    assert.equal(r.fields.description, undefined);
    assert.deepEqual(r.fields.features?.value, ['End-to-end encryption']);
    assert.deepEqual(
      r.dropped.map((d) => [d.field, d.reason]),
      [
        ['tagline', 'quote_not_found'],
        ['description', 'quote_not_found'],
        ['features', 'quote_not_found'],
      ],
    );
  });

  test('a real quote cannot carry an invented claim', async () => {
    const proposal: LlmProposal = {
      description: {
        value: 'Award-winning enterprise knowledge base trusted by Fortune 500 companies worldwide.',
        quotes: [{ quote: 'Private notes that sync.', url: U }],
      },
    };
    const r = await draftWithLlm(pages, { model: mockModel(proposal), categoryNames: [] });
    assert.equal(r.fields.description, undefined);
    assert.equal(r.dropped[0].reason, 'not_supported_by_quotes');
  });

  test('a category not in the list is dropped; listed ones are kept with canonical spelling', async () => {
    const proposal: LlmProposal = {
      categories: [
        { name: 'productivity', quotes: [{ quote: 'Private notes that sync.', url: U }] },
        { name: 'Note-taking Superapps', quotes: [{ quote: 'Private notes that sync.', url: U }] },
      ],
    };
    const r = await draftWithLlm(pages, { model: mockModel(proposal), categoryNames: ['Productivity', 'Security'] });
    assert.deepEqual(r.fields.categories?.value, ['Productivity']);
    assert.deepEqual(r.dropped, [
      { field: 'categories', value: 'Note-taking Superapps', reason: 'category_not_allowed' },
    ]);
  });

  test('a failing model leaves the rules draft standing', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error('connection refused');
      },
    });
    const r = await draftWithLlm(pages, { model, categoryNames: [], maxRetries: 0 });
    assert.match(r.error ?? '', /connection refused/);
    const rules = extractProfile(pages);
    const merged = mergeLlmDraft(rules, r);
    assert.deepEqual(merged.fields, rules.fields);
  });

  test('merge: verified LLM values replace or fill rules values', async () => {
    const rules = extractProfile(pages);
    const r = await draftWithLlm(pages, {
      model: mockModel({
        categories: [{ name: 'Productivity', quotes: [{ quote: 'Acme Notes keeps your notes private', url: U }] }],
      }),
      categoryNames: ['Productivity'],
    });
    const merged = mergeLlmDraft(rules, r, { prefer: 'rules' });
    assert.equal(rules.fields.categories.state, 'not_found');
    assert.deepEqual(merged.fields.categories.value, ['Productivity']);
    assert.equal(merged.fields.name.value, rules.fields.name.value);
  });

  test('createLlmModel builds an OpenAI-compatible chat model from explicit settings', async () => {
    const m = await createLlmModel({ baseURL: 'http://127.0.0.1:9/v1', model: 'tiny-model', apiKey: 'k' });
    assert.equal(typeof m === 'object' && m !== null && 'modelId' in m ? m.modelId : '', 'tiny-model');
  });
});
