// Counts the named statements a test's code sends to the PostgreSQL pool (nothing on SQLite): how a
// test sees that reads made at the same moment went out as one batched statement.
import type { TestDb } from './app.ts';

export async function countingNamed<T>(
  t: TestDb,
  run: () => Promise<T>,
): Promise<{ value: T; named: Map<string, number> }> {
  const pool = t.store.pgPool;
  const named = new Map<string, number>();
  const query = pool?.query;
  if (pool)
    pool.query = ((...args: Parameters<typeof pool.query>) => {
      const name = (args[0] as { name?: string }).name;
      if (name) named.set(name, (named.get(name) ?? 0) + 1);
      return (query as (...a: unknown[]) => unknown).apply(pool, args);
    }) as typeof pool.query;
  try {
    return { value: await run(), named };
  } finally {
    if (pool && query) pool.query = query;
  }
}
