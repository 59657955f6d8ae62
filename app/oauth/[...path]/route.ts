// The OAuth endpoints (authorize, token, revoke, register): oidc-provider behind the Web ↔ Node bridge.
import { handleOAuthRequest } from '@/lib/oauth/endpoint';

export const dynamic = 'force-dynamic';

export const GET = handleOAuthRequest;
export const POST = handleOAuthRequest;
export const OPTIONS = handleOAuthRequest;
