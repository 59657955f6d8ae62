// The page the provider shows when an authorization request cannot be sent back to the app (unknown
// client, unregistered redirect URI, a metadata document we refused): in the app's colours, with the
// OAuth error code and description, and nothing loaded from elsewhere. The same page answers an
// authorization request that our input rules refuse before the provider sees it.
import type { KoaContextWithOIDC } from 'oidc-provider';
import { metadataDocumentProblem } from './client-metadata';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

interface OAuthErrorOut {
  error: string;
  error_description?: string;
}

const PAGE_HEADERS = {
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
} as const;

/**
 * The provider's renderError. A metadata document that could not be fetched is described by why
 * (its host unreachable, or refused: see metadataDocumentProblem), not by the provider's "fetch failed".
 */
export function renderOAuthError(ctx: KoaContextWithOIDC, out: OAuthErrorOut, error: unknown): void {
  ctx.type = 'html';
  for (const [name, value] of Object.entries(PAGE_HEADERS)) ctx.set(name, value);
  const problem = out.error === 'invalid_client' ? metadataDocumentProblem(error) : null;
  ctx.body = errorPage(problem ? { ...out, error_description: problem } : out);
}

/** The page as a Web response with status 400, for a request refused before the provider. */
export function oauthErrorPage(out: OAuthErrorOut): Response {
  return new Response(errorPage(out), {
    status: 400,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...PAGE_HEADERS },
  });
}

function errorPage(out: OAuthErrorOut): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>The app could not be connected · Metrics API</title>
<style>body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#16181d;background:#f7f7f8;min-height:100vh;display:grid;place-items:center}
main{width:min(440px,100% - 48px);background:#fff;border:1px solid #d9dbe1;border-radius:12px;padding:32px}h1{font-size:1.4rem;margin:0 0 12px}p{line-height:1.5;color:#5d6270}code{color:#b42318}</style></head>
<body><main><h1>The app could not be connected</h1>
<p>The request was refused: <code id="error">${escapeHtml(out.error)}</code></p>
${out.error_description ? `<p id="error-description">${escapeHtml(out.error_description)}</p>` : ''}
<p>Start connecting again from the app. If this keeps happening, tell the app’s maker what this page says.</p></main></body></html>`;
}
