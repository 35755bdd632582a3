// The dependency rules of ARCHITECTURE.md, checked on the source: the adapters (http/, mcp/) are
// imported only by the assembly (app.ts, server.ts); domain/ does no I/O and imports nothing of the
// service; handlers never branch on the database engine (store/ absorbs it). Import cycles are
// refused by `npm run check` (dpdm).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = new URL('../../src/', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const sources = files(SRC).map((f) => ({ file: relative(SRC, f), text: readFileSync(f, 'utf8') }));
const importsOf = (text: string) =>
  [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'";]*?from\s+'([^']+)'/g)].map((m) => m[1]);
const resolved = (file: string, spec: string) => (spec.startsWith('.') ? join(file, '..', spec) : spec);

test('only app.ts and server.ts import the adapters in http/ and mcp/', () => {
  const offenders: string[] = [];
  for (const { file, text } of sources) {
    const group = file.split('/')[0];
    if (file === 'app.ts' || file === 'server.ts' || group === 'http' || group === 'mcp') continue;
    for (const spec of importsOf(text)) {
      const to = resolved(file, spec);
      if (to.startsWith('http/') || to.startsWith('mcp/')) offenders.push(`${file} imports ${spec}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('http/ and mcp/ do not import each other', () => {
  const offenders: string[] = [];
  for (const { file, text } of sources) {
    const group = file.split('/')[0];
    if (group !== 'http' && group !== 'mcp') continue;
    for (const spec of importsOf(text)) {
      const to = resolved(file, spec);
      const other = group === 'http' ? 'mcp/' : 'http/';
      if (to.startsWith(other)) offenders.push(`${file} imports ${spec}`);
    }
  }
  assert.deepEqual(offenders, []);
});

/** Libraries domain/ may use: none of them reads or writes anything (jsvat: VAT check digits; tldts: the Public Suffix List compiled in). */
const PURE = new Set(['zod', 'jsvat', 'node:crypto', 'tldts']);

test('domain/ imports only domain/ and libraries without I/O', () => {
  const offenders: string[] = [];
  for (const { file, text } of sources) {
    if (!file.startsWith('domain/')) continue;
    for (const spec of importsOf(text)) {
      const to = resolved(file, spec);
      const own = spec.startsWith('.') && to.startsWith('domain/');
      if (!own && !PURE.has(spec)) offenders.push(`${file} imports ${spec}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('outside store/, nothing branches on the database engine (store/dialect.ts holds the differences)', () => {
  const offenders = sources
    .filter(({ file }) => !file.startsWith('store/') && file !== 'server.ts')
    .filter(({ text }) => /engine\s*[!=]==\s*'(postgres|sqlite)'/.test(text) || /\.forUpdate\(\)/.test(text))
    .map(({ file }) => file);
  assert.deepEqual(offenders, []);
});
