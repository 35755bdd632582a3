// zod issues → the 400 error body, naming the field and the rule.
import type { z } from 'zod';
import { ApiError, type ErrorDetail } from '../operations/errors.ts';

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
