// The one error type the domain (and everything else) throws: what went wrong, in the domain's words, with a
// message for the client. Codes become HTTP statuses in one place at the edge, errorResponse in
// lib/http/respond.ts (HTTP_STATUS below is its table); nothing below the transport knows a status.

export const HTTP_STATUS = {
  /** The request is malformed (the established platform's 400s). */
  bad_request: 400,
  /** The record would duplicate one that exists (the established platform answers 400, not 409). */
  duplicate: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** A concurrent change won (an optimistic lock, a serialization failure): trying again may work. */
  conflict: 409,
  gone: 410,
  precondition_failed: 412,
  too_large: 413,
  unsupported_media_type: 415,
  /** Well-formed input the domain refuses (a value out of range, a rule broken). */
  invalid: 422,
  precondition_required: 428,
  rate_limited: 429,
} as const;

export type ErrorCode = keyof typeof HTTP_STATUS;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra top-level fields for protocols that define their own error shape (OAuth). */
    readonly extra?: Record<string, unknown>,
    /** Response headers (Retry-After of a rate limit, Allow of a method not allowed). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what = "Not Found") => new AppError("not_found", what);
export const unprocessable = (message: string) => new AppError("invalid", message);
export const forbidden = (message = "You do not have permission to perform this action") => new AppError("forbidden", message);
export const unauthorized = (message = "Authentication required") => new AppError("unauthorized", message);
export const badRequest = (message: string) => new AppError("bad_request", message);
