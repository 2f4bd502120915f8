import type { RouteScope } from "@/lib/auth/scopes";

// Every exported method of every route declares the OAuth scope a bearer token needs to call it. The route
// wrappers (apiRoute, jsonRoute, the engine's engineRoute, and the resource routes built on them) take the
// scope as a required argument, check it before the handler runs (requireTokenScope in lib/auth/actor.ts)
// and record it on the handler here; a handler made another way (a dispatcher over wrapped handlers, the
// 404 and 405 answers, Auth.js's and Inngest's own) records what its callees check with declareScope.
// lib/http/token-scopes.int.test.ts reads the record of every method of every route file under app/: a
// method without one fails it, and each declared scope is tried with tokens that lack it.

const DECLARED = Symbol.for("quorum.routeScope");

/** Records the scope `handler` checks (or its callees do); returns the handler. A handler has one scope. */
export function declareScope<H extends (...args: never[]) => unknown>(scope: RouteScope, handler: H): H {
  const earlier = declaredScope(handler);
  if (earlier !== undefined && earlier !== scope) throw new Error(`A route handler declared as '${earlier}' cannot be '${scope}' too`);
  if (earlier === undefined) Object.defineProperty(handler, DECLARED, { value: scope });
  return handler;
}

/** The scope a route's handler declared; undefined when it declared none. */
export function declaredScope(handler: unknown): RouteScope | undefined {
  return typeof handler === "function" ? (handler as unknown as Record<symbol, RouteScope | undefined>)[DECLARED] : undefined;
}
