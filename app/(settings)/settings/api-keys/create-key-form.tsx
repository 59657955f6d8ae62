'use client';
import { useActionState, useEffect, useRef, type ReactNode } from 'react';
import type { KeyFormErrors } from '@/lib/settings/key-form';
import { createKeyAction, type CreateKeyState } from './actions';
import { NewKeyDialog } from './new-key-dialog';

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
  /** Today (UTC, the earliest day a key may expire on) and each preset's last day, from the server. */
  expiry: { today: string; presets: { days: number; until: ReactNode }[] };
  /** The address of /api/v1/me, for the example request in the show-once dialog. */
  apiUrl: string;
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? <p id={id} className="field-error">{message}</p> : null;
}

/** Where focus goes for each kind of error, in the form's order: the first one present is focused. */
const ERROR_FOCUS: [keyof KeyFormErrors & string, string][] = [
  ['form', '#key-form-error'],
  ['name', '#key-name'],
  ['scopes', 'input[name="scopes"]'],
  ['clients', 'input[name="clientAccess"]:checked'],
  ['expiresOn', 'input[name="expiry"]:checked'],
];

export function CreateKeyForm({ csrfField, csrfToken, scopes, clients, nameMax, expiry, apiUrl }: Props) {
  const [state, formAction, pending] = useActionState<CreateKeyState, FormData>(createKeyAction, {});
  const errors = state.errors ?? {};
  const values = state.values;
  const form = useRef<HTMLFormElement>(null);

  // After a refused submit, focus the first field in error, so that it is read out and fixed first.
  useEffect(() => {
    const first = ERROR_FOCUS.find(([field]) => state.errors?.[field]);
    if (first) form.current?.querySelector<HTMLElement>(first[1])?.focus();
  }, [state]);

  const expiryChoice = values?.expiry ?? 'never';
  return (
    <>
      <form ref={form} action={formAction} className="stack" aria-describedby={errors.form ? 'key-form-error' : undefined}>
        <input type="hidden" name={csrfField} value={csrfToken} />
        {errors.form && <p id="key-form-error" className="form-error" role="alert" tabIndex={-1}>{errors.form}</p>}

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

        <fieldset className="field expiry" aria-describedby={errors.expiresOn ? 'key-expires-hint key-expires-error' : 'key-expires-hint'}>
          <legend>Expires</legend>
          <p id="key-expires-hint" className="hint">The key stops working at the end of its last day (UTC).</p>
          <div className="choices presets">
            <label className="choice compact">
              <input type="radio" name="expiry" value="never" defaultChecked={expiryChoice === 'never'} />
              <span>Never</span>
            </label>
            {expiry.presets.map((preset) => (
              <label key={preset.days} className="choice compact">
                <input type="radio" name="expiry" value={String(preset.days)} defaultChecked={expiryChoice === String(preset.days)} />
                <span>
                  {preset.days} days <span className="hint">until {preset.until}</span>
                </span>
              </label>
            ))}
            <label className="choice compact">
              <input type="radio" name="expiry" value="date" defaultChecked={expiryChoice === 'date'} />
              <span>On a day</span>
            </label>
          </div>
          {/* Shown by CSS while "On a day" is checked. `min`: the picker offers no day already over. */}
          <div className="expiry-day">
            <label htmlFor="key-expires">Last day</label>
            <input
              id="key-expires"
              name="expiresOn"
              type="date"
              min={expiry.today}
              defaultValue={values?.expiresOn}
              aria-invalid={errors.expiresOn ? true : undefined}
              aria-describedby={errors.expiresOn ? 'key-expires-error' : undefined}
            />
          </div>
          <FieldError id="key-expires-error" message={errors.expiresOn} />
        </fieldset>

        <div>
          <button type="submit" className="button primary" disabled={pending}>
            {pending ? 'Creating…' : 'Create key'}
          </button>
        </div>
      </form>
      {state.created && <NewKeyDialog key={state.created.id} created={state.created} apiUrl={apiUrl} />}
    </>
  );
}
