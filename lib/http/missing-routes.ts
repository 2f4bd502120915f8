import { AppError, notFound } from "@/lib/errors";
import { corsPreflight, withCors } from "./cors";
import { errorResponse } from "./respond";
import { declareScope } from "./route-scope";

// JSON answers for what no route serves, outside /api (whose catch-all answers JSON-API errors): an unknown
// path is a 404 and a method a path does not take is a 405 with an Allow header, never Next's empty or
// HTML answers.

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every method of a catch-all route: 404 naming the path. */
export function unknownPathRoutes(): Record<(typeof METHODS)[number] | "OPTIONS", (req: Request) => Promise<Response>> {
  const missing = declareScope("none", (req: Request) =>
    withCors(req, async () => errorResponse(notFound(`No route matches ${req.method} ${new URL(req.url).pathname}`))),
  );
  return { ...Object.fromEntries(METHODS.map((m) => [m, missing])), OPTIONS: corsPreflight } as never;
}

/**
 * The methods a route does not take: 405 with Allow. Every route file ends with
 * `export const { ...the other methods, OPTIONS } = methodNotAllowed([...the methods it takes])`, so no
 * method gets an empty answer (and the list of methods a route takes is stated once, where tests read it).
 */
export function methodNotAllowed(allowed: readonly string[]): Record<string, (req: Request) => Promise<Response>> {
  const refuse = declareScope("none", (req: Request) =>
    withCors(req, async () => {
      const res = errorResponse(
        new AppError("method_not_allowed", `${req.method} is not allowed on ${new URL(req.url).pathname}; allowed: ${allowed.join(", ")}`),
      );
      res.headers.set("allow", allowed.join(", "));
      return res;
    }),
  );
  // OPTIONS too: the CORS preflight of the path's methods.
  return { ...Object.fromEntries(METHODS.filter((m) => !allowed.includes(m)).map((m) => [m, refuse])), OPTIONS: corsPreflight };
}
