// The header of the public pages (the front page, the API reference, the error codes, the 404 page),
// in the settings pages' style. A browser with a session cookie is offered its settings, not a sign-in.
import Link from 'next/link';
import { hasSessionCookie, SETTINGS_HOME } from '@/lib/session/current';

// The reference's renderer is a few megabytes of script: fetched when the link is used or hovered, not
// prefetched by every page that shows the link.
const LINKS = [
  { href: '/docs/api', label: 'API reference', prefetch: false },
  { href: '/docs/errors', label: 'Error codes', prefetch: undefined },
] as const;

/**
 * `banner`: a <header> (the page's banner landmark). The API reference passes false, because Scalar
 * shows a <header> of its own on narrow screens and a page has one banner; the links stay in the
 * "Site" navigation landmark either way.
 */
export async function SiteHeader({ current, banner = true }: { current?: (typeof LINKS)[number]['href']; banner?: boolean }) {
  const Wrapper = banner ? 'header' : 'div';
  const signedIn = await hasSessionCookie();
  return (
    <Wrapper className="topbar site-header">
      <nav aria-label="Site" className="site-nav">
        <Link href="/" className="brand site-brand">
          <svg aria-hidden="true" width="20" height="20" viewBox="0 0 32 32">
            <rect width="32" height="32" rx="7" fill="#2453d6" />
            <path d="M8 23V14M14 23V9M20 23v-6M26 23V12" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
          </svg>
          Metrics API
        </Link>
        <ul>
          {LINKS.map((link) => (
            <li key={link.href}>
              <Link href={link.href} prefetch={link.prefetch} aria-current={current === link.href ? 'page' : undefined}>
                {link.label}
              </Link>
            </li>
          ))}
          <li>
            {signedIn ? (
              <Link href={SETTINGS_HOME} className="button primary site-sign-in">Settings</Link>
            ) : (
              <Link href="/login" className="button primary site-sign-in">Sign in</Link>
            )}
          </li>
        </ul>
      </nav>
    </Wrapper>
  );
}
