// Reverse charge only for VAT numbers that exist. domain/vat.ts has already checked the number's format
// and check digits offline (jsvat); here VIES, the European Commission's register of VAT numbers, is
// asked whether the number is registered for trade within the EU (REST: POST {VIES_URL}/check-vat-number
// {countryCode, vatNumber} -> {valid, name, ...}; an answer without a boolean `valid`, an error status
// or no answer within VIES_TIMEOUT_MS means VIES is unavailable, as it often is for one member state).
//
//   valid        reverse charge, the note says it was confirmed in VIES;
//   invalid      400 on body.vat_number: VIES does not know the number;
//   unavailable  VIES_FALLBACK decides: "accept" (default) applies the reverse charge on the offline
//                check and says so in the note; "charge" charges the country's VAT instead (the buyer
//                can ask for it back with a confirmed number); either way the note says VIES could not
//                be reached.
// Answers are kept (valid 24 h, invalid 1 h; unavailable not at all) in Redis when REDIS_URL is set,
// so instances share them, else in this process. VIES=false skips the look-up (offline check only).
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { VatDecision } from '../domain/vat.ts';
import { cacheCounts } from '../ops/cache-stats.ts';

export type ViesStatus = 'valid' | 'invalid' | 'unavailable';
export interface ViesAnswer {
  status: ViesStatus;
  /** The registered name, when VIES gives one. */
  name?: string;
  /** Why it was unavailable. */
  reason?: string;
}

const VALID_TTL_MS = 24 * 3600_000;
const INVALID_TTL_MS = 3600_000;
const PREFIX = 'launchlist-vies:';

export class ViesClient {
  readonly #url: string;
  readonly #timeoutMs: number;
  readonly #redis: Redis | undefined;
  #here = new Map<string, { until: number; answer: ViesAnswer }>();

  constructor(opts: { url: string; timeoutMs: number; redis?: Redis }) {
    this.#url = opts.url.replace(/\/+$/, '');
    this.#timeoutMs = opts.timeoutMs;
    this.#redis = opts.redis;
  }

  /** Asks VIES about a normalised number with its prefix (e.g. DE136695976, EL094259216). */
  async check(vatNumber: string): Promise<ViesAnswer> {
    const key = createHash('sha256').update(vatNumber).digest('base64url').slice(0, 22);
    const kept = await this.#kept(key);
    if (kept) {
      cacheCounts.vies.hit++;
      return kept;
    }
    cacheCounts.vies.miss++;
    const answer = await this.#ask(vatNumber.slice(0, 2), vatNumber.slice(2));
    if (answer.status !== 'unavailable') {
      const ttl = answer.status === 'valid' ? VALID_TTL_MS : INVALID_TTL_MS;
      if (this.#here.size > 10_000) this.#here.clear();
      this.#here.set(key, { until: Date.now() + ttl, answer });
      await this.#redis?.set(PREFIX + key, JSON.stringify(answer), 'PX', ttl).catch(() => {});
    }
    return answer;
  }

  async #kept(key: string): Promise<ViesAnswer | undefined> {
    const here = this.#here.get(key);
    if (here && here.until > Date.now()) return here.answer;
    if (!this.#redis) return undefined;
    try {
      const text = await this.#redis.get(PREFIX + key);
      const a = text ? (JSON.parse(text) as ViesAnswer) : undefined;
      return a && (a.status === 'valid' || a.status === 'invalid') ? a : undefined;
    } catch {
      return undefined;
    }
  }

  async #ask(countryCode: string, vatNumber: string): Promise<ViesAnswer> {
    let res: Response;
    try {
      res = await fetch(`${this.#url}/check-vat-number`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ countryCode, vatNumber }),
        signal: AbortSignal.timeout(this.#timeoutMs),
        redirect: 'error',
      });
    } catch (e) {
      const err = e as Error;
      return {
        status: 'unavailable',
        reason: err.name === 'TimeoutError' ? `no answer within ${this.#timeoutMs} ms` : err.message,
      };
    }
    let body: Record<string, unknown> | undefined;
    try {
      body = (await res.json()) as Record<string, unknown>;
    } catch {
      return { status: 'unavailable', reason: `HTTP ${res.status}, not JSON` };
    }
    if (res.status !== 200 || typeof body?.valid !== 'boolean') {
      const wrapped = (body?.errorWrappers as Array<{ error?: string }> | undefined)?.[0]?.error;
      return { status: 'unavailable', reason: wrapped ?? `HTTP ${res.status}` };
    }
    const name = typeof body.name === 'string' && body.name !== '---' ? body.name : undefined;
    return body.valid ? { status: 'valid', ...(name ? { name } : {}) } : { status: 'invalid' };
  }
}

export type ReverseChargeCheck = { ok: true; vat: VatDecision } | { ok: false; field: 'vat_number'; message: string };

/**
 * Confirms a reverse-charge decision with VIES (see the header); any other decision is returned as it is.
 * `rates` gives the country's rate when the fallback is to charge VAT.
 */
export async function confirmReverseCharge(
  deps: { config: Config; services: { vies: ViesClient } },
  vat: VatDecision,
  rates: Readonly<Record<string, number>>,
): Promise<ReverseChargeCheck> {
  if (!vat.reverse_charge || !vat.vat_number || !deps.config.VIES) return { ok: true, vat };
  const answer = await deps.services.vies.check(vat.vat_number);
  if (answer.status === 'valid')
    return {
      ok: true,
      vat: {
        ...vat,
        note: `${vat.note} The number is confirmed in VIES${answer.name ? ` (${answer.name})` : ''}.`,
      },
    };
  if (answer.status === 'invalid')
    return {
      ok: false,
      field: 'vat_number',
      message: `is not registered for trade within the EU: VIES, the EU's register of VAT numbers, does not know ${vat.vat_number}. Check it, or leave vat_number out to be charged VAT`,
    };
  if (deps.config.VIES_FALLBACK === 'accept')
    return {
      ok: true,
      vat: {
        ...vat,
        note: `${vat.note} VIES could not be reached to confirm the number (${answer.reason}); it was accepted on its format and check digits.`,
      },
    };
  const country = vat.country ?? '';
  const rate = rates[country] ?? 0;
  return {
    ok: true,
    vat: {
      ...vat,
      reverse_charge: false,
      rate_bp: rate,
      note: `VAT at ${(rate / 100).toFixed(rate % 100 ? 2 : 0)}% for ${country}: the reverse charge needs the VAT number confirmed in VIES, which could not be reached (${answer.reason}). Try again later for the reverse charge.`,
    },
  };
}
