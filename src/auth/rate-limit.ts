// A small in-memory fixed-window counter for sign-in attempts (per IP + email, and per IP).
// Per process: with several instances each enforces its own window (the API limits use Redis).
export class AttemptLimiter {
  readonly limit: number;
  readonly windowMs: number;
  #hits = new Map<string, { count: number; resetAt: number }>();
  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }
  /** Counts one attempt; returns the seconds to wait when over the limit, else 0. */
  hit(key: string, now = Date.now()): number {
    if (this.#hits.size > 50_000) for (const [k, v] of this.#hits) if (v.resetAt <= now) this.#hits.delete(k);
    let e = this.#hits.get(key);
    if (!e || e.resetAt <= now) {
      e = { count: 0, resetAt: now + this.windowMs };
      this.#hits.set(key, e);
    }
    e.count++;
    return e.count > this.limit ? Math.max(1, Math.ceil((e.resetAt - now) / 1000)) : 0;
  }
  reset(key: string): void {
    this.#hits.delete(key);
  }
}
