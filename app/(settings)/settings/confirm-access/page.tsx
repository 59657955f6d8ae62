import type { Metadata } from 'next';
import { CONFIRM_ACCESS_PATH, CSRF_FIELD, requireSession } from '@/lib/session/current';
import { RETURN_TO_FIELD, safeReturnTo } from '@/lib/session/return-to';
import { PasswordConfirmForm } from '../../_components/sudo';

export const metadata: Metadata = { title: 'Confirm your password · Settings · Metrics API' };

/**
 * Sudo mode's page: where a sensitive action sends the browser when the session's password is too old
 * (the pages ask in a dialog first; this is for a form sent without script, or a clock that disagreed).
 */
export default async function ConfirmAccessPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const returnTo = safeReturnTo((await searchParams)[RETURN_TO_FIELD]);
  const session = await requireSession(CONFIRM_ACCESS_PATH);
  return (
    <div className="page">
      <header className="page-header">
        <h1>Confirm your password</h1>
        <p className="muted">
          Creating, rotating and revoking credentials needs your password when you signed in more than a few minutes ago. Enter it
          to go back{returnTo ? ' to the page you were on' : ''}, then do it again.
        </p>
      </header>
      <section className="card" aria-label="Password">
        <p>Signed in as {session.user.email}.</p>
        <PasswordConfirmForm csrfField={CSRF_FIELD} csrfToken={session.csrfToken} returnTo={returnTo ?? '/settings'} />
      </section>
    </div>
  );
}
