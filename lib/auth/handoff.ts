// proxy.ts authenticates once and hands the verified context to the route in a request header,
// signed with a secret that exists only in this server process. A caller cannot forge it: a
// request carrying an unsigned or wrongly signed context is authenticated again from scratch.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AuthContext } from './context';

export const AUTH_HANDOFF_HEADER = 'x-metrics-auth-context';

// On globalThis: the proxy and the routes are bundled separately but run in one process.
const globalForHandoff = globalThis as unknown as { metricsHandoffSecret?: Buffer };

function secret(): Buffer {
  globalForHandoff.metricsHandoffSecret ??= randomBytes(32);
  return globalForHandoff.metricsHandoffSecret;
}

function sign(payload: string): string {
  return createHmac('sha256', secret()).update(payload).digest('base64url');
}

export function sealAuthContext(auth: AuthContext): string {
  const payload = Buffer.from(JSON.stringify(auth)).toString('base64url');
  return `${payload}.${sign(payload)}`;
}

export function openAuthContext(value: string | null): AuthContext | null {
  if (!value) return null;
  const [payload, signature] = value.split('.');
  if (!payload || !signature) return null;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as AuthContext;
}
