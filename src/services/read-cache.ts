// A small in-process cache for hot public reads (the listing profile). An entry is served only while
// it is younger than its TTL AND no write has happened in this process since it was stored: every
// write request (any non-GET HTTP request) and every finished job bumps the data version, so a read
// after a write in the same process is always fresh. Other instances' writes are seen within the TTL,
// which stays far below the `Cache-Control: max-age` the API already announces for public reads.

let dataVersion = 0;

/** Marks that data may have changed: every cached read stored before now is stale. */
export function bumpDataVersion(): void {
  dataVersion++;
}

export class ReadCache<V> {
  readonly ttlMs: number;
  readonly max: number;
  #entries = new Map<string, { value: V; at: number; version: number }>();
  constructor(ttlMs: number, max = 10_000) {
    this.ttlMs = ttlMs;
    this.max = max;
  }
  get(key: string, now = Date.now()): V | undefined {
    if (this.ttlMs <= 0) return undefined;
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (e.version !== dataVersion || now - e.at >= this.ttlMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return e.value;
  }
  set(key: string, value: V, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    if (this.#entries.size >= this.max) {
      // Drop the oldest tenth (Map keeps insertion order): cheap and good enough for a hot set.
      let n = Math.ceil(this.max / 10);
      for (const k of this.#entries.keys()) { this.#entries.delete(k); if (--n === 0) break; }
    }
    this.#entries.set(key, { value, at: now, version: dataVersion });
  }
  get size(): number {
    return this.#entries.size;
  }
}
