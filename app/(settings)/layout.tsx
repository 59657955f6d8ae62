import type { ReactNode } from 'react';
import { signOutAction } from '@/app/login/actions';
import { CSRF_FIELD, requireSession } from '@/lib/session/current';
import { SettingsNav } from './settings-nav';
import './settings.css';

export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const session = await requireSession();
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Metrics API</span>
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
        <SettingsNav />
        <main className="content" id="content">{children}</main>
      </div>
    </div>
  );
}
