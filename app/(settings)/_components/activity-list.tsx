// The settings pages' activity: who created, connected or revoked what, newest first.
import { AUDIT_ACTIONS, type AuditEntry } from '@/lib/audit/events';
import { When } from './when';

const ACTION_TEXT: Record<string, string> = {
  [AUDIT_ACTIONS.apiKeyCreated]: 'created',
  [AUDIT_ACTIONS.apiKeyRevoked]: 'revoked',
  [AUDIT_ACTIONS.apiKeyRotated]: 'rotated',
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
          {/* A rotation's target is the new key: named with the old key's prefix, then the new one's, so that it reads in the order it happened. */}
          {event.fromCommandLine ? (
            <>The {noun} <Target event={event} /> was {ACTION_TEXT[event.action] ?? 'created'} from the command line</>
          ) : (
            <>
              <strong>{event.actorName ?? 'A former member'}</strong> {ACTION_TEXT[event.action] ?? event.action} the {noun} <Target event={event} />
            </>
          )}
          {event.rotatedFromPrefix && event.targetPrefix && (
            <>
              : <code>{event.targetPrefix}…</code> replaces it
              {event.retiresAt && <>, and <code>{event.rotatedFromPrefix}…</code> retires at <When at={event.retiresAt} seconds empty="" /> UTC</>}
            </>
          )}
          {event.previousName && <>, formerly <strong className="wrap">{event.previousName}</strong></>}
          <span className="muted"> · <When at={event.createdAt} empty="" /> UTC</span>
        </li>
      ))}
    </ol>
  );
}

function Target({ event }: { event: AuditEntry }) {
  const prefix = event.rotatedFromPrefix ?? event.targetPrefix;
  return (
    <>
      <strong className="wrap">{event.targetName ?? 'unnamed'}</strong>
      {prefix && <> (<code>{prefix}…</code>)</>}
    </>
  );
}
