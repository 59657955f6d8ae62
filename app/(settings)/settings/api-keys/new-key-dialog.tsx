'use client';
import { useEffect, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { useFormStatus } from 'react-dom';
import { keepTabInside } from '../../_components/focus-trap';
import { revokeKeyAction } from './actions';
import { useSudoGuard } from '../../_components/sudo';

export interface CreatedKey {
  id: string;
  name: string;
  key: string;
}

type Copied = 'idle' | 'key' | 'command' | 'failed';
const COPY_STATUS: Record<Copied, string> = {
  idle: '',
  key: 'Key copied to the clipboard.',
  command: 'Command copied to the clipboard.',
  failed: 'Could not copy: select the text and copy it yourself.',
};

/** Copies to the clipboard and remembers what was copied last (or that copying failed), for the buttons and the status line. */
function useCopy() {
  const [copied, setCopied] = useState<Copied>('idle');
  async function copy(text: string, what: 'key' | 'command') {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(what);
    } catch {
      setCopied('failed');
    }
  }
  return { copied, copy };
}

interface KeyStepProps {
  created: CreatedKey;
  command: string;
  copy: ReturnType<typeof useCopy>;
  keyField: Ref<HTMLTextAreaElement>;
  onClose: () => void;
  onStored: () => void;
}

/** The key and an example request, each with its copy button, and the two ways out. */
function KeyStep({ created, command, copy: { copied, copy }, keyField, onClose, onStored }: KeyStepProps) {
  return (
    <>
      <label htmlFor="new-key-value" className="sr-only">API key</label>
      <div className="key-box">
        <textarea
          ref={keyField}
          id="new-key-value"
          className="key-value"
          readOnly
          rows={2}
          value={created.key}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button primary" onClick={() => copy(created.key, 'key')}>
          {copied === 'key' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p className="example-title" id="curl-title">Try it:</p>
      <div className="key-box">
        <pre className="key-value command" aria-labelledby="curl-title"><code>{command}</code></pre>
        <button type="button" className="button" onClick={() => copy(command, 'command')} aria-label="Copy the command">
          {copied === 'command' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>Close</button>
        <button type="button" className="button primary" onClick={onStored}>I have stored the key</button>
      </div>
    </>
  );
}

interface DiscardStepProps {
  keyId: string;
  /** The revocation's form fields: the same action, checks and audit entry as the list's Revoke. */
  csrf: { field: string; token: string };
  backButton: Ref<HTMLButtonElement>;
  onBack: () => void;
  onDiscarded: () => void;
}

/**
 * The step asked before leaving without the key (neither copied nor "stored"). Discarding revokes
 * the key: a key nobody holds would stay active for whoever found a copy of it, and the list would
 * show it as working.
 */
function DiscardStep({ keyId, csrf, backButton, onBack, onDiscarded }: DiscardStepProps) {
  const guard = useSudoGuard();
  async function discard(formData: FormData) {
    await revokeKeyAction(formData);
    onDiscarded();
  }
  return (
    <div className="confirm-discard" role="group" aria-labelledby="discard-title" aria-describedby="discard-text">
      <h3 id="discard-title">Discard the key?</h3>
      <p id="discard-text">
        Discarding revokes the key at once: nothing can use it, and it cannot be shown again. If you have stored it, go back
        and choose “I have stored the key”.
      </p>
      <form action={discard} onSubmit={guard} className="dialog-actions">
        <input type="hidden" name={csrf.field} value={csrf.token} />
        <input type="hidden" name="keyId" value={keyId} />
        <button ref={backButton} type="button" className="button primary" onClick={onBack}>Back to the key</button>
        <DiscardButton />
      </form>
    </div>
  );
}

function DiscardButton() {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className="button danger" disabled={pending}>
      {pending ? 'Revoking the key…' : 'Discard and revoke'}
    </button>
  );
}

interface NewKeyDialogProps {
  created: CreatedKey;
  apiUrl: string;
  csrf: { field: string; token: string };
}

/**
 * Shows a new key once. Leaving by Esc or Close before the key was copied asks first (a step inside
 * the dialog, whose way out revokes the key); after a copy, or by "I have stored the key", it leaves at
 * once. Either way the key is forgotten and focus moves to its row in the list (to its status when it
 * was discarded).
 */
export function NewKeyDialog({ created, apiUrl, csrf }: NewKeyDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keyField = useRef<HTMLTextAreaElement>(null);
  const backButton = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(true);
  const [confirming, setConfirming] = useState(false);
  const [discarded, setDiscarded] = useState(false);
  const copy = useCopy();
  const command = `curl -H "Authorization: Bearer ${created.key}" ${apiUrl}`;
  // The key or the command holding it was copied: the person has the key, there is nothing to ask.
  const hasKey = copy.copied === 'key' || copy.copied === 'command';

  useEffect(() => {
    if (open) dialog.current?.showModal();
    // Closed: the key is gone from the page; its row in the list is the result to land on.
    else document.getElementById(discarded ? `key-status-${created.id}` : `key-${created.id}`)?.focus();
  }, [open, discarded, created.id]);

  useEffect(() => {
    (confirming ? backButton : keyField).current?.focus();
  }, [confirming]);

  if (!open) return null;

  const close = () => dialog.current?.close();
  const leave = () => (hasKey ? close() : setConfirming(true));

  // Esc asks instead of closing, unless the key was copied (and, while asking, goes back to the key).
  // Prevented at keydown, so the browser never turns it into a close request; `onCancel` catches any
  // other close request.
  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    keepTabInside(event);
    if (event.key !== 'Escape') return;
    event.preventDefault();
    if (confirming) setConfirming(false);
    else leave();
  }

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="new-key-title"
      aria-describedby="new-key-warning"
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        leave();
      }}
      onClose={() => setOpen(false)}
    >
      <h2 id="new-key-title">Your new key “{created.name}”</h2>
      <p id="new-key-warning" className="warning">
        Copy the key now. It is shown only this once and cannot be shown again: we store only a hash of it.
        If you lose it, revoke it and create a new one.
      </p>
      {confirming ? (
        <DiscardStep
          keyId={created.id}
          csrf={csrf}
          backButton={backButton}
          onBack={() => setConfirming(false)}
          onDiscarded={() => {
            setDiscarded(true);
            close();
          }}
        />
      ) : (
        <KeyStep created={created} command={command} copy={copy} keyField={keyField} onClose={leave} onStored={close} />
      )}
      <p className="copy-status" role="status" aria-live="polite">{COPY_STATUS[copy.copied]}</p>
    </dialog>
  );
}
