// Backups (issue #20, item 10): the restore drill. Back up, write more, restore, compare every table with
// what it held when the backup was taken. SQLite through the CLI (online backup API, the server's store
// open meanwhile); PostgreSQL through the README's pg_dump / pg_restore recipe when DATABASE_URL is one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { runCli } from '../../src/cli.ts';
import { openStore } from '../../src/store/index.ts';
import { createUser } from '../../src/auth/users.ts';
import type { DB } from '../../src/store/types.ts';
import { emptyDatabase } from '../support/app.ts';

const run = promisify(execFile);

async function cli(args: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Every table's rows, sorted, as text: two dumps are equal when the databases hold the same data. */
async function dump(db: Kysely<DB>, engine: 'sqlite' | 'postgres'): Promise<Record<string, string[]>> {
  const tables =
    engine === 'sqlite'
      ? (
          await sql<{
            name: string;
          }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%' ORDER BY name`.execute(
            db,
          )
        ).rows.map((r) => r.name)
      : (
          await sql<{
            name: string;
          }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`.execute(
            db,
          )
        ).rows.map((r) => r.name);
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    const rows = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(t)}`.execute(db)).rows;
    out[t] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

async function write(db: Kysely<DB>, tag: string): Promise<void> {
  for (let i = 0; i < 5; i++)
    await createUser(db, {
      email: `${tag}-${i}@example.com`,
      password: 'a long enough passphrase',
      name: `${tag} ${i}`,
    });
  await db
    .insertInto('settings')
    .values({ key: `drill.${tag}`, value: JSON.stringify({ tag }), updated_at: new Date().toISOString() })
    .execute();
}

test('SQLite restore drill: back up online with the CLI, write, restore, every table as it was', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'launchlist-backup-'));
  const env = { DATA_DIR: dir, DATABASE_URL: undefined };
  try {
    const store = await openStore({ DATA_DIR: dir });
    await write(store.db, 'before');
    const atBackup = await dump(store.db, 'sqlite');
    const file = join(dir, 'backup-1.db');
    // Online: the server's store stays open (and holds a read snapshot) while the backup runs.
    const backedUp = await cli(['backup', '--to', file], env);
    assert.equal(backedUp.code, 0, backedUp.err);
    assert.match(backedUp.out, /Backed up .* pages/);
    assert.ok(existsSync(file));
    // Never over an existing file.
    const again = await cli(['backup', '--to', file], env);
    assert.equal(again.code, 1);
    assert.match(again.err, /already exists/);

    await write(store.db, 'after');
    assert.notDeepEqual(await dump(store.db, 'sqlite'), atBackup);
    await store.close(); // the server stops

    const refused = await cli(['restore', '--from', file], env);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /--yes/);
    const restored = await cli(['restore', '--from', file, '--yes'], env);
    assert.equal(restored.code, 0, restored.err);
    assert.match(restored.out, /kept at .*before-restore/);
    assert.ok(readdirSync(dir).some((f) => f.startsWith('launchlist.db.before-restore-')));

    const back = await openStore({ DATA_DIR: dir });
    try {
      assert.deepEqual(await dump(back.db, 'sqlite'), atBackup, 'every table as it was at the backup');
      const emails = (await back.db.selectFrom('users').select('email').execute()).map((u) => u.email);
      assert.ok(emails.includes('before-0@example.com'));
      assert.ok(!emails.includes('after-0@example.com'));
    } finally {
      await back.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the CLI points a PostgreSQL deployment at pg_dump and pg_restore', async () => {
  const r = await cli(['backup', '--to', '/tmp/x.db'], { DATABASE_URL: 'postgres://u@127.0.0.1:1/x' });
  assert.equal(r.code, 1);
  assert.match(r.err, /pg_dump --format=custom/);
  assert.match(r.err, /pg_restore --clean --if-exists/);
});

test('PostgreSQL restore drill with the documented recipe (pg_dump --format=custom, pg_restore --clean)', async (ctx) => {
  if (!process.env.DATABASE_URL?.startsWith('postgres')) return ctx.skip('DATABASE_URL is not PostgreSQL');
  try {
    await run('pg_dump', ['--version']);
  } catch {
    return ctx.skip('pg_dump is not installed');
  }
  const empty = await emptyDatabase();
  const url = empty.databaseUrl!;
  const dumpFile = join(empty.dir, 'launchlist.dump');
  try {
    let store = await openStore({ DATA_DIR: empty.dir, DATABASE_URL: url });
    await write(store.db, 'before');
    const atBackup = await dump(store.db, 'postgres');
    await run('pg_dump', ['--format=custom', '--file', dumpFile, url]); // online: the store stays open
    await write(store.db, 'after');
    await store.close();
    await run('pg_restore', ['--clean', '--if-exists', '--no-owner', '--dbname', url, dumpFile]);
    store = await openStore({ DATA_DIR: empty.dir, DATABASE_URL: url });
    try {
      assert.deepEqual(await dump(store.db, 'postgres'), atBackup);
    } finally {
      await store.close();
    }
  } finally {
    await empty.drop();
  }
});
