'use client';
import { useActionState, useEffect, useRef, useState, type FormEvent } from 'react';
import { DATA_USE_RULE } from '@/lib/contract/data-use';
import type { KeyFormErrors, KeyFormField } from '@/lib/settings/key-form';
import { createKeyAction, type CreateKeyState } from './actions';
import { useKeyFormDraft } from './key-form-draft';
import { ClientPicker, ExpiryField, NameField, ScopePicker, type ExpiryOptions, type ScopeOption } from './key-form-fields';
import { NewKeyDialog } from './new-key-dialog';
import { useSudoGuard } from '../../_components/sudo';

interface Props {
  csrfField: string;
  csrfToken: string;
  scopes: ScopeOption[];
  clients: { id: string; name: string }[];
  nameMax: number;
  expiry: ExpiryOptions;
  /** The address of /api/v1/me, for the example request in the show-once dialog. */
  apiUrl: string;
}

/** Where focus goes for each kind of error, in the form's order: the first one present is focused. */
const ERROR_FOCUS: [keyof KeyFormErrors & string, string][] = [
  ['form', '#key-form-error'],
  ['name', '#key-name'],
  ['scopes', 'input[name="scopes"]'],
  ['clients', 'input[name="clientAccess"]:checked'],
  ['expiresOn', 'input[name="expiry"]:checked'],
];

/** The form's ref: after a refused submit, the first field in error is focused, so that it is read out and fixed first. */
function useFirstErrorFocus(state: CreateKeyState) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const first = ERROR_FOCUS.find(([field]) => state.errors?.[field]);
    if (first) form.current?.querySelector<HTMLElement>(first[1])?.focus();
  }, [state]);
  return form;
}

/** Which field's message each input belongs to. */
const FIELD_OF_INPUT: Record<string, KeyFormField> = {
  name: 'name',
  scopes: 'scopes',
  clientAccess: 'clients',
  clients: 'clients',
  expiry: 'expiresOn',
  expiresOn: 'expiresOn',
};

/**
 * The messages of the last answer, less those of the fields changed since: a message about a value
 * no longer on screen ("Choose at least one scope" under ticked scopes) would mislead. A new answer
 * brings every message back.
 */
function useCurrentErrors(state: CreateKeyState): [KeyFormErrors, (event: FormEvent<HTMLFormElement>) => void] {
  const [changed, setChanged] = useState<{ answer: CreateKeyState; fields: KeyFormField[] }>({ answer: state, fields: [] });
  const fields = changed.answer === state ? changed.fields : [];
  const errors = Object.fromEntries(Object.entries(state.errors ?? {}).filter(([field]) => !(fields as string[]).includes(field))) as KeyFormErrors;
  function onChange(event: FormEvent<HTMLFormElement>) {
    const field = FIELD_OF_INPUT[(event.target as HTMLInputElement).name];
    if (field && !fields.includes(field)) setChanged({ answer: state, fields: [...fields, field] });
  }
  return [errors, onChange];
}

const INITIAL_STATE: CreateKeyState = {};

export function CreateKeyForm({ csrfField, csrfToken, scopes, clients, nameMax, expiry, apiUrl }: Props) {
  const [state, formAction, pending] = useActionState<CreateKeyState, FormData>(createKeyAction, INITIAL_STATE);
  const form = useFirstErrorFocus(state);
  const draft = useKeyFormDraft(state, INITIAL_STATE);
  const [errors, onChange] = useCurrentErrors(state);
  const guard = useSudoGuard();
  const values = draft ?? state.values;
  return (
    <>
      {/* Keyed: the fields take their values when they mount, so a restored draft mounts them anew. */}
      <form
        key={draft ? 'restored' : 'form'}
        ref={form}
        action={formAction}
        onSubmit={guard}
        onChange={onChange}
        className="stack"
        aria-describedby={errors.form ? 'key-form-error' : undefined}
      >
        <input type="hidden" name={csrfField} value={csrfToken} />
        {draft && <p className="notice" role="status">You signed in again: what you had entered is filled in. Check it and create the key.</p>}
        {errors.form && (
          <p id="key-form-error" className="form-error" role="alert" tabIndex={-1}>
            {errors.form}
            {state.signInAgain && <> <a href={state.signInAgain}>Sign in again</a></>}
          </p>
        )}
        <NameField max={nameMax} value={values?.name} error={errors.name} />
        <ScopePicker scopes={scopes} checked={values?.scopes} error={errors.scopes} />
        <ClientPicker clients={clients} access={values?.clientAccess} checked={values?.clients} error={errors.clients} />
        <ExpiryField options={expiry} choice={values?.expiry} day={values?.expiresOn} error={errors.expiresOn} />
        <p className="hint" id="data-use">
          <strong>Use of the data.</strong> {DATA_USE_RULE} Whoever holds the key is bound by this.
        </p>
        <div>
          <button type="submit" className="button primary" disabled={pending}>
            {pending ? 'Creating…' : 'Create key'}
          </button>
        </div>
      </form>
      {state.created && (
        <>
          <NewKeyDialog key={state.created.id} created={state.created} apiUrl={apiUrl} csrf={{ field: csrfField, token: csrfToken }} />
          <NewRowHighlight id={state.created.id} />
        </>
      )}
    </>
  );
}

/**
 * Marks the new key's row in the list (a server-rendered table this form cannot reach) until the form
 * is used again. The id is a UUID from the server, so it is safe inside the selector.
 */
function NewRowHighlight({ id }: { id: string }) {
  return <style>{`.key-table tr[data-key-id="${id}"] { background: var(--new-row-bg); }`}</style>;
}
