import { notFound } from 'next/navigation';
import { requireSession } from '@/lib/session/current';

/**
 * Any other address under /settings: the same 404, in the same frame, as a settings page the visitor
 * may not see, so that the two cannot be told apart. Signed out, the sign-in page first, as on every
 * settings page.
 */
export default async function MissingSettingsPage({ params }: { params: Promise<{ missing: string[] }> }) {
  const { missing } = await params;
  await requireSession(`/settings/${missing.map(encodeURIComponent).join('/')}`);
  notFound();
}
