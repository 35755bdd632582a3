// Tool schemas are JSON Schema 2020-12, MCP's default dialect (SEP-1613; SEP-2106 admits its full
// vocabulary): every inputSchema and outputSchema Launchlist lists is a valid 2020-12 schema (checked
// against the 2020-12 meta-schema with the engine of the official client's validator), uses only 2020-12
// keywords (no draft-07 leftovers such as `definitions`, `dependencies`, array-form `items` or boolean
// `exclusiveMinimum`, and no misspelt keyword a validator would silently ignore), declares no other
// dialect, compiles, and reaches the client exactly as generated — no keyword stripped — in every era.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { operations } from '../../src/operations/index.ts';
import { toolDefinitions } from '../../src/mcp/tools.ts';
import { liveApp, rpc, rpcMessage, type Live } from './support.ts';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const validator = new AjvJsonSchemaValidator();
// The validator's 2020-12 engine already holds the dialect's meta-schema under its $id: asking for that
// $id returns the meta-schema's own validator.
const metaSchema = validator.getValidator({ $id: DIALECT } as never);

type Json = Record<string, unknown>;

/** The 2020-12 vocabularies (core, applicator, unevaluated, validation, meta-data, format-annotation, content). */
const KEYWORDS = new Set([
  '$schema',
  '$id',
  '$ref',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$vocabulary',
  '$comment',
  '$defs',
  'prefixItems',
  'items',
  'contains',
  'additionalProperties',
  'properties',
  'patternProperties',
  'dependentSchemas',
  'propertyNames',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'unevaluatedItems',
  'unevaluatedProperties',
  'type',
  'const',
  'enum',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'format',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SCHEMA_LISTS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const SCHEMA_ONE = [
  'items',
  'contains',
  'additionalProperties',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];

/** Problems of one schema as a 2020-12 document: meta-schema errors, then keywords outside the vocabularies. */
function problems(schema: unknown): string[] {
  const out: string[] = [];
  const meta = metaSchema(schema);
  if (!meta.valid) out.push(`not valid against the 2020-12 meta-schema: ${meta.errorMessage}`);
  const walk = (node: unknown, at: string) => {
    if (typeof node === 'boolean') return;
    if (!node || typeof node !== 'object' || Array.isArray(node)) {
      out.push(`${at}: a schema must be an object or a boolean`);
      return;
    }
    for (const [k, v] of Object.entries(node as Json)) {
      if (!KEYWORDS.has(k)) out.push(`${at}: "${k}" is not a JSON Schema 2020-12 keyword`);
      if (SCHEMA_MAPS.includes(k) && v && typeof v === 'object')
        for (const [name, sub] of Object.entries(v as Json)) walk(sub, `${at}/${k}/${name}`);
      if (SCHEMA_LISTS.includes(k) && Array.isArray(v)) v.forEach((sub, i) => walk(sub, `${at}/${k}/${i}`));
      if (SCHEMA_ONE.includes(k)) walk(v, `${at}/${k}`);
    }
  };
  walk(schema, '#');
  const declared = (schema as Json)?.$schema;
  if (declared !== undefined && declared !== DIALECT) out.push(`declares another dialect: ${String(declared)}`);
  try {
    validator.getValidator(schema as never);
  } catch (e) {
    out.push(`does not compile: ${(e as Error).message}`);
  }
  return out;
}

describe('the checker itself', () => {
  test('refuses what is not 2020-12', () => {
    assert.deepEqual(
      problems({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }),
      [],
    );
    assert.match(problems({ type: 'object', properties: { a: { type: 'strin' } } }).join(), /meta-schema/);
    assert.match(
      problems({ type: 'array', items: [{ type: 'string' }] }).join(),
      /meta-schema/,
      'draft-07 array-form items',
    );
    assert.match(
      problems({ type: 'number', exclusiveMinimum: true, minimum: 0 }).join(),
      /meta-schema/,
      'draft-04 boolean exclusiveMinimum',
    );
    assert.match(
      problems({ type: 'object', definitions: { a: {} } }).join(),
      /"definitions" is not/,
      'draft-07 definitions',
    );
    assert.match(
      problems({ type: 'object', properties: { a: { type: 'string', minLenght: 1 } } }).join(),
      /#\/properties\/a: "minLenght" is not/,
    );
    assert.match(
      problems({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }).join(),
      /another dialect/,
    );
  });
});

describe('tool schemas', () => {
  const defs = toolDefinitions(operations);

  test('every input and output schema of the 50 tools is a valid JSON Schema 2020-12 document', () => {
    assert.equal(defs.length, 50);
    const found: string[] = [];
    for (const d of defs) {
      assert.ok(d.outputSchema, `${d.name} declares its output`);
      for (const [which, s] of [
        ['inputSchema', d.inputSchema],
        ['outputSchema', d.outputSchema],
      ] as const) {
        for (const p of problems(s)) found.push(`${d.name}.${which}: ${p}`);
      }
    }
    assert.deepEqual(found, []);
  });

  test('input schemas accept what REST accepts and refuse unknown arguments, as 2020-12 reads them', () => {
    const add = validator.getValidator(defs.find((d) => d.name === 'add_milestone')!.inputSchema);
    assert.equal(add({ listing_id: 1, date: '2026-02-01', title: 'Public beta' }).valid, true);
    assert.equal(
      add({ listing_id: 1, date: '2026-02-01', title: 'Public beta', colour: 'red' }).valid,
      false,
      'additionalProperties: false',
    );
    assert.equal(add({ listing_id: 1, date: '2026-02-01' }).valid, false, 'title is required');
    const submit = validator.getValidator(defs.find((d) => d.name === 'submit_listing')!.inputSchema);
    assert.equal(submit({ url: 'https://example.com', idempotency_key: 'k1' }).valid, true);
    assert.equal(
      submit({ url: 'https://example.com', idempotency_key: '' }).valid,
      false,
      'idempotency_key has a minimum length',
    );
  });
});

describe('on the wire', () => {
  let t: Live;
  before(async () => {
    t = await liveApp();
  });
  after(async () => {
    await t.cleanup();
  });

  const expected = toolDefinitions(operations).map((d) => ({
    name: d.name,
    inputSchema: d.inputSchema,
    outputSchema: d.outputSchema,
  }));
  const listings: Array<[string, () => Promise<Response>]> = [
    [
      '2026-07-28',
      () =>
        rpc(
          t.url,
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/list',
            params: {
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientInfo': { name: 'schema-tests', version: '1' },
                'io.modelcontextprotocol/clientCapabilities': {},
              },
            },
          },
          { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
        ),
    ],
    [
      '2025-11-25',
      () =>
        rpc(
          t.url,
          { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
          { 'mcp-protocol-version': '2025-11-25' },
        ),
    ],
    [
      '2025-06-18',
      () =>
        rpc(
          t.url,
          { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
          { 'mcp-protocol-version': '2025-06-18' },
        ),
    ],
    [
      '2025-03-26',
      () =>
        rpc(
          t.url,
          { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
          { 'mcp-protocol-version': '2025-03-26' },
        ),
    ],
  ];
  for (const [era, list] of listings) {
    test(`${era}: tools/list carries every schema exactly as generated, nothing stripped`, async () => {
      const r = await list();
      assert.equal(r.status, 200);
      const { result } = await rpcMessage(r);
      const got = (result.tools as Json[]).map((x) => ({
        name: x.name,
        inputSchema: x.inputSchema,
        outputSchema: x.outputSchema,
      }));
      assert.deepEqual(got, expected);
    });
  }
});
