// The one error type domain code throws; lib/http/respond.ts turns it into a response.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra top-level fields for protocols that define their own error shape (OAuth). */
    readonly extra?: Record<string, unknown>,
    /** Response headers (Retry-After of a 429, Allow of a 405). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what = "Not Found") => new ApiError(404, what);
export const unprocessable = (message: string) => new ApiError(422, message);
export const forbidden = (message = "You do not have permission to perform this action") => new ApiError(403, message);
export const unauthorized = (message = "Authentication required") => new ApiError(401, message);
export const badRequest = (message: string) => new ApiError(400, message);
