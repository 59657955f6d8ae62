// The answer (404) to an address that is no page of this site, and to notFound(): the site's header,
// what happened, and the ways on.
import type { Metadata } from 'next';
import { NotFoundBody } from './not-found-body';
import { SiteHeader } from './site-header';
import './(settings)/settings.css';

export const metadata: Metadata = { title: 'Page not found · Metrics API' };

export default function NotFound() {
  return (
    <div className="shell">
      <SiteHeader />
      <main id="content" className="home">
        <NotFoundBody />
      </main>
    </div>
  );
}
