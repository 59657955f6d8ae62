import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { isAdmin, requireSession } from '@/lib/session/current';
import { listOrgAdmins } from '@/lib/settings/members';
import type { LogSearchParams } from '../../_components/request-log';
import { AskAnAdmin } from '../../_components/ask-an-admin';
import { UsageSections } from '../../_components/usage-sections';

export const metadata: Metadata = { title: 'Usage · Settings · Metrics API' };

/** The organisation's requests per day and its request log, every key and app together: admins only (a member is told so). */
export default async function UsagePage({ searchParams }: { searchParams: Promise<LogSearchParams> }) {
  const session = await requireSession('/settings/usage');
  const membership = session.membership;
  if (!membership) notFound();
  if (!isAdmin(session)) {
    return (
      <AskAnAdmin page="Usage" title="Usage is for admins" admins={await listOrgAdmins(membership.orgId)}>
        Only admins of {membership.orgName} can see the requests made with its keys and connected apps. Ask one of them for what you
        need from it; the apps you connected yourself are under Connected apps.
      </AskAnAdmin>
    );
  }
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
