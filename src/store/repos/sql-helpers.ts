// Small SQL pieces that read the same on SQLite and PostgreSQL (or hide the one difference).
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Engine } from '../connect.ts';

/** A LIKE pattern matching `q` anywhere, with %, _ and \ escaped (use with ESCAPE '\'). Lower-cased. */
export function containsPattern(q: string): string {
  return '%' + q.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c) + '%';
}

/** Case-insensitive substring match on both engines: lower(col) LIKE '%q%' ESCAPE '\'. */
export function icontains(col: Expression<unknown> | RawBuilder<unknown>, q: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${col}) like ${containsPattern(q)} escape '\\'`;
}

/** Hours between a timestamp column and `nowIso` (positive for the past), as a double. */
export function hoursSince(engine: Engine, col: RawBuilder<unknown>, nowIso: string): RawBuilder<number> {
  return engine === 'postgres'
    ? sql<number>`(extract(epoch from (cast(${nowIso} as timestamptz) - ${col})) / 3600.0)::float8`
    : sql<number>`((julianday(${nowIso}) - julianday(${col})) * 24.0)`;
}

/** Nulls last, the same on both engines (SQLite sorts NULL first in ASC, PostgreSQL last). */
export function nullsLast(col: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`case when ${col} is null then 1 else 0 end`;
}

export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
