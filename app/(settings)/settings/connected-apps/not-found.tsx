// The 404 of a connected app's page, inside the settings frame (whose layout holds the page's one
// `main`): the same answer for an app outside the viewer's reach as for one that never existed.
import Link from 'next/link';

export default function ConnectedAppNotFound() {
  return (
    <div className="page">
      <header className="page-header">
        <h1>Page not found</h1>
        <p className="muted">There is no connected app of yours at this address: it may have been revoked, or the link may be wrong.</p>
        <p><Link href="/settings/connected-apps">Back to Connected apps</Link></p>
      </header>
    </div>
  );
}
