// Admin CLI: `npm run cli -- <command> [options]`. One table of commands; each opens the configured
// database (same environment variables as the server) and prints what it did. Commands that create a
// secret print it ALONE on the last line of stdout, so scripts can take it with `tail -n 1`.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadConfig, type Config } from './config.ts';
import { openStore } from './store/index.ts';
import type { Store } from './store/connect.ts';
import { createUser, findUserByEmail, setRole, UserError } from './auth/users.ts';
import { createApiKey } from './auth/api-keys.ts';
import { parseScopes } from './auth/scopes.ts';
import { SCOPES } from './domain/scopes.ts';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}
export interface CliContext extends CliIo {
  config: Config;
  store(): Promise<Store>;
}
export type Values = Record<string, string | boolean | undefined>;

export interface Command {
  /** Words that select the command, e.g. "user create". */
  name: string;
  usage: string;
  summary: string;
  options?: ParseArgsConfig['options'];
  // biome-ignore lint/suspicious/noConfusingVoidType: a command returns its exit code, or nothing for 0
  run(ctx: CliContext, values: Values, positionals: string[]): Promise<number | void>;
}

export class CliError extends Error {}

const str = (v: Values[string]): string | undefined => (typeof v === 'string' ? v : undefined);

export const commands: Command[] = [
  {
    name: 'migrate',
    usage: 'migrate',
    summary: 'Bring the database schema up to date (the server also does this at start-up).',
    async run(ctx) {
      const store = await ctx.store();
      ctx.out(`Database is up to date (${store.engine}).`);
    },
  },
  {
    name: 'seed',
    usage: 'seed [--listings N] [--seed S]',
    summary:
      'Write the demo content into an empty database; with --listings N, add N synthetic live listings instead (benchmarks, load tests).',
    options: { listings: { type: 'string' }, seed: { type: 'string' } },
    async run(ctx, v) {
      const seed = str(v.seed) === undefined ? undefined : Number(str(v.seed));
      if (seed !== undefined && !Number.isInteger(seed)) throw new CliError('--seed must be an integer');
      if (str(v.listings) !== undefined) {
        const n = Number(str(v.listings));
        if (!Number.isInteger(n) || n < 1 || n > 10_000_000)
          throw new CliError('--listings must be a whole number from 1 to 10000000');
        const store = await ctx.store();
        const { seedSynthetic } = await import('./store/seed/synthetic.ts');
        const r = await seedSynthetic(store, n, { seed });
        ctx.out(`Added ${r.created} synthetic listings in ${(r.ms / 1000).toFixed(1)} s (${store.engine}).`);
        return;
      }
      const demo = (await import('./store/seed/index.ts')) as {
        seedDemo?: (s: Store, o?: { seed?: number; publicUrl?: string }) => Promise<object>;
      };
      if (typeof demo.seedDemo !== 'function')
        throw new CliError('the demo content is not available in this build (src/store/seed/index.ts has no seedDemo)');
      const store = await ctx.store();
      if (await store.db.selectFrom('categories').select('id').limit(1).executeTakeFirst()) {
        ctx.out('The database already has content; the demo is only written into an empty database. Nothing done.');
        return;
      }
      const report = await demo.seedDemo(store, { seed, publicUrl: ctx.config.publicUrl });
      ctx.out(
        `Demo content written: ${Object.entries(report)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}.`,
      );
    },
  },
  {
    name: 'user create',
    usage: 'user create --email E [--password P] [--name N] [--admin]',
    summary:
      'Create a person (a site admin with --admin). Without --password they set one with "Forgot your password?".',
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      admin: { type: 'boolean' },
    },
    async run(ctx, v) {
      const email = str(v.email);
      if (!email) throw new CliError('--email is required');
      const store = await ctx.store();
      try {
        const user = await createUser(store.db, {
          email,
          password: str(v.password) ?? null,
          name: str(v.name),
          role: v.admin ? 'admin' : 'user',
          emailVerified: true,
        });
        ctx.out(`Created ${user.role === 'admin' ? 'admin' : 'user'} ${user.id} <${user.email}>.`);
        if (!str(v.password))
          ctx.out('No password set: they can choose one with "Forgot your password?" on the sign-in page.');
      } catch (e) {
        if (e instanceof UserError && /already exists/.test(e.message) && v.admin) {
          const existing = (await findUserByEmail(store.db, email))!;
          await setRole(store.db, existing.id, 'admin');
          ctx.out(`User ${existing.id} <${existing.email}> already existed; made them a site admin.`);
          return;
        }
        if (e instanceof UserError) throw new CliError(e.message);
        throw e;
      }
    },
  },
  {
    name: 'api-key create',
    usage: `api-key create --email E --scopes ${SCOPES.join(',')} [--name N]`,
    summary: 'Create an API key for a person; prints the key alone on the last line (it is shown once).',
    options: { email: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' } },
    async run(ctx, v) {
      const email = str(v.email);
      if (!email) throw new CliError('--email is required');
      const { scopes, unknown } = parseScopes(str(v.scopes) ?? '');
      if (unknown.length) throw new CliError(`unknown scope ${unknown.join(', ')}; use any of ${SCOPES.join(', ')}`);
      if (!scopes.length) throw new CliError(`--scopes is required: a comma-separated list of ${SCOPES.join(', ')}`);
      const name = (str(v.name) ?? 'CLI key').trim().slice(0, 100) || 'CLI key';
      const store = await ctx.store();
      const user = await findUserByEmail(store.db, email);
      if (!user) throw new CliError(`no user with the email ${email} (create one with: user create --email ${email})`);
      const key = await createApiKey(store.db, user.id, name, scopes);
      ctx.out(
        `Created API key "${name}" (${key.prefix}) for ${user.email} with scopes ${key.scopes.join(', ')}. It is shown once:`,
      );
      ctx.out(key.key);
    },
  },
  {
    name: 'votes reweigh',
    usage: 'votes reweigh',
    summary:
      'Weigh every vote again with the current VOTE_WEIGHT_* settings (a vote keeps the weight it was cast with until then) and recount the rankings; review decisions stay.',
    async run(ctx) {
      const store = await ctx.store();
      const { reweighAllVotes } = await import('./store/repos/votes.ts');
      const { voteWeightsOf } = await import('./services/vote-context.ts');
      const changed = await reweighAllVotes(store.db, store.engine, voteWeightsOf(ctx.config));
      ctx.out(`Votes weighed again with the current settings: ${changed} changed weight.`);
    },
  },
  {
    name: 'backup',
    usage: 'backup --to FILE',
    summary:
      "SQLite: an online backup of the database into a new FILE (SQLite's backup API; the server may keep running), checked for integrity. PostgreSQL: use pg_dump (README, Backups).",
    options: { to: { type: 'string' } },
    async run(ctx, v) {
      const to = str(v.to);
      if (!to) throw new CliError('--to FILE is required (a new file; it is never overwritten)');
      if (isPostgres(ctx.config)) throw new CliError(PG_RECIPE);
      const { backupSqlite } = await import('./ops/backup.ts');
      try {
        const r = await backupSqlite(sqliteFile(ctx.config), to);
        ctx.out(`Backed up ${sqliteFile(ctx.config)} to ${r.file}: ${r.pages} pages, ${r.bytes} bytes, ${r.ms} ms.`);
      } catch (e) {
        throw new CliError((e as Error).message);
      }
    },
  },
  {
    name: 'restore',
    usage: 'restore --from FILE --yes',
    summary:
      'SQLite: replace the database with a backup (stop the server first); the replaced file is kept beside it. PostgreSQL: use pg_restore (README, Backups).',
    options: { from: { type: 'string' }, yes: { type: 'boolean' } },
    async run(ctx, v) {
      const from = str(v.from);
      if (!from) throw new CliError('--from FILE is required');
      if (isPostgres(ctx.config)) throw new CliError(PG_RECIPE);
      if (!v.yes)
        throw new CliError(
          `this replaces ${sqliteFile(ctx.config)} with ${from}; stop the server, then run it again with --yes`,
        );
      const { restoreSqlite } = await import('./ops/backup.ts');
      try {
        const r = await restoreSqlite(from, sqliteFile(ctx.config));
        ctx.out(`Restored ${from} into ${r.file}: ${r.pages} pages, ${r.bytes} bytes, ${r.ms} ms.`);
        if (r.previous) ctx.out(`The database it replaced is kept at ${r.previous}.`);
      } catch (e) {
        throw new CliError((e as Error).message);
      }
    },
  },
  {
    name: 'awards rotate-key',
    usage: 'awards rotate-key',
    summary:
      'Retire the Ed25519 key that signs Launch of the Week awards and make a new one (old public keys stay published at /.well-known/award-keys.json).',
    async run(ctx) {
      const store = await ctx.store();
      const { rotateSigningKey } = await import('./store/repos/award-keys.ts');
      const kid = await rotateSigningKey(store.db);
      ctx.out(`New award signing key ${kid}; earlier keys are retired and stay published.`);
    },
  },
];

