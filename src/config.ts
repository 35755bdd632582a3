// Environment → typed configuration. One zod schema; every key is mirrored in .env.example and the README.
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(), // e.g. https://launchlist.example; defaults to http://HOST:PORT
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(), // postgres://… → PostgreSQL; otherwise SQLite at DATA_DIR/launchlist.db
  SEED_DEMO: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  REDIS_URL: z.string().optional(),
  REDIS_KEY_PREFIX: z.string().max(100).default(''), // before every Redis key: several deployments on one Redis
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(300), // API requests (REST, MCP, OAuth) per window per client
  RATE_LIMIT_PAGES_MAX: z.coerce.number().int().min(1).default(600), // page views and form posts per window per client
  RATE_LIMIT_BADGES_MAX: z.coerce.number().int().min(1).default(3000), // badge images per window per client
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  // Which X-Forwarded-For hops to believe for the client's address (rate limits, sign-in limits):
  // false (default: the connecting address, so no client can name its own), true (any), a number of
  // proxy hops, or a comma-separated list of proxy addresses/CIDRs. Set it when behind a reverse proxy.
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v) => (v === 'true' ? true : v === 'false' || v === '' ? false : /^\d+$/.test(v) ? Number(v) : v)),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Launchlist <no-reply@launchlist.local>'),
  FETCH_ALLOW_HOSTS: list.default([]), // host[:port] exempt from the public-address rule — tests and staging only
  LLM_BASE_URL: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  LLM_API_KEY: z.string().optional(),
  SESSION_SECRET: z.string().optional(), // signs cookies; generated and kept in DATA_DIR when unset
  STRIPE_SECRET_KEY: z.string().optional(), // real payments; the built-in test provider otherwise
  WORKERS: bool.default(true), // run the job workers in this process
  PROFILE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(48), // PostgreSQL: get_listing keeps the profile texts it read, up to this size, and the database sends a text only when it changed (SQLite ignores it: its reads are local)
  PROFILE_FRESH_MS: z.coerce.number().int().min(0).max(30_000).default(1000), // PostgreSQL: a held profile the database confirmed less than this long ago is served without a round trip while this process has written nothing that could change it (0: ask every time)
  // How long anonymous visitors may share a public page or API read (ms, 0 to 1000; 0 turns the shared
  // caches off): a change shows to everyone else within this time, and at once to the person who made it.
  SHARED_CACHE_MS: z.coerce.number().int().min(0).max(1000).default(1000),
  // Development and tests: every operation's result is checked against its published response schema
  // (a field the schema does not declare, a wrong type or a missing field is a 500 naming them).
  STRICT_RESPONSES: bool.default(false),
  SEARCH_THREADS: z.coerce.number().int().min(0).max(16).default(0), // SQLite: search_listings runs in this many worker threads (0 = on the main thread, the default: the in-memory index makes a search ~0.1 ms)
  // Operations (src/ops/): Prometheus metrics at /metrics (false: none), or on a listener of their own
  // at METRICS_HOST:METRICS_PORT instead of the main port; /readyz fails when a due job has waited longer
  // than READY_MAX_JOB_LAG_S for a worker (0: the queue is not checked).
  METRICS: bool.default(true),
  // When the server goes quiet after a busy spell, one memory-reducing garbage collection gives V8's
  // pooled pages back to the system (src/ops/idle-gc.ts; false: never).
  IDLE_GC: bool.default(true),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  READY_MAX_JOB_LAG_S: z.coerce.number().int().min(0).default(600),
  // VAT numbers (services/vat-check.ts): before the reverse charge, VIES is asked whether the number is
  // registered (false: the offline format and check-digit test only); when VIES does not answer within
  // VIES_TIMEOUT_MS, VIES_FALLBACK decides: accept (the reverse charge on the offline test) or charge (VAT).
  VIES: bool.default(true),
  VIES_URL: z.url().default('https://ec.europa.eu/taxation_customs/vies/rest-api'),
  VIES_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  VIES_FALLBACK: z.enum(['accept', 'charge']).default('accept'),
  // Vote weights (domain/vote-weight.ts, README "How votes count"): each factor multiplies a vote's weight.
  VOTE_WEIGHT_UNCONFIRMED: z.coerce.number().min(0).max(1).default(0), // account's email not confirmed
  VOTE_NEW_ACCOUNT_HOURS: z.coerce.number().min(0).default(72), // an account younger than this is new…
  VOTE_WEIGHT_NEW_ACCOUNT: z.coerce.number().min(0).max(1).default(0.25), // …and its votes count this much
  VOTE_MIN_PAGE_MS: z.coerce.number().int().min(0).default(3000), // a vote sooner after the page was served is hasty…
  VOTE_WEIGHT_HASTY: z.coerce.number().min(0).max(1).default(0.5), // …and counts this much
  VOTE_WEIGHT_UNDER_REVIEW: z.coerce.number().min(0).max(1).default(0.5), // flagged by detection, until an admin decides
  // Detection (jobs/vote-detection.ts), every VOTE_SCAN_MINUTES: a burst is at least VOTE_BURST_ACCOUNTS new
  // accounts voting from one network within VOTE_BURST_WINDOW_MINUTES; a ring is at least VOTE_RING_ACCOUNTS
  // accounts that all voted for the same VOTE_RING_LISTINGS or more listings within VOTE_RING_WINDOW_DAYS.
  VOTE_SCAN_MINUTES: z.coerce.number().int().min(1).default(15),
  VOTE_BURST_ACCOUNTS: z.coerce.number().int().min(2).default(5),
  VOTE_BURST_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
  VOTE_RING_ACCOUNTS: z.coerce.number().int().min(2).default(4),
  VOTE_RING_LISTINGS: z.coerce.number().int().min(2).default(3),
  VOTE_RING_WINDOW_DAYS: z.coerce.number().int().min(1).default(14),
  // Fair first hours: for this many hours after a launch week starts (Monday 00:00 UTC), the week's page
  // and board list its launches in an order shuffled per visitor and hide vote counts (0: off).
  FAIR_START_HOURS: z.coerce.number().min(0).max(168).default(4),
});

export type Config = z.infer<typeof ConfigSchema> & { publicUrl: string };

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Record<keyof z.infer<typeof ConfigSchema>, unknown>> = {},
): Config {
  const parsed = ConfigSchema.safeParse({ ...pick(env), ...overrides });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const c = parsed.data;
  const publicUrl = (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${c.PORT}`).replace(
    /\/$/,
    '',
  );
  return { ...c, publicUrl };
}

function pick(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') out[key] = v;
  }
  return out;
}
