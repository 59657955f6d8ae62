// What a 404 page says, the same wherever it is rendered: on its own (app/not-found.tsx) or inside the
// settings pages' frame (app/(settings)/not-found.tsx), so that a settings page one may not see reads
// exactly like one that does not exist.
import Link from 'next/link';

export function NotFoundBody() {
  return (
    <>
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
    </>
  );
}
