'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

/** The settings sections. */
const SECTIONS = [
  { href: '/settings/api-keys', label: 'API keys' },
  { href: '/settings/connected-apps', label: 'Connected apps' },
  { href: '/settings/usage', label: 'Usage', adminOnly: true },
] as const;

/** The public pages a person managing keys and apps turns to. The reference is a few megabytes of script: fetched when used, not prefetched. */
const HELP = [
  { href: '/docs/api', label: 'API reference', prefetch: false },
  { href: '/#connect', label: 'Connect a client', prefetch: undefined },
  { href: '/docs/errors', label: 'Error codes', prefetch: undefined },
] as const;

/** `admin`: whether to list the sections only admins may open (the others answer members 404). */
export function SettingsNav({ admin }: { admin: boolean }) {
  const pathname = usePathname();
  return (
    <nav className="side-nav" aria-label="Settings">
      <p className="nav-title">Settings</p>
      <ul>
        {SECTIONS.filter((section) => admin || !('adminOnly' in section)).map((section) => (
          <li key={section.label}>
            <Link href={section.href} aria-current={pathname.startsWith(section.href) ? 'page' : undefined}>
              {section.label}
            </Link>
          </li>
        ))}
      </ul>
      <p className="nav-title">Help</p>
      <ul className="nav-help">
        {HELP.map((link) => (
          <li key={link.href}>
            <Link href={link.href} prefetch={link.prefetch}>{link.label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
