/**
 * Benchmarks (print, never assert): `npm run bench [-- options]`.
 *
 * Listings, against the RUNNING server (started as `npm start` starts it, as a child process) on each engine and
 * size: the database is filled with `cli seed` (demo content) + `cli seed --listings N`, then
 *   - cold start: spawn → first 200 of GET /api/v1/site;
 *   - service time at 1 connection: p50/p99 of get_listing (distinct random slugs) and of
 *     search_listings with a typo query (distinct queries), sequential, keep-alive;
 *   - throughput at 50 connections (autocannon) of the same two, next to a bare Fastify route
 *     (bench/bare.ts, its own process) measured in the same run: the ratio is the figure that counts.
 *     The three loads are taken in ROUNDS rounds (bare, get, search, bare, get, search …): on these
 *     shared machines one load test's throughput moves by ±10% from one to the next, so the table shows
 *     the median of the rounds (the ratio: the median of each round's get/bare) and each round's ratio;
 *   - server RSS after the load (/proc/<pid>/status VmRSS), and again after SETTLE_MS of quiet.
 * Then the drafting benchmark (bench/drafting.ts) unless --no-drafting.
 *
 * Options: --sizes 10000,100000  --engines sqlite,postgres  --duration 6 (s per load test)  --rounds 3
 *          --connections 50  --samples 400 (requests per service-time measure)  --log-level warn
 *          --no-drafting  --keep (keep the databases; prints where they are)
 *          --accept-encoding 'gzip, deflate, br, zstd' (what the page and signed-in loads send: Chrome's
 *          and Firefox's header; Safari's has no zstd; '' sends none, as the API loads never do)
 * PostgreSQL: a fresh database per run next to DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
 */
import { freePort } from '../test/support/net.ts';
import { createRng } from '../src/store/seed/prng.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'kysely';
import { openStore } from '../src/store/index.ts';
import { GROUPS, prepareLoads, type Group, type Req } from './loads.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE = process.execPath;
/** The server is started exactly as `npm start` starts it (its Node flags included), minus npm itself. */
const START_ARGS = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start
  .trim()
  .split(/\s+/)
  .slice(1);

const { values: flags } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    engines: { type: 'string', default: 'sqlite,postgres' },
    duration: { type: 'string', default: '6' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    samples: { type: 'string', default: '400' },
    'log-level': { type: 'string', default: 'warn' },
    'no-drafting': { type: 'boolean', default: false },
    loads: { type: 'string', default: GROUPS.join(',') },
    keep: { type: 'boolean', default: false },
    'accept-encoding': { type: 'string', default: 'gzip, deflate, br, zstd' },
  },
});
const SIZES = flags
  .sizes!.split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
const ENGINES = flags
  .engines!.split(',')
  .map((s) => s.trim())
  .filter((e): e is 'sqlite' | 'postgres' => e === 'sqlite' || e === 'postgres');
const DURATION = Number(flags.duration);
const ROUNDS = Math.max(1, Number(flags.rounds));
const CONNECTIONS = Number(flags.connections);
const SAMPLES = Number(flags.samples);
const PG_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Which groups of loads besides get_listing and search (bench/loads.ts): api, page, signed, vote. */
const LOAD_GROUPS = new Set(
  flags
    .loads!.split(',')
    .map((g) => g.trim())
    .filter((g): g is Group => (GROUPS as readonly string[]).includes(g)),
);

const log = (s = '') => process.stdout.write(s + '\n');

// ------------------------------------------------------------------ helpers

function run(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(NODE, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code: code ?? 1, out: out.trim(), ms: performance.now() - t0 }));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(port: number, path: string): Promise<{ status: number; body: string; ms: number }> {
  return request(port, { method: 'GET', path });
}

