// Lets `node --test test/drafting/` run this folder: Node resolves a directory argument to its
// index.js, which loads every *.test.ts file beside it. (`npm test` globs the .test.ts files
// directly and does not load this file.)
import { readdirSync } from 'node:fs';

const here = new URL('./', import.meta.url);
for (const f of readdirSync(here)
  .filter((n) => n.endsWith('.test.ts'))
  .sort()) {
  await import(new URL(f, here).href);
}
