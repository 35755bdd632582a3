// The registry against spec 4.1: names, methods, paths, access and success statuses of its 41 operations,
// then the trophy group of issue #21 (the spec names the group, its paths and payloads are ours).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { operations } from '../../src/operations/index.ts';

// Copied from ../shared/spec/interface-specification.md, part 4.1 (name, method, path, access).
const SPEC = `
get_site_info GET /site public
search_listings GET /listings public
get_listing GET /listings/{slug} public
get_alternatives GET /listings/{slug}/alternatives public
compare_listings GET /compare public
list_categories GET /categories public
get_category GET /categories/{slug} public
get_launch_week GET /launches/weeks/{week} public
list_launches GET /launches public
get_leaderboard GET /leaderboards/{board} public
list_founders GET /founders public
get_founder GET /founders/{slug} public
list_blog_posts GET /blog public
get_blog_post GET /blog/{slug} public
list_awards GET /awards public
get_badges GET /listings/{slug}/badges public
list_interview_questions GET /interview-questions public
list_products GET /products public
get_account GET /me account:read
submit_listing POST /drafts listings:write
list_my_drafts GET /drafts account:read
get_draft GET /drafts/{id} account:read
update_draft PATCH /drafts/{id} listings:write
invite_cofounder POST /drafts/{id}/invites listings:write
submit_draft POST /drafts/{id}/submit listings:write
list_my_listings GET /me/listings account:read
get_my_listing GET /me/listings/{listing_id} account:read
update_my_listing PATCH /me/listings/{listing_id} listings:write
post_listing_update POST /me/listings/{listing_id}/updates listings:write
add_milestone POST /me/listings/{listing_id}/milestones listings:write
delete_milestone DELETE /me/listings/{listing_id}/milestones/{milestone_id} listings:write
set_founder_story PUT /me/listings/{listing_id}/story listings:write
answer_interview PUT /me/interview listings:write
choose_free_listing POST /me/listings/{listing_id}/free listings:write
claim_listing POST /claims listings:write
list_my_claims GET /claims account:read
verify_claim POST /claims/{claim_id}/verify listings:write
quote_order POST /orders/quote orders:write
create_checkout POST /orders/checkout orders:write
list_my_orders GET /orders account:read
get_order GET /orders/{number} account:read
get_trophy_cabinet GET /listings/{slug}/trophies public
get_founder_trophy_cabinet GET /founders/{slug}/trophies public
get_trophy_leaderboard GET /trophies/leaderboard public
get_hall_of_fame GET /hall-of-fame public
list_programmes GET /programmes public
get_programme GET /programmes/{slug} public
enter_programme POST /programmes/{slug}/entries listings:write
list_my_programme_entries GET /me/programme-entries account:read
verify_award GET /awards/{week}/{rank}/verification public
`
  .trim()
  .split('\n')
  .map((l) => l.split(' '));

const CREATED = [
  'submit_listing',
  'invite_cofounder',
  'post_listing_update',
  'add_milestone',
  'claim_listing',
  'create_checkout',
  'enter_programme',
];
const IDEMPOTENT = [
  'submit_listing',
  'update_draft',
  'invite_cofounder',
  'submit_draft',
  'update_my_listing',
  'post_listing_update',
  'add_milestone',
  'delete_milestone',
  'set_founder_story',
  'answer_interview',
  'choose_free_listing',
  'claim_listing',
  'verify_claim',
  'quote_order',
  'create_checkout',
  'enter_programme',
];
const PAGINATED = [
  'search_listings',
  'get_category',
  'list_launches',
  'get_leaderboard',
  'list_founders',
  'list_blog_posts',
  'list_awards',
  'list_my_drafts',
  'list_my_listings',
  'list_my_claims',
  'list_my_orders',
  'get_trophy_leaderboard',
];

test('the registry holds exactly the 41 operations of spec 4.1, in order, then the 9 of the trophy group', () => {
  assert.equal(operations.length, 50);
  assert.deepEqual(
    operations.map((o) => [o.name, o.method, o.path, o.access]),
    SPEC,
  );
});

test('success statuses: 201 for the seven creating operations, 200 for the rest', () => {
  for (const op of operations) assert.equal(op.status, CREATED.includes(op.name) ? 201 : 200, op.name);
});

test('Idempotency-Key is accepted by exactly the 15 operations the spec lists and enter_programme', () => {
  assert.deepEqual(
    operations
      .filter((o) => o.idempotencyKey)
      .map((o) => o.name)
      .sort(),
    [...IDEMPOTENT].sort(),
  );
});

test('the paginated flag is set on exactly the 11 paginated operations and get_trophy_leaderboard, and each takes page and per_page', () => {
  assert.deepEqual(
    operations
      .filter((o) => o.paginated)
      .map((o) => o.name)
      .sort(),
    [...PAGINATED].sort(),
  );
  for (const op of operations.filter((o) => o.paginated)) {
    const q = op.query!;
    const page = q.shape.page as z.ZodType,
      perPage = q.shape.per_page as z.ZodType;
    assert.equal(page.parse(undefined), 1, op.name);
    assert.equal(perPage.parse(undefined), 20, op.name);
    assert.equal(page.safeParse(1001).success, false, op.name);
    assert.equal(perPage.safeParse(101).success, false, op.name);
    assert.equal(page.safeParse(0).success, false, op.name);
  }
});

test('every path parameter is declared in the params schema and every body refuses unknown properties', () => {
  for (const op of operations) {
    const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    assert.deepEqual(Object.keys(op.params?.shape ?? {}).sort(), names.sort(), op.name);
    if (op.body)
      assert.equal(op.body.safeParse({ __unknown: 1 }).success, false, `${op.name} accepts an unknown body property`);
  }
});
