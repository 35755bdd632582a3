// Every tool, called by a client on the 1.x TypeScript SDK (what MCP Inspector's CLI and many agents
// run). That client checks every structuredContent it receives against the tool's outputSchema,
// errors included, and throws -32602 "Structured content does not match the tool's output schema"
// when it does not match: then the model never sees the answer or the error message. Each call here
// must come back as a result (isError or not), with a message an agent can act on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { seedDemo } from '../../src/store/seed/index.ts';
import { operations } from '../../src/operations/index.ts';
import { liveApp, userWithKey, type Live } from './support.ts';

let t: Live;
let key: string;
let userId: number;
let client: Client;

before(async () => {
  t = await liveApp({}, async (store) => {
    await seedDemo(store);
  });
  ({ key, userId } = await userWithKey(t.store, ['account:read', 'listings:write', 'orders:write'], 'Grace'));
  client = new Client({ name: 'launchlist-tests-sdk-v1', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(t.url + '/mcp'), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  await client.listTools(); // the 1.x client learns each tool's outputSchema here, and checks results against it
});
after(async () => {
  await client?.close();
  await t?.cleanup();
});

type Result = Awaited<ReturnType<Client['callTool']>>;
const called = new Set<string>();

/** Calls a tool; a result that breaks its outputSchema would throw here (-32602). */
async function call(name: string, args: Record<string, unknown> = {}): Promise<Result> {
  called.add(name);
  return client.callTool({ name, arguments: args });
}

function ok(r: Result, what: string): any {
  assert.notEqual(r.isError, true, `${what}: ${JSON.stringify(r.content)}`);
  assert.ok(r.structuredContent, `${what} has structured content`);
  return r.structuredContent;
}

function error(r: Result, code: string, what: string): { code: string; message: string } {
  assert.equal(r.isError, true, what);
  assert.equal(r.structuredContent, undefined, `${what}: an error result carries no structuredContent`);
  const body = JSON.parse((r.content as Array<{ text: string }>)[0].text);
  assert.equal(body.error.code, code, `${what}: ${body.error.message}`);
  return body.error;
}

test('the 1.x client lists every tool with an object outputSchema', async () => {
  const { tools } = await client.listTools();
  assert.equal(tools.length, operations.length);
  for (const tool of tools) assert.equal(tool.outputSchema?.type, 'object', tool.name);
});

test('public tools answer, and their errors reach the model as messages', async () => {
  ok(await call('get_site_info'), 'get_site_info');
  const found = ok(await call('search_listings', { q: 'analytcs', per_page: 5 }), 'search_listings');
  assert.ok(found.items.length > 0, 'a typo still finds listings');
  const tooMany = error(await call('search_listings', { per_page: 500 }), 'validation_failed', 'per_page 500');
  assert.match(tooMany.message, /per_page/);
  const [a, b] = found.items.length > 1 ? found.items : ok(await call('search_listings', {}), 'browse').items;
  ok(await call('get_listing', { slug: a.slug }), 'get_listing');
  error(await call('get_listing', { slug: 'no-such-listing' }), 'not_found', 'get_listing of a missing slug');
  ok(await call('get_alternatives', { slug: a.slug }), 'get_alternatives');
  ok(await call('compare_listings', { a: a.slug, b: b.slug }), 'compare_listings');
  const cats = ok(await call('list_categories'), 'list_categories');
  const category = cats.items?.[0]?.slug ?? a.primary_category.slug;
  ok(await call('get_category', { slug: category }), 'get_category');
  ok(await call('get_launch_week', { week: 'this' }), 'get_launch_week');
  ok(await call('list_launches'), 'list_launches');
  for (const board of ['community-weekly', 'community-all-time', 'billboard', 'domain-rating', 'revenue'])
    ok(await call('get_leaderboard', { board }), `get_leaderboard ${board}`);
  const founders = ok(await call('list_founders'), 'list_founders');
  ok(await call('get_founder', { slug: founders.items[0].slug }), 'get_founder');
  const posts = ok(await call('list_blog_posts'), 'list_blog_posts');
  ok(await call('get_blog_post', { slug: posts.items[0].slug }), 'get_blog_post');
  ok(await call('list_awards'), 'list_awards');
  ok(await call('get_badges', { slug: a.slug }), 'get_badges');
  ok(await call('list_interview_questions'), 'list_interview_questions');
  ok(await call('list_products'), 'list_products');
  const award = ok(await call('list_awards', { per_page: 1 }), 'list_awards').items[0];
  ok(await call('get_trophy_cabinet', { slug: award.listing.slug }), 'get_trophy_cabinet');
  error(await call('get_trophy_cabinet', { slug: 'no-such-listing' }), 'not_found', 'cabinet of a missing slug');
  ok(await call('get_founder_trophy_cabinet', { slug: founders.items[0].slug }), 'get_founder_trophy_cabinet');
  ok(await call('get_trophy_leaderboard', { per_page: 5 }), 'get_trophy_leaderboard');
  ok(await call('get_hall_of_fame'), 'get_hall_of_fame');
  const programmes = ok(await call('list_programmes'), 'list_programmes').items;
  ok(await call('get_programme', { slug: programmes[0].slug }), 'get_programme');
  const v = ok(await call('verify_award', { week: award.week, rank: award.rank }), 'verify_award');
  assert.equal(v.valid, true);
  error(await call('verify_award', { week: award.week, rank: 7 }), 'validation_failed', 'rank 7');
});

test("signed-in tools answer for the caller's own records, and refuse the rest with a message", async () => {
  ok(await call('get_account'), 'get_account');
  const [, other] = ok(await call('search_listings', { per_page: 2 }), 'search').items;
  // a live listing on the free plan (choose_free_listing answers it unchanged), not the one to claim;
  // the search's first page is not the same on both engines, so it is picked here
  const mine = await t.store.db
    .selectFrom('listings')
    .select('slug')
    .where('status', '=', 'live')
    .where('plan', '=', 'free')
    .where('slug', '!=', other.slug)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const { id: listingId } = await t.store.db
    .updateTable('listings')
    // On the free plan whatever the demo content made of it this week (a paid one refuses the free plan).
    .set({ owner_id: userId, plan: 'free' })
    .where('slug', '=', mine.slug)
    .returning('id')
    .executeTakeFirstOrThrow();

  const draft = ok(await call('submit_listing', { url: 'https://grace-product.example' }), 'submit_listing');
  ok(await call('list_my_drafts'), 'list_my_drafts');
  ok(await call('get_draft', { id: draft.id }), 'get_draft');
  ok(await call('update_draft', { id: draft.id, fields: { name: 'Grace Product' } }), 'update_draft');
  ok(await call('invite_cofounder', { id: draft.id, email: 'cofounder@example.com' }), 'invite_cofounder');
  error(await call('submit_draft', { id: draft.id }), 'conflict', 'submit_draft while crawling');

  ok(await call('list_my_listings'), 'list_my_listings');
  ok(await call('get_my_listing', { listing_id: listingId }), 'get_my_listing');
  ok(await call('update_my_listing', { listing_id: listingId, fields: { tagline: 'A new tagline' } }), 'update');
  ok(await call('post_listing_update', { listing_id: listingId, title: 'Shipped', body: 'Dark mode.' }), 'update post');
  const milestone = ok(
    await call('add_milestone', { listing_id: listingId, date: '2026-01-15', title: 'First customer' }),
    'add_milestone',
  );
  ok(await call('delete_milestone', { listing_id: listingId, milestone_id: milestone.id }), 'delete_milestone');
  ok(await call('set_founder_story', { listing_id: listingId, story: 'We started in a garage.' }), 'story');
  const questions = ok(await call('list_interview_questions'), 'questions').items;
  ok(await call('answer_interview', { answers: [{ question_id: questions[0].id, answer: 'Yes.' }] }), 'answers');
  // A live listing on the free plan is answered unchanged (409 only for one on a paid plan or not yet live).
  ok(await call('choose_free_listing', { listing_id: listingId }), 'choose_free_listing');

  const claim = ok(await call('claim_listing', { slug: other.slug, method: 'dns' }), 'claim_listing');
  ok(await call('list_my_claims'), 'list_my_claims');

  const programmes = ok(await call('list_programmes'), 'programmes').items;
  const upcoming = programmes.find((p: { state: string }) => p.state === 'upcoming');
  const refused = error(
    await call('enter_programme', { slug: upcoming.slug, listing_id: listingId }),
    'conflict',
    'enter_programme before entries open',
  );
  assert.match(refused.message, /rule "period"/);
  ok(await call('list_my_programme_entries'), 'list_my_programme_entries');
  ok(await call('verify_claim', { claim_id: claim.id }), 'verify_claim');

  const items = [{ product: 'billboard_min', listing_id: listingId, amount_cents: 100_000 }];
  ok(await call('quote_order', { items, billing_country: 'US' }), 'quote_order');
  error(await call('quote_order', { items: [] }), 'validation_failed', 'an empty order');
  const order = ok(await call('create_checkout', { items, billing_country: 'US' }), 'create_checkout');
  ok(await call('list_my_orders'), 'list_my_orders');
  ok(await call('get_order', { number: order.number ?? order.order?.number }), 'get_order');
  error(await call('get_order', { number: 'LL-0000-NOPE' }), 'not_found', 'someone else’s or no order');
});

test('every tool was called', () => {
  assert.deepEqual(
    operations.map((o) => o.name).filter((n) => !called.has(n)),
    [],
  );
});
