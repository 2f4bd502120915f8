// The OAuth scopes a token can carry: the established platform's set (its Doorkeeper configuration's
// default `public` and optional scopes), so its clients ask for the names they always have.

export const ALL_SCOPES = [
  "public",
  "user",
  "project",
  "group",
  "collection",
  "classification",
  "subject",
  "medium",
  "organization",
  "translation",
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

/**
 * What a route method declares it needs of a bearer token (lib/http/route-scope.ts): one scope, or "none"
 * where any token (or none) may call it: reads of public data, and the flows that are their own
 * authorization (sign-in, registration, password reset by emailed token, signed upload URLs, OAuth).
 */
export type RouteScope = Scope | "none";
