// The tool machinery on a small fixture operation set (so it does not depend on any handler's business
// logic): arguments split back into path, query and body; the caller reaching the handler; results as
// structuredContent and text; idempotency_key replays; internal errors not leaking.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { freshStore, type TestDb } from '../support/app.ts';
import { IDEMPOTENT_REPLAYED_META } from '../../src/mcp/calls.ts';
import { createServer } from '../../src/server.ts';
import { defineOperation } from '../../src/operations/define.ts';
import { userOf } from '../../src/operations/context.ts';
import { ERAS, connect, freePort, toolBody, userWithKey } from './support.ts';

let writes = 0;
const whoami = defineOperation({
  name: 'fixture_whoami',
  method: 'GET',
  path: '/fixture/users/{n}',
  access: 'account:read',
  tags: ['t'],
  summary: 'who',
  description: 'Who is calling.',
  params: z.object({ n: z.coerce.number().int().min(1) }),
  query: z.object({ q: z.string().max(5).optional(), page: z.coerce.number().int().min(1).default(1) }),
  response: z.object({
    user_id: z.number(),
    scopes: z.array(z.string()),
    n: z.number(),
    q: z.string().nullable(),
    page: z.number(),
  }),
  examples: { response: { user_id: 1, scopes: ['account:read'], n: 1, q: null, page: 1 } },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async (ctx, input) => ({
    user_id: userOf(ctx).userId,
    scopes: userOf(ctx).scopes,
    n: input.n,
    q: input.q ?? null,
    page: input.page,
  }),
});
const write = defineOperation({
  name: 'fixture_write',
  method: 'POST',
  path: '/fixture/notes/{n}',
  access: 'listings:write',
  tags: ['t'],
  summary: 'write',
  description: 'Writes a note.',
  params: z.object({ n: z.coerce.number().int().min(1) }),
  body: z.strictObject({ text: z.string().max(20) }),
  response: z.object({ n: z.number(), text: z.string(), count: z.number() }),
  examples: { response: { n: 1, text: 'x', count: 1 } },
  status: 201,
  idempotencyKey: true,
  paginated: false,
  handler: async (_ctx, input) => ({ n: input.n, text: input.text, count: ++writes }),
});
const remove = defineOperation({
  name: 'fixture_delete',
  method: 'DELETE',
  path: '/fixture/notes/{n}',
  access: 'listings:write',
  tags: ['t'],
  summary: 'delete',
  description: 'Deletes a note.',
  params: z.object({ n: z.coerce.number().int().min(1) }),
  response: z.strictObject({ deleted: z.number() }),
  examples: { response: { deleted: 1 } },
  status: 200,
  idempotencyKey: true,
  paginated: false,
  handler: async (_ctx, input) => ({ deleted: input.n }),
});
const boom = defineOperation({
  name: 'fixture_boom',
  method: 'GET',
  path: '/fixture/boom',
  access: 'public',
  tags: ['t'],
  summary: 'boom',
  description: 'Fails.',
  response: z.object({}),
  examples: { response: {} },
  status: 200,
  idempotencyKey: false,
  paginated: false,
  handler: async () => {
    throw new Error('secret database detail');
  },
});

let db: TestDb;
let app: FastifyInstance;
let url: string;
let key: string;
let userId: number;
before(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  db = await freshStore({ PORT: String(port), PUBLIC_URL: url });
  app = (await createServer(db.config, db.store, { operations: [whoami, write, remove, boom] })).app;
  await app.listen({ port, host: '127.0.0.1' });
  ({ key, userId } = await userWithKey(db.store, ['account:read', 'listings:write']));
});
after(async () => {
  await app.close();
  await db.cleanup();
});

test('arguments are split into path, query and body; the caller reaches the handler; results are structured and text', async () => {
  for (const era of [ERAS[0], ERAS[1]]) {
    const client = await connect(url, era, key);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((x) => x.name),
        ['fixture_whoami', 'fixture_write', 'fixture_delete', 'fixture_boom'],
      );
      const r = await client.callTool({ name: 'fixture_whoami', arguments: { n: '7', q: 'hi' } });
      assert.equal(r.isError, undefined);
      assert.deepEqual(r.structuredContent, {
        user_id: userId,
        scopes: ['account:read', 'listings:write'],
        n: 7,
        q: 'hi',
        page: 1,
      });
      assert.deepEqual(JSON.parse((r.content as Array<{ text: string }>)[0].text), r.structuredContent);
      const bad = await client.callTool({ name: 'fixture_whoami', arguments: { n: 0, q: 'too long' } });
      assert.equal(bad.isError, true);
      assert.deepEqual(
        toolBody(bad).error.details.map((d: { path: string }) => d.path),
        ['path.n'],
      );
      const del = tools.find((x) => x.name === 'fixture_delete')!;
      // Output schemas say what is really sent: a strict object forbids other keys, a plain z.object does not.
      assert.equal((del.outputSchema as any).additionalProperties, false);
      assert.equal((tools[0].outputSchema as any).additionalProperties, undefined);
      assert.deepEqual((tools[0].outputSchema as any).required, ['user_id', 'scopes', 'n', 'q', 'page']);
      assert.deepEqual(del.annotations, {
        title: 'delete',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      });
      assert.deepEqual((await client.callTool({ name: 'fixture_delete', arguments: { n: 3 } })).structuredContent, {
        deleted: 3,
      });
    } finally {
      await client.close();
    }
  }
});

test('idempotency_key makes a retry return the first result without acting twice', async () => {
  const client = await connect(url, ERAS[0], key);
  try {
    const before = writes;
    const first = await client.callTool({
      name: 'fixture_write',
      arguments: { n: 1, text: 'hello', idempotency_key: 'retry-1' },
    });
    const again = await client.callTool({
      name: 'fixture_write',
      arguments: { n: 1, text: 'hello', idempotency_key: 'retry-1' },
    });
    assert.equal(writes, before + 1, 'the handler ran once');
    assert.deepEqual(again.structuredContent, first.structuredContent);
    assert.equal(first._meta?.[IDEMPOTENT_REPLAYED_META], undefined);
    assert.equal(again._meta?.[IDEMPOTENT_REPLAYED_META], true);
    // The same key with another request is refused with REST's code; without a key, each call acts.
    const reused = await client.callTool({
      name: 'fixture_write',
      arguments: { n: 1, text: 'changed', idempotency_key: 'retry-1' },
    });
    assert.equal(reused.isError, true);
    assert.equal(toolBody(reused).error.code, 'idempotency_key_reused');
    await client.callTool({ name: 'fixture_write', arguments: { n: 2, text: 'a' } });
    await client.callTool({ name: 'fixture_write', arguments: { n: 2, text: 'a' } });
    assert.equal(writes, before + 3);
    // A tool that takes no idempotency_key refuses one (its input schema does not list it).
    const notTaken = await client.callTool({ name: 'fixture_whoami', arguments: { n: 1, idempotency_key: 'x' } });
    assert.equal(toolBody(notTaken).error.details[0].path, 'idempotency_key');
  } finally {
    await client.close();
  }
});

test('an unexpected failure is an internal error result that leaks nothing', async () => {
  const client = await connect(url, ERAS[3]);
  try {
    const r = await client.callTool({ name: 'fixture_boom', arguments: {} });
    assert.equal(r.isError, true);
    const err = toolBody(r).error;
    assert.equal(err.code, 'internal');
    assert.doesNotMatch(JSON.stringify(r), /secret database detail/);
  } finally {
    await client.close();
  }
});
