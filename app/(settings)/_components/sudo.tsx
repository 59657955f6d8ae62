'use client';
// Sudo mode in the page: a form for a sensitive action (create, rotate or revoke a key, revoke apps)
// calls `useSudoGuard()` as its onSubmit. While the session's password is recent it posts at once;
// otherwise the post waits, a dialog asks for the password, and once it is confirmed the form is sent
// as it was. The server actions check the same rule themselves (requireRecentSignIn).
import { createContext, useActionState, useContext, useEffect, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { RETURN_TO_FIELD } from '@/lib/session/return-to';
import { PasswordInput } from '@/app/login/password-input';
import { keepTabInside } from './focus-trap';
import { confirmPasswordAction, type ConfirmPasswordState } from './confirm-password-action';

/** Seconds kept in hand: a form sent this close to the end would reach the server too late. */
const MARGIN_SECONDS = 5;

type Guard = (event: FormEvent<HTMLFormElement>) => void;
// Without a provider (a page outside the settings frame) nothing is held back; the server still checks.
const SudoContext = createContext<Guard>(() => {});

export function useSudoGuard(): Guard {
  return useContext(SudoContext);
}

interface ProviderProps {
  /** Seconds until the session's password must be confirmed again, as the server counted when rendering. */
  secondsLeft: number;
  csrfField: string;
  csrfToken: string;
  children: ReactNode;
}

export function SudoProvider({ secondsLeft, csrfField, csrfToken, children }: ProviderProps) {
  const deadline = useRef(0);
  const dialog = useRef<HTMLDialogElement>(null);
  const resume = useRef<(() => void) | null>(null);
  // The dialog's form exists only while it is open: the password page's own form is then the only one.
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);
  // By this page's clock, from when the server's count arrived: the two clocks need not agree.
  useEffect(() => {
    deadline.current = Date.now() + secondsLeft * 1000;
  }, [secondsLeft]);

  const guard: Guard = (event) => {
    if (Date.now() < deadline.current - MARGIN_SECONDS * 1000) return;
    event.preventDefault();
    const form = event.currentTarget;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    resume.current = () => form.requestSubmit(submitter instanceof HTMLElement && submitter.closest('form') === form ? submitter : undefined);
    setOpen(true);
  };

  function onConfirmed(seconds: number) {
    deadline.current = Date.now() + seconds * 1000;
    const next = resume.current;
    resume.current = null;
    dialog.current?.close();
    next?.();
  }

  return (
    <SudoContext.Provider value={guard}>
      {children}
      <SudoDialog
        dialog={dialog}
        open={open}
        csrfField={csrfField}
        csrfToken={csrfToken}
        onConfirmed={onConfirmed}
        onClosed={() => {
          resume.current = null;
          setOpen(false);
        }}
      />
    </SudoContext.Provider>
  );
}

interface DialogProps {
  dialog: RefObject<HTMLDialogElement | null>;
  open: boolean;
  csrfField: string;
  csrfToken: string;
  onConfirmed: (secondsLeft: number) => void;
  onClosed: () => void;
}

function SudoDialog({ dialog, open, csrfField, csrfToken, onConfirmed, onClosed }: DialogProps) {
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="sudo-title" aria-describedby="sudo-text" onKeyDown={keepTabInside} onClose={onClosed}>
      <h2 id="sudo-title">Confirm your password</h2>
      <p id="sudo-text">You are about to change who can read your organisation’s data. Enter your password to continue.</p>
      {open && <PasswordConfirmForm csrfField={csrfField} csrfToken={csrfToken} onConfirmed={onConfirmed} onCancel={() => dialog.current?.close()} />}
    </dialog>
  );
}

interface FormProps {
  csrfField: string;
  csrfToken: string;
  /** The page's form: where to go once confirmed (the server redirects there). */
  returnTo?: string | null;
  onConfirmed?: (secondsLeft: number) => void;
  onCancel?: () => void;
}

/** The password field and its answer, in the dialog and on the confirm-access page. */
export function PasswordConfirmForm({ csrfField, csrfToken, returnTo, onConfirmed, onCancel }: FormProps) {
  const [state, action, pending] = useActionState<ConfirmPasswordState, FormData>(confirmPasswordAction, {});
  const form = useRef<HTMLFormElement>(null);
  // Each confirmation is acted on once, however often the page renders afterwards.
  const handled = useRef<ConfirmPasswordState['confirmed']>(undefined);
  useEffect(() => {
    if (!state.confirmed || handled.current === state.confirmed) return;
    handled.current = state.confirmed;
    form.current?.reset();
    onConfirmed?.(state.confirmed.secondsLeft);
  }, [state.confirmed, onConfirmed]);
  return (
    <form ref={form} action={action} className="stack" noValidate>
      <input type="hidden" name={csrfField} value={csrfToken} />
      {returnTo && <input type="hidden" name={RETURN_TO_FIELD} value={returnTo} />}
      {state.error && <p className="form-error" role="alert">{state.error}</p>}
      <div className="field">
        <label htmlFor="sudo-password">Password</label>
        <PasswordInput id="sudo-password" invalid={Boolean(state.error)} />
      </div>
      <div className="dialog-actions">
        {onCancel && <button type="button" className="button" onClick={onCancel} disabled={pending}>Cancel</button>}
        <button type="submit" className="button primary" disabled={pending}>{pending ? 'Confirming…' : 'Confirm'}</button>
      </div>
    </form>
  );
}
