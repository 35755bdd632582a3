// defineOperation(): the one shape every operation has. REST routes, MCP tools and the OpenAPI
// document are all generated from these values; nothing about an operation is written twice.
import type { RawJson } from './raw-json.ts';
import { z } from 'zod';
import type { Ctx, Scope } from './context.ts';

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
  response: R;
  status: 200 | 201;
  idempotencyKey: boolean;
  paginated: boolean;
  /** Reaches outside the service (crawls a site, sends mail): MCP openWorldHint. */
  openWorld?: boolean;
  /** Issue that will implement it, while the handler answers 501. */
  pending?: string;
  tags: string[];
  examples?: { request?: unknown; response?: unknown };
  /** The response value, or the same as JSON text already built (RawJson: REST sends it as it is). */
  handler: (ctx: Ctx, input: Out<P> & Out<Q> & Out<B>) => Promise<z.input<R> | RawJson>;
}

export type Operation = OperationSpec<
  AnyObject | undefined,
  AnyObject | undefined,
  AnyObject | undefined,
  z.ZodType
> & {
  /** params + query + body merged (the MCP tool's input). */
  input: AnyObject;
};

export function defineOperation<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends AnyObject | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(spec: OperationSpec<P, Q, B, R>): Operation {
  const shape = { ...(spec.params?.shape ?? {}), ...(spec.query?.shape ?? {}), ...(spec.body?.shape ?? {}) };
  const input = z.strictObject(shape);
  return { ...(spec as unknown as Operation), input };
}
