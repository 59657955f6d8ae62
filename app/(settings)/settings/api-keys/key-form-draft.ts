'use client';
// A create-key form sent after its session had ended keeps what was entered: the action returns it,
// it waits in this tab's sessionStorage while the person signs in again, and fills the form in when
// they are back on the page, until the form is sent again. Nothing secret is in it (a name, scopes,
// client ids, an expiry).
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { CreateKeyState, KeyFormValues } from './actions';

const DRAFT_KEY = 'metrics-api:key-form-draft';

function readDraft(text: string): KeyFormValues | undefined {
  try {
    const value = JSON.parse(text) as Partial<KeyFormValues> | null;
    const strings = (list: unknown) => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
    if (!value || typeof value.name !== 'string') return undefined;
    return {
      name: value.name,
      scopes: strings(value.scopes),
      clientAccess: String(value.clientAccess ?? 'all'),
      clients: strings(value.clients),
      expiry: String(value.expiry ?? 'never'),
      expiresOn: String(value.expiresOn ?? ''),
    };
  } catch {
    return undefined;
  }
}

// sessionStorage tells other tabs of its changes, never this one: it is read again on every render.
const subscribe = () => () => {};

/**
 * Stores the input of a form refused for an ended session, and returns the input stored so, as long
 * as the form has not been answered since the page was loaded (`initial` is still the form's state).
 * The first answer drops it.
 */
export function useKeyFormDraft(state: CreateKeyState, initial: CreateKeyState): KeyFormValues | undefined {
  const saved = useSyncExternalStore(subscribe, () => sessionStorage.getItem(DRAFT_KEY), () => null);
  useEffect(() => {
    if (state.signInAgain && state.values) sessionStorage.setItem(DRAFT_KEY, JSON.stringify(state.values));
    else if (state !== initial) sessionStorage.removeItem(DRAFT_KEY);
  }, [state, initial]);
  const draft = useMemo(() => (saved === null ? undefined : readDraft(saved)), [saved]);
  return state === initial ? draft : undefined;
}
