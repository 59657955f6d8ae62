// Next.js 16's proxy (Node runtime), in front of the pages' form posts (server actions): one from
// another origin is refused with 403 here, before Next.js's own origin check answers it with a 500 and
// a logged error. The actions still run their own checks (lib/session/current.ts); this only makes the
// refusal clean. The API is not behind it: /api/v1 gates its requests in the route (lib/rest/route.ts),
// /api/mcp in its endpoint, and the OAuth endpoints take cross-origin posts by design (a path that does
// not decode, which Next.js would answer with a 500, is refused by the server: scripts/server.mjs).
// It also answers the pages that read the database with a 503 page while the database cannot be
// reached: once Next.js renders a page, a failure can only end in a 500.
import { NextResponse, type NextRequest } from 'next/server';
import { databaseState } from './lib/health';
import { isSameOriginRequest, requestHost } from './lib/session/origin';
import { FORM_MAX_BYTES, readBoundedBody } from './lib/http/body';
import { unavailablePage } from './lib/http/unavailable-page';
import { isArgumentList, isFormCall } from './lib/session/action-call';

// Pages only: not the APIs, Next.js's assets or the metadata documents.
export const config = { matcher: ['/((?!api/|oauth/|_next/|\\.well-known/).*)'] };

/** The sign-in, settings and consent pages: each reads the session, and its own data, from the database. */
const DATABASE_PAGES = /^\/(login|settings|consent)(\/|$)/;

/** The consent decision is a route handler that checks its form post's Origin itself. */
const CONSENT = /^\/consent\//;

function refused(status: 400 | 403 | 413, message: string): Response {
  return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/**
 * Whether a form post's body is what its content type says: form data that parses, and a server
 * action's call written as our pages and React write one (lib/session/action-call.ts): from a script
 * (a Next-Action header) its argument list, the whole body or the form data's field `0`; without
 * JavaScript the hidden fields that name the action. Next.js decodes either before any of our code
 * runs, and answers one it cannot (`[`, `"x"`, a missing field `0`, a reference to nothing) with a 500
 * and a logged error; an unknown or malformed action id it answers itself (409, 400).
 */
async function formBodyParses(request: NextRequest, body: string): Promise<boolean> {
  const type = request.headers.get('content-type') ?? '';
  const scripted = request.headers.has('next-action');
  // As Next.js tells the shapes apart: multipart is read as form data, any other script's body as the list.
  const multipart = type.startsWith('multipart/form-data');
  if (scripted && !multipart) return isArgumentList(body);
  if (multipart || /^application\/x-www-form-urlencoded\b/i.test(type)) {
    const form = await request.clone().formData().catch(() => null);
    return form !== null && (scripted ? isArgumentList(form.get('0')) : isFormCall(form));
  }
  return true;
}

/**
 * The forwarded headers Next.js reads in a server action, made what we know them to be. Next.js
 * compares the action's Origin with X-Forwarded-Host (else Host) exactly as sent, and answers a
 * mismatch with a 500: any forwarded host a caller adds to a same-origin post, since without
 * TRUST_PROXY we ignore that header. Once our check has found a post same-origin, Next.js is given the
 * host that check compared with (which the actions' own check reads alike). And Next.js fetches the
 * page an action redirects to from this very server, over the protocol X-Forwarded-Proto names: this
 * server speaks plain http (TLS ends in front of it), so an https there only fails, with a logged error.
 */
function withKnownForwarding(request: NextRequest): Response {
  const headers = new Headers(request.headers);
  headers.set('x-forwarded-host', requestHost(request.headers)!);
  headers.set('x-forwarded-proto', 'http');
  return NextResponse.next({ request: { headers } });
}

/**
 * The sign-in, settings and consent pages are 503 while the database does not answer. A page's form post (a server action) whose Origin names another
 * site is 403; one over the action body limit, or not received in time, 413; one whose body does not
 * parse, 400. Next.js would answer each with a 500 (and most with a logged error). A post without
 * Origin goes on to the action, which refuses it (403).
 */
export async function proxy(request: NextRequest): Promise<Response> {
  const { pathname } = request.nextUrl;
  if (DATABASE_PAGES.test(pathname) && (await databaseState()) === 'unreachable') return unavailablePage();
  if (request.method !== 'POST' || CONSENT.test(pathname)) return NextResponse.next();
  const hasOrigin = request.headers.has('origin');
  if (hasOrigin && !isSameOriginRequest(request.headers)) {
    return refused(403, 'Cross-origin form submission refused: nothing was changed.');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  const body = declared > FORM_MAX_BYTES ? null : request.body ? await readBoundedBody(request.clone().body!, FORM_MAX_BYTES) : '';
  if (body === null) return refused(413, `A form post must be at most ${FORM_MAX_BYTES / 1024} KiB, sent without pause: nothing was changed.`);
  if (!(await formBodyParses(request, body))) return refused(400, 'The form could not be read: nothing was changed.');
  return hasOrigin ? withKnownForwarding(request) : NextResponse.next();
}
