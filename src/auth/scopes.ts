// Scopes in plain words, for the consent page, the API-keys page and GET /me.
import { SCOPES, SCOPE_WORDS, isScope, type Scope } from '../domain/scopes.ts';

const OTHER_WORDS: Record<string, string> = {
  openid: 'Know which Launchlist account you signed in with',
  offline_access: 'Stay connected when you are not using it (until you disconnect it)',
  email: 'See your email address',
  profile: 'See your name',
};

export function scopeWords(scope: string): string {
  return isScope(scope) ? SCOPE_WORDS[scope] : (OTHER_WORDS[scope] ?? `Use the permission “${scope}”`);
}

/** Plain-words list of what a set of scopes allows (in the canonical scope order). */
export function allowsInWords(scopes: readonly string[]): string[] {
  const ordered = [...SCOPES.filter((s) => scopes.includes(s)), ...scopes.filter((s) => !isScope(s))];
  return ordered.map(scopeWords);
}

/** Parses "a,b c" into known scopes; returns the unknown ones separately. */
export function parseScopes(input: string | readonly string[]): { scopes: Scope[]; unknown: string[] } {
  const parts = (typeof input === 'string' ? input.split(/[\s,]+/) : [...input]).map((s) => s.trim()).filter(Boolean);
  const scopes = [...new Set(parts.filter(isScope))];
  return { scopes: SCOPES.filter((s) => scopes.includes(s)), unknown: parts.filter((s) => !isScope(s)) };
}
