// Next.js 16's proxy (Node runtime), in front of the pages' form posts (server actions): one from
// another origin is refused with 403 here, before Next.js's own origin check answers it with a 500 and
// a logged error. The actions still run their own checks (lib/session/current.ts); this only makes the
// refusal clean. The API is not behind it: /api/v1 gates its requests in the route (lib/http/route.ts),
// /api/mcp in its endpoint, and the OAuth endpoints take cross-origin posts by design.
// It also answers the pages that read the database with a 503 page while the database cannot be
// reached: once Next.js renders a page, a failure can only end in a 500.
import { NextResponse, type NextRequest } from 'next/server';
import { databaseState } from './lib/health';
import { isSameOriginRequest } from './lib/session/origin';
import { FORM_MAX_BYTES, readBoundedBody } from './lib/http/body';
import { unavailablePage } from './lib/http/unavailable-page';

// Pages only: not the APIs (the consent form's route checks its Origin itself), Next.js's assets or
// the metadata documents.
export const config = { matcher: ['/((?!api/|oauth/|consent/|_next/|\\.well-known/).*)'] };

/** The sign-in and settings pages: each reads the session, and the settings pages their data, from the database. */
const DATABASE_PAGES = /^\/(login|settings)(\/|$)/;

function refusedFormPost(status: 400 | 403 | 413, message: string): Response {
  return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/**
 * Whether a form post's body is what its content type says: form data that parses, or (a server
 * action called from a script) the JSON text of its arguments. Next.js answers one that is not with a
 * 500 and a logged parse error; an unknown or malformed action id it answers itself (409, 400).
 */
async function formBodyParses(request: NextRequest, body: string): Promise<boolean> {
  const type = request.headers.get('content-type') ?? '';
  if (/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type)) {
    return request.clone().formData().then(() => true, () => false);
  }
  if (request.headers.has('next-action') && /^text\/plain\b/i.test(type)) {
    try {
      JSON.parse(body);
      return true;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * A page's form post (a server action) whose Origin names another site is 403; one over the action
 * body limit, or not received in time, 413; one whose body does not parse, 400. Next.js would answer
 * each with a 500 and a logged error. A post without Origin goes on to the action, which refuses it (403).
 */
export async function proxy(request: NextRequest): Promise<Response> {
  if (DATABASE_PAGES.test(request.nextUrl.pathname) && (await databaseState()) === 'unreachable') return unavailablePage();
  if (request.method !== 'POST') return NextResponse.next();
  if (request.headers.has('origin') && !isSameOriginRequest(request.headers)) {
    return refusedFormPost(403, 'Cross-origin form submission refused: nothing was changed.');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  const body = declared > FORM_MAX_BYTES ? null : request.body ? await readBoundedBody(request.clone().body!, FORM_MAX_BYTES) : '';
  if (body === null) return refusedFormPost(413, `A form post must be at most ${FORM_MAX_BYTES / 1024} KiB, sent without pause: nothing was changed.`);
  if (!(await formBodyParses(request, body))) return refusedFormPost(400, 'The form could not be read: nothing was changed.');
  return NextResponse.next();
}
