import type { ReactNode } from 'react';
import Link from 'next/link';
import { signOutAction } from '@/app/login/actions';
import { CSRF_FIELD, currentSession, isAdmin } from '@/lib/session/current';
import { recentSignInSecondsLeft } from '@/lib/session/recent-sign-in';
import { SettingsNav } from './_components/settings-nav';
import { SudoProvider } from './_components/sudo';
import './settings.css';

/**
 * The settings pages' frame. Without a session it renders nothing of its own: each page guards itself
 * with requireSession(its path), which sends the visitor to sign in and back to that very page (a
 * layout is not told which page it wraps).
 */
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (!session) return children;
  return (
    <div className="shell">
      <header className="topbar">
        <Link href="/" className="brand">Metrics API</Link>
        <span className="org">{session.membership?.orgName ?? 'No organisation'}</span>
        <div className="account">
          <span className="who" title={session.user.email}>{session.user.name}</span>
          <form action={signOutAction}>
            <input type="hidden" name={CSRF_FIELD} value={session.csrfToken} />
            <button type="submit" className="button quiet">Sign out</button>
          </form>
        </div>
      </header>
      <div className="frame">
        <SettingsNav admin={isAdmin(session)} />
        <main className="content" id="content">
          <SudoProvider secondsLeft={recentSignInSecondsLeft(session)} csrfField={CSRF_FIELD} csrfToken={session.csrfToken}>
            {children}
          </SudoProvider>
        </main>
      </div>
    </div>
  );
}
