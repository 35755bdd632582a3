// Test support: a fresh database per test file (SQLite file in a temp dir, or a new PostgreSQL
// database when DATABASE_URL is set) and the app built on it, driven through inject() or a real port.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig, type Config } from '../../src/config.ts';
import { openStore } from '../../src/store/index.ts';
import type { Store } from '../../src/store/connect.ts';
import { createServer, type Server } from '../../src/server.ts';

export const ENGINE = process.env.DATABASE_URL ? 'postgres' : 'sqlite';

export interface TestDb {
  store: Store;
  config: Config;
  cleanup(): Promise<void>;
}

/** An empty database for one test file (nothing migrated): a new PostgreSQL database when DATABASE_URL is set, else a temp dir for the SQLite file. */
export async function emptyDatabase(): Promise<{
  dir: string;
  databaseUrl: string | undefined;
  drop(): Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'launchlist-test-'));
  let databaseUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  if (process.env.DATABASE_URL) {
    const name = `ll_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = '/' + name;
    databaseUrl = u.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  return {
    dir,
    databaseUrl,
    drop: async () => {
      await dropDb?.();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function freshStore(overrides: Record<string, unknown> = {}): Promise<TestDb> {
  const empty = await emptyDatabase();
  const config = loadConfig({}, {
    DATA_DIR: empty.dir,
    DATABASE_URL: empty.databaseUrl,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_PAGES_MAX: '100000',
    RATE_LIMIT_BADGES_MAX: '100000',
    WORKERS: 'false',
    // Every operation result is checked against its response schema: a field it does not declare fails.
    STRICT_RESPONSES: 'true',
    // Tests write fixtures straight into the database and read them back at once: the shared caches
    // (SHARED_CACHE_MS) are off unless a test turns them on.
    SHARED_CACHE_MS: '0',
    // Fair first hours (Monday 00:00–04:00 UTC by default) would hide the week's votes from tests that
    // happen to run then: off unless a test turns it on (test/web/votes.test.ts).
    FAIR_START_HOURS: '0',
    VIES: 'false', // no network in tests: VIES is asked of a stand-in on loopback in test/ops/vat-check.test.ts
    ...overrides,
  } as never);
  const store = await openStore(config);
  return {
    store,
    config,
    cleanup: async () => {
      await store.close();
      await empty.drop();
    },
  };
}

export interface TestApp extends TestDb {
  server: Server;
  app: Server['app'];
}

export async function testApp(
  overrides: Record<string, unknown> = {},
  prepare?: (store: Store) => Promise<void>,
): Promise<TestApp> {
  const t = await freshStore(overrides);
  if (prepare) await prepare(t.store);
  const server = await createServer(t.config, t.store);
  await server.app.ready();
  return {
    ...t,
    server,
    app: server.app,
    cleanup: async () => {
      await server.close();
      await t.cleanup();
    },
  };
}
