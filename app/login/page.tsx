import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentSession, SETTINGS_HOME } from '@/lib/session/current';
import { LoginForm } from './login-form';
import '../(settings)/settings.css';

export const metadata: Metadata = { title: 'Sign in · Metrics API' };

export default async function LoginPage() {
  if (await currentSession()) redirect(SETTINGS_HOME);
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand">Metrics API</p>
        <h1>Sign in</h1>
        <p className="muted">Use your agency dashboard account to manage API keys.</p>
        <LoginForm />
      </div>
    </main>
  );
}
