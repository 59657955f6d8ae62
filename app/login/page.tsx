import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { consentApp } from '@/lib/oauth/consent';
import { currentSession, SETTINGS_HOME } from '@/lib/session/current';
import { consentUidOf, RETURN_TO_FIELD, safeReturnTo, SIGN_IN_REASON_FIELD, signInReasonOf } from '@/lib/session/return-to';
import { LoginForm } from './login-form';
import '../(settings)/settings.css';

export const metadata: Metadata = { title: 'Sign in · Metrics API' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const returnTo = safeReturnTo(query[RETURN_TO_FIELD]);
  const reason = signInReasonOf(query[SIGN_IN_REASON_FIELD]);
  const session = await currentSession();
  // Signed in already: on to the page, unless the person asked to continue with another account.
  if (session && reason !== 'switch') redirect(returnTo ?? SETTINGS_HOME);
  const uid = consentUidOf(returnTo);
  const app = uid ? await consentApp(uid) : null;
  return (
    <main className="auth-page">
      <div className="auth-card">
        {/* The way back to the front page for whoever came here by mistake. */}
        <p className="brand"><Link href="/">Metrics API</Link></p>
        <h1>Sign in</h1>
        {reason === 'expired' && !session && (
          <p className="notice" role="status">Your session expired; sign in again{returnTo ? ' to go back to the page you were on' : ''}.</p>
        )}
        {session && <p className="notice">You are signed in as {session.user.email}. Sign in with another account to continue as that person.</p>}
        {app ? (
          <p className="muted">
            <strong>{app.clientName}</strong> from <strong>{app.clientHost}</strong> asks to read your agency’s data. Sign in with your
            agency dashboard account to see what it asks for and answer.
          </p>
        ) : (
          <p className="muted">Use your agency dashboard account to manage API keys and connected apps.</p>
        )}
        <LoginForm returnTo={returnTo} />
        <p className="hint auth-help">
          Forgot your password? This site has no reset of its own: your agency dashboard account is managed by your organisation,
          so ask your admin.
        </p>
      </div>
    </main>
  );
}
