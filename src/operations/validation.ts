// Input validation shared by every surface: zod issues → the 400 error body naming the field and the
// rule, integers written in digits, no NUL characters.
import type { z } from 'zod';
import { type ErrorDetail, validationError } from './errors.ts';
import { jsonSchema } from './json-schema.ts';

export function issuesToDetails(where: string, issues: readonly z.core.$ZodIssue[]): ErrorDetail[] {
  return issues.map((i) => {
    const path = [where, ...i.path.map(String)].filter(Boolean).join('.');
    let message = i.message;
    if (i.code === 'unrecognized_keys')
      message = `unknown field(s) ${i.keys.map((k) => JSON.stringify(k)).join(', ')}: additional properties are not accepted`;
    else if (i.code === 'invalid_type' && /received undefined/.test(i.message)) message = 'is required';
    return { path, message };
  });
}

export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(issuesToDetails(where, r.error.issues));
  return r.data;
}

/** The integer fields of a path or query schema (they arrive as text and are coerced by zod). */
const integerFields = new WeakMap<z.ZodType, string[]>();
const DIGITS = /^-?[0-9]+$/;

/**
 * An integer in a path or a query string must be written in digits: zod's coercion (Number()) would
 * otherwise read "1e3" as 1000, " 1" as 1 and "0x10" as 16. Values that are not text (MCP passes JSON
 * numbers) are left to the schema.
 */
export function checkIntegerText(schema: z.ZodType, value: unknown, where: string): void {
  let fields = integerFields.get(schema);
  if (!fields) {
    const props = (jsonSchema(schema, 'input').properties ?? {}) as Record<string, { type?: unknown }>;
    fields = Object.keys(props).filter((k) => props[k].type === 'integer');
    integerFields.set(schema, fields);
  }
  if (!fields.length || typeof value !== 'object' || value === null) return;
  const details: ErrorDetail[] = [];
  for (const f of fields) {
    const v = (value as Record<string, unknown>)[f];
    if (typeof v === 'string' && !DIGITS.test(v))
      details.push({
        path: `${where}.${f}`,
        message: `must be a whole number written in digits (got ${JSON.stringify(v.slice(0, 40))})`,
      });
    else if (Array.isArray(v))
      details.push({ path: `${where}.${f}`, message: `must be given once (it was given ${v.length} times)` });
  }
  if (details.length) throw validationError(details);
}

/**
 * The first place in a request value (params, query or body) holding a NUL character, as a path;
 * undefined when there is none. PostgreSQL text cannot store NUL (it refused such writes with an
 * error, a 500), and no field of ours has a use for it: it is refused on both engines alike.
 */
export function nulPath(value: unknown, where: string): string | undefined {
  const stack: Array<[unknown, string]> = [[value, where]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}.${i}`]);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) return `${path}.${JSON.stringify(k)}`;
        stack.push([x, `${path}.${k}`]);
      }
    }
  }
  return undefined;
}

/** A 400 naming the first field with a NUL character, if any. */
export function refuseNul(parts: Record<string, unknown>): void {
  for (const [where, value] of Object.entries(parts)) {
    const path = nulPath(value, where);
    if (path) throw validationError([{ path, message: 'must not contain the NUL character (\\u0000)' }]);
  }
}
