// One connected app: how it identified itself, where its codes go, what it may read and for whom,
// its tool calls of the last 30 days, and Revoke; for an admin also its requests per day and its request
// log (the request log is for admins only, as on a key's page). Reach is the list's: an app the list
// would not show the viewer (another member's, another organisation's, revoked, unknown) is the same 404.
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connectedAppDetail, type ConnectedAppDetail } from '@/lib/oauth/grants';
import { SCOPE_WORDS } from '@/lib/oauth/consent';
import { isAdmin, requireSession } from '@/lib/session/current';
import { CALLS_PER_DAY_WINDOW, grantCallsPerDay } from '@/lib/usage/tool-calls';
import { RevokeAppButton } from '../revoke-app-button';
import { When } from '../../../_components/when';
import { ToolCallsChart } from '../../../_components/usage-chart';
import type { LogSearchParams } from '../../../_components/request-log';
import { UsageSections } from '../../../_components/usage-sections';
import { revokeAppFromDetailAction } from '../actions';

export const metadata: Metadata = { title: 'Connected app · Settings · Metrics API' };

const REDIRECT_KIND: Record<ConnectedAppDetail['redirectHosts'][number]['kind'], string> = {
  web: 'website',
  loopback: 'this device, any port',
  app: 'app on the device',
};

export default async function ConnectedAppPage({ params, searchParams }: { params: Promise<{ grantId: string }>; searchParams: Promise<LogSearchParams> }) {
  const { grantId } = await params;
  const session = await requireSession(`/settings/connected-apps/${encodeURIComponent(grantId)}`);
  const membership = session.membership;
  const admin = isAdmin(session);
  const app = membership && (await connectedAppDetail({ userId: session.user.id, orgId: membership.orgId, isAdmin: admin }, grantId));
  if (!membership || !app) notFound();
  const calls = await grantCallsPerDay(membership.orgId, app.grantId);
  const total = calls.days.reduce((sum, entry) => sum + entry.total, 0);
  return (
    <div className="page">
      <header className="page-header">
        <p><Link href="/settings/connected-apps">← Connected apps</Link></p>
        <h1 className="wrap">{app.clientName}</h1>
        <p className="muted">Reads {app.orgName}’s data over the MCP server with the access of the person who approved it.</p>
      </header>

      <AboutApp app={app} />

      <section className="card" aria-labelledby="reach-title">
        <h2 id="reach-title">Clients it can read</h2>
        <Reach app={app} />
      </section>

      <section className="card" aria-labelledby="calls-title">
        <h2 id="calls-title">Tool calls per day</h2>
        {total === 0 ? (
          <p className="muted">No tool calls in the last {CALLS_PER_DAY_WINDOW} days.</p>
        ) : (
          <ToolCallsChart calls={calls} id="tool-calls" />
        )}
      </section>

      {admin && (
        <UsageSections
          scope={{ orgId: membership.orgId, kind: 'grant', grantId: app.grantId }}
          subject={`of the app ${app.clientName}`}
          params={await searchParams}
          basePath={`/settings/connected-apps/${encodeURIComponent(app.grantId)}`}
        />
      )}

      <section className="card" aria-labelledby="revoke-title">
        <h2 id="revoke-title">Revoke access</h2>
        <p className="muted">The app’s next request is refused; to connect again it must ask for approval again.</p>
        <RevokeAppButton app={app} action={revokeAppFromDetailAction} csrfToken={session.csrfToken} />
      </section>
    </div>
  );
}

function Reach({ app }: { app: ConnectedAppDetail }) {
  const reach = app.reach;
  if (reach.kind === 'approver_left') {
    return <p>None: {app.approvedBy.name}, who approved it, is no longer a member of {app.orgName}, so every request of the app is refused.</p>;
  }
  const intro =
    reach.kind === 'every'
      ? `Every client of ${app.orgName}, including clients added later: ${app.approvedBy.name} is an admin there.`
      : reach.clients.length === 0
        ? `None yet: no client of ${app.orgName} is shared with ${app.approvedBy.name}, who approved it.`
        : `The clients of ${app.orgName} shared with ${app.approvedBy.name}, who approved it:`;
  return (
    <>
      <p>{intro} It follows that person’s access as it changes.</p>
      {reach.clients.length > 0 && (
        <ul className="tags" aria-label="Clients it can read">
          {reach.clients.map((client) => <li key={client.id}>{client.name}</li>)}
        </ul>
      )}
    </>
  );
}

/** Who the app is, where it sends its users back to, what it may read, and who approved it when. */
function AboutApp({ app }: { app: ConnectedAppDetail }) {
  return (
    <section className="card" aria-labelledby="about-title">
      <h2 id="about-title">About this app</h2>
      <dl className="facts">
        <dt>Identified by</dt>
        <dd>
          {app.identity.kind === 'metadata_document' ? (
            <>Its metadata document (Client ID Metadata Document) at <code>{app.identity.url}</code></>
          ) : (
            <>Registration with this server, as client <code>{app.identity.clientId}</code></>
          )}
        </dd>
        <dt>Redirects to</dt>
        <dd>
          {app.redirectHosts.length === 0 ? (
            <span className="muted">Not recorded (approved before redirects were kept)</span>
          ) : (
            <ul aria-label="Redirect hosts">
              {app.redirectHosts.map((redirect) => (
                <li key={redirect.host}><code>{redirect.host}</code> <span className="muted">({REDIRECT_KIND[redirect.kind]})</span></li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Permissions</dt>
        <dd>
          <ul aria-label="Permissions">
            {app.scopes.map((scope) => (
              <li key={scope}><code>{scope}</code>: {SCOPE_WORDS[scope as keyof typeof SCOPE_WORDS]}</li>
            ))}
          </ul>
        </dd>
        <dt>Approved by</dt>
        <dd>{app.approvedBy.name}</dd>
        <dt>Approved</dt>
        <dd><When at={app.createdAt} empty="" /> UTC</dd>
        <dt>Last used</dt>
        <dd><When at={app.lastUsedAt} empty="Never" />{app.lastUsedAt && ' UTC'}</dd>
      </dl>
    </section>
  );
}
