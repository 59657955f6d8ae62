'use client';
// A key row's Rotate and Edit, each a modal dialog with its own form. Rotating shows the successor
// once, in the new-key dialog; editing renames the key and sets its note.
import { useActionState, useEffect, useRef, useState } from 'react';
import { useFormStatus } from 'react-dom';
import { keepTabInside } from '../../_components/focus-trap';
import { useSudoGuard } from '../../_components/sudo';
import { editKeyAction, rotateKeyAction, type EditKeyState, type RotateKeyState } from './actions';
import { FieldError } from './key-form-fields';
import { NewKeyDialog } from './new-key-dialog';
import { When } from '../../_components/when';

interface Csrf {
  field: string;
  token: string;
}

const HOUR_MS = 3_600_000;
/** Each overlap, and how long it lasts (null: none, the old key stops at once). */
const OVERLAP_CHOICES = [
  { value: 'now', label: 'Stop it now', lasts: null },
  { value: '1h', label: '1 hour', lasts: HOUR_MS },
  { value: '24h', label: '24 hours', lasts: 24 * HOUR_MS },
  { value: '7d', label: '7 days', lasts: 7 * 24 * HOUR_MS },
] as const;
const DEFAULT_OVERLAP = '24h';

interface RotateProps {
  /** False once the key is retiring (or gone): no button. The component stays, keeping the successor's dialog open. */
  canRotate: boolean;
  keyId: string;
  name: string;
  prefix: string;
  csrf: Csrf;
  apiUrl: string;
}

export function RotateKeyButton({ canRotate, keyId, name, prefix, csrf, apiUrl }: RotateProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, action] = useActionState<RotateKeyState, FormData>(rotateKeyAction, {});
  const guard = useSudoGuard();
  // When the dialog was opened: each overlap's end is counted from then (the server counts from the submit, seconds later).
  const [openedAt, setOpenedAt] = useState<number | null>(null);
  useEffect(() => {
    if (state.created) dialog.current?.close();
  }, [state.created]);
  const open = () => {
    setOpenedAt(Date.now());
    dialog.current?.showModal();
    // On the choice already made, not on the first one ("Stop it now", which an Enter would then send).
    dialog.current?.querySelector<HTMLInputElement>('input[name="overlap"]:checked')?.focus();
  };
  const titleId = `rotate-title-${keyId}`;
  return (
    <>
      {canRotate && (
        <button type="button" className="button quiet" onClick={open} aria-label={`Rotate ${name}`}>
          Rotate
        </button>
      )}
      <dialog ref={dialog} className="dialog" aria-labelledby={titleId} onKeyDown={keepTabInside}>
        <h2 id={titleId}>Rotate “{name}”?</h2>
        <p>
          A new key with the same name, scopes, clients and expiry replaces <code>{prefix}…</code>. It is shown once. The old key keeps
          working until the overlap you choose ends, then every request with it is refused with 401.
        </p>
        <form action={action} onSubmit={guard} className="stack">
          <input type="hidden" name={csrf.field} value={csrf.token} />
          <input type="hidden" name="keyId" value={keyId} />
          {state.error && <p className="form-error" role="alert">{state.error}</p>}
          <fieldset className="field">
            <legend>The old key keeps working for</legend>
            <div className="choices">
              {OVERLAP_CHOICES.map((choice) => (
                <label key={choice.value} className="choice compact">
                  <input type="radio" name="overlap" value={choice.value} defaultChecked={choice.value === DEFAULT_OVERLAP} />
                  <span>
                    <span className="choice-label">{choice.label}</span>
                    <span className="hint">
                      {choice.lasts === null ? 'Requests with the old key are refused at once.' : openedAt !== null && <>Until <When at={new Date(openedAt + choice.lasts)} empty="" /> UTC</>}
                    </span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => dialog.current?.close()}>Cancel</button>
            <SubmitButton label="Rotate key" pendingLabel="Rotating…" />
          </div>
        </form>
      </dialog>
      {state.created && <NewKeyDialog key={state.created.id} created={state.created} apiUrl={apiUrl} csrf={csrf} />}
    </>
  );
}

function SubmitButton({ label, pendingLabel }: { label: string; pendingLabel: string }) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className="button primary" disabled={pending}>
      {pending ? pendingLabel : label}
    </button>
  );
}

interface EditProps {
  keyId: string;
  name: string;
  note: string | null;
  nameMax: number;
  noteMax: number;
  csrf: Csrf;
}

export function EditKeyButton({ keyId, name, note, nameMax, noteMax, csrf }: EditProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, action] = useActionState<EditKeyState, FormData>(editKeyAction, {});
  // The fields exist only while the dialog is open: a Name box per row would stand beside the create form's.
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);
  useEffect(() => {
    if (state.savedAt) dialog.current?.close();
  }, [state.savedAt]);
  const id = (field: string) => `edit-${field}-${keyId}`;
  const errors = state.errors ?? {};
  return (
    <>
      <button type="button" className="button quiet" onClick={() => setOpen(true)} aria-label={`Edit ${name}`}>
        Edit
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={id('title')} onKeyDown={keepTabInside} onClose={() => setOpen(false)}>
        <h2 id={id('title')}>Edit “{name}”</h2>
        {/* Keyed by the name and note: after a save elsewhere the fields start from what is stored. */}
        {open && <form key={`${name}\n${note ?? ''}`} action={action} className="stack">
          <input type="hidden" name={csrf.field} value={csrf.token} />
          <input type="hidden" name="keyId" value={keyId} />
          {errors.form && <p className="form-error" role="alert">{errors.form}</p>}
          <div className="field">
            <label htmlFor={id('name')}>Name</label>
            <p id={id('name-hint')} className="hint">At most {nameMax} characters.</p>
            <input
              id={id('name')}
              name="name"
              type="text"
              required
              defaultValue={state.values?.name ?? name}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? `${id('name-hint')} ${id('name-error')}` : id('name-hint')}
            />
            <FieldError id={id('name-error')} message={errors.name} />
          </div>
          <div className="field">
            <label htmlFor={id('note')}>Note (optional)</label>
            <p id={id('note-hint')} className="hint">Where the key is deployed, who to ask about it. One line, at most {noteMax} characters.</p>
            <input
              id={id('note')}
              name="note"
              type="text"
              defaultValue={state.values?.note ?? note ?? ''}
              aria-invalid={errors.note ? true : undefined}
              aria-describedby={errors.note ? `${id('note-hint')} ${id('note-error')}` : id('note-hint')}
            />
            <FieldError id={id('note-error')} message={errors.note} />
          </div>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => dialog.current?.close()}>Cancel</button>
            <SubmitButton label="Save" pendingLabel="Saving…" />
          </div>
        </form>}
      </dialog>
      {/* Said where the Edit button is, so that a save is not silent; always present, so that it is announced when filled. */}
      <span className="by saved-note" role="status">{state.savedAt ? 'Saved.' : ''}</span>
    </>
  );
}
