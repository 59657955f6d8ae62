import type { Metadata } from 'next';
import Link from 'next/link';
import { listConnectedApps, type ConnectedApp } from '@/lib/oauth/grants';
import { CSRF_FIELD, isAdmin, requireSession } from '@/lib/session/current';
import { listAuditEvents } from '@/lib/audit/events';
import { recentToolCalls, toolCallCounts, type CallCount, type RecentToolCall } from '@/lib/usage/tool-calls';
import { RevokeButton } from '../../_components/revoke-button';
import { RevokeAppButton } from './revoke-app-button';
import { ActivityList } from '../../_components/activity-list';
import { Cell } from '../../_components/cell';
import { When } from '../../_components/when';
import { ToolCalls } from '../../_components/tool-calls';
import { revokeAllAppsAction, revokeAppAction } from './actions';

export const metadata: Metadata = { title: 'Connected apps · Settings · Metrics API' };

export default async function ConnectedAppsPage() {
  const session = await requireSession('/settings/connected-apps');
  const membership = session.membership;
  if (!membership) {
    return (
      <div className="page">
        <header className="page-header">
          <h1>Connected apps</h1>
          <p className="muted">Your account belongs to no organisation, so no app can be connected.</p>
        </header>
      </div>
    );
  }
  const admin = isAdmin(session);
  const [apps, events, calls, recent] = await Promise.all([
    listConnectedApps({ userId: session.user.id, orgId: membership.orgId, isAdmin: admin }),
    admin ? listAuditEvents(membership.orgId, 'oauth_grant') : Promise.resolve([]),
    toolCallCounts(membership.orgId),
    admin ? recentToolCalls(membership.orgId) : Promise.resolve([]),
  ]);
  return (
    <div className="page">
      <header className="page-header">
        <h1>Connected apps</h1>
        <p className="muted">
          Assistants and editors (Claude, ChatGPT, VS Code, Cursor…) connect to the MCP server after someone approves them on
          the consent screen. Each reads {membership.orgName}’s data with the approving person’s access, never more.{' '}
          {admin ? 'As an admin you see every app connected in the organisation.' : 'You see the apps you approved.'}
        </p>
      </header>

      <section className="card" aria-labelledby="apps-title">
        <div className="card-header">
          {/* Focused after a revocation (the revoked app leaves the list). */}
          <h2 id="apps-title" tabIndex={-1}>
            {/* No count on an empty list: "Apps 0" above "No app is connected" said it twice. */}
            Apps {apps.length > 0 && <span className="count">{apps.length}</span>}
          </h2>
          {apps.length > 0 && (
            <RevokeButton
              id="all-apps"
              label={admin ? 'Revoke all apps of the organisation' : 'Revoke all apps'}
              buttonText="Revoke all apps"
              title={admin ? `Revoke all ${apps.length} apps of ${membership.orgName}?` : `Revoke all ${apps.length} of your apps?`}
              confirmLabel="Revoke all apps"
              action={revokeAllAppsAction}
              csrfField={CSRF_FIELD}
              csrfToken={session.csrfToken}
              resultId="apps-title"
            >
              {admin
                ? 'Every app connected in the organisation, by anyone, loses access at once: their next requests are refused and each must ask for approval again.'
                : 'Every app you approved loses access at once: their next requests are refused and each must ask for approval again.'}
            </RevokeButton>
          )}
        </div>
        {apps.length === 0 ? (
          <p className="muted">No app is connected. An app connects when you approve it on the consent screen it opens.</p>
        ) : (
          <AppTable apps={apps} calls={calls.byGrant} csrfToken={session.csrfToken} />
        )}
      </section>

      {admin && (
        <section className="card" aria-labelledby="calls-title">
          <h2 id="calls-title">Recent tool calls</h2>
          <p className="muted">The latest MCP tool calls of the organisation, by API keys and connected apps alike.</p>
          <RecentCalls calls={recent} />
        </section>
      )}

      {admin && (
        <section className="card" aria-labelledby="activity-title">
          <h2 id="activity-title">Activity</h2>
          <ActivityList events={events} noun="app" empty="No app has been connected or revoked yet." />
        </section>
      )}
    </div>
  );
}

function AppTable({ apps, calls, csrfToken }: { apps: ConnectedApp[]; calls: Map<string, CallCount>; csrfToken: string }) {
  return (
    <table className="key-table">
      <caption className="table-note">Newest first. Times are UTC.</caption>
      <thead>
        <tr>
          <th scope="col">App</th>
          <th scope="col">Scopes</th>
          <th scope="col">Approved by</th>
          <th scope="col">Connected</th>
          <th scope="col">Last used</th>
          <th scope="col">Tool calls</th>
          <th scope="col"><span className="sr-only">Actions</span></th>
        </tr>
      </thead>
      <tbody>
        {apps.map((app) => (
          <tr key={app.grantId} data-grant-id={app.grantId}>
            <Cell label="App">
              <Link className="key-name" href={`/settings/connected-apps/${encodeURIComponent(app.grantId)}`}>{app.clientName}</Link>
              {app.metadataHost && <code className="prefix">{app.metadataHost}</code>}
            </Cell>
            <Cell label="Scopes">
              <ul className="tags">{app.scopes.map((scope) => <li key={scope}>{scope}</li>)}</ul>
            </Cell>
            <Cell label="Approved by">{app.approvedBy.name}</Cell>
            <Cell label="Connected"><When at={app.createdAt} empty="" /></Cell>
            <Cell label="Last used"><When at={app.lastUsedAt} empty="Never" /></Cell>
            <Cell label="Tool calls"><ToolCalls count={calls.get(app.grantId)} /></Cell>
            <td className="actions">
              <RevokeAppButton app={app} action={revokeAppAction} csrfToken={csrfToken} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RecentCalls({ calls }: { calls: RecentToolCall[] }) {
  if (calls.length === 0) return <p className="muted">No tool has been called yet.</p>;
  return (
    <table className="key-table">
      <caption className="table-note">Newest first, the last 20. Times are UTC.</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Tool</th>
          <th scope="col">Caller</th>
          <th scope="col">Rows</th>
          <th scope="col">Time</th>
          <th scope="col">Outcome</th>
        </tr>
      </thead>
      <tbody>
        {calls.map((call, index) => (
          <tr key={`${call.at}-${index}`}>
            <Cell label="When"><When at={call.at} empty="" /></Cell>
            <Cell label="Tool"><code>{call.tool}</code></Cell>
            <Cell label="Caller">
              {call.caller}
              <span className="by">{call.callerKind === 'api_key' ? 'API key' : 'Connected app'}</span>
            </Cell>
            <Cell label="Rows">{call.rows ?? '—'}</Cell>
            <Cell label="Time">{call.durationMs} ms</Cell>
            <Cell label="Outcome">{call.outcome === 'ok' ? 'OK' : <code>{call.outcome}</code>}</Cell>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
