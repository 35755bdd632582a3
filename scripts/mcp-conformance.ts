// The official MCP conformance suite (@modelcontextprotocol/conformance) against a test instance.
//
//   node_modules/.bin/node scripts/mcp-conformance.ts [--allow-missing-coverage] [--keep]
//
// Starts Launchlist in this process (fresh temporary SQLite database, demo content if there is any,
// listening on 127.0.0.1), then runs the suite's server scenarios for both protocol eras (the
// initialize-based 2025-03-26 / 2025-06-18 / 2025-11-25, and the stateless 2026-07-28) and its
// authorization scenario, and judges every check against test/mcp/conformance-baseline.json:
//   - a FAILURE not listed in the baseline fails the run;
//   - a listed check that now passes fails the run too (stale entry: remove it), and so does an entry
//     whose scenario no run of its era reported;
//   - scenarios the suite itself does not score for a revision (extensions, pending) are judged the
//     same way, check by check, except those the baseline's "unscored" list names with a reason (an
//     optional extension Launchlist does not implement): their failures are reported only, and such an
//     entry fails the run once its scenario has no failure left, or if the suite starts scoring it.
// An era or scenario the installed suite version cannot run also fails the run, unless
// --allow-missing-coverage is given (then it is reported as NOT COVERED).
// Environment: MCP_CONFORMANCE_BIN = path of another build of the suite's dist/index.js (optional).
import { freePort } from '../test/support/net.ts';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { openStore } from '../src/store/index.ts';
import { seedIfEmpty } from '../src/store/seed/index.ts';
import { createServer } from '../src/server.ts';
import { createUser } from '../src/auth/users.ts';
import { Browser, csrfOf, $ } from '../test/auth/browser.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BASELINE_FILE = join(ROOT, 'test/mcp/conformance-baseline.json');
const args = new Set(process.argv.slice(2));
const allowMissing = args.has('--allow-missing-coverage');
const keep = args.has('--keep');

type Era = '2025' | '2026';
interface BaselineEntry {
  scenario: string;
  checks: string[];
  reason: string;
}
/** Scenarios the suite runs without scoring them, whose failures Launchlist accepts, with the reason. */
interface UnscoredEntry {
  scenarios: string[];
  reason: string;
}
interface Baseline {
  entries: Record<Era, BaselineEntry[]>;
  unscored?: Partial<Record<Era, UnscoredEntry[]>>;
}
interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}
interface Run {
  label: string;
  era?: Era;
  argv: string[];
  revision?: string;
  person?: (out: string) => void;
}
interface Outcome {
  label: string;
  scenarios: number;
  passed: number;
  failed: number;
  expected: number;
  notScoredFailed: number;
  unexpected: string[];
  stale: string[];
  notScored: string[];
  judgedUnscored: string[];
  skipped: number;
  warnings: number;
  note?: string;
}

function suiteBin(): { bin: string; version: string } {
  const override = process.env.MCP_CONFORMANCE_BIN;
  const bin = override
    ? resolve(override)
    : join(
        dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
        'dist/index.js',
      );
  const pkg = JSON.parse(readFileSync(join(dirname(bin), '..', 'package.json'), 'utf8')) as { version: string };
  return { bin, version: pkg.version };
}

function run(
  bin: string,
  argv: string[],
  timeoutMs = 300_000,
  onOutput?: (all: string) => void,
): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...argv], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      onOutput?.(out);
    });
    child.stderr.on('data', (d) => {
      out += d;
      onOutput?.(out);
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out });
    });
  });
}

/** Every checks.json the suite wrote under dir, keyed by scenario. */
function readChecks(dir: string): Map<string, Check[]> {
  const out = new Map<string, Check[]>();
  if (!existsSync(dir)) return out;
  for (const sub of readdirSync(dir)) {
    const file = join(dir, sub, 'checks.json');
    if (!existsSync(file)) continue;
    const scenario = sub
      .replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '')
      .replace(/^(authorization-server|server|client)-/, '');
    out.set(scenario, [...(out.get(scenario) ?? []), ...(JSON.parse(readFileSync(file, 'utf8')) as Check[])]);
  }
  return out;
}