const isPostgres = (c: Config) => Boolean(c.DATABASE_URL && /^postgres(ql)?:\/\//.test(c.DATABASE_URL));
const sqliteFile = (c: Config) => join(c.DATA_DIR, 'launchlist.db');
const PG_RECIPE =
  'DATABASE_URL is PostgreSQL: back up with  pg_dump --format=custom --file launchlist.dump "$DATABASE_URL"  and restore with  pg_restore --clean --if-exists --no-owner --dbname "$DATABASE_URL" launchlist.dump  (README, Backups)';

export function help(): string {
  return [
    'Usage: npm run cli -- <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.usage}\n      ${c.summary}`),
  ].join('\n');
}

/** Runs one command line; returns the exit code. */
export async function runCli(
  argv: string[],
  io: CliIo = { out: (l) => process.stdout.write(l + '\n'), err: (l) => process.stderr.write(l + '\n') },
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const words = argv.filter((a) => !a.startsWith('-'));
  const cmd = commands
    .filter((c) => c.name.split(' ').every((w, i) => words[i] === w))
    .sort((a, b) => b.name.split(' ').length - a.name.split(' ').length)[0];
  if (!cmd || argv.includes('--help') || argv.includes('-h')) {
    (cmd || argv.length === 0 || argv.includes('--help') ? io.out : io.err)(
      cmd ? `Usage: npm run cli -- ${cmd.usage}\n${cmd.summary}` : help(),
    );
    return cmd || argv.length === 0 || argv.includes('--help') ? 0 : 2;
  }
  const rest = argv.slice(argv.indexOf(cmd.name.split(' ').at(-1)!) + 1);
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: cmd.options ?? {}, allowPositionals: true, strict: true }) as {
      values: Values;
      positionals: string[];
    };
  } catch (e) {
    io.err(`${(e as Error).message}\nUsage: npm run cli -- ${cmd.usage}`);
    return 2;
  }
  const config = loadConfig(env, { LOG_LEVEL: 'silent' });
  let store: Store | undefined;
  const ctx: CliContext = { ...io, config, store: async () => (store ??= await openStore(config)) };
  try {
    return (await cmd.run(ctx, parsed.values, parsed.positionals)) ?? 0;
  } catch (e) {
    if (e instanceof CliError) {
      io.err(`Error: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await store?.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await runCli(process.argv.slice(2));
}
