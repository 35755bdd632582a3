// The C heap's free memory given back to the system (src/ops/malloc-trim.ts), as the idle collection
// does once quiet: freed Buffers that lie between live ones stay resident until malloc_trim gives their
// pages back. Run in a child process, so this runner's own heap is neither measured nor disturbed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const glibc = Boolean(
  (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime,
);

test('on Linux with glibc, the memory of freed Buffers between live ones is given back', {
  skip: !glibc && 'not glibc',
}, () => {
  const module = fileURLToPath(new URL('../../src/ops/malloc-trim.ts', import.meta.url));
  const script = `
    const { mallocTrim } = await import(${JSON.stringify(module)});
    const trim = mallocTrim();
    if (!trim) throw new Error('no malloc_trim');
    const rss = () => process.memoryUsage.rss();
    // 96 MB in 16 KB Buffers (malloc'd, under glibc's mmap threshold), one in 8 kept: the freed ones are
    // holes between live chunks, which free() alone never gives back
    let all = Array.from({ length: 6144 }, () => Buffer.alloc(16 * 1024, 1));
    const kept = all.filter((_, i) => i % 8 === 7);
    all = null;
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 50));
    globalThis.gc();
    const before = rss();
    const gaveBack = trim();
    const after = rss();
    console.log(JSON.stringify({ before, after, gaveBack, kept: kept.length }));
  `;
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  const { before, after, gaveBack } = JSON.parse(out.trim().split('\n').pop() ?? '{}');
  const MB = 1024 * 1024;
  assert.equal(gaveBack, true, 'malloc_trim gave pages back');
  assert.ok(
    before - after >= 40 * MB,
    `RSS fell by ${((before - after) / MB).toFixed(1)} MB (${(before / MB).toFixed(0)} → ${(after / MB).toFixed(0)} MB), expected ≥ 40 MB of the 84 MB freed`,
  );
});
