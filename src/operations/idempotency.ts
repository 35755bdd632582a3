// Idempotency-Key for the operations that declare it (spec 4.1), stored in the database so it holds
// across instances (DESIGN "Conventions"):
//   - keys are per person and live 24 h;
//   - a replay returns the first status and body (the REST adapter adds `Idempotent-Replayed: true`);
//   - the same key with a different request (operation + path + query + body) → 422 idempotency_key_reused;
//   - the same key while the first request is still running → 409 conflict;
//   - validation failures, auth failures and server errors are not stored: the key can be used again.
// "Exactly one effect": the first request claims the key with one INSERT on the primary key
// (principal, key); a concurrent duplicate cannot insert and never runs the handler.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../store/types.ts';
import { ApiError, type ErrorCode } from './errors.ts';
import type { SignedInPrincipal } from './principal.ts';

export interface IdempotencyRunner {
  run(
    args: { principal: SignedInPrincipal; key: string; operation: string; request: unknown },
    exec: () => Promise<{ status: number; body: unknown }>,
  ): Promise<{ status: number; body: unknown; replayed: boolean }>;
}

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** A "running" row older than this is taken to be from a crashed process and may be taken over. */
export const IDEMPOTENCY_STALE_RUNNING_MS = 10 * 60_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Error results that are real outcomes of running the operation, so a retry gets the same answer. */
const STORED_ERRORS: ReadonlySet<ErrorCode> = new Set(['not_found', 'conflict', 'forbidden']);

/** JSON with object keys sorted, so equal requests hash equally whatever the key order. */
export function canonicalJson(v: unknown): string {
  if (v === undefined) return 'null';
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(v as Record<string, unknown>)
    .filter(([, x]) => x !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
}

export function requestHash(operation: string, request: unknown): string {
  return createHash('sha256').update(canonicalJson({ operation, request })).digest('hex');
}

export interface IdempotencyOptions {
  ttlMs?: number;
  staleRunningMs?: number;
  now?: () => number;
}

export function createIdempotencyRunner(db: Kysely<DB>, opts: IdempotencyOptions = {}): IdempotencyRunner {
  const ttlMs = opts.ttlMs ?? IDEMPOTENCY_TTL_MS;
  const staleMs = opts.staleRunningMs ?? IDEMPOTENCY_STALE_RUNNING_MS;
  const now = opts.now ?? Date.now;

  return {
    async run({ principal, key, operation, request }, exec) {
      if (!KEY_PATTERN.test(key)) {
        throw new ApiError(
          'validation_failed',
          'header Idempotency-Key: must be 1 to 255 visible ASCII characters (a UUID is a good choice).',
          [{ path: 'header.Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }],
        );
      }
      const owner = `user:${principal.userId}`;
      const hash = requestHash(operation, request);

      let createdAt = '';
      for (let attempt = 0; ; attempt++) {
        const t = now();
        createdAt = new Date(t).toISOString();
        const inserted = await db
          .insertInto('idempotency_keys')
          .values({
            principal: owner,
            key,
            operation,
            request_hash: hash,
            state: 'running',
            response_status: null,
            response_body: null,
            created_at: createdAt,
            expires_at: new Date(t + ttlMs).toISOString(),
          })
          .onConflict((oc) => oc.columns(['principal', 'key']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) break; // we own the key: run below

        const row = await db
          .selectFrom('idempotency_keys')
          .selectAll()
          .where('principal', '=', owner)
          .where('key', '=', key)
          .executeTakeFirst();
        if (!row) continue; // removed in between (failed first attempt): try to claim it again
        const expired = Date.parse(row.expires_at) <= t;
        const abandoned = row.state === 'running' && Date.parse(row.created_at) <= t - staleMs;
        if ((expired || abandoned) && attempt < 3) {
          // Remove exactly the row we looked at; if someone else replaced it meanwhile, nothing happens.
          await db
            .deleteFrom('idempotency_keys')
            .where('principal', '=', owner)
            .where('key', '=', key)
            .where('created_at', '=', row.created_at)
            .where('state', '=', row.state)
            .execute();
          continue;
        }
        if (row.request_hash !== hash) {
          throw new ApiError(
            'idempotency_key_reused',
            `This Idempotency-Key was already used with a different request (${row.operation}). Use a new key for a new request; keys are kept for 24 hours.`,
            [{ path: 'header.Idempotency-Key', message: 'already used with a different request' }],
          );
        }
        if (row.state !== 'done' || row.response_status === null) {
          throw new ApiError(
            'conflict',
            'A request with this Idempotency-Key is still being processed. Retry in a moment to get its result.',
            [{ path: 'header.Idempotency-Key', message: 'the first request with this key has not finished' }],
          );
        }
        const body = row.response_body === null ? null : JSON.parse(row.response_body);
        if (row.response_status >= 400 && body?.error?.code) {
          // A stored error outcome is replayed as the same error, under this request's id.
          throw new ApiError(body.error.code, body.error.message, body.error.details, {
            'Idempotent-Replayed': 'true',
          });
        }
        return { status: row.response_status, body, replayed: true };
      }

      if (Math.random() < 0.01)
        await db.deleteFrom('idempotency_keys').where('expires_at', '<', new Date(now()).toISOString()).execute();

      // Only our own row is finished or released (a taken-over row belongs to someone else).
      const release = () =>
        db
          .deleteFrom('idempotency_keys')
          .where('principal', '=', owner)
          .where('key', '=', key)
          .where('state', '=', 'running')
          .where('created_at', '=', createdAt)
          .execute();
      const store = (status: number, body: unknown) =>
        db
          .updateTable('idempotency_keys')
          .set({ state: 'done', response_status: status, response_body: JSON.stringify(body ?? null) })
          .where('principal', '=', owner)
          .where('key', '=', key)
          .where('state', '=', 'running')
          .where('created_at', '=', createdAt)
          .execute();

      let out: { status: number; body: unknown };
      try {
        out = await exec();
      } catch (e) {
        try {
          if (e instanceof ApiError && STORED_ERRORS.has(e.code))
            await store(e.status, { error: { code: e.code, message: e.message, details: e.details } });
          else await release();
        } catch {
          /* the original error matters more */
        }
        throw e;
      }
      await store(out.status, out.body);
      return { ...out, replayed: false };
    },
  };
}
