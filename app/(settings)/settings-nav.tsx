'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

/** The settings sections. */
const SECTIONS = [
  { href: '/settings/api-keys', label: 'API keys' },
  { href: '/settings/connected-apps', label: 'Connected apps' },
] as const;

export function SettingsNav() {
  const pathname = usePathname();
  return (
    <nav className="side-nav" aria-label="Settings">
      <p className="nav-title">Settings</p>
      <ul>
        {SECTIONS.map((section) => (
          <li key={section.label}>
            <Link href={section.href} aria-current={pathname.startsWith(section.href) ? 'page' : undefined}>
              {section.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
