import type { Metadata } from 'next';
import Link from 'next/link';
import { appUrl } from '@/lib/app-url';
import type { Scope } from '@/lib/contract/scopes';
import { SCOPES } from '@/lib/contract/scopes';
import { CSRF_FIELD, isAdmin, requireSession, SETTINGS_HOME } from '@/lib/session/current';
import { filterKeys, listApiKeys, listOrgClients, type KeyListItem } from '@/lib/keys/management';
import { listAuditEvents } from '@/lib/audit/events';
import { dayAfter, EXPIRY_PRESET_DAYS, KEY_NAME_MAX, KEY_NOTE_MAX, todayUtc } from '@/lib/settings/key-form';
import { listOrgAdmins } from '@/lib/settings/members';
import { toolCallCounts, type CallCount } from '@/lib/usage/tool-calls';
import { CreateKeyForm } from './create-key-form';
import { EditKeyButton, RotateKeyButton } from './key-row-actions';
import type { ScopeOption } from './key-form-fields';
import { RevokeButton } from '../../_components/revoke-button';
import { revokeKeyAction } from './actions';
import { ActivityList } from '../../_components/activity-list';
import { AskAnAdmin } from '../../_components/ask-an-admin';
import { Cell } from '../../_components/cell';
import { KeyStatus } from '../../_components/key-status';
import { When } from '../../_components/when';
import { ToolCalls } from '../../_components/tool-calls';

export const metadata: Metadata = { title: 'API keys · Settings · Metrics API' };

const SCOPE_TEXT: Record<Scope, Omit<ScopeOption, 'value'>> = {
  'ads:read': { label: 'Ads', description: 'Ad accounts, campaigns, ad sets, ads and their insights.' },
  'social:read': { label: 'Organic social', description: 'Facebook Pages and Instagram accounts, posts and daily metrics.' },
  'web:read': { label: 'Website', description: 'Web analytics and search-console data.' },
  'store:read': { label: 'Store', description: 'Store sales, orders and customers.' },
};
const SCOPE_OPTIONS: ScopeOption[] = SCOPES.map((value) => ({ value, ...SCOPE_TEXT[value] }));

/** The filter box's text is only compared, never stored; longer text could match no key anyway. */
const FILTER_MAX = 100;

export default async function ApiKeysPage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  const session = await requireSession(SETTINGS_HOME);
  const orgId = session.membership?.orgId;
  if (!orgId || !isAdmin(session)) {
    const admins = orgId ? await listOrgAdmins(orgId) : [];
    return (
      <AskAnAdmin page="API keys" title="Ask an admin for a key" admins={admins}>
        Only admins of {session.membership?.orgName ?? 'your organisation'} can create and revoke API keys. Ask one of them to create a key
        with the scopes and clients you need.
      </AskAnAdmin>
    );
  }
  const [keys, clients, events, calls] = await Promise.all([listApiKeys(orgId), listOrgClients(orgId), listAuditEvents(orgId, 'api_key'), toolCallCounts(orgId)]);
  const { q } = await searchParams;
  const filter = (Array.isArray(q) ? q[0] : q)?.trim().slice(0, FILTER_MAX) ?? '';
  const shown = filterKeys(keys, filter);
  const now = new Date();
  const apiUrl = `${appUrl()}/api/v1/me`;
  const expiry = { today: todayUtc(now), presets: EXPIRY_PRESET_DAYS.map((days) => ({ days, until: <When at={new Date(dayAfter(days, now))} dayOnly empty="" /> })) };
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
        <CreateKeyForm
          csrfField={CSRF_FIELD}
          csrfToken={session.csrfToken}
          scopes={SCOPE_OPTIONS}
          clients={clients}
          nameMax={KEY_NAME_MAX}
          expiry={expiry}
          apiUrl={apiUrl}
        />
      </section>

      <section className="card" aria-labelledby="keys-title">
        <h2 id="keys-title">
          Keys <span className="count">{filter ? `${shown.length} of ${keys.length}` : keys.length}</span>
        </h2>
        {keys.length === 0 ? (
          <p className="muted">No keys yet. Create one above.</p>
        ) : (
          <>
            <KeyFilter value={filter} />
            {shown.length === 0 ? (
              <p className="muted" role="status">No key matches “{filter}”.</p>
            ) : (
              <KeyTable keys={shown} calls={calls.byKey} csrfToken={session.csrfToken} apiUrl={apiUrl} />
            )}
          </>
        )}
      </section>

      <section className="card" aria-labelledby="activity-title">
        <h2 id="activity-title">Activity</h2>
        <ActivityList events={events} noun="key" empty="No key has been created or revoked yet." />
      </section>
    </div>
  );
}

