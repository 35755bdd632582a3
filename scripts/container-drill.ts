// The container recipe, exercised where no container daemon runs (CI, this machine): `node scripts/container-drill.ts`.
//
// 1. The Dockerfile's own steps, read from the Dockerfile: a clean copy of the repository (its tracked
//    files) is the build context; each stage gets a folder standing for its filesystem; COPY, WORKDIR,
//    ENV and RUN are carried out in it, in order (absolute paths inside the stage's folder; `chown` is
//    skipped, as the drill runs as the current user), with this Node 24 first on PATH as the base image
//    has it. Then the image's CMD starts the server (PORT moved to a free port, HOST to 127.0.0.1), its
//    HEALTHCHECK command must pass (readiness 200), and SIGTERM must stop it cleanly (exit 0).
// 2. The usual production install on the machine's own Node (whatever `node` is on PATH, e.g. 20): a clean
//    copy, `npm ci --omit=dev`, `npm start`; readiness 200, and the server reports Node 24 (the optional
//    `node` package) in its metrics.
// Exits non-zero on the first failure, printing what it ran.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/support/net.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE24_DIR = dirname(process.execPath);
const SYSTEM_PATH = process.env.PATH ?? '';
const log = (s: string) => process.stdout.write(`${s}\n`);

function fail(message: string): never {
  process.stderr.write(`container drill FAILED: ${message}\n`);
  process.exit(1);
}

/** The repository's tracked files, as they are in the work tree, copied into `to`. */
function cleanCopy(to: string): void {
  const r = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) fail(`git ls-files: ${r.stderr}`);
  for (const f of r.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(ROOT, f))) continue; // deleted in the work tree
    mkdirSync(dirname(join(to, f)), { recursive: true });
    cpSync(join(ROOT, f), join(to, f));
  }
}

function sh(cmd: string, cwd: string, env: NodeJS.ProcessEnv): void {
  log(`  $ ${cmd}`);
  const r = spawnSync('sh', ['-c', cmd], { cwd, env, stdio: 'inherit' });
  if (r.status !== 0) fail(`"${cmd}" exited with ${r.status}`);
}

interface Instruction {
  op: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let buf = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!buf && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      buf += `${line.slice(0, -1)} `;
      continue;
    }
    const full = buf + line;
    buf = '';
    const m = /^(\w+)\s+([\s\S]*)$/.exec(full);
    if (m) out.push({ op: m[1].toUpperCase(), args: m[2].trim() });
  }
  return out;
}

interface Stage {
  name: string;
  root: string;
  workdir: string;
  env: Record<string, string>;
  cmd?: string[];
  healthcheck?: string[];
}

/** An absolute path of the image, inside the stage's folder. */
const inStage = (stage: Stage, p: string) => (p.startsWith('/') ? join(stage.root, p) : join(stage.workdir, p));

async function waitFor(ok: () => Promise<boolean>, child: ChildProcess, what: string, ms = 90_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) fail(`the server exited (${child.exitCode}) before ${what}`);
    if (await ok().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  fail(`${what}: not within ${ms / 1000} s`);
}

async function stop(child: ChildProcess): Promise<number | null> {
  child.kill('SIGTERM');
  const code = await Promise.race([
    new Promise<number | null>((r) => child.once('exit', (c) => r(c))),
    new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000)),
  ]);
  if (code === 'timeout') {
    child.kill('SIGKILL');
    fail('the server did not stop within 15 s of SIGTERM');
  }
  return code;
}

