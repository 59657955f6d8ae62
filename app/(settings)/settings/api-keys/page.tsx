import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import type { Scope } from '@/lib/auth/scopes';
import { SCOPES } from '@/lib/auth/scopes';
import { CSRF_FIELD, isAdmin, requireSession } from '@/lib/session/current';
import { listApiKeys, listOrgClients, type KeyListItem } from '@/lib/settings/api-keys';
import { AUDIT_ACTIONS, listAuditEvents, type AuditEntry } from '@/lib/settings/audit';
import { KEY_NAME_MAX } from '@/lib/settings/key-form';
import { listOrgAdmins } from '@/lib/settings/members';
import { CreateKeyForm, type ScopeOption } from './create-key-form';
import { RevokeKeyButton } from './revoke-key-button';

export const metadata: Metadata = { title: 'API keys · Settings · Metrics API' };

const SCOPE_TEXT: Record<Scope, Omit<ScopeOption, 'value'>> = {
  'ads:read': { label: 'Ads', description: 'Ad accounts, campaigns, ad sets, ads and their insights.' },
  'social:read': { label: 'Organic social', description: 'Facebook Pages and Instagram accounts, posts and daily metrics.' },
  'web:read': { label: 'Website', description: 'Web analytics and search-console data.' },
  'store:read': { label: 'Store', description: 'Store sales, orders and customers.' },
};
const SCOPE_OPTIONS: ScopeOption[] = SCOPES.map((value) => ({ value, ...SCOPE_TEXT[value] }));

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

function When({ at, dayOnly = false, empty }: { at: Date | null; dayOnly?: boolean; empty: string }) {
  if (!at) return <span className="muted">{empty}</span>;
  return (
    <time dateTime={at.toISOString()} title={at.toISOString()}>
      {(dayOnly ? dateOnly : dateTime).format(at)}
    </time>
  );
}

const STATUS_LABEL = { active: 'Active', expired: 'Expired', revoked: 'Revoked' } as const;

export default async function ApiKeysPage() {
  const session = await requireSession();
  const orgId = session.membership?.orgId;
  if (!orgId || !isAdmin(session)) {
    const admins = orgId ? await listOrgAdmins(orgId) : [];
    return <AskAnAdmin orgName={session.membership?.orgName} admins={admins} />;
  }
  const [keys, clients, events] = await Promise.all([listApiKeys(orgId), listOrgClients(orgId), listAuditEvents(orgId, 'api_key')]);
  return (
    <div className="page">
      <header className="page-header">
        <h1>API keys</h1>
        <p className="muted">
          Keys let servers and MCP clients read {session.membership.orgName}’s synced data through the REST API
          (<code>Authorization: Bearer &lt;key&gt;</code>). A key belongs to the organisation and keeps working until it is
          revoked or expires.
        </p>
      </header>

      <section className="card" aria-labelledby="create-title">
        <h2 id="create-title">Create a key</h2>
        <CreateKeyForm csrfField={CSRF_FIELD} csrfToken={session.csrfToken} scopes={SCOPE_OPTIONS} clients={clients} nameMax={KEY_NAME_MAX} />
      </section>

      <section className="card" aria-labelledby="keys-title">
        <h2 id="keys-title">Keys <span className="count">{keys.length}</span></h2>
        {keys.length === 0 ? (
          <p className="muted">No keys yet. Create one above.</p>
        ) : (
          <KeyTable keys={keys} csrfToken={session.csrfToken} />
        )}
      </section>

      <section className="card" aria-labelledby="activity-title">
        <h2 id="activity-title">Activity</h2>
        <ActivityList events={events} />
      </section>
    </div>
  );
}

/** One cell with one child, so that the narrow layout can put its label beside it. */
function Cell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <td data-label={label}>
      <div>{children}</div>
    </td>
  );
}

function KeyTable({ keys, csrfToken }: { keys: KeyListItem[]; csrfToken: string }) {
  return (
    <table className="key-table">
      <caption className="table-note">Newest first. Times are UTC.</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Scopes</th>
          <th scope="col">Clients</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">Expires</th>
          <th scope="col">Status</th>
          <th scope="col"><span className="sr-only">Actions</span></th>
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id} data-key-id={key.id} className={key.status === 'active' ? undefined : 'inactive'}>
            <Cell label="Name">
              <span className="key-name">{key.name}</span>
              <code className="prefix">{key.prefix}…</code>
            </Cell>
            <Cell label="Scopes">
              <ul className="tags">{key.scopes.map((scope) => <li key={scope}>{scope}</li>)}</ul>
            </Cell>
            <Cell label="Clients">
              {key.clients ? key.clients.map((client) => client.name).join(', ') : <span className="muted">All clients</span>}
            </Cell>
            <Cell label="Created">
              <When at={key.createdAt} empty="" />
              <span className="by">by {key.createdByName ?? 'a former member'}</span>
            </Cell>
            <Cell label="Last used"><When at={key.lastUsedAt} empty="Never" /></Cell>
            <Cell label="Expires"><When at={key.expiresAt} dayOnly empty="Never" /></Cell>
            <Cell label="Status">
              <span className={`status status-${key.status}`}>{STATUS_LABEL[key.status]}</span>
              {key.revokedAt && (
                <span className="by">
                  <When at={key.revokedAt} empty="" /> by {key.revokedByName ?? 'a former member'}
                </span>
              )}
            </Cell>
            <td className="actions">
              {key.status === 'active' && (
                <RevokeKeyButton keyId={key.id} keyName={key.name} keyPrefix={key.prefix} csrfField={CSRF_FIELD} csrfToken={csrfToken} />
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const ACTION_TEXT: Record<string, string> = {
  [AUDIT_ACTIONS.apiKeyCreated]: 'created',
  [AUDIT_ACTIONS.apiKeyRevoked]: 'revoked',
};

function ActivityList({ events }: { events: AuditEntry[] }) {
  if (events.length === 0) return <p className="muted">No key has been created or revoked yet.</p>;
  return (
    <ol className="activity">
      {events.map((event) => (
        <li key={event.id}>
          <strong>{event.actorName ?? 'A former member'}</strong> {ACTION_TEXT[event.action] ?? event.action} the key{' '}
          <strong>{event.targetName ?? 'unnamed'}</strong>
          {event.targetPrefix && <> (<code>{event.targetPrefix}…</code>)</>}
          <span className="muted"> · <When at={event.createdAt} empty="" /> UTC</span>
        </li>
      ))}
    </ol>
  );
}

function AskAnAdmin({ orgName, admins }: { orgName?: string; admins: { name: string; email: string }[] }) {
  return (
    <div className="page">
      <header className="page-header">
        <h1>API keys</h1>
      </header>
      <section className="card notice" aria-labelledby="ask-title">
        <h2 id="ask-title">Ask an admin for a key</h2>
        <p>
          Only admins of {orgName ?? 'your organisation'} can create and revoke API keys. Ask one of them to create a key
          with the scopes and clients you need.
        </p>
        {admins.length > 0 && (
          <ul className="admins">
            {admins.map((admin) => (
              <li key={admin.email}>
                {admin.name} · <a href={`mailto:${admin.email}`}>{admin.email}</a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