/** Scenarios a requirement set runs without scoring them (extension, pending, added after release). */
async function notScoredFor(bin: string, revision: string): Promise<Set<string>> {
  const { out } = await run(bin, ['list', '--requirements', revision]);
  const tail = out.split(/Run and reported, but never scored:/)[1] ?? '';
  return new Set([...tail.matchAll(/^\s+- (\S+) \[server\]/gm)].map((m) => m[1]));
}

function judge(
  label: string,
  checks: Map<string, Check[]>,
  baseline: BaselineEntry[],
  notScored: Set<string>,
  tolerated: Set<string>,
): Outcome {
  const listed = new Map<string, BaselineEntry>();
  for (const e of baseline) for (const c of e.checks) listed.set(`${e.scenario}:${c}`, e);
  const o: Outcome = {
    label,
    scenarios: checks.size,
    passed: 0,
    failed: 0,
    expected: 0,
    notScoredFailed: 0,
    unexpected: [],
    stale: [],
    notScored: [],
    judgedUnscored: [],
    skipped: 0,
    warnings: 0,
  };
  for (const [scenario, list] of checks) {
    // A repeated check id collapses to one verdict, most severe first (as the suite does).
    const verdict = new Map<string, Check>();
    for (const c of list) if (!verdict.has(c.id) || c.status === 'FAILURE') verdict.set(c.id, c);
    // The "unscored" allowance covers only scenarios the suite itself leaves unscored.
    const allowed = tolerated.has(scenario);
    if (allowed && !notScored.has(scenario))
      o.unexpected.push(
        `${scenario} — listed as unscored in test/mcp/conformance-baseline.json, but the suite scores it for this revision: judge its checks instead`,
      );
    if (allowed && notScored.has(scenario) && ![...verdict.values()].some((c) => c.status === 'FAILURE')) {
      o.stale.push(`${scenario} has no failure left: remove it from "unscored" in test/mcp/conformance-baseline.json`);
    }
    if (notScored.has(scenario) && !allowed && !o.judgedUnscored.includes(scenario)) o.judgedUnscored.push(scenario);
    for (const [id, c] of verdict) {
      const key = `${scenario}:${id}`;
      if (c.status === 'SUCCESS') o.passed++;
      else if (c.status === 'FAILURE') o.failed++;
      else if (c.status === 'SKIPPED') o.skipped++;
      else if (c.status === 'WARNING') o.warnings++;
      if (allowed && notScored.has(scenario)) {
        if (c.status === 'FAILURE') {
          o.notScoredFailed++;
          if (!o.notScored.includes(scenario)) o.notScored.push(scenario);
        }
        continue;
      }
      if (c.status === 'FAILURE') {
        if (listed.has(key)) o.expected++;
        else o.unexpected.push(`${key} — ${(c.errorMessage ?? '').slice(0, 200)}`);
      } else if (c.status === 'SUCCESS' && listed.has(key)) {
        o.stale.push(`${key} now passes: remove it from test/mcp/conformance-baseline.json`);
      }
    }
  }
  return o;
}

/** What the person does in the browser: sign in, Allow, and land on the client's callback. */
async function allow(publicUrl: string, authorizationUrl: string, email: string, password: string): Promise<void> {
  const b = new Browser(publicUrl);
  let page = await b.go(authorizationUrl);
  const login = $(page.text)('form:has(input[name=password])').attr('action');
  if (login) page = await b.go(login, { form: { _csrf: csrfOf(page.text, login), email, password } });
  const confirm = $(page.text)('form[action$="/confirm"]').attr('action');
  if (!confirm) throw new Error(`no consent form at ${page.url} (${page.res.status})`);
  const back = await b.go(confirm, { form: { _csrf: csrfOf(page.text, confirm) } });
  await fetch(back.url); // the suite's callback server
}

