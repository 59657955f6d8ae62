// A key's status as the settings pages show it: the list's Status column and the key's own page.
import type { KeyListItem } from '@/lib/keys/management';
import { When } from './when';

const STATUS_LABEL = { active: 'Active', retiring: 'Retiring', retired: 'Retired', expired: 'Expired', revoked: 'Revoked' } as const;

type KeyStatusFacts = Pick<KeyListItem, 'status' | 'expiresAt' | 'revokedAt' | 'revokedByName' | 'replacedBy'>;

/** The status as a badge, and under it when the key stops (or stopped) working. */
export function KeyStatus({ keyItem }: { keyItem: KeyStatusFacts }) {
  return (
    <>
      <span className={`status status-${keyItem.status}`}>{STATUS_LABEL[keyItem.status]}</span>
      <KeyLifetime keyItem={keyItem} />
    </>
  );
}

/**
 * Under a key's status, when it stops (or stopped) working and why. A retiring key shows the end of its
 * overlap, not its expiry: its successor keeps the expiry, and "never expires" beside "retires at" read
 * as a contradiction.
 */
function KeyLifetime({ keyItem: key }: { keyItem: KeyStatusFacts }) {
  if (key.revokedAt) {
    return (
      <span className="by">
        <When at={key.revokedAt} seconds empty="" /> by {key.revokedByName ?? 'a former member'}
      </span>
    );
  }
  if (key.replacedBy) {
    return (
      <span className="by">
        {key.status === 'retiring' ? 'Retires' : 'Retired'} at <When at={key.replacedBy.retiresAt} seconds empty="" />, replaced by <code>{key.replacedBy.prefix}…</code>
      </span>
    );
  }
  if (!key.expiresAt) return <span className="by">Never expires</span>;
  return (
    <span className="by">
      {key.status === 'expired' ? 'Expired' : 'Expires'} at the end of <When at={key.expiresAt} dayOnly empty="" />
    </span>
  );
}
