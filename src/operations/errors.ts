// The closed list of error codes and their HTTP statuses (DESIGN "Conventions"). Every surface
// (REST, MCP) renders an ApiError as {"error": {code, message, details?, existing_listing?, request_id}}.
export const ERROR_STATUS = {
  validation_failed: 400,
  promo_code_refused: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * The listing a refused request collides with: a website that is already listed (submit_listing,
 * submit_draft answer 409 with it). Where it is, and how its owner can take it over (claim_listing).
 */
export interface ExistingListing {
  slug: string;
  name: string;
  url: string;
  page_url: string;
  claim: { operation: 'claim_listing'; slug: string; page_url: string };
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;
  readonly existingListing?: ExistingListing;
  constructor(
    code: ErrorCode,
    message: string,
    details?: ErrorDetail[],
    headers?: Record<string, string>,
    existingListing?: ExistingListing,
  ) {
    super(message);
    this.code = code;
    this.details = details;
    this.headers = headers;
    this.existingListing = existingListing;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
  body(requestId: string): {
    error: {
      code: ErrorCode;
      message: string;
      details?: ErrorDetail[];
      existing_listing?: ExistingListing;
      request_id: string;
    };
  } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details?.length ? { details: this.details } : {}),
        ...(this.existingListing ? { existing_listing: this.existingListing } : {}),
        request_id: requestId,
      },
    };
  }
}

export const notFound = (what: string, id: string | number): never => {
  throw new ApiError('not_found', `No ${what} ${JSON.stringify(String(id))} exists or it is not visible to you.`);
};
export const invalid = (path: string, message: string): never => {
  throw new ApiError('validation_failed', `${path}: ${message}`, [{ path, message }]);
};
export const conflict = (message: string): never => {
  throw new ApiError('conflict', message);
};

/** A 400 listing every field that broke a rule; the message names the first. */
export function validationError(details: ErrorDetail[]): ApiError {
  const first = details[0];
  const summary = first ? `${first.path}: ${first.message}` : 'invalid request';
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return new ApiError('validation_failed', `Invalid request — ${summary}${more}.`, details);
}

/** The error body of anything thrown while serving a request: an ApiError as it is, anything else a 500 with no details. */
export function errorOf(err: unknown): ApiError {
  return err instanceof ApiError
    ? err
    : new ApiError('internal', 'Something went wrong on our side. The request id identifies it in our logs.');
}
