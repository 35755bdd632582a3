// Secrets never reach the log. Two layers, both in the logger's options (app.ts):
//   1. The request serializer writes a request's URL with its secrets replaced by [REDACTED]: the path
//      segment that is a token on token-carrying routes (checkout, invite, claim-by-email and OAuth
//      interaction links), every query value on routes whose links carry a token in the query string
//      (password reset, e-mail confirmation), and on any route the values of parameters that name a
//      credential (token, access_token, code, key, password, secret …) or that look like one of our API
//      keys (llk_…). It never writes headers.
//   2. pino's redaction (fast-redact) blanks credential-bearing properties wherever a log call passes
//      them: Authorization and Cookie headers, Set-Cookie, and properties named like credentials.
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

export const REDACTED = '[REDACTED]';

/** Routes whose next path segment is a secret token (the links mailed or handed out). */
const TOKEN_SEGMENT_PREFIXES = ['/checkout/', '/invites/', '/claims/verify/', '/oauth/interaction/'];
/** Routes whose query string carries a token: every value is redacted. */
const TOKEN_QUERY_PATHS = new Set(['/reset-password', '/verify-email']);
/** Query parameters that name a credential, on any route. */
const SECRET_PARAMS = new Set([
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'client_secret',
  'client_assertion',
  'key',
  'api_key',
  'apikey',
  'password',
  'secret',
  'session_id',
  'signature',
  'sig',
]);
const API_KEY = /llk_[A-Za-z0-9_-]+/g;

/** The URL with its secrets replaced by [REDACTED] (see the header). */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  for (const prefix of TOKEN_SEGMENT_PREFIXES) {
    if (path.startsWith(prefix) && path.length > prefix.length) {
      const end = path.indexOf('/', prefix.length);
      path = prefix + REDACTED + (end < 0 ? '' : path.slice(end));
      break;
    }
  }
  path = path.replace(API_KEY, REDACTED);
  if (q < 0) return path;
  const everything = TOKEN_QUERY_PATHS.has(path.replace(/\/+$/, ''));
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair.replace(API_KEY, REDACTED);
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        /* kept as sent */
      }
      return everything || SECRET_PARAMS.has(name.toLowerCase())
        ? `${pair.slice(0, eq)}=${REDACTED}`
        : pair.replace(API_KEY, REDACTED);
    })
    .join('&');
  return `${path}?${query}`;
}

/** Properties blanked by pino wherever a log call passes them (one or two levels deep). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
  'authorization',
  'cookie',
  'password',
  'token',
  'access_token',
  'refresh_token',
  'client_secret',
  'api_key',
  'secret',
  '*.authorization',
  '*.cookie',
  '*.password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.client_secret',
  '*.api_key',
  '*.secret',
];

/** What a request log line says about the request: no headers, the URL redacted. */
export function requestSerializer(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}

/** The app's logger options (false when LOG_LEVEL is silent). */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>):
  | false
  | {
      level: string;
      redact: { paths: string[]; censor: string };
      serializers: { req: (req: FastifyRequest) => Record<string, unknown> };
    } {
  if (config.LOG_LEVEL === 'silent') return false;
  return {
    level: config.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { req: requestSerializer },
  };
}