function request(port: number, r: Req): Promise<{ status: number; body: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: r.path, agent, method: r.method, headers: r.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - t0 }));
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function rssMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function waitFor200(port: number, path: string, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      const r = await new Promise<number>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
      });
      if (r === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return false;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

/** Rotates through `paths` (distinct until they run out). */
function rotating(paths: string[]): () => string {
  let i = 0;
  return () => paths[i++ % paths.length];
}

/** Requests that warm each extra load's path before its rounds. */
const WARM_REQUESTS = 50;
/** How long the server is left quiet after the loads before its settled RSS is read. */
const SETTLE_MS = 6000;

/** A process's CPU time so far (user + system, ms), from /proc; NaN where there is no /proc. */
function cpuMs(pid: number | undefined): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
/** /proc reports CPU times in clock ticks, USER_HZ: 100 a second on Linux whatever the kernel's own tick. */
const CLOCK_TICKS = 100;

async function load(
  port: number,
  next: () => Req,
  pid?: number,
  amount?: number,
): Promise<{ rps: number; p50: number; p99: number; non2xx: number; errors: number; cpuUs: number }> {
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    // a load whose requests must not repeat sends its share of them (Load.distinct), at whatever pace
    ...(amount ? { amount } : { duration: DURATION }),
    requests: [{ setupRequest: (req) => ({ ...req, ...next() }) }],
  });
  return {
    // (autocannon's own duration is too coarse for a run of a few seconds)
    rps: amount ? (r.requests.total * 1000) / (performance.now() - t0) : r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    // A form post answers 303 (back to the page): only 4xx and 5xx are failures.
    non2xx: r['4xx'] + r['5xx'],
    errors: r.errors + r.timeouts,
    // the server's CPU time per answered request (its own process; the database's is not in it)
    cpuUs: ((cpuMs(pid) - cpu0) * 1000) / Math.max(1, r.requests.total),
  };
}
const getReq = (paths: () => string) => (): Req => ({ method: 'GET', path: paths() });

interface ServiceTime {
  p50: number;
  p99: number;
  hits: number;
  bad: number;
  narrow: { n: number; p50: number; p99: number };
  broad: { n: number; p50: number; p99: number };
}

/** Sequential requests at 1 connection; for searches also split by result size (narrow < BROAD matches ≤ broad). */
async function serviceTime(port: number, paths: string[]): Promise<ServiceTime> {
  const times: number[] = [];
  const narrow: number[] = [];
  const broad: number[] = [];
  let hits = 0;
  let bad = 0;
  for (const p of paths) {
    const r = await get(port, p);
    times.push(r.ms);
    if (r.status !== 200) {
      bad++;
      continue;
    }
    const body = JSON.parse(r.body) as { total?: number; items?: unknown[] };
    if (!Array.isArray(body.items)) hits++;
    else {
      if (body.items.length) hits++;
      ((body.total ?? 0) >= BROAD ? broad : narrow).push(r.ms);
    }
  }
  const summary = (xs: number[]) => {
    xs.sort((a, b) => a - b);
    return { n: xs.length, p50: quantile(xs, 0.5), p99: quantile(xs, 0.99) };
  };
  const all = summary(times);
  return { p50: all.p50, p99: all.p99, hits, bad, narrow: summary(narrow), broad: summary(broad) };
}
const BROAD = 1000;

// ------------------------------------------------------------------ typo queries

/** One typing mistake: swap two neighbours, drop, double or replace a letter (not the first). */
function typo(word: string, rand: () => number): string {
  const i = 1 + Math.floor(rand() * (word.length - 2));
  switch (Math.floor(rand() * 4)) {
    case 0:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    case 1:
      return word.slice(0, i) + word.slice(i + 1);
    case 2:
      return word.slice(0, i) + word[i] + word.slice(i);
    default:
      return word.slice(0, i) + 'etaoinshrdlu'[Math.floor(rand() * 12)] + word.slice(i + 1);
  }
}

/** Distinct queries "<brand with a typo> [a tagline word]" built from live listings. */
function typoQueries(texts: Array<{ name: string; tagline: string | null }>, n: number): string[] {
  const rand = createRng(7).next;
  const out = new Set<string>();
  for (let tries = 0; out.size < n && tries < n * 20; tries++) {
    const t = texts[Math.floor(rand() * texts.length)];
    const words = `${t.name} ${t.tagline ?? ''}`
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length >= 5);
    if (!words.length) continue;
    const w = words[0];
    let q = typo(w, rand);
    const other = words.slice(1);
    if (other.length && rand() < 0.6) q += ' ' + other[Math.floor(rand() * other.length)];
    out.add(q);
  }
  return [...out];
}

