'use client';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useFormStatus } from 'react-dom';
import { keepTabInside } from './focus-trap';
import { useSudoGuard } from './sudo';

interface Props {
  /** The thing's id, sent as `idField` (none: the action needs no id, e.g. "revoke all"). */
  id: string;
  idField?: string;
  /** The accessible name of the opening button, e.g. "Revoke Claude". */
  label: string;
  /** The opening button's text; its accessible name (`label`) must begin with it. */
  buttonText?: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  action: (formData: FormData) => Promise<void>;
  csrfField: string;
  csrfToken: string;
  /** The element (by id, focusable) that shows the outcome; focus moves there once it is done. */
  resultId: string;
}

/**
 * Revoking asks first, in a modal dialog: whatever uses the credential stops working on its next
 * request. Focus stays inside the modal dialog, Esc cancels, and a cancel returns focus
 * to the opening button; after the revocation focus moves to the result, as the button is gone.
 */
export function RevokeButton({ id, idField, label, buttonText = 'Revoke', title, children, confirmLabel, action, csrfField, csrfToken, resultId }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const guard = useSudoGuard();
  const titleId = `revoke-title-${id}`;
  return (
    <>
      <button type="button" className="button danger-quiet" onClick={() => dialog.current?.showModal()} aria-label={label}>
        {buttonText}
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={titleId} onKeyDown={keepTabInside}>
        <h2 id={titleId}>{title}</h2>
        <p>{children}</p>
        {/* The server action itself, so that the form also has its fields without a script. */}
        <form action={action} onSubmit={guard} className="dialog-actions">
          <FocusWhenDone dialog={dialog} resultId={resultId} />
          <input type="hidden" name={csrfField} value={csrfToken} />
          {idField && <input type="hidden" name={idField} value={id} />}
          <ConfirmButtons label={confirmLabel} onCancel={() => dialog.current?.close()} />
        </form>
      </dialog>
    </>
  );
}

/** Cancel and the confirmation; while the revocation is under way, both are disabled and the confirmation says so. */
function ConfirmButtons({ label, onCancel }: { label: string; onCancel: () => void }) {
  const { pending } = useFormStatus();
  return (
    <>
      <button type="button" className="button" onClick={onCancel} disabled={pending}>Cancel</button>
      <button type="submit" className="button danger" disabled={pending}>{pending ? 'Revoking…' : label}</button>
    </>
  );
}

/**
 * Once the form's action is over, closes the dialog and focuses the result. Run as the cleanup of the
 * pending state: it fires when the state ends, or when the revoked row's button leaves the page.
 */
function FocusWhenDone({ dialog, resultId }: { dialog: RefObject<HTMLDialogElement | null>; resultId: string }) {
  const { pending } = useFormStatus();
  useEffect(() => {
    if (!pending) return;
    const open = dialog.current;
    return () => {
      open?.close();
      document.getElementById(resultId)?.focus();
    };
  }, [pending, dialog, resultId]);
  return null;
}
