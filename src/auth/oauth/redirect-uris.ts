// Which redirect URIs an OAuth client may register (OAuth 2.1 §2.3.1 and §8.4.2, RFC 8252 §7.3):
//   - https, on any host;
//   - http only on a loopback host: 127.0.0.1, [::1] or localhost (native apps and CLIs listening on a
//     port of their own machine; any port and path);
//   - never a user name or password in the URI, never a fragment; nothing else (no custom schemes, no
//     javascript:, data: …).
// Enforced for every client oidc-provider loads, however it came (dynamic registration, a client ID
// metadata document, a stored registration) through its extraClientMetadata validator (provider.ts).
import { errors } from 'oidc-provider';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why a redirect URI is refused, or null when it is allowed. */
export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string' || uri === '') return 'must be a non-empty string';
  if (uri.includes('#')) return 'must not contain a fragment (#)';
  const u = URL.parse(uri);
  if (!u) return 'is not a valid absolute URI';
  if (u.username || u.password) return 'must not contain a user name or password';
  if (u.protocol === 'https:') return u.hostname ? null : 'must name a host';
  if (u.protocol === 'http:')
    return LOOPBACK_HOSTS.has(u.hostname)
      ? null
      : 'must use https (plain http is allowed only on a loopback address: http://127.0.0.1, http://[::1] or http://localhost)';
  return `must use https (or http on a loopback address), not ${u.protocol.slice(0, -1)}:`;
}

/**
 * oidc-provider's extraClientMetadata validator: runs for every client it loads and refuses one with a
 * redirect URI the rules above do not allow (invalid_redirect_uri, RFC 7591 §3.2.2).
 */
export function validateRedirectUris(_ctx: unknown, key: string, _value: unknown, metadata: Record<string, unknown>) {
  if (key !== 'redirect_uris') return;
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris)) return; // oidc-provider's own schema refuses it
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) {
      const e = new errors.InvalidRedirectUri();
      e.error_description = `redirect_uris: ${JSON.stringify(uri)} ${problem}`;
      throw e;
    }
  }
}
