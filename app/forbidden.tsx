// The answer (403) to a refused form: lib/session/current.ts calls forbidden() when a state-changing
// request fails the Origin, CSRF or role check. The page does not say which check failed: the person
// who sees it only needs to know that nothing changed and what is allowed.
import type { Metadata } from 'next';
import Link from 'next/link';
import { SETTINGS_HOME } from '@/lib/session/current';
import './(settings)/settings.css';

export const metadata: Metadata = { title: 'Not allowed · Metrics API' };

export default function Forbidden() {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand">Metrics API</p>
        <h1>Not allowed</h1>
        <p role="alert">This request was refused and nothing was changed.</p>
        <p className="muted">
          Only an organisation admin can create or revoke API keys. Every change must also be sent from this
          site&rsquo;s own pages, by the form as this session opened it.
        </p>
        <p>
          <Link href={SETTINGS_HOME}>Back to the settings</Link>
        </p>
      </div>
    </main>
  );
}
