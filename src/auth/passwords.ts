// Password hashing with scrypt (memory-hard, in node:crypto). Stored as
// `scrypt$<log2 N>$<r>$<p>$<salt b64url>$<hash b64url>` so the cost can be raised later without
// breaking old hashes (needsRehash tells when to re-hash at the next sign-in).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const LOG_N = 15; // N = 32768: ~32 MiB and a few tens of ms per hash
const R = 8;
const P = 1;
const KEYLEN = 32;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const opts: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEYLEN, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, LOG_N, R, P);
  return `scrypt$${LOG_N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  if (![logN, r, p].every(Number.isInteger) || logN < 10 || logN > 20) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  const key = await derive(password, salt, logN, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export function needsRehash(stored: string): boolean {
  return !stored.startsWith(`scrypt$${LOG_N}$${R}$${P}$`);
}

/** Returns what is wrong with a new password, or null when it is acceptable. */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  if (email && password.trim().toLowerCase() === email.trim().toLowerCase()) return 'must not be your email address';
  // No composition rules (NIST SP 800-63B), but a password that is one character repeated, or a
  // run like 1234567890, is the first thing anyone tries.
  if (new Set(password.trim()).size < 3)
    return 'must not be made of one or two characters repeated (spaces count as nothing)';
  if (isRun(password)) return 'must not be a run of consecutive characters such as 1234567890 or abcdefghij';
  return null;
}

/** A hash of a random password: spends the same time as a real check when the account does not exist. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}

/** Every character the next (or the previous) of the one before: 0123456789, 1234567890, abcdefghij, 9876543210. */
function isRun(p: string): boolean {
  const q = p.toLowerCase();
  const digits = '01234567890123456789';
  if (/^\d+$/.test(q)) return digits.includes(q) || [...digits].reverse().join('').includes(q);
  let up = true;
  let down = true;
  for (let i = 1; i < q.length; i++) {
    const d = q.charCodeAt(i) - q.charCodeAt(i - 1);
    if (d !== 1) up = false;
    if (d !== -1) down = false;
  }
  return up || down;
}
