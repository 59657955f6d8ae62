import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { isAdmin, requireSession } from '@/lib/session/current';
import type { LogSearchParams } from '../../request-log';
import { UsageSections } from '../../usage-sections';

export const metadata: Metadata = { title: 'Usage · Settings · Metrics API' };

/** The organisation's requests per day and its request log, every key and app together: admins only (others get the 404 of a page that does not exist). */
export default async function UsagePage({ searchParams }: { searchParams: Promise<LogSearchParams> }) {
  const session = await requireSession('/settings/usage');
  const membership = session.membership;
  if (!membership || !isAdmin(session)) notFound();
  return (
    <div className="page">
      <header className="page-header">
        <h1>Usage</h1>
        <p className="muted">Requests to the REST API and the MCP server with any of {membership.orgName}’s keys and connected apps.</p>
      </header>
      <UsageSections scope={{ orgId: membership.orgId, kind: 'org' }} subject={`of ${membership.orgName}`} params={await searchParams} basePath="/settings/usage" showCaller />
    </div>
  );
}
