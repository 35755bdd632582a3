// scripts/verify-award.ts, the outsider's check (only fetch + node:crypto), against a live server with
// the demo content: an award verifies with only the published JWKS; one changed byte fails.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { seedDemo } from '../../src/store/seed/index.ts';
import { liveApp, type Live } from '../mcp/support.ts';

let t: Live;
const SCRIPT = fileURLToPath(new URL('../../scripts/verify-award.ts', import.meta.url));

before(async () => {
  t = await liveApp({}, async (store) => {
    await seedDemo(store);
  });
});
after(async () => {
  await t?.cleanup();
});

async function run(...args: string[]): Promise<{ status: number | null; out: string }> {
  // spawnSync would block this process's event loop, and so the server the script talks to
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (status) => resolve({ status, out }));
  });
}

test('a demo award verifies with the standalone script; a changed byte fails', async () => {
  const awards = (await (await fetch(`${t.url}/api/v1/awards?per_page=3`)).json()) as {
    items: Array<{ week: string; rank: number; listing: { slug: string } }>;
  };
  const a = awards.items[0];
  const good = await run(t.url, a.week, String(a.rank));
  assert.equal(good.status, 0, good.out);
  assert.match(good.out, /VALID: signed by key/);
  assert.match(good.out, new RegExp(`"slug": "${a.listing.slug}"`));
  for (const byte of ['0', '40']) {
    const bad = await run(t.url, a.week, String(a.rank), '--flip-byte', byte);
    assert.equal(bad.status, 1, bad.out);
    assert.match(bad.out, /INVALID: the signature does not match/);
  }
  assert.equal(spawnSync(process.execPath, [SCRIPT]).status, 2, 'usage');
});