async function dockerfileDrill(work: string): Promise<void> {
  log('== 1. The Dockerfile, step by step (no container daemon here)');
  const context = join(work, 'context');
  cleanCopy(context);
  const file = readFileSync(join(context, 'Dockerfile'), 'utf8');
  const args: Record<string, string> = {};
  const stages = new Map<string, Stage>();
  let stage: Stage | undefined;
  const basePath = `${NODE24_DIR}:${SYSTEM_PATH}`; // the base image's Node 24 first
  for (const { op, args: a } of instructions(file)) {
    const expand = (s: string) =>
      s.replace(/\$\{(\w+)\}|\$(\w+)/g, (_m, x, y) => stage?.env[x ?? y] ?? args[x ?? y] ?? '');
    switch (op) {
      case 'ARG': {
        const [k, v = ''] = a.split('=');
        args[k] = v;
        break;
      }
      case 'FROM': {
        const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(expand(a));
        if (!m) fail(`FROM ${a}`);
        const name = m[2] ?? `stage${stages.size}`;
        stage = { name, root: join(work, 'stages', name), workdir: join(work, 'stages', name), env: {} };
        mkdirSync(stage.root, { recursive: true });
        stages.set(name, stage);
        log(`FROM ${m[1]} (Node ${process.version} from ${NODE24_DIR} stands for it) AS ${name}`);
        break;
      }
      case 'WORKDIR':
        stage!.workdir = join(stage!.root, expand(a));
        mkdirSync(stage!.workdir, { recursive: true });
        log(`WORKDIR ${a}`);
        break;
      case 'ENV': {
        for (const m of a.matchAll(/(\w+)=("[^"]*"|\S+)/g)) stage!.env[m[1]] = m[2].replace(/^"|"$/g, '');
        log(`ENV ${a}`);
        break;
      }
      case 'COPY': {
        const parts = a.split(/\s+/);
        const from = parts.find((p) => p.startsWith('--from='))?.slice(7);
        const paths = parts.filter((p) => !p.startsWith('--'));
        const dest = paths.pop()!;
        const src = from ? stages.get(from) : undefined;
        if (from && !src) fail(`COPY --from=${from}: no such stage`);
        for (const p of paths) {
          const source = src ? inStage(src, p) : join(context, p);
          const target =
            dest.endsWith('/') || paths.length > 1
              ? join(inStage(stage!, dest), p.split('/').pop()!)
              : inStage(stage!, dest);
          cpSync(source, target, { recursive: true });
        }
        log(`COPY ${a}`);
        break;
      }
      case 'RUN': {
        const steps = a.split('&&').map((s) => s.trim());
        const kept = steps.filter((s) => !/^chown\b/.test(s));
        if (kept.length < steps.length) log('  (chown skipped: the drill runs as the current user)');
        const cmd = kept.join(' && ').replace(/(^|\s)(\/[\w./-]+)/g, (_m, pre, p) => `${pre}${join(stage!.root, p)}`);
        sh(cmd, stage!.workdir, { ...process.env, ...stage!.env, PATH: basePath });
        break;
      }
      case 'CMD':
        stage!.cmd = JSON.parse(a) as string[];
        break;
      case 'HEALTHCHECK': {
        const m = /CMD\s+(\[.*\])\s*$/.exec(a);
        if (!m) fail(`HEALTHCHECK without an exec-form CMD: ${a}`);
        stage!.healthcheck = JSON.parse(m[1]) as string[];
        break;
      }
      case 'USER':
        log(`USER ${a} (the drill runs as the current user)`);
        break;
      default:
        log(`${op} ${a}`);
    }
  }
  const runtime = stage!;
  if (!runtime.cmd) fail('the last stage has no CMD');
  if (!runtime.healthcheck) fail('the last stage has no HEALTHCHECK');
  if (existsSync(join(runtime.workdir, 'node_modules', '.bin', 'node')))
    fail("the image installed the optional node package's Node (it has its own Node 24)");
  // the FFI binary src/ops/malloc-trim.ts calls glibc's malloc_trim through (an optional dependency of koffi)
  if (!existsSync(join(runtime.workdir, 'node_modules', '@koromix', `koffi-${process.platform}-${process.arch}`)))
    fail("the image lacks koffi's binary for this platform (malloc_trim when quiet would be skipped)");
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...Object.fromEntries(
      Object.entries(runtime.env).map(([k, v]) => [k, v.startsWith('/') ? join(runtime.root, v) : v]),
    ),
    PATH: basePath,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'NODE_COMPILE_CACHE']) delete env[k]; // the image's defaults: SQLite in /data
  log(`CMD ${runtime.cmd.join(' ')}  (PORT=${port} HOST=127.0.0.1 DATA_DIR=${env.DATA_DIR})`);
  const child = spawn(runtime.cmd[0], runtime.cmd.slice(1), { cwd: runtime.workdir, env, stdio: 'inherit' });
  const health = () =>
    new Promise<boolean>((r) => {
      const h = spawn(runtime.healthcheck![0], runtime.healthcheck!.slice(1), {
        cwd: runtime.workdir,
        env,
        stdio: 'ignore',
      });
      h.once('exit', (c) => r(c === 0));
    });
  await waitFor(health, child, 'the HEALTHCHECK passed');
  log(`HEALTHCHECK passed: GET /readyz answered 200`);
  const ready = await (await fetch(`http://127.0.0.1:${port}/readyz`)).json();
  log(`  ${JSON.stringify(ready)}`);
  const code = await stop(child);
  if (code !== 0) fail(`the server exited with ${code} on SIGTERM`);
  log('SIGTERM: stopped cleanly (exit 0)');
}

async function productionInstallDrill(work: string): Promise<void> {
  const systemNode = spawnSync('node', ['--version'], { env: { ...process.env, PATH: SYSTEM_PATH }, encoding: 'utf8' });
  log(`\n== 2. npm ci --omit=dev && npm start on this machine's node (${systemNode.stdout?.trim() || 'none on PATH'})`);
  const dir = join(work, 'install');
  cleanCopy(dir);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: SYSTEM_PATH };
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'NODE_COMPILE_CACHE']) delete env[k];
  sh('npm ci --omit=dev --no-audit --no-fund', dir, env);
  if (existsSync(join(dir, 'node_modules', 'typescript'))) fail('a dev dependency was installed');
  const port = await freePort();
  const child = spawn('npm', ['start'], {
    cwd: dir,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'warn' },
    stdio: 'inherit',
    detached: true, // npm and the server in their own group, stopped together
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${base}/readyz`)).status === 200, child, 'GET /readyz answered 200');
  const metrics = await (await fetch(`${base}/metrics`)).text();
  const version = /nodejs_version_info\{version="(v[\d.]+)"/.exec(metrics)?.[1];
  log(`GET /readyz: 200; the server runs Node ${version}`);
  if (!version?.startsWith('v24.')) fail(`npm start ran Node ${version}, not 24`);
  process.kill(-child.pid!, 'SIGTERM');
  await new Promise((r) => child.once('exit', r));
  log('stopped');
}

const work = mkdtempSync(join(tmpdir(), 'launchlist-container-drill-'));
try {
  await dockerfileDrill(work);
  await productionInstallDrill(work);
  log('\ncontainer drill: all steps passed');
} finally {
  rmSync(resolve(work), { recursive: true, force: true });
}
