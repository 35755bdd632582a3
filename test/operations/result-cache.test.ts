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

test('past half its time, a kept result is read again by one caller while the others are still served it', async () => {
  const cache = new ResultCache();
  let reads = 0;
  let release = () => {};
  const read = async () => {
    const n = ++reads;
    if (n === 3) await new Promise<void>((r) => (release = r));
    return { n };
  };
  const at = 3_000_000;
  await cache.get('k', 1000, read, at);
  await cache.get('k', 1000, read, at + 1); // kept, read at at+1
  assert.deepEqual((await cache.get('k', 1000, read, at + 300)).value(), { n: 2 }, 'before half its time: kept');
  const ahead = cache.get('k', 1000, read, at + 600); // this caller reads again (held until release)
  assert.deepEqual(
    (await cache.get('k', 1000, read, at + 700)).value(),
    { n: 2 },
    'meanwhile the others get the kept one',
  );
  assert.equal(reads, 3, 'one read ahead, not one per caller');
  release();
  assert.deepEqual((await ahead).value(), { n: 3 });
  assert.deepEqual((await cache.get('k', 1000, read, at + 1000)).value(), { n: 3 }, 'the new result replaces it');
  assert.equal(reads, 3);
  // its time runs from its own read (at+600): past it, it is never served
  assert.deepEqual((await cache.get('k', 1000, read, at + 1700)).value(), { n: 4 });
});

test('a read ahead that fails leaves the kept result to its time, and the next caller tries again', async () => {
  const cache = new ResultCache();
  let reads = 0;
  const read = async () => {
    const n = ++reads;
    if (n === 3) throw new Error('database away');
    return { n };
  };
  const at = 4_000_000;
  await cache.get('k', 1000, read, at);
  await cache.get('k', 1000, read, at + 1);
  await assert.rejects(cache.get('k', 1000, read, at + 600), /database away/);
  assert.deepEqual((await cache.get('k', 1000, read, at + 650)).value(), { n: 4 }, 'the next caller reads again');
  assert.deepEqual((await cache.get('k', 1000, read, at + 700)).value(), { n: 4 });
  assert.equal(reads, 4);
});

test('a kept result that has just run out is kept again from its next ask: a key asked for all the time is read once per time, not twice', async () => {
  const cache = new ResultCache();
  let reads = 0;
  const read = async () => ({ n: ++reads });
  const at = 5_000_000;
  await cache.get('k', 1000, read, at);
  await cache.get('k', 1000, read, at + 1); // kept, read at at+1
  assert.equal(reads, 2);
  // ran out at at+1001; asked for within its time after: read and kept at once
  assert.deepEqual((await cache.get('k', 1000, read, at + 1200)).value(), { n: 3 });
  assert.equal(cache.size, 1, 'kept again from the first ask');
  assert.deepEqual((await cache.get('k', 1000, read, at + 1300)).value(), { n: 3 }, 'then served without a read');
  // the same after a sweep took it out (another key asked for, a time later)
  await cache.get('other', 1000, read, at + 2250);
  assert.equal(cache.size, 0, 'swept');
  assert.deepEqual((await cache.get('k', 1000, read, at + 2400)).value(), { n: 5 });
  assert.deepEqual((await cache.get('k', 1000, read, at + 2500)).value(), { n: 5 }, 'kept again after the sweep too');
  assert.equal(reads, 5);
});
