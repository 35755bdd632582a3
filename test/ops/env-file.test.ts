// `npm start` reads .env from the folder it starts in (Node's --env-file-if-exists), and starts without one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/net.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

test('package.json: engines names Node 24, which a production install gets (node is not a dev dependency)', () => {
  assert.equal(pkg.engines.node, '>=24');
  assert.match(pkg.optionalDependencies?.node ?? '', /^\^24\./);
  assert.equal(pkg.devDependencies.node, undefined);
  assert.match(pkg.scripts.start, /--env-file-if-exists=\.env/);
});

test('npm start reads PORT and DATA_DIR from .env in the folder it starts in', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'launchlist-env-'));
  const port = await freePort();
  writeFileSync(
    join(dir, '.env'),
    `PORT=${port}\nHOST=127.0.0.1\nDATA_DIR=${join(dir, 'data')}\nSEED_DEMO=false\nLOG_LEVEL=warn\n`,
  );
  // The start script's own arguments, with the entry point named from the repository.
  const args = pkg.scripts.start
    .split(/\s+/)
    .slice(1)
    .map((a) => (a === 'src/main.ts' ? join(ROOT, 'src/main.ts') : a));
  const env = { ...process.env };
  for (const k of ['PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'SEED_DEMO', 'LOG_LEVEL']) delete env[k];
  const child = spawn(process.execPath, args, { cwd: dir, env, stdio: 'ignore' });
  try {
    let status = 0;
    for (let i = 0; i < 600 && status !== 200; i++) {
      status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 200, `the server listens on the PORT from .env (${port})`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
});
