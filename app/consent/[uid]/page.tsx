import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import Link from 'next/link';
import { DATA_USE_RULE } from '@/lib/contract/data-use';
import { consentRequest, SCOPE_WORDS, type ConsentOrganisation, type ConsentRequest } from '@/lib/oauth/consent';
import { CSRF_FIELD, currentSession } from '@/lib/session/current';
import { signInPathReturningTo } from '@/lib/session/return-to';
import '../../(settings)/settings.css';

export const metadata: Metadata = { title: 'Allow access · Metrics API' };

export default async function ConsentPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const session = await currentSession();
  const here = `/consent/${uid}`;
  if (!session) redirect(signInPathReturningTo(here));
  const request = await consentRequest(uid, session.user.id);
  if (!request || request.organisations.length === 0) return <RequestEnded noOrganisation={request !== null} />;
  return (
    <main className="auth-page">
      <div className="auth-card consent">
        <p className="brand">Metrics API</p>
        <h1>
          Allow <strong>{request.clientName}</strong> to read your data?
        </h1>
        <p className="muted">
          The app identifies itself as <strong>{request.clientName}</strong> from <strong>{request.clientHost}</strong>.
        </p>
        <p className="hint consent-account">
          Signed in as {session.user.email}. <Link href={signInPathReturningTo(here, 'switch')}>Not you? Use another account</Link>
        </p>
        <ConsentForm uid={uid} request={request} csrfToken={session.csrfToken} />
      </div>
    </main>
  );
}

/** A consent request that expired or was answered, or a user in no organisation (`noOrganisation`): nothing to approve. */
function RequestEnded({ noOrganisation }: { noOrganisation: boolean }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand">Metrics API</p>
        <h1>This request has ended</h1>
        <p className="muted">
          {noOrganisation ? 'Your account belongs to no organisation, so there is nothing to share.' : 'It expired or was already answered. Start connecting again from the app.'}
        </p>
      </div>
    </main>
  );
}

/** What the app may do and see, the organisation it reads, and the two answers, posted to the decision route. */
function ConsentForm({ uid, request, csrfToken }: { uid: string; request: ConsentRequest; csrfToken: string }) {
  return (
    <form method="post" action={`/consent/${uid}/decision`} className="stack">
      <input type="hidden" name={CSRF_FIELD} value={csrfToken} />
      <div className="field">
        <h2 className="consent-heading">It will be able to</h2>
        <ul className="consent-scopes">
          {request.scopes.map((scope) => (
            <li key={scope}>{SCOPE_WORDS[scope]}</li>
          ))}
          <li>Nothing else: it cannot change anything, and it sees only the clients you can see.</li>
        </ul>
      </div>
      <div className="field">
        <h2 className="consent-heading">Clients it will see</h2>
        {request.organisations.map((org) => (
          <ClientReach key={org.orgId} org={org} named={request.organisations.length > 1} />
        ))}
      </div>
      <OrganisationField organisations={request.organisations} />
      <div className="field">
        <h2 className="consent-heading">How it may use the data</h2>
        <p className="hint" id="data-use">{DATA_USE_RULE}</p>
      </div>
      <p className="hint">
        {request.staysOnDevice
          ? 'After you answer, you go back to the app on this device.'
          : `After you answer, you go back to ${request.clientHost}.`}{' '}
        You can revoke access at any time under Settings → Connected apps.
      </p>
      <div className="consent-actions">
        <button type="submit" name="decision" value="deny" className="button">
          Deny
        </button>
        <button type="submit" name="decision" value="allow" className="button primary">
          Allow
        </button>
      </div>
    </form>
  );
}

/** The organisation the grant reads: a choice when several are offered, else the one, named and sent as it is. */
function OrganisationField({ organisations }: { organisations: ConsentOrganisation[] }) {
  const [first] = organisations;
  if (organisations.length > 1) {
    return (
      <div className="field">
        <label htmlFor="orgId">Organisation</label>
        <select id="orgId" name="orgId" defaultValue={first!.orgId}>
          {organisations.map((org) => (
            <option key={org.orgId} value={org.orgId}>
              {org.orgName}
            </option>
          ))}
        </select>
      </div>
    );
  }
  return (
    <p className="hint">
      Organisation: <strong>{first!.orgName}</strong>
      <input type="hidden" name="orgId" value={first!.orgId} />
    </p>
  );
}

/**
 * The clients the app will read in one organisation: those the user can see there, as long as they
 * can (the app's reach follows the user's). `named`: several organisations are offered, so each list
 * says whose it is.
 */
function ClientReach({ org, named }: { org: ConsentOrganisation; named: boolean }) {
  const whose = named ? <strong>{org.orgName}: </strong> : null;
  if (org.clients === null) {
    return <p className="hint">{whose}Every client of {org.orgName}, including clients added later: you are an admin there.</p>;
  }
  if (org.clients.length === 0) {
    return <p className="hint">{whose}None yet: no client of {org.orgName} is shared with you, so the app would see nothing until one is.</p>;
  }
  return (
    <>
      <p className="hint">{whose}The {org.clients.length === 1 ? 'client' : `${org.clients.length} clients`} of {org.orgName} shared with you:</p>
      <ul className="consent-scopes" aria-label={`Clients of ${org.orgName}`}>
        {/* Two clients may share a name: keyed by place. */}
        {org.clients.map((name, index) => (
          <li key={index}>{name}</li>
        ))}
      </ul>
    </>
  );
}
