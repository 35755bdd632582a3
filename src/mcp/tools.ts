// Registry → MCP tool definitions. Every tool is derived from one operation (name, description,
// schemas, annotations); nothing about an operation is written a second time here.
import type { Operation } from '../operations/define.ts';
import { ApiError } from '../operations/errors.ts';
import { jsonSchema, type Json } from '../operations/json-schema.ts';

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: Json & { type: 'object' };
  outputSchema?: Json & { type: 'object' };
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/** The argument that carries REST's Idempotency-Key header. */
export const IDEMPOTENCY_ARG = 'idempotency_key';
const IDEMPOTENCY_KEY_MAX = 255;

/** Rules for callers (spec part 1), attached to the tools they concern and repeated in the server instructions. */
export const CALLER_RULES = {
  checkout:
    'A checkout_url must be handed to the person, who reviews the order and pays on our page themselves; never ask for card or payment details (the API never takes them).',
  prices:
    'Prices are set by the site admin, in USD cents excluding VAT; never hard-code them: read them from list_products or quote_order each time.',
  votes: 'Votes cannot be cast through the API or MCP: they come only from people on the website. Never offer to vote.',
  billboard:
    'The billboard is a PAID ranking by money contributed: always present it as paid, never as votes or merit.',
} as const;

function rulesFor(op: Operation): string[] {
  const text = op.description;
  const rules: string[] = [];
  const orders = op.tags.includes('Orders');
  if ((orders || /checkout/i.test(text)) && !/never ask for card/i.test(text)) rules.push(CALLER_RULES.checkout);
  if (orders && !/hard-?code/i.test(text)) rules.push(CALLER_RULES.prices);
  if (
    /vot/i.test(text) ||
    op.tags.includes('Launches') ||
    op.tags.includes('Leaderboards') ||
    op.tags.includes('Awards') ||
    op.name === 'search_listings' ||
    op.name === 'get_listing'
  )
    rules.push(CALLER_RULES.votes);
  if ((orders || /billboard/i.test(text)) && !/always present it as paid/i.test(text))
    rules.push(CALLER_RULES.billboard);
  return rules;
}

export function toolDescription(op: Operation): string {
  const parts = [op.description];
  parts.push(
    op.access === 'public'
      ? 'Public: works without signing in.'
      : `Needs sign-in with the scope ${op.access} (the MCP client opens our sign-in page in the browser; an API key sent as a bearer token also works).`,
  );
  if (op.idempotencyKey)
    parts.push(
      `Pass a unique \`${IDEMPOTENCY_ARG}\` to make retries safe: a retry with the same key within 24 hours returns the first result instead of acting twice.`,
    );
  parts.push(...rulesFor(op));
  return parts.join(' ');
}

export function toolDefinition(op: Operation): ToolDefinition {
  const input = jsonSchema(op.input, 'input') as Json & { type: 'object'; properties?: Json };
  if (op.idempotencyKey) {
    input.properties = {
      ...(input.properties ?? {}),
      [IDEMPOTENCY_ARG]: {
        type: 'string',
        minLength: 1,
        maxLength: IDEMPOTENCY_KEY_MAX,
        description:
          'Makes retries safe (REST: the Idempotency-Key header). The same key with a different request is refused (idempotency_key_reused).',
      },
    };
  }
  const output = jsonSchema(op.response, 'output');
  const readOnly = op.method === 'GET' || op.readOnly === true;
  return {
    name: op.name,
    title: op.summary,
    description: toolDescription(op),
    inputSchema: input,
    // MCP requires an object root; every response of the registry is one, a non-object would simply go undeclared.
    ...(output.type === 'object' ? { outputSchema: output as Json & { type: 'object' } } : {}),
    annotations: {
      title: op.summary,
      readOnlyHint: readOnly,
      destructiveHint: op.method === 'DELETE',
      idempotentHint: readOnly || op.method === 'PUT' || op.method === 'DELETE',
      openWorldHint: op.openWorld === true,
    },
  };
}

/** The 41 tools, in registry order. */
export function toolDefinitions(ops: readonly Operation[]): ToolDefinition[] {
  return ops.map(toolDefinition);
}

function shapeKeys(s: Operation['params']): Set<string> {
  return new Set(Object.keys(s?.shape ?? {}));
}

export interface SplitArguments {
  raw: { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: Record<string, unknown> };
  idempotencyKey?: string;
}

/**
 * Splits a tool's merged arguments back into path, query and body by the operation's own schema
 * shapes, so runOperation() validates them exactly as REST does. Unknown arguments are refused.
 */
export function splitArguments(op: Operation, args: Record<string, unknown> | undefined): SplitArguments {
  const rest: Record<string, unknown> = { ...(args ?? {}) };
  let idempotencyKey: string | undefined;
  if (IDEMPOTENCY_ARG in rest) {
    const key = rest[IDEMPOTENCY_ARG];
    delete rest[IDEMPOTENCY_ARG];
    if (!op.idempotencyKey)
      throw refuse(
        IDEMPOTENCY_ARG,
        `${op.name} takes no ${IDEMPOTENCY_ARG} (it is ${op.method === 'GET' ? 'read-only' : 'not retry-protected'})`,
      );
    if (typeof key !== 'string' || key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX)
      throw refuse(IDEMPOTENCY_ARG, `must be a string of 1 to ${IDEMPOTENCY_KEY_MAX} characters`);
    idempotencyKey = key;
  }
  const params = shapeKeys(op.params),
    query = shapeKeys(op.query),
    body = shapeKeys(op.body);
  const raw: SplitArguments['raw'] = {};
  if (op.params) raw.params = {};
  if (op.query) raw.query = {};
  const bodyPart: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    if (params.has(k)) raw.params![k] = v;
    else if (query.has(k)) raw.query![k] = v;
    else if (body.has(k) || op.body)
      bodyPart[k] = v; // an unknown key in a body is refused by the strict body schema, naming it
    else
      throw refuse(
        k,
        `unknown argument: ${op.name} accepts ${[...params, ...query].map((n) => JSON.stringify(n)).join(', ') || 'no arguments'}`,
      );
  }
  if (op.body) {
    // An empty optional body is "no body", as in REST; a required body is validated field by field.
    raw.body = Object.keys(bodyPart).length || !op.bodyOptional ? bodyPart : undefined;
  }
  return { raw, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) };
}

function refuse(path: string, message: string): ApiError {
  return new ApiError('validation_failed', `Invalid request — ${path}: ${message}.`, [{ path, message }]);
}
