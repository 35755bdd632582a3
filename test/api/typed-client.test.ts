// A typed client generated from /api/v1/openapi.json (openapi-typescript + openapi-fetch), as a user
// of the API would make one: test/typed-client/client.ts must compile with `tsc --strict`, no casts,
// reading search results, a listing's profile, the account and a draft's field states; a read of a
// field the document does not declare must NOT compile (the types are real, not open objects); and the
// client, run against a live server, reads what the server sent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { seedDemo } from '../../src/store/seed/index.ts';
import { FIELD_STATES } from '../../src/domain/vocabulary.ts';
import { liveApp, userWithKey, type Live } from '../mcp/support.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

let t: Live;
let key: string;
let draftId: string;
let dir: string;

before(async () => {
  t = await liveApp({}, async (store) => {
    await seedDemo(store);
  });
  ({ key } = await userWithKey(t.store, ['account:read', 'listings:write'], 'Typed Client'));
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const made = await fetch(`${t.url}/api/v1/drafts`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ url: 'https://typed-client.example' }),
  });
  assert.equal(made.status, 201);
  draftId = ((await made.json()) as { id: string }).id;
  const edited = await fetch(`${t.url}/api/v1/drafts/${draftId}`, {
    method: 'PATCH',
    headers: auth,
    body: JSON.stringify({ fields: { name: 'Typed Client' } }),
  });
  assert.equal(edited.status, 200);

  // The generated types, the client, and a tsconfig as strict as the project's, in a folder of their own.
  dir = mkdtempSync(join(tmpdir(), 'launchlist-typed-client-'));
  const doc = await (await fetch(`${t.url}/api/v1/openapi.json`)).json();
  writeFileSync(join(dir, 'schema.ts'), astToString(await openapiTS(doc)));
  copyFileSync(join(ROOT, 'test/typed-client/client.ts'), join(dir, 'client.ts'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2024',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2024', 'dom'],
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
      },
      files: ['client.ts'],
    }),
  );
});
after(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await t?.cleanup();
});

function tsc(): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8' });
  return { status: r.status, output: r.stdout + r.stderr };
}

test('the generated client compiles under strict TypeScript without casts', () => {
  const r = tsc();
  assert.equal(r.status, 0, r.output);
});

test('a read of a field the document does not declare does not compile', () => {
  const wrong = join(dir, 'wrong.ts');
  writeFileSync(
    wrong,
    `import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';
const api = createClient<paths>({ baseUrl: 'http://x' });
const { data } = await api.GET('/listings/{slug}', { params: { path: { slug: 'a' } } });
export const n: string | undefined = data?.no_such_field;
`,
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2024',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
      },
      files: ['wrong.ts'],
    }),
  );
  const r = tsc();
  assert.notEqual(r.status, 0, 'tsc accepted a field that does not exist');
  assert.match(r.output, /no_such_field/);
});

test('run against a live server, the client reads what the server sent', async () => {
  // Not `typeof import('../typed-client/client.ts')`: that would pull the client, whose generated
  // schema exists only in the temporary folder, into the project's own type check.
  const { readAll } = (await import(join(dir, 'client.ts'))) as {
    readAll: (base: string, key: string, draft: string, q: string) => Promise<any>;
  };
  const read = await readAll(`${t.url}/api/v1`, key, draftId, 'analytics');
  assert.ok(read.results.length > 0);
  for (const r of read.results) {
    assert.equal(typeof r.name, 'string');
    assert.ok(Number.isInteger(r.votes));
  }
  assert.ok(read.listing.name.length > 0);
  assert.ok(read.listing.categories.length > 0, 'a live listing has its categories');
  assert.ok(read.me.email.endsWith('@example.com'));
  assert.deepEqual(read.me.scopes, ['account:read', 'listings:write']);
  assert.equal(read.draftStates.name, 'manual', 'a name typed where the drafter had found none');
  assert.ok((FIELD_STATES as readonly string[]).includes(read.draftStates.tagline));
});
