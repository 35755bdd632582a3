// JSON columns are text on both engines: one encoding, no engine-specific operators in repositories.
export function toJson(v: unknown): string {
  return JSON.stringify(v ?? null);
}
export function fromJson<T>(v: string | null | undefined, fallback: T): T {
  if (v === null || v === undefined || v === '') return fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
}
export const nowIso = (): string => new Date().toISOString();
