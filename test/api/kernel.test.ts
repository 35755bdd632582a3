// The kernel (operations/kernel.ts) is the one path every surface runs an operation through. With
// STRICT_RESPONSES (on in the tests) a result that does not match its response schema is a 500 that
// names the field; the same operation on REST, MCP and the website gives the same answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { freshStore, type TestDb } from '../support/app.ts';
import { createServer } from '../../src/server.ts';
import { defineOperation } from '../../src/operations/define.ts';
import { call } from '../../src/operations/kernel.ts';
import { ANONYMOUS } from '../../src/operations/principal.ts';
import { ApiError } from '../../src/operations/errors.ts';

const leaky = defineOperation({
  name: 'leaky',
  method: 'GET',
  path: '/leaky',
  access: 'public',
  tags: ['t'],
  summary: 'Sends a field its schema does not declare',
  description: 'For the kernel test.',
  response: z.strictObject({ name: z.string() }),
  status: 200,
  idempotencyKey: false,
  paginated: false,
  examples: { response: { name: 'x' } },
  handler: async () => ({ name: 'Funnelry', internal_id: 7 }) as { name: string },
});

let db: TestDb;
before(async () => {
  db = await freshStore();
});
after(async () => {
  await db.cleanup();
});

test('strict responses: an undeclared field is a 500 naming it; without the check it would have been sent', async () => {
  const strict = await createServer(db.config, db.store, { operations: [leaky] });
  const r = await strict.app.inject({ method: 'GET', url: '/api/v1/leaky' });
  assert.equal(r.statusCode, 500);
  assert.match(r.json().error.message, /leaky.*internal_id/);
  await strict.close();

  const lax = await createServer({ ...db.config, STRICT_RESPONSES: false }, db.store, { operations: [leaky] });
  const sent = await lax.app.inject({ method: 'GET', url: '/api/v1/leaky' });
  assert.equal(sent.statusCode, 200);
  assert.deepEqual(sent.json(), { name: 'Funnelry', internal_id: 7 });
  await lax.close();
});

test('call() is what REST, MCP and the website share: validation errors are the same ApiError', async () => {
  const server = await createServer(db.config, db.store);
  const { searchListings } = await import('../../src/operations/listings.ts');
  await assert.rejects(
    call(server.deps, searchListings, ANONYMOUS, { query: { per_page: '500' } }, { requestId: 'r1' }),
    (e: unknown) => e instanceof ApiError && e.status === 400 && e.details?.[0]?.path === 'query.per_page',
  );
  const viaRest = await server.app.inject({ method: 'GET', url: '/api/v1/listings?per_page=500' });
  assert.equal(viaRest.statusCode, 400);
  assert.equal(viaRest.json().error.details[0].path, 'query.per_page');
  await server.close();
});