async function main(): Promise<number> {
  const started = performance.now();
  const { bin, version } = suiteBin();
  const baseline = JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Baseline;
  for (const era of Object.keys(baseline.entries) as Era[]) {
    for (const e of baseline.entries[era])
      if (!e.reason?.trim() || !e.checks?.length)
        throw new Error(`Baseline entry ${era}/${e.scenario} needs checks and a reason.`);
  }
  const tolerated: Record<Era, Set<string>> = { '2025': new Set(), '2026': new Set() };
  for (const era of Object.keys(baseline.unscored ?? {}) as Era[]) {
    for (const e of baseline.unscored![era] ?? []) {
      if (!e.reason?.trim() || !e.scenarios?.length)
        throw new Error(`Unscored baseline entry ${era}/${e.scenarios?.join(',')} needs scenarios and a reason.`);
      for (const sc of e.scenarios) tolerated[era].add(sc);
    }
  }
  const seen: Record<Era, Set<string>> = { '2025': new Set(), '2026': new Set() };
  const modern = !version.startsWith('0.1.');

  const dataDir = mkdtempSync(join(tmpdir(), 'launchlist-conformance-'));
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({}, {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'true',
    WORKERS: 'false',
    RATE_LIMIT_MAX: '1000000',
  } as never);
  const store = await openStore(config);
  const seeded = await seedIfEmpty(store);
  const server = await createServer(config, store);
  await server.app.listen({ port, host: '127.0.0.1' });
  const mcpUrl = `${publicUrl}/mcp`;
  console.log(
    `Launchlist test instance at ${publicUrl} (SQLite in ${dataDir}; demo content ${seeded ? 'seeded' : 'not available'}).`,
  );
  console.log(`Conformance suite @modelcontextprotocol/conformance ${version} (${bin}).\n`);

  const runs: Run[] = modern
    ? [
        {
          label: '2025-11-25 (initialize)',
          era: '2025',
          revision: '2025-11-25',
          argv: ['server', '--url', mcpUrl, '--requirements', '2025-11-25'],
        },
        {
          label: '2025-06-18 (initialize)',
          era: '2025',
          argv: ['server', '--url', mcpUrl, '--spec-version', '2025-06-18'],
        },
        {
          label: '2025-03-26 (initialize)',
          era: '2025',
          argv: ['server', '--url', mcpUrl, '--spec-version', '2025-03-26'],
        },
        {
          label: '2026-07-28 (stateless)',
          era: '2026',
          revision: '2026-07-28',
          argv: ['server', '--url', mcpUrl, '--requirements', '2026-07-28'],
        },
      ]
    : [
        {
          label: '2025-11-25 (initialize)',
          era: '2025',
          argv: ['server', '--url', mcpUrl, '--spec-version', '2025-11-25'],
        },
        {
          label: '2025-06-18 (initialize)',
          era: '2025',
          argv: ['server', '--url', mcpUrl, '--spec-version', '2025-06-18'],
        },
      ];
  const missing: string[] = [];
  if (!modern) {
    missing.push(
      `2026-07-28 (stateless): suite ${version} does not know this revision (its server scenarios stop at 2025-11-25); @modelcontextprotocol/conformance 0.2.0-alpha.10 or later has it`,
    );
    missing.push(
      `authorization: suite ${version} has no authorization-server scenarios (the "authorization" command arrived in 0.2.0-alpha)`,
    );
  } else {
    // The authorization-code scenario prints an authorization URL for a person to open and waits for
    // the redirect to its callback: a registered client and a signed-in person who allows are needed.
    const callbackPort = await freePort();
    const reg = await fetch(`${publicUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'MCP conformance suite',
        redirect_uris: [`http://127.0.0.1:${callbackPort}/callback`],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      }),
    });
    if (reg.status !== 201) throw new Error(`Dynamic client registration failed (${reg.status}): ${await reg.text()}`);
    const { client_id } = (await reg.json()) as { client_id: string };
    const password = randomBytes(18).toString('base64url');
    const person = await createUser(store.db, {
      email: 'conformance@example.com',
      password,
      name: 'Conformance',
      emailVerified: true,
    });
    let started = false;
    runs.push({
      label: 'authorization server',
      argv: [
        'authorization',
        '--url',
        publicUrl,
        '--client-id',
        client_id,
        '--port',
        String(callbackPort),
        '--resource',
        mcpUrl,
      ],
      person: (out) => {
        const m = /(https?:\/\/\S+\/oauth\/authorize\?\S+)/.exec(out);
        if (!m || started) return;
        started = true;
        void allow(publicUrl, m[1], person.email, password).catch((e) =>
          console.error(`The simulated person could not allow the request: ${(e as Error).message}`),
        );
      },
    });
  }

  const outcomes: Outcome[] = [];
  const outRoot = mkdtempSync(join(tmpdir(), 'launchlist-conformance-results-'));
  try {
    for (const [i, r] of runs.entries()) {
      const dir = join(outRoot, String(i));
      const t0 = performance.now();
      const { code, out } = await run(bin, [...r.argv, '-o', dir], 120_000, r.person);
      const checks = readChecks(dir);
      const notScored = r.revision ? await notScoredFor(bin, r.revision) : new Set<string>();
      const o = judge(
        r.label,
        checks,
        r.era ? baseline.entries[r.era] : [],
        notScored,
        r.era ? tolerated[r.era] : new Set(),
      );
      if (r.era) for (const sc of checks.keys()) seen[r.era].add(sc);
      o.note = `${Math.round(performance.now() - t0)} ms`;
      if (checks.size === 0)
        o.unexpected.push(
          `the suite produced no results (exit ${code}): ${out.trim().split('\n').slice(-5).join(' | ')}`,
        );
      outcomes.push(o);
    }
  } finally {
    await server.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (!keep) rmSync(outRoot, { recursive: true, force: true });
    else console.log(`Results kept in ${outRoot}`);
  }

  // Baseline entries whose scenario no run of their era reported are stale too.
  const unseen: string[] = [];
  for (const era of ['2025', '2026'] as Era[]) {
    if (!outcomes.some((o) => o.scenarios > 0) || !runs.some((r) => r.era === era)) continue;
    for (const e of baseline.entries[era] ?? [])
      if (!seen[era].has(e.scenario))
        unseen.push(`${era}/${e.scenario}: no run of this era reported the scenario: remove the entry`);
    for (const sc of tolerated[era])
      if (!seen[era].has(sc))
        unseen.push(`${era}/${sc} (unscored): no run of this era reported the scenario: remove the entry`);
  }

  console.log('=== MCP conformance summary ===');
  let bad = unseen.length ? 1 : 0;
  for (const o of outcomes) {
    const verdict = o.unexpected.length || o.stale.length ? 'FAIL' : 'ok';
    if (verdict === 'FAIL') bad++;
    console.log(
      `${verdict.padEnd(4)} ${o.label}: ${o.scenarios} scenarios, ${o.passed} checks passed, ${o.failed} failed (${o.expected} baselined as needing the suite's fixtures, ${o.notScoredFailed} in unscored extension scenarios Launchlist does not implement), ${o.warnings} warnings, ${o.skipped} skipped — ${o.note}`,
    );
    for (const u of o.unexpected) console.log(`       unexpected: ${u}`);
    for (const s of o.stale) console.log(`       stale: ${s}`);
    if (o.judgedUnscored.length)
      console.log(
        `       not scored by the suite for this revision, judged against the baseline all the same: ${o.judgedUnscored.join(', ')}`,
      );
    if (o.notScored.length)
      console.log(
        `       failing in unscored extension scenarios (baseline "unscored", reported only): ${o.notScored.join(', ')}`,
      );
  }
  for (const u of unseen) console.log(`FAIL stale baseline entry ${u}`);
  for (const m of missing) console.log(`${allowMissing ? 'NOT COVERED' : 'FAIL'} ${m}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const failed = bad > 0 || (missing.length > 0 && !allowMissing);
  console.log(`\n${failed ? 'FAILED' : 'PASSED'} in ${seconds} s.`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
