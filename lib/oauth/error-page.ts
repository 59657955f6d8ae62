// The page the provider shows when an authorization request cannot be sent back to the app (unknown
// client, unregistered redirect URI, a metadata document we refused): in the app's colours, with the
// OAuth error code and description, and nothing loaded from elsewhere.
import type { KoaContextWithOIDC } from 'oidc-provider';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

export function renderOAuthError(ctx: KoaContextWithOIDC, out: { error: string; error_description?: string }): void {
  ctx.type = 'html';
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  ctx.body = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>The app could not be connected · Metrics API</title>
<style>body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#16181d;background:#f7f7f8;min-height:100vh;display:grid;place-items:center}
main{width:min(440px,100% - 48px);background:#fff;border:1px solid #d9dbe1;border-radius:12px;padding:32px}h1{font-size:1.4rem;margin:0 0 12px}p{line-height:1.5;color:#5d6270}code{color:#b42318}</style></head>
<body><main><h1>The app could not be connected</h1>
<p>The request was refused: <code id="error">${escapeHtml(out.error)}</code></p>
${out.error_description ? `<p id="error-description">${escapeHtml(out.error_description)}</p>` : ''}
<p>Start connecting again from the app. If this keeps happening, tell the app’s maker what this page says.</p></main></body></html>`;
}
