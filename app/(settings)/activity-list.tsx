// The settings pages' activity: who created, connected or revoked what, newest first.
import { AUDIT_ACTIONS, type AuditEntry } from '@/lib/audit/events';
import { When } from './when';

const ACTION_TEXT: Record<string, string> = {
  [AUDIT_ACTIONS.apiKeyCreated]: 'created',
  [AUDIT_ACTIONS.apiKeyRevoked]: 'revoked',
  [AUDIT_ACTIONS.apiKeyRotated]: 'rotated in',
  [AUDIT_ACTIONS.apiKeyUpdated]: 'edited',
  [AUDIT_ACTIONS.oauthGrantConnected]: 'connected',
  [AUDIT_ACTIONS.oauthGrantRevoked]: 'revoked',
};

/** `noun` names the target ("key", "app"); `empty` is shown when nothing happened yet. */
export function ActivityList({ events, noun, empty }: { events: AuditEntry[]; noun: string; empty: string }) {
  if (events.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ol className="activity">
      {events.map((event) => (
        <li key={event.id}>
          {event.fromCommandLine ? (
            <>The {noun} <Target event={event} /> was {event.action === AUDIT_ACTIONS.apiKeyRotated ? 'rotated in' : 'created'} from the command line</>
          ) : (
            <>
              <strong>{event.actorName ?? 'A former member'}</strong> {ACTION_TEXT[event.action] ?? event.action} the {noun} <Target event={event} />
            </>
          )}
          {event.rotatedFromPrefix && (
            <>, replacing <code>{event.rotatedFromPrefix}…</code>{event.retiresAt && <>, which retires at <When at={event.retiresAt} empty="" /> UTC</>}</>
          )}
          {event.previousName && <>, formerly <strong className="wrap">{event.previousName}</strong></>}
          <span className="muted"> · <When at={event.createdAt} empty="" /> UTC</span>
        </li>
      ))}
    </ol>
  );
}

function Target({ event }: { event: AuditEntry }) {
  return (
    <>
      <strong className="wrap">{event.targetName ?? 'unnamed'}</strong>
      {event.targetPrefix && <> (<code>{event.targetPrefix}…</code>)</>}
    </>
  );
}
