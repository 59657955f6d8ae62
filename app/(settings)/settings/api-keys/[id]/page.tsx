import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { isAdmin, requireSession } from '@/lib/session/current';
import { findOrgKey } from '@/lib/settings/key-detail';
import type { LogSearchParams } from '../../../_components/request-log';
import { KeyStatus } from '../../../_components/key-status';
import { UsageSections } from '../../../_components/usage-sections';

export const metadata: Metadata = { title: 'Key usage · Settings · Metrics API' };

/** A key's requests per day and its request log: admins only; anyone else, and any key outside the organisation, gets the 404 of a page that does not exist. */
export default async function KeyUsagePage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<LogSearchParams> }) {
  const { id } = await params;
  const session = await requireSession(`/settings/api-keys/${encodeURIComponent(id)}`);
  const orgId = session.membership?.orgId;
  if (!orgId || !isAdmin(session)) notFound();
  const key = await findOrgKey(orgId, id);
  if (!key) notFound();
  return (
    <div className="page">
      <header className="page-header">
        <p><Link href="/settings/api-keys">← API keys</Link></p>
        <h1 className="wrap">{key.name}</h1>
        <p className="muted">
          The key <code>{key.prefix}…</code>: its requests to the REST API and the MCP server.
          {key.rotatedFrom && <> It replaced <Link href={`/settings/api-keys/${key.rotatedFrom.id}`}><code>{key.rotatedFrom.prefix}…</code></Link>, whose requests are on its own page.</>}
        </p>
        {/* A key and its successor share a name: the status says which one this is. */}
        <p className="key-page-status" id="key-status">
          <KeyStatus keyItem={key} />
          {key.replacedBy && <> <Link href={`/settings/api-keys/${key.replacedBy.id}`} className="by">Its successor’s page</Link></>}
        </p>
      </header>
      <UsageSections scope={{ orgId, kind: 'key', keyId: key.id }} subject={`with the key ${key.name}`} params={await searchParams} basePath={`/settings/api-keys/${key.id}`} />
    </div>
  );
}
