// The per-request logger is made lazily (http/lazy-logger.ts), yet what is logged keeps its reqId.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { lazyChildLogger } from '../../src/http/lazy-logger.ts';

test('request logs at enabled levels carry the reqId; disabled levels write nothing', async () => {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).trim().split('\n')) lines.push(JSON.parse(l));
      cb();
    },
  });
  const app = Fastify({
    logger: { level: 'warn', stream },
    childLoggerFactory: lazyChildLogger,
    genReqId: () => 'req-123456',
  });
  app.get('/x', async (req) => {
    req.log.info('not written at warn');
    req.log.warn({ thing: 1 }, 'written');
    req.log.child({ part: 'inner' }).error('from a child');
    return { ok: true };
  });
  const r = await app.inject({ method: 'GET', url: '/x' });
  assert.equal(r.statusCode, 200);
  await app.close();
  assert.deepEqual(
    lines.map((l) => [l.msg, l.reqId]),
    [
      ['written', 'req-123456'],
      ['from a child', 'req-123456'],
    ],
  );
  assert.equal(lines[0].thing, 1);
  assert.equal(lines[1].part, 'inner');
});
