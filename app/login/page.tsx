import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentSession, SETTINGS_HOME } from '@/lib/session/current';
import { RETURN_TO_FIELD, safeReturnTo } from '@/lib/session/return-to';
import { LoginForm } from './login-form';
import '../(settings)/settings.css';

export const metadata: Metadata = { title: 'Sign in · Metrics API' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const returnTo = safeReturnTo((await searchParams)[RETURN_TO_FIELD]);
  if (await currentSession()) redirect(returnTo ?? SETTINGS_HOME);
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand">Metrics API</p>
        <h1>Sign in</h1>
        <p className="muted">Use your agency dashboard account to manage API keys.</p>
        <LoginForm returnTo={returnTo} />
      </div>
    </main>
  );
}
