// defineOperation(): the one shape every operation has. REST routes, MCP tools and the OpenAPI
// document are all generated from these values, and the kernel (kernel.ts) runs them; nothing about
// an operation is written twice.
import { z } from 'zod';
import type { Scope } from '../domain/scopes.ts';
import type { Ctx } from './context.ts';
import type { RawJson } from './raw-json.ts';

export type Access = 'public' | Scope;
export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

type AnyObject = z.ZodObject<z.ZodRawShape>;
type Out<S> = S extends z.ZodType ? z.output<S> : unknown;

export interface OperationSpec<
  P extends AnyObject | undefined,
  Q extends AnyObject | undefined,
  B extends AnyObject | undefined,
  R extends z.ZodType,
> {
  /** operationId = MCP tool name = the spec's name. */
  name: string;
  method: Method;
  /** Path relative to /api/v1, with {param} placeholders. */
  path: string;
  access: Access;
  summary: string;
  /** Written for people and models alike: what it does, when to use it, what it returns, rules for callers. */
  description: string;
  params?: P;
  query?: Q;
  body?: B;
  /** True when the body may be omitted entirely (spec: "Body optional"). */
  bodyOptional?: boolean;
  /** The result: every field named, typed and described (OpenAPI response, MCP outputSchema, typed callers). */
  response: R;
  status: 200 | 201;
  idempotencyKey: boolean;
  paginated: boolean;
  /** Reaches outside the service (crawls a site, sends mail): MCP openWorldHint. */
  openWorld?: boolean;
  /** Saves nothing although it is not a GET (MCP readOnlyHint, idempotentHint). */
  readOnly?: boolean;
  /**
   * A public read whose result anonymous callers may share for this long (ms, at most 1000: the
   * freshness bound): answered from the shared result cache (result-cache.ts). Signed-in callers always
   * read afresh.
   */
  cacheMs?: number;
  tags: string[];
  /**
   * A realistic response (checked against `response` by the tests; the OpenAPI document shows it), and a
   * request body where there is one. Required: a generated client's users and a model read it.
   */
  examples: { response: z.input<R>; request?: unknown };
  /** The response value, or the same as JSON text already built (RawJson: REST sends it as it is). */
  handler: (ctx: Ctx, input: Out<P> & Out<Q> & Out<B>) => Promise<z.input<R> | RawJson>;
}

/** An operation as the registry and the adapters hold it; `R` keeps its result type for typed callers. */
export interface Operation<R extends z.ZodType = z.ZodType>
  extends Omit<
    OperationSpec<AnyObject | undefined, AnyObject | undefined, AnyObject | undefined, R>,
    'handler' | 'examples'
  > {
  /** params + query + body merged (the MCP tool's input). */
  input: AnyObject;
  examples: { response: unknown; request?: unknown };
  handler: (ctx: Ctx, input: never) => Promise<unknown>;
}

/** What an operation answers (its response schema's output type). */
export type ResultOf<O extends Operation> = z.output<O['response']>;

export function defineOperation<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends AnyObject | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(spec: OperationSpec<P, Q, B, R>): Operation<R> {
  const shape = { ...(spec.params?.shape ?? {}), ...(spec.query?.shape ?? {}), ...(spec.body?.shape ?? {}) };
  return { ...(spec as unknown as Operation<R>), input: z.strictObject(shape) };
}
