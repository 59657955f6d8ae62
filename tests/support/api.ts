// Calls the API in-process: the request goes through the route handler exactly as Next.js would
// call it, its gate included. HTTP-level behaviour is tested against a real server.
import type { Scope } from '@/lib/contract/scopes';
import { createApiKey } from '@/lib/keys/issuing';

type RouteModule = Record<string, (request: Request) => Promise<Response>>;
const routes = import.meta.glob<RouteModule>('../../app/api/**/route.ts');

function routeFile(pathname: string): string | undefined {
  const wanted = `../../app${pathname}/route.ts`;
  return Object.keys(routes).find((file) => file === wanted);
}

export interface CallOptions {
  key?: string;
  method?: string;
  headers?: Record<string, string>;
}

export async function api(pathAndQuery: string, options: CallOptions = {}): Promise<Response> {
  const url = new URL(pathAndQuery, 'http://localhost:3000');
  const file = routeFile(url.pathname);
  if (!file) throw new Error(`No route file for ${url.pathname}`);
  const routeModule = await routes[file]!();
  const method = options.method ?? 'GET';
  const handler = routeModule[method];
  if (!handler) throw new Error(`${url.pathname} has no ${method} handler`);
  const headers = new Headers(options.headers);
  if (options.key) headers.set('authorization', `Bearer ${options.key}`);
  return handler(new Request(url, { method, headers }));
}

/** Mints a real key in the test database. */
export async function mintKey(options: { orgId: string; scopes?: Scope[]; clientIds?: string[] | null; expiresAt?: Date | null; name?: string }): Promise<string> {
  const { key } = await createApiKey({
    orgId: options.orgId,
    name: options.name ?? 'test key',
    scopes: options.scopes ?? ['ads:read', 'social:read', 'web:read', 'store:read'],
    clientIds: options.clientIds ?? null,
    expiresAt: options.expiresAt ?? null,
    createdById: null,
  });
  return key;
}
