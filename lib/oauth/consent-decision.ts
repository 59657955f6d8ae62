// The consent form's POST: same Origin, a live dashboard session and its CSRF token, and the
// interaction of this very browser (its interaction cookie). Then the answer is recorded and the
// browser is sent (303) to the provider's resume step, which redirects to the app.
import { cookies } from 'next/headers';
import { isSameOriginRequest } from '../session/origin';
import { findSession } from '../session/sessions';
import { isValidCsrfToken } from '../session/tokens';
import { CSRF_FIELD, SESSION_COOKIE } from '../session/current';
import { signInPathReturningTo } from '../session/return-to';
import { browserInteraction, finishConsent } from './consent';

function refused(status: number, message: string): Response {
  return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });
}

export async function handleConsentDecision(request: Request, { params }: { params: Promise<{ uid: string }> }): Promise<Response> {
  const { uid } = await params;
  if (!isSameOriginRequest(request.headers)) return refused(403, 'Cross-origin form submission refused.');
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const session = token ? await findSession(token) : null;
  if (!token || !session) return seeOther(signInPathReturningTo(`/consent/${uid}`));
  const form = await request.formData().catch(() => null);
  if (!form || !isValidCsrfToken(token, form.get(CSRF_FIELD))) return refused(403, 'Missing or invalid CSRF token.');
  const interaction = await browserInteraction(request, uid);
  if (!interaction) return refused(400, 'This request has ended or was started in another browser. Start connecting again from the app.');
  const decision = form.get('decision');
  if (decision !== 'allow' && decision !== 'deny') return refused(400, 'Choose Allow or Deny.');
  const returnTo = await finishConsent(
    interaction,
    session.user.id,
    decision === 'allow' ? { approve: true, orgId: String(form.get('orgId') ?? '') } : { approve: false },
  );
  if (!returnTo) return refused(400, 'Choose one of your organisations.');
  return seeOther(returnTo);
}
