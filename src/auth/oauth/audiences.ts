// What the rest of the app needs to know about the OAuth server without loading it (oidc-provider is
// loaded on first use: see auth/index.ts): the audiences tokens are bound to, and a settings key.

/** Settings-table key of the test-only switch that accepts http:// client ID metadata documents. */
export const ALLOW_HTTP_CLIENT_IDS_SETTING = 'oauth.allow_http_client_ids';

/** The resources an access token can be bound to (RFC 8707): the REST API and the MCP endpoint. */
export interface Audiences {
  rest: string;
  mcp: string;
}
export function audiencesFor(publicUrl: string): Audiences {
  return { rest: `${publicUrl}/api/v1`, mcp: `${publicUrl}/mcp` };
}