/** A plain GET form: the filter is in the address (shareable, survives a reload) and needs no script. */
function KeyFilter({ value }: { value: string }) {
  return (
    <form role="search" className="filter" action="/settings/api-keys">
      <label htmlFor="key-filter">Filter keys</label>
      <input id="key-filter" name="q" type="search" defaultValue={value} maxLength={FILTER_MAX} aria-describedby="key-filter-hint" />
      <button type="submit" className="button">Filter</button>
      {value && <Link href="/settings/api-keys" className="clear">Show all keys</Link>}
      <p id="key-filter-hint" className="hint">By name, note, prefix, scope, client or status (active, retiring, retired, expired, revoked).</p>
    </form>
  );
}

/** Who minted a key: a person on this page, a command-line program, or a person who has since left. */
function createdBy(key: KeyListItem): string {
  if (key.createdByName) return `by ${key.createdByName}`;
  return key.createdVia === 'cli' ? 'from the command line' : 'by a former member';
}

function KeyTable({ keys, calls, csrfToken, apiUrl }: { keys: KeyListItem[]; calls: Map<string, CallCount>; csrfToken: string; apiUrl: string }) {
  const csrf = { field: CSRF_FIELD, token: csrfToken };
  return (
    // Wide tables scroll inside this box, never the page; on narrow screens each key is a card.
    <div className="table-box" role="region" aria-label="Key table, scrolls sideways when wide" tabIndex={0}>
    <table className="key-table">
      <caption className="table-note">Newest first. Times are UTC.</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Scopes</th>
          <th scope="col">Clients</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">Status</th>
          <th scope="col"><span className="sr-only">Actions</span></th>
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id} data-key-id={key.id} className={key.status === 'active' || key.status === 'retiring' ? undefined : 'inactive'}>
            <Cell label="Name" focusId={`key-${key.id}`}>
              <span className="key-name">{key.name}</span>
              <code className="prefix">{key.prefix}…</code>
              {key.note && <span className="by key-note">{key.note}</span>}
              {key.rotatedFrom && <span className="by">rotated from <code>{key.rotatedFrom.prefix}…</code></span>}
              <Link href={`/settings/api-keys/${key.id}`} className="by" aria-label={`Requests and usage of ${key.name}`}>Requests and usage</Link>
            </Cell>
            <Cell label="Scopes">
              <ul className="tags">{key.scopes.map((scope) => <li key={scope}>{scope}</li>)}</ul>
            </Cell>
            <Cell label="Clients">
              {key.clients ? key.clients.map((client) => client.name).join(', ') : <span className="muted">All clients</span>}
            </Cell>
            <Cell label="Created">
              <When at={key.createdAt} empty="" />
              <span className="by">{createdBy(key)}</span>
            </Cell>
            <Cell label="Last used">
              <When at={key.lastUsedAt} empty="Never" />
              <span className="by">MCP tool calls: <ToolCalls count={calls.get(key.id)} /></span>
            </Cell>
            <Cell label="Status" focusId={`key-status-${key.id}`}>
              <KeyStatus keyItem={key} />
            </Cell>
            <td className="actions">
              <RotateKeyButton canRotate={key.status === 'active'} keyId={key.id} name={key.name} prefix={key.prefix} csrf={csrf} apiUrl={apiUrl} />
              <EditKeyButton keyId={key.id} name={key.name} note={key.note} nameMax={KEY_NAME_MAX} noteMax={KEY_NOTE_MAX} csrf={csrf} />
              {(key.status === 'active' || key.status === 'retiring') && (
                <RevokeButton
                  id={key.id}
                  idField="keyId"
                  label={`Revoke ${key.name}`}
                  title={`Revoke “${key.name}”?`}
                  confirmLabel="Revoke key"
                  action={revokeKeyAction}
                  csrfField={CSRF_FIELD}
                  csrfToken={csrfToken}
                  resultId={`key-status-${key.id}`}
                >
                  Every request with the key <code>{key.prefix}…</code> will be refused with 401 from now on. This cannot be undone.
                </RevokeButton>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
    </div>
  );
}
