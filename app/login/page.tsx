import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentSession, SETTINGS_HOME } from '@/lib/session/current';
import { RETURN_TO_FIELD, safeReturnTo, SIGN_IN_REASON_FIELD, signInReasonOf } from '@/lib/session/return-to';
import { LoginForm } from './login-form';
import '../(settings)/settings.css';

export const metadata: Metadata = { title: 'Sign in · Metrics API' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const returnTo = safeReturnTo(query[RETURN_TO_FIELD]);
  const reason = signInReasonOf(query[SIGN_IN_REASON_FIELD]);
  if (await currentSession()) redirect(returnTo ?? SETTINGS_HOME);
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand">Metrics API</p>
        <h1>Sign in</h1>
        {reason === 'expired' && (
          <p className="notice" role="status">Your session expired; sign in again{returnTo ? ' to go back to the page you were on' : ''}.</p>
        )}
        <p className="muted">Use your agency dashboard account to manage API keys and connected apps.</p>
        <LoginForm returnTo={returnTo} />
      </div>
    </main>
  );
}
