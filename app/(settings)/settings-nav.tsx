'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

/** The settings sections. Connected apps and the OAuth consent screen arrive with the MCP sign-in flow. */
const SECTIONS = [
  { href: '/settings/api-keys', label: 'API keys' },
  { href: null, label: 'Connected apps', note: 'Coming soon' },
] as const;

export function SettingsNav() {
  const pathname = usePathname();
  return (
    <nav className="side-nav" aria-label="Settings">
      <p className="nav-title">Settings</p>
      <ul>
        {SECTIONS.map((section) =>
          section.href ? (
            <li key={section.label}>
              <Link href={section.href} aria-current={pathname.startsWith(section.href) ? 'page' : undefined}>
                {section.label}
              </Link>
            </li>
          ) : (
            <li key={section.label}>
              <span className="nav-disabled" aria-disabled="true">
                {section.label} <small>{section.note}</small>
              </span>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
