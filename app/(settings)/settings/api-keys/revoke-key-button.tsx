'use client';
import { useRef } from 'react';
import { revokeKeyAction } from './actions';

interface Props {
  keyId: string;
  keyName: string;
  keyPrefix: string;
  csrfField: string;
  csrfToken: string;
}

/** Revoking asks first: apps using the key stop working on their next request. */
export function RevokeKeyButton({ keyId, keyName, keyPrefix, csrfField, csrfToken }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = `revoke-title-${keyId}`;
  return (
    <>
      <button type="button" className="button danger-quiet" onClick={() => dialog.current?.showModal()} aria-label={`Revoke ${keyName}`}>
        Revoke
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={titleId}>
        <h2 id={titleId}>Revoke “{keyName}”?</h2>
        <p>
          Every request with the key <code>{keyPrefix}…</code> will be refused with 401 from now on. This cannot be undone.
        </p>
        <form action={revokeKeyAction} className="dialog-actions">
          <input type="hidden" name={csrfField} value={csrfToken} />
          <input type="hidden" name="keyId" value={keyId} />
          <button type="button" className="button" onClick={() => dialog.current?.close()}>Cancel</button>
          <button type="submit" className="button danger">Revoke key</button>
        </form>
      </dialog>
    </>
  );
}
