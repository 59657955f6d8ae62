'use client';
import { useEffect, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { keepTabInside } from '../../focus-trap';

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

/** The step asked before leaving without "I have stored the key". */
function DiscardStep({ backButton, onBack, onDiscard }: { backButton: Ref<HTMLButtonElement>; onBack: () => void; onDiscard: () => void }) {
  return (
    <div className="confirm-discard" role="group" aria-labelledby="discard-title">
      <h3 id="discard-title">Close without the key?</h3>
      <p>Once closed, the key cannot be shown again. If you have not stored it, go back and copy it.</p>
      <div className="dialog-actions">
        <button ref={backButton} type="button" className="button primary" onClick={onBack}>Back to the key</button>
        <button type="button" className="button danger" onClick={onDiscard}>Close and discard</button>
      </div>
    </div>
  );
}

/**
 * Shows a new key once. Leaving by Esc or Close asks first (a step inside the dialog); "I have stored
 * the key" leaves at once. Either way the key is forgotten and focus moves to its row in the list.
 */
export function NewKeyDialog({ created, apiUrl }: { created: CreatedKey; apiUrl: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keyField = useRef<HTMLTextAreaElement>(null);
  const backButton = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(true);
  const [confirming, setConfirming] = useState(false);
  const copy = useCopy();
  const command = `curl -H "Authorization: Bearer ${created.key}" ${apiUrl}`;

  useEffect(() => {
    if (open) dialog.current?.showModal();
    // Closed: the key is gone from the page; its row in the list is the result to land on.
    else document.getElementById(`key-${created.id}`)?.focus();
  }, [open, created.id]);

  useEffect(() => {
    (confirming ? backButton : keyField).current?.focus();
  }, [confirming]);

  if (!open) return null;

  const close = () => dialog.current?.close();

  // Esc asks instead of closing (and, while asking, goes back to the key). Prevented at keydown, so the
  // browser never turns it into a close request; `onCancel` catches any other close request.
  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    keepTabInside(event);
    if (event.key !== 'Escape') return;
    event.preventDefault();
    setConfirming(!confirming);
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
        setConfirming(true);
      }}
      onClose={() => setOpen(false)}
    >
      <h2 id="new-key-title">Your new key “{created.name}”</h2>
      <p id="new-key-warning" className="warning">
        Copy the key now. It is shown only this once and cannot be shown again: we store only a hash of it.
        If you lose it, revoke it and create a new one.
      </p>
      {confirming ? (
        <DiscardStep backButton={backButton} onBack={() => setConfirming(false)} onDiscard={close} />
      ) : (
        <KeyStep created={created} command={command} copy={copy} keyField={keyField} onClose={() => setConfirming(true)} onStored={close} />
      )}
      <p className="copy-status" role="status" aria-live="polite">{COPY_STATUS[copy.copied]}</p>
    </dialog>
  );
}
