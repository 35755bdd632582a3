/**
 * The model path end to end: a stand-in OpenAI-compatible server on loopback answers the chat
 * completion with scripted proposals, some true to the site and some not; the site is crawled
 * through the real fetcher, the AI SDK talks HTTP to the stand-in, and the evidence gate drops
 * every value that is not on the site.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { draftSite } from '../../src/drafting/draft.ts';
import { createLlmModel, type LlmProposal } from '../../src/drafting/llm.ts';
import { RobotsCache } from '../../src/drafting/crawler/robots.ts';
import { serveRoutes, html, type RunningServer } from './support/static-site.ts';

const PAGE = `<!doctype html><html lang="en"><head><title>Acme Notes | Private notes that sync</title>
<meta name="description" content="Private notes that sync across your devices."></head><body>
<header><nav><a href="/">Home</a></nav></header>
<main><h1>Private notes that sync</h1>
<p>Acme Notes keeps your notes private with end-to-end encryption.</p>
<h2>Features</h2><ul><li>Sync across up to 3 devices</li><li>Write offline and sync later</li><li>Export to Markdown</li></ul>
<h2>Pricing</h2><p>Pro costs $4 per month.</p></main></body></html>`;

let site: RunningServer;
let llm: Server;
let llmUrl = '';
let proposal: LlmProposal;
const requests: unknown[] = [];

before(async () => {
  site = await serveRoutes({ '/': html(PAGE) });
  llm = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      requests.push({ url: req.url, body: JSON.parse(body || '{}') });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'stand-in',
          choices: [
            { index: 0, message: { role: 'assistant', content: JSON.stringify(proposal) }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    });
  });
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
  llmUrl = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`;
});
after(async () => {
  await site.close();
  await new Promise((r) => llm.close(r));
});

const U = (): string => `${site.origin}/`;

describe('the model path through a stand-in OpenAI-compatible server', () => {
  test('values not on the site are dropped by the gate, true ones kept', async () => {
    proposal = {
      // true: copied from the page
      tagline: { value: 'Private notes that sync', quotes: [{ quote: 'Private notes that sync', url: U() }] },
      // a real quote carrying an invented place and year
      description: {
        value: 'Acme Notes, made in Berlin since 2019, keeps your notes private with end-to-end encryption.',
        quotes: [{ quote: 'Acme Notes keeps your notes private with end-to-end encryption.', url: U() }],
      },
      categories: [
        { name: 'Note taking', quotes: [{ quote: 'Private notes that sync', url: U() }] },
        { name: 'Spaceships', quotes: [{ quote: 'Private notes that sync', url: U() }] },
      ],
      features: [
        { value: 'Sync across up to 3 devices', quotes: [{ quote: 'Sync across up to 3 devices', url: U() }] },
        // the number changed
        { value: 'Sync across up to 30 devices', quotes: [{ quote: 'Sync across up to 3 devices', url: U() }] },
        // an amount changed (currency and period)
        { value: 'Pro costs €4 per year', quotes: [{ quote: 'Pro costs $4 per month.', url: U() }] },
        // an invented URL and e-mail
        {
          value: 'Export to Markdown at https://acme.test/export or ask help@acme.test',
          quotes: [{ quote: 'Export to Markdown', url: U() }],
        },
        // a quote that is not on the page
        { value: 'Unlimited devices', quotes: [{ quote: 'Unlimited devices on every plan', url: U() }] },
      ],
    };
    const model = await createLlmModel({ baseURL: llmUrl, model: 'stand-in', structuredOutputs: true });
    const r = await draftSite(U(), {
      allowHosts: [site.host],
      robots: new RobotsCache(),
      categoryNames: ['Note taking', 'Developer Tools'],
      llm: { model, prefer: 'llm', timeoutMs: 10_000 },
    });
    assert.equal(requests.length, 1, 'the model was asked once, over HTTP');
    assert.equal(r.llm.used, true, r.llm.error ?? 'no error');
    const f = r.draft.fields;
    assert.equal(f.tagline.value, 'Private notes that sync');
    assert.doesNotMatch(JSON.stringify(f.description.value), /Berlin|2019/);
    assert.deepEqual(f.categories.value, ['Note taking']);
    const features = (f.features.value as string[]) ?? [];
    assert.ok(features.includes('Sync across up to 3 devices'));
    for (const bad of [/30 devices/, /€4|per year/, /acme\.test/, /Unlimited devices/])
      assert.ok(!features.some((x) => bad.test(x)), `${bad} was dropped`);
    const reasons = new Map(r.llm.dropped.map((d) => [d.value, d.reason]));
    assert.equal(reasons.get('Sync across up to 30 devices'), 'value_not_in_quotes');
    assert.equal(reasons.get('Pro costs €4 per year'), 'value_not_in_quotes');
    assert.equal(reasons.get('Unlimited devices'), 'quote_not_found');
    assert.equal(reasons.get('Spaceships'), 'category_not_allowed');
    assert.equal(
      reasons.get('Acme Notes, made in Berlin since 2019, keeps your notes private with end-to-end encryption.'),
      'value_not_in_quotes',
    );
    // every value left in the draft says only what its quotes say
    for (const [k, v] of Object.entries(f)) if (v.state === 'ai') assert.ok(v.evidence.length > 0, k);
  });
});
