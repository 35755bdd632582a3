// The shared result cache keeps a result only for a key asked for again within its time: a key asked
// for once (a listing page's alternatives, one visitor's search) costs no JSON text and no room, and
// callers of one key at the same moment still share one read, each with a value of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResultCache } from '../../src/operations/result-cache.ts';

test('a result is kept from the second time its key is asked for within the time, not the first', async () => {
  const cache = new ResultCache();
  let reads = 0;
  const read = async () => ({ n: ++reads });
  const at = 1_000_000;
  assert.deepEqual((await cache.get('k', 1000, read, at)).value(), { n: 1 });
  assert.equal(cache.size, 0, 'asked for once: not kept');
  assert.deepEqual((await cache.get('k', 1000, read, at + 10)).value(), { n: 2 });
  assert.equal(cache.size, 1, 'asked for again within the time: kept');
  assert.deepEqual((await cache.get('k', 1000, read, at + 20)).value(), { n: 2 }, 'then served without a read');
  assert.equal(reads, 2);
  // once the time has passed, the key is new again
  assert.deepEqual((await cache.get('k', 1000, read, at + 5000)).value(), { n: 3 });
  assert.deepEqual((await cache.get('k', 1000, read, at + 5010)).value(), { n: 4 });
  assert.equal(reads, 4);
});

test('callers of a key at the same moment share one read, each with its own value and the same text', async () => {
  const cache = new ResultCache();
  let reads = 0;
  const read = async () => {
    reads++;
    await new Promise((r) => setTimeout(r, 5));
    return { items: ['a', 'b'] };
  };
  const [x, y] = await Promise.all([cache.get('q', 1000, read, 1), cache.get('q', 1000, read, 2)]);
  assert.equal(reads, 1);
  const vx = x.value() as { items: string[] };
  vx.items.push('changed by the first caller');
  assert.deepEqual(y.value(), { items: ['a', 'b'] }, 'the other caller never sees the first one’s change');
  assert.equal(y.text, '{"items":["a","b"]}');
  // a result asked for once and wanted as text (REST) is written as text then
  const z = await cache.get('r', 1000, async () => ({ ok: true }), 3);
  assert.equal(z.text, '{"ok":true}');
  assert.match(z.etag ?? '', /^W\/"/);
});

test('results past their time leave the cache at the next sweep, not only when the byte bound is reached', async () => {
  const cache = new ResultCache();
  const read = async () => ({ text: 'x'.repeat(1000) });
  const at = 2_000_000;
  for (const k of ['a', 'b', 'c']) {
    await cache.get(k, 1000, read, at);
    await cache.get(k, 1000, read, at + 1);
  }
  assert.equal(cache.size, 3, 'three keys asked for twice: kept');
  await cache.get('d', 1000, read, at + 1500); // a second later: whatever is asked for sweeps
  assert.equal(cache.size, 0, 'the three old results are gone');
});
