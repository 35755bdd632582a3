// The kernel: the one way an operation runs, whoever calls it. REST (http/rest.ts), MCP (mcp/) and
// the website (web/) are adapters that turn their request into `raw` parts and a principal, call
// invoke(), and render what comes back; none of them validates, checks access or handles
// Idempotency-Key on its own.
//
//   invoke(kernel, op, principal, raw, { requestId, idempotencyKey?, challenge? })
//     1. access: the operation's declared scope (401 without a valid credential, 403 without the scope)
//     2. idempotency: with a key on an operation that takes one, the first answer is replayed
//     3. input: path, query and body validated by the operation's schemas (400 naming each field)
//     4. the handler
//     5. STRICT_RESPONSES (the tests): the result validated against the operation's response schema
//   A public read with `cacheMs` is answered from the shared result cache for anonymous callers
//   (result-cache.ts): at most that old, never personal.
import type { Config } from '../config.ts';
import type { Store } from '../store/connect.ts';
import { enforceAccess, type Challenge } from './access.ts';
import type { Ctx, Services } from './context.ts';
import type { Operation, ResultOf } from './define.ts';
import { ApiError, validationError } from './errors.ts';
import type { IdempotencyRunner } from './idempotency.ts';
import type { Principal } from './principal.ts';
import { RawJson } from './raw-json.ts';
import { checkIntegerText, issuesToDetails, parseOrThrow, refuseNul } from './validation.ts';

/** What the kernel needs of a server. */
export interface Kernel {
  store: Store;
  config: Config;
  services: Services;
  idempotency: IdempotencyRunner;
}

/** The unvalidated parts of a request: path parameters, query, body. */
export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

export interface Invocation {
  requestId: string;
  /** REST's Idempotency-Key header, MCP's idempotency_key argument. */
  idempotencyKey?: string;
  /** The WWW-Authenticate challenge of the surface (REST and MCP name different resources). */
  challenge?: Challenge;
  /** Read afresh, past the shared result cache (the website, for a person who has just written). */
  fresh?: boolean;
}

export interface Outcome<T> {
  status: number;
  /** The result; a GET may answer JSON text already built (RawJson), which REST sends as it is. */
  body: T | RawJson;
  /** True when an Idempotency-Key replayed the first answer. */
  replayed: boolean;
}

const plainChallenge: Challenge = () => 'Bearer';

export function contextOf(k: Kernel, principal: Principal, requestId: string, fresh?: boolean, sharedMs?: number): Ctx {
  return {
    db: k.store.db,
    engine: k.store.engine,
    config: k.config,
    principal,
    requestId,
    services: k.services,
    now: () => new Date(),
    ...(fresh ? { fresh } : {}),
    ...(sharedMs ? { sharedMs } : {}),
  };
}

/** Runs one operation for one caller. Errors are thrown as ApiError (anything else is a 500). */
export async function invoke<O extends Operation>(
  k: Kernel,
  op: O,
  principal: Principal,
  raw: RawInput,
  how: Invocation,
): Promise<Outcome<ResultOf<O>>> {
  enforceAccess(op.access, principal, how.challenge ?? plainChallenge);
  // A public read anonymous callers share for a moment (the operation's cacheMs): one read serves them all.
  const results = k.services.results;
  const ttl = Math.min(op.cacheMs ?? 0, k.config.SHARED_CACHE_MS);
  const sharedMs = ttl > 0 && results && principal.kind === 'anonymous' && !how.fresh ? ttl : 0;
  const run = async (): Promise<ResultOf<O> | RawJson> => {
    const input = inputOf(op, raw);
    const ctx = contextOf(k, principal, how.requestId, how.fresh, sharedMs);
    const result = await op.handler(ctx, input as never);
    if (k.config.STRICT_RESPONSES) checkResult(op, result);
    return result as ResultOf<O> | RawJson;
  };
  if (sharedMs > 0 && results) {
    const key = `${op.name} ${JSON.stringify(stringValues(raw.params))} ${JSON.stringify(stringValues(raw.query))}`;
    return { status: op.status, body: await results.get(key, sharedMs, run), replayed: false };
  }
  if (op.idempotencyKey && how.idempotencyKey !== undefined && principal.kind === 'user') {
    // The stored request holds path and query values as the strings a URL carries, so a key reused
    // across REST and MCP is judged on the same request.
    const request = { params: stringValues(raw.params), query: stringValues(raw.query), body: raw.body ?? null };
    const out = await k.idempotency.run(
      { principal, key: how.idempotencyKey, operation: op.name, request },
      async () => ({ status: op.status, body: await run() }),
    );
    return { status: out.status, body: out.body as ResultOf<O>, replayed: out.replayed };
  }
  return { status: op.status, body: await run(), replayed: false };
}

/** invoke(), for callers that want the value itself (MCP, the website). */
export async function call<O extends Operation>(
  k: Kernel,
  op: O,
  principal: Principal,
  raw: RawInput,
  how: Invocation,
): Promise<ResultOf<O>> {
  return resultValue((await invoke(k, op, principal, raw, how)).body);
}

/** A result as a value (JSON text already built is parsed). */
export function resultValue<T>(body: T | RawJson): T {
  return body instanceof RawJson ? (body.value() as T) : body;
}

/** Validates path, query and body by the operation's schemas and merges them into the handler's input. */
function inputOf(op: Operation, raw: RawInput): Record<string, unknown> {
  refuseNul({ path: raw.params, query: raw.query, body: raw.body });
  const input: Record<string, unknown> = {};
  if (op.params) {
    checkIntegerText(op.params, raw.params, 'path');
    Object.assign(input, parseOrThrow(op.params, raw.params ?? {}, 'path'));
  }
  if (op.query) {
    checkIntegerText(op.query, raw.query, 'query');
    Object.assign(input, parseOrThrow(op.query, raw.query ?? {}, 'query'));
  }
  if (op.body) {
    const body = raw.body === undefined || raw.body === null ? (op.bodyOptional ? {} : undefined) : raw.body;
    if (body === undefined) throw validationError([{ path: 'body', message: 'is required (a JSON object)' }]);
    Object.assign(input, parseOrThrow(op.body, body, 'body'));
  } else if (
    raw.body !== undefined &&
    raw.body !== null &&
    !(typeof raw.body === 'object' && Object.keys(raw.body as object).length === 0)
  ) {
    throw validationError([{ path: 'body', message: 'this operation takes no body' }]);
  }
  return input;
}

/**
 * STRICT_RESPONSES: the result, as it goes out in JSON, must match the operation's response schema
 * exactly (response objects are strict: a field the schema does not declare is a failure). A
 * mismatch is a 500 that names the operation and the fields, so the test that met it fails.
 */
function checkResult(op: Operation, result: unknown): void {
  const sent = result instanceof RawJson ? result.value() : JSON.parse(JSON.stringify(result ?? null));
  const r = op.response.safeParse(sent);
  if (r.success) return;
  const details = issuesToDetails('response', r.error.issues).slice(0, 10);
  throw new ApiError(
    'internal',
    `The result of ${op.name} does not match its response schema: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}.`,
    details,
  );
}

function stringValues(o: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries((o ?? {}) as Record<string, unknown>))
    out[k] = v === null || typeof v === 'object' ? v : String(v);
  return out;
}
