// The page a person sees instead of a sign-in or settings page while the database cannot be reached:
// 503 with Retry-After, as the API answers then, and nothing about the failure itself. A plain
// document (no React, no script): it is sent by proxy.ts before Next.js renders anything, because a
// page that is already rendering can only end in a 500 (Next.js sets no other status for an error).
const RETRY_AFTER_SECONDS = '5';

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Temporarily unavailable · Metrics API</title>
<style>
body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 24px; box-sizing: border-box;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #16181d; background: #f7f7f8; }
main { width: min(420px, 100%); background: #fff; border: 1px solid #d9dbe1; border-radius: 12px; padding: 32px; }
.brand { margin: 0; font-weight: 650; }
h1 { margin: 8px 0 12px; font-size: 1.5rem; }
p { line-height: 1.5; }
.muted { color: #5d6270; }
a { color: #2453d6; }
</style>
</head>
<body>
<main>
<p class="brand">Metrics API</p>
<h1>Temporarily unavailable</h1>
<p>The service cannot reach its database just now, so this page cannot be shown. Nothing was changed.</p>
<p class="muted">This usually lasts only moments. <a href="">Try again</a> in a few seconds.</p>
</main>
</body>
</html>
`;

/** The 503 page of a page request that needs the database while it is unreachable. */
export function unavailablePage(): Response {
  return new Response(PAGE, {
    status: 503,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': RETRY_AFTER_SECONDS },
  });
}
