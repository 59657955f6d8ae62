// The answer (404) to an address that is no page of this site, and to notFound(): the site's header,
// what happened, and the ways on.
import type { Metadata } from 'next';
import Link from 'next/link';
import { SiteHeader } from './site-header';
import './(settings)/settings.css';

export const metadata: Metadata = { title: 'Page not found · Metrics API' };

export default function NotFound() {
  return (
    <div className="shell">
      <SiteHeader />
      <main id="content" className="home">
        <section className="home-hero" aria-labelledby="not-found-title">
          <h1 id="not-found-title">Page not found</h1>
          <p>There is no page at this address. It may have moved, or the link may have been cut short.</p>
          <div className="home-actions">
            <Link className="button primary" href="/">Go to the front page</Link>
            <Link className="button" href="/docs/api" prefetch={false}>API reference</Link>
          </div>
        </section>
        <p className="hint">
          Looking for the API? Every address of it starts with <code>/api/v1</code>, and an unknown one there answers with a
          problem document, not this page.
        </p>
      </main>
    </div>
  );
}
