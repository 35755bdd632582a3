// Minimal typings for oidc-provider 9 (the package ships none): only what this project uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AdapterPayload {
    [key: string]: unknown;
    accountId?: string;
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: unknown;
    exp?: number;
  }
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }
  export type KoaContext = any;
  export type Configuration = Record<string, any>;

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, any> };
    params: Record<string, any>;
    session?: { accountId: string; uid: string; cookie: string };
    grantId?: string;
    lastSubmission?: Record<string, any>;
    returnTo: string;
    exp: number;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    issuer: string;
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(fn: (ctx: KoaContext, next: () => Promise<void>) => Promise<void> | void): this;
    on(event: string, listener: (...args: any[]) => void): this;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      opts?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    readonly AccessToken: any;
    readonly RefreshToken: any;
    readonly Grant: any;
    readonly Client: any;
    readonly Session: any;
    readonly Interaction: any;
  }
  export default Provider;

  export class OIDCProviderError extends Error {
    error: string;
    error_description?: string;
    status: number;
  }
  type ErrorCtor = new (description?: string, detail?: string) => OIDCProviderError;
  export const errors: {
    OIDCProviderError: typeof OIDCProviderError;
    InvalidClient: ErrorCtor;
    InvalidClientMetadata: ErrorCtor;
    InvalidRedirectUri: ErrorCtor;
    InvalidTarget: ErrorCtor;
    InvalidRequest: ErrorCtor;
    AccessDenied: ErrorCtor;
    SessionNotFound: ErrorCtor;
  };
}
