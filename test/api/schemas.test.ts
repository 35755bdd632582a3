// Every operation declares its result field by field: a strict response schema (a field it does not
// name is refused), described, with an example that matches it. The tests' STRICT_RESPONSES check
// holds every result they see to the same schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { operations } from '../../src/operations/index.ts';
import { jsonSchema } from '../../src/operations/json-schema.ts';

type Schema = { type?: string; properties?: Record<string, Schema>; additionalProperties?: unknown; items?: Schema };

/** Every object in a JSON Schema, with its path. */
function objects(s: Schema, at: string, out: Array<[string, Schema]> = []): Array<[string, Schema]> {
  if (!s || typeof s !== 'object') return out;
  if (s.type === 'object' && s.properties) out.push([at, s]);
  for (const [k, v] of Object.entries(s.properties ?? {})) objects(v, `${at}.${k}`, out);
  if (s.items) objects(s.items, `${at}[]`, out);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const [i, v] of ((s as Record<string, Schema[]>)[key] ?? []).entries()) objects(v, `${at}|${i}`, out);
  return out;
}

test('every operation has an example response that matches its schema exactly', () => {
  const missing = operations.filter((op) => op.examples?.response === undefined).map((op) => op.name);
  assert.deepEqual(missing, [], 'operations without an example response');
  for (const op of operations) {
    const r = op.response.safeParse(op.examples!.response);
    assert.ok(r.success, `${op.name}: ${r.success ? '' : JSON.stringify(r.error.issues.slice(0, 3))}`);
  }
});

test('every response object names its fields and refuses others (no open objects)', () => {
  for (const op of operations) {
    const root = jsonSchema(op.response, 'output') as Schema;
    assert.equal(root.type, 'object', `${op.name}: the result is an object`);
    const all = objects(root, op.name);
    assert.ok(all.length > 0, `${op.name}: the result declares its fields`);
    for (const [at, o] of all) assert.equal(o.additionalProperties, false, `${at}: additionalProperties is false`);
  }
});

test('a result with a field the schema does not declare fails the strict check', () => {
  const search = operations.find((op) => op.name === 'get_site_info')!;
  const extra = { ...(search.examples!.response as object), internal_id: 7 };
  assert.equal(search.response.safeParse(extra).success, false);
});
