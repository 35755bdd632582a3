// zod → JSON Schema 2020-12, shared by the OpenAPI document and the MCP tool definitions so that both
// describe an operation identically.
import { z } from 'zod';

export type Json = Record<string, unknown>;

export function jsonSchema(s: z.ZodType, io: 'input' | 'output'): Json {
  const j = z.toJSONSchema(s, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    // A plain z.object() does not forbid unknown keys (zod strips them when parsing), and REST sends a
    // handler's result as it is: the output schema says what is really sent, so only strict objects
    // (z.strictObject) keep additionalProperties: false. Clients validate responses against it.
    override:
      io === 'output'
        ? (ctx) => {
            const def = (ctx.zodSchema as unknown as { _zod: { def: { type: string; catchall?: unknown } } })._zod.def;
            if (def.type === 'object' && def.catchall === undefined && ctx.jsonSchema.additionalProperties === false)
              delete ctx.jsonSchema.additionalProperties;
          }
        : undefined,
  }) as Json;
  // No $schema: OpenAPI 3.1 and MCP (SEP-1613) both read a schema that declares none as JSON Schema 2020-12
  // (test/mcp/json-schema.test.ts checks them against the 2020-12 meta-schema).
  delete j.$schema;
  return j;
}
