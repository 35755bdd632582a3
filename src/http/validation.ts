// zod issues → the 400 error body, naming the field and the rule.
import type { z } from 'zod';
import { ApiError, type ErrorDetail } from '../operations/errors.ts';
import { jsonSchema } from '../operations/json-schema.ts';

export function issuesToDetails(where: string, issues: readonly z.core.$ZodIssue[]): ErrorDetail[] {
  return issues.map((i) => {
    const path = [where, ...i.path.map(String)].filter(Boolean).join('.');
    let message = i.message;
    if (i.code === 'unrecognized_keys') message = `unknown field(s) ${i.keys.map((k) => JSON.stringify(k)).join(', ')}: additional properties are not accepted`;
    else if (i.code === 'invalid_type' && /received undefined/.test(i.message)) message = 'is required';
    return { path, message };
  });
}

export function validationError(details: ErrorDetail[]): ApiError {
  const first = details[0];
  const summary = first ? `${first.path}: ${first.message}` : 'invalid request';
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return new ApiError('validation_failed', `Invalid request — ${summary}${more}.`, details);
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
    if (typeof v === 'string' && !DIGITS.test(v)) details.push({ path: `${where}.${f}`, message: `must be a whole number written in digits (got ${JSON.stringify(v.slice(0, 40))})` });
  }
  if (details.length) throw validationError(details);
}
