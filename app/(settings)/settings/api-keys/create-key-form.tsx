'use client';
import { useActionState, useEffect, useRef, useState } from 'react';
import { createKeyAction, type CreateKeyState } from './actions';

export interface ScopeOption {
  value: string;
  label: string;
  description: string;
}

interface Props {
  csrfField: string;
  csrfToken: string;
  scopes: ScopeOption[];
  clients: { id: string; name: string }[];
  nameMax: number;
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? <p id={id} className="field-error">{message}</p> : null;
}

export function CreateKeyForm({ csrfField, csrfToken, scopes, clients, nameMax }: Props) {
  const [state, formAction, pending] = useActionState<CreateKeyState, FormData>(createKeyAction, {});
  const errors = state.errors ?? {};
  const values = state.values;

  return (
    <>
      <form action={formAction} className="stack" aria-describedby={errors.form ? 'key-form-error' : undefined}>
        <input type="hidden" name={csrfField} value={csrfToken} />
        {errors.form && <p id="key-form-error" className="form-error" role="alert">{errors.form}</p>}

        <div className="field">
          <label htmlFor="key-name">Name</label>
          <p id="key-name-hint" className="hint">Say who uses the key, e.g. “Looker Studio” or “Reporting bot”.</p>
          <input
            id="key-name"
            name="name"
            type="text"
            maxLength={nameMax}
            required
            defaultValue={values?.name}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? 'key-name-hint key-name-error' : 'key-name-hint'}
          />
          <FieldError id="key-name-error" message={errors.name} />
        </div>

        <fieldset className="field" aria-describedby={errors.scopes ? 'key-scopes-error' : undefined}>
          <legend>Scopes</legend>
          <div className="choices two-columns">
            {scopes.map((scope) => (
              <label key={scope.value} className="choice">
                <input type="checkbox" name="scopes" value={scope.value} defaultChecked={values?.scopes.includes(scope.value)} />
                <span>
                  <span className="choice-label">{scope.label} <code>{scope.value}</code></span>
                  <span className="hint">{scope.description}</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError id="key-scopes-error" message={errors.scopes} />
        </fieldset>

        <fieldset className="field" aria-describedby={errors.clients ? 'key-clients-error' : undefined}>
          <legend>Clients</legend>
          <div className="choices">
            <label className="choice">
              <input type="radio" name="clientAccess" value="all" defaultChecked={(values?.clientAccess ?? 'all') === 'all'} />
              <span>
                <span className="choice-label">All clients</span>
                <span className="hint">Including clients added later, and data assigned to no client.</span>
              </span>
            </label>
            <label className="choice">
              <input type="radio" name="clientAccess" value="selected" defaultChecked={values?.clientAccess === 'selected'} />
              <span>
                <span className="choice-label">Only these clients</span>
              </span>
            </label>
          </div>
          {/* Shown by CSS while "Only these clients" is checked: no state to fall out of step with the form. */}
          <div className="client-list" role="group" aria-label="Clients the key may read">
            {clients.map((client) => (
              <label key={client.id} className="choice compact">
                <input type="checkbox" name="clients" value={client.id} defaultChecked={values?.clients.includes(client.id)} />
                <span>{client.name}</span>
              </label>
            ))}
          </div>
          <FieldError id="key-clients-error" message={errors.clients} />
        </fieldset>

        <div className="field">
          <label htmlFor="key-expires">Expires on <span className="optional">(optional)</span></label>
          <p id="key-expires-hint" className="hint">The key stops working at the end of this day (UTC). Leave empty for a key that does not expire.</p>
          <input
            id="key-expires"
            name="expiresOn"
            type="date"
            defaultValue={values?.expiresOn}
            aria-invalid={errors.expiresOn ? true : undefined}
            aria-describedby={errors.expiresOn ? 'key-expires-hint key-expires-error' : 'key-expires-hint'}
          />
          <FieldError id="key-expires-error" message={errors.expiresOn} />
        </div>

        <div>
          <button type="submit" className="button primary" disabled={pending}>
            {pending ? 'Creating…' : 'Create key'}
          </button>
        </div>
      </form>
      {state.created && <NewKeyDialog key={state.created.id} name={state.created.name} apiKey={state.created.key} />}
    </>
  );
}

/** Shows a new key once. Closing it forgets the key; a reload never brings it back. */
function NewKeyDialog({ name, apiKey }: { name: string; apiKey: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(true);
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);

  if (!open) return null;

  async function copy() {
    try {
      await navigator.clipboard.writeText(apiKey);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="new-key-title" aria-describedby="new-key-warning" onClose={() => setOpen(false)}>
      <h2 id="new-key-title">Your new key “{name}”</h2>
      <p id="new-key-warning" className="warning">
        Copy the key now. It is shown only this once and cannot be shown again: we store only a hash of it.
        If you lose it, revoke it and create a new one.
      </p>
      <label htmlFor="new-key-value" className="sr-only">API key</label>
      <div className="key-box">
        <textarea id="new-key-value" className="key-value" readOnly rows={2} value={apiKey} spellCheck={false} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="button primary" onClick={copy}>Copy</button>
      </div>
      <p className="copy-status" role="status">
        {copied === 'copied' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Could not copy: select the key and copy it yourself.' : ''}
      </p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => dialog.current?.close()}>I have stored the key</button>
      </div>
    </dialog>
  );
}