// ------------------------------------------------------------------ one scenario

interface Row {
  engine: string;
  listings: number;
  seedS: number;
  coldMs: number;
  warmCacheMs: number;
  firstSearchMs: number;
  bare: number;
  getRps: number;
  getRatio: number;
  getRatios: number[];
  getP50: number;
  getP99: number;
  searchRps: number;
  searchP50: number;
  searchP99: number;
  searchP99s: number[];
  svcGet: [number, number];
  svcSearch: [number, number];
  svcNarrow: string;
  svcBroad: string;
  searchHits: string;
  rss: number;
  /** RSS after SETTLE_MS of quiet after the loads. */
  settledRss: number;
  peak: number;
  errors: number;
  loads: LoadRow[];
}

interface LoadRow {
  name: string;
  group: Group;
  rps: number;
  /** Median of each round's rps / the bare route's rps in that round. */
  share: number;
  p50: number;
  p99: number;
  /** The server's CPU time per request (µs, median of the rounds). */
  cpuUs: number;
  errors: number;
}

async function scenario(engine: 'sqlite' | 'postgres', n: number, barePort: number): Promise<Row | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'launchlist-bench-'));
  const env: Record<string, string> = {
    DATA_DIR: dir,
    DATABASE_URL: '',
    LOG_LEVEL: flags['log-level']!,
    SEED_DEMO: 'false',
    WORKERS: 'false',
    RATE_LIMIT_MAX: '1000000000',
    RATE_LIMIT_PAGES_MAX: '1000000000',
    RATE_LIMIT_BADGES_MAX: '1000000000',
  };
  let dbName: string | undefined;
  const dropPg = async () => {
    if (!dbName || flags.keep) return;
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await c.end();
  };
  if (engine === 'postgres') {
    dbName = `ll_bench_${randomBytes(4).toString('hex')}`;
    const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
    try {
      await c.connect();
      await c.query(`CREATE DATABASE ${dbName}`);
      await c.end();
    } catch (e) {
      log(`  postgres: skipped (${(e as Error).message})`);
      return undefined;
    }
    const u = new URL(PG_URL);
    u.pathname = '/' + dbName;
    env.DATABASE_URL = u.toString();
  }
  let server: ChildProcess | undefined;
  try {
    // 1. data
    const demo = await run(['src/cli.ts', 'seed'], env);
    if (demo.code !== 0) throw new Error(`cli seed failed: ${demo.out}`);
    const synth = await run(['src/cli.ts', 'seed', '--listings', String(n)], env);
    if (synth.code !== 0) throw new Error(`cli seed --listings failed: ${synth.out}`);
    log(`  ${engine} ${n}: ${synth.out}`);

    // 2. what to ask for: random live slugs and distinct typo queries
    const store = await openStore({ DATA_DIR: dir, DATABASE_URL: env.DATABASE_URL || undefined });
    const sample = (
      await sql<{
        slug: string;
        name: string;
        tagline: string | null;
      }>`SELECT slug, name, tagline FROM listings WHERE status = 'live' ORDER BY random() LIMIT 20000`.execute(store.db)
    ).rows;
    const words = typoQueries(sample, 20000);
    // get_listing and search_listings are the classic loads below; the other API reads, the pages and
    // the votes come from bench/loads.ts (the voters and their sessions are made here, before the start).
    const extra = (await prepareLoads(store, words, LOAD_GROUPS, flags['accept-encoding'] || undefined)).filter(
      (l) => l.name !== 'api get_listing' && l.name !== 'api search_listings',
    );
    await store.close();
    const slugs = sample.map((r) => `/api/v1/listings/${r.slug}`);
    const queries = words.map((q) => `/api/v1/listings?q=${encodeURIComponent(q)}`);

    // 3. cold start: spawn → first 200; once as a fresh install would (no compile cache), then
    //    again with Node's compile cache filled by the first start (NODE_COMPILE_CACHE), as a
    //    restart of an installed server would be if the lead enables it.
    const port = await freePort();
    const cacheDir = join(dir, 'compile-cache');
    const start = async () => {
      const t0 = performance.now();
      const child = spawn(NODE, START_ARGS, {
        cwd: ROOT,
        env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', NODE_COMPILE_CACHE: cacheDir },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      if (!(await waitFor200(port, '/api/v1/site', 30_000)))
        throw new Error('the server did not answer 200 on /api/v1/site within 30 s');
      return { child, ms: performance.now() - t0 };
    };
    const first = await start(); // the cache directory is empty
    await stopChild(first.child);
    const second = await start(); // now filled
    server = second.child;
    const coldMs = first.ms;
    const warmCacheMs = second.ms;

    // 4. warm-up (JIT, statement caches, the search index: the first search waits for its load), then
    //    service time at 1 connection
    const getNext = rotating(slugs);
    const searchNext = rotating(queries);
    for (const l of extra) for (let i = 0; i < WARM_REQUESTS; i++) await request(port, l.next()); // warm each load's path
    const firstSearch = await get(port, searchNext());
    for (let i = 0; i < 300; i++) {
      await get(port, getNext());
      await get(port, searchNext());
    }
    const svcGet = await serviceTime(port, Array.from({ length: SAMPLES }, getNext));
    const svcSearch = await serviceTime(port, Array.from({ length: SAMPLES }, searchNext));

    // 5. throughput at 50 connections, bare route measured in the same run
    type Measured = Awaited<ReturnType<typeof load>>;
    const rounds: Array<{ bare: Measured; gl: Measured; sr: Measured; extra: Measured[] }> = [];
    for (let i = 0; i < ROUNDS; i++) {
      const bareLoad = await load(
        barePort,
        getReq(() => '/bare'),
      );
      const gl = await load(port, getReq(getNext), server.pid);
      const sr = await load(port, getReq(searchNext), server.pid);
      const more: Measured[] = [];
      for (const l of extra)
        more.push(
          await load(
            port,
            l.next,
            server.pid,
            l.distinct ? Math.floor((l.distinct - WARM_REQUESTS) / ROUNDS) : undefined,
          ),
        );
      rounds.push({ bare: bareLoad, gl, sr, extra: more });
    }
    const med = (xs: number[]) =>
      quantile(
        [...xs].sort((a, b) => a - b),
        0.5,
      );
    const bare = { rps: med(rounds.map((r) => r.bare.rps)) };
    /** One load's rounds: medians of the rates and latencies, sums of the failures. */
    const across = (loads: Array<Awaited<ReturnType<typeof load>>>) => ({
      rps: med(loads.map((l) => l.rps)),
      p50: med(loads.map((l) => l.p50)),
      p99: med(loads.map((l) => l.p99)),
      non2xx: loads.reduce((n, l) => n + l.non2xx, 0),
      errors: loads.reduce((n, l) => n + l.errors, 0),
      cpuUs: med(loads.map((l) => l.cpuUs)),
    });
    const gl = across(rounds.map((r) => r.gl));
    const sr = across(rounds.map((r) => r.sr));
    const ratios = rounds.map((r) => r.gl.rps / r.bare.rps);
    const loadRow = (name: string, group: Group, of: (r: (typeof rounds)[number]) => Measured): LoadRow => {
      const m = across(rounds.map(of));
      return {
        name,
        group,
        rps: m.rps,
        share: med(rounds.map((r) => of(r).rps / r.bare.rps)),
        p50: m.p50,
        p99: m.p99,
        cpuUs: m.cpuUs,
        errors: m.non2xx + m.errors,
      };
    };
    const loads: LoadRow[] = [
      loadRow('api get_listing', 'api', (r) => r.gl),
      loadRow('api search_listings', 'api', (r) => r.sr),
      ...extra.map((l, i) => loadRow(l.name, l.group, (r) => r.extra[i])),
    ];
    const mem = rssMb(server.pid!);
    // and once the server has been quiet for a few seconds, as an operator meets it between bursts (a
    // quiet server gives memory back: src/ops/idle-gc.ts)
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const settled = rssMb(server.pid!);
    return {
      engine,
      listings: n,
      seedS: synth.ms / 1000,
      coldMs,
      warmCacheMs,
      firstSearchMs: firstSearch.ms,
      bare: bare.rps,
      getRps: gl.rps,
      getRatio: med(ratios),
      getRatios: ratios,
      getP50: gl.p50,
      getP99: gl.p99,
      searchRps: sr.rps,
      searchP50: sr.p50,
      searchP99: sr.p99,
      searchP99s: rounds.map((r) => r.sr.p99),
      svcGet: [svcGet.p50, svcGet.p99],
      svcSearch: [svcSearch.p50, svcSearch.p99],
      svcNarrow: `${svcSearch.narrow.p50.toFixed(2)}/${svcSearch.narrow.p99.toFixed(2)} (${svcSearch.narrow.n})`,
      svcBroad: svcSearch.broad.n
        ? `${svcSearch.broad.p50.toFixed(2)}/${svcSearch.broad.p99.toFixed(2)} (${svcSearch.broad.n})`
        : '-',
      searchHits: `${Math.round((100 * svcSearch.hits) / SAMPLES)}%`,
      rss: mem.rss,
      settledRss: settled.rss,
      peak: mem.peak,
      errors: gl.non2xx + gl.errors + sr.non2xx + sr.errors + svcGet.bad + svcSearch.bad,
      loads,
    };
  } finally {
    if (server) await stopChild(server);
    if (flags.keep) log(`  kept: DATA_DIR=${dir}${env.DATABASE_URL ? ` DATABASE_URL=${env.DATABASE_URL}` : ''}`);
    else rmSync(dir, { recursive: true, force: true });
    await dropPg();
  }
}

// ------------------------------------------------------------------ main

function table(rows: Row[]): string {
  const head = [
    'engine',
    'listings',
    'seed s',
    'cold ms',
    'cold+cache ms',
    '1st search ms',
    'bare rps',
    'get rps',
    'get/bare',
    'rounds',
    'get p50/p99 ms',
    'search rps',
    'search p50/p99 ms',
    'p99 rounds',
    'svc get p50/p99',
    'svc search p50/p99',
    'svc narrow (n)',
    'svc broad (n)',
    'found',
    'RSS MB',
    'settled RSS MB',
    'errors',
  ];
  const f = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
  const body = rows.map((r) => [
    r.engine,
    String(r.listings),
    f(r.seedS),
    f(r.coldMs, 0),
    f(r.warmCacheMs, 0),
    f(r.firstSearchMs, 0),
    f(r.bare, 0),
    f(r.getRps, 0),
    `${f(100 * r.getRatio, 0)}%`,
    r.getRatios.map((x) => f(100 * x, 0)).join('/'),
    `${f(r.getP50)}/${f(r.getP99)}`,
    f(r.searchRps, 0),
    `${f(r.searchP50)}/${f(r.searchP99)}`,
    r.searchP99s.map((x) => f(x, 0)).join('/'),
    `${f(r.svcGet[0], 2)}/${f(r.svcGet[1], 2)}`,
    `${f(r.svcSearch[0], 2)}/${f(r.svcSearch[1], 2)}`,
    r.svcNarrow,
    r.svcBroad,
    r.searchHits,
    `${f(r.rss, 0)} (peak ${f(r.peak, 0)})`,
    f(r.settledRss, 0),
    String(r.errors),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

function loadsTable(rows: Row[]): string {
  const head = ['load', ...rows.map((r) => `${r.engine} ${r.listings}: rps  share  p50/p99 ms  cpu µs`)];
  const names = [...new Set(rows.flatMap((r) => r.loads.map((l) => l.name)))];
  const f = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '-');
  const body = names.map((name) => [
    name,
    ...rows.map((r) => {
      const l = r.loads.find((x) => x.name === name);
      if (!l) return '-';
      return `${f(l.rps)}  ${f(100 * l.share)}%  ${f(l.p50, 1)}/${f(l.p99, 1)}  ${f(l.cpuUs)}${l.errors ? `  (${l.errors} failed)` : ''}`;
    }),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [
    `Loads at ${CONNECTIONS} connections: medians of ${ROUNDS} rounds; share = the load's rps / the bare route's rps in the same round (median); cpu = the server process's CPU time per request (median; steadier than rps on a shared machine, the database's own time not in it).`,
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...body.map(line),
  ].join('\n');
}

/** Cost independent of size: each load's share at the largest size against the smallest, per engine. */
function sizeTable(rows: Row[]): string {
  const out: string[] = [
    'Size independence (share at the largest size / share at the smallest, per engine; target ≥ 80%):',
  ];
  for (const engine of new Set(rows.map((r) => r.engine))) {
    const mine = rows.filter((r) => r.engine === engine).sort((a, b) => a.listings - b.listings);
    if (mine.length < 2) continue;
    const [small, large] = [mine[0], mine[mine.length - 1]];
    const cells = large.loads.map((l) => {
      const s = small.loads.find((x) => x.name === l.name);
      return `${l.name} ${s ? `${((100 * l.share) / s.share).toFixed(0)}%` : '-'}`;
    });
    out.push(`  ${engine} ${large.listings}/${small.listings}: ${cells.join(', ')}`);
  }
  return out.join('\n');
}

log(
  `Listings benchmark: engines ${ENGINES.join(', ')}; sizes ${SIZES.join(', ')}; ${CONNECTIONS} connections × ${DURATION} s per load test, ${ROUNDS} rounds of (bare, get, search); ${SAMPLES} sequential requests per service time; server LOG_LEVEL=${flags['log-level']}`,
);
const bareProc = spawn(NODE, ['bench/bare.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
const barePort = await new Promise<number>((resolve) =>
  bareProc.stdout!.once('data', (d) => resolve(Number(/listening (\d+)/.exec(String(d))?.[1]))),
);
const rows: Row[] = [];
try {
  for (const engine of ENGINES) {
    for (const n of SIZES) {
      const started = performance.now();
      try {
        const row = await scenario(engine, n, barePort);
        if (row) {
          rows.push(row);
          log(`  ${engine} ${n}: done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
        }
      } catch (e) {
        log(`  ${engine} ${n}: FAILED ${(e as Error).message}`);
      }
    }
  }
} finally {
  await stopChild(bareProc);
}
log('');
log(table(rows));
log('');
log(loadsTable(rows));
log('');
log(sizeTable(rows));
log('');
log(
  'get/bare: get_listing throughput as a share of the bare Fastify route (target ≥ 50%), the median of the rounds\' ratios ("rounds": each round\'s); rps and latencies are medians of the rounds too. "svc" = service time at 1 connection (ms).',
);
log(
  `svc narrow / broad: search service time split by result size (fewer / at least ${BROAD} matching listings; broad = a single very common word, ranked over all its matches).`,
);
log(
  'cold ms: spawn → first 200 of /api/v1/site with an empty compile cache; cold+cache ms: the same with NODE_COMPILE_CACHE filled by the first start.',
);
log(
  flags['accept-encoding']
    ? `page and signed-in loads send Accept-Encoding: ${flags['accept-encoding']} (as a browser does; --accept-encoding '' for none); the API loads send none.`
    : "No load sends Accept-Encoding (--accept-encoding '').",
);
log(
  `RSS MB: the server's resident memory just after the last load (and its peak); settled RSS MB: ${SETTLE_MS / 1000} s later, the server quiet.`,
);
log('1st search ms: the first search after that start, which waits for the in-memory search index to finish loading.');
log(
  '"found": share of the typo queries that returned at least one listing. Targets: search p99 ≤ 25 ms at 100,000; RSS ≤ 250 MB on SQLite with 100,000; cold start ≤ 1.5 s.',
);

if (!flags['no-drafting']) {
  log('');
  try {
    const mod = (await import('./drafting.ts')) as { benchDrafting?: (log: (s: string) => void) => Promise<unknown> };
    if (typeof mod.benchDrafting === 'function') {
      log('Drafting benchmark');
      await mod.benchDrafting(log);
    }
  } catch (e) {
    log(`drafting benchmark not run: ${(e as Error).message}`);
  }
}
process.exit(0);
