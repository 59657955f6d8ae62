'use server';
// Key creation and revocation. Each runs the admin action checks (Origin, session, CSRF token, admin
// role) before reading the form: a member or a forged post changes nothing.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { InvalidKeyRequest } from '@/lib/auth/api-keys';
import { adminActionSession, authorizeAdminAction, SETTINGS_HOME } from '@/lib/session/current';
import { signInPathReturningTo } from '@/lib/session/return-to';
import { createOrgApiKey, revokeOrgApiKey } from '@/lib/settings/api-keys';
import { parseKeyForm, type KeyFormErrors } from '@/lib/settings/key-form';

export interface KeyFormValues {
  name: string;
  scopes: string[];
  clientAccess: string;
  clients: string[];
  expiry: string;
  expiresOn: string;
}

export interface CreateKeyState {
  errors?: KeyFormErrors;
  /** What was submitted, so that a form with errors keeps its input. */
  values?: KeyFormValues;
  /** The new key: returned once, held only by the page that asked for it. */
  created?: { id: string; name: string; key: string };
  /** The session had ended: where to sign in again. The page keeps `values` meanwhile and fills them in again after. */
  signInAgain?: string;
}

function submittedValues(formData: FormData): KeyFormValues {
  const text = (name: string) => String(formData.get(name) ?? '');
  return {
    name: text('name'),
    scopes: formData.getAll('scopes').map(String),
    clientAccess: text('clientAccess') || 'all',
    clients: formData.getAll('clients').map(String),
    expiry: text('expiry') || 'never',
    expiresOn: text('expiresOn'),
  };
}

export async function createKeyAction(_previous: CreateKeyState, formData: FormData): Promise<CreateKeyState> {
  const session = await adminActionSession(formData);
  if (!session) {
    return {
      errors: { form: 'Your session expired, so the key was not created. Sign in again: what you entered here will be filled in again.' },
      values: submittedValues(formData),
      signInAgain: signInPathReturningTo(SETTINGS_HOME, 'expired'),
    };
  }
  const parsed = parseKeyForm(formData);
  if ('errors' in parsed) return { errors: parsed.errors, values: submittedValues(formData) };
  try {
    const created = await createOrgApiKey({ userId: session.user.id, orgId: session.membership.orgId }, parsed.request);
    revalidatePath(SETTINGS_HOME);
    return { created: { id: created.id, name: created.name, key: created.key } };
  } catch (error) {
    // createApiKey's own checks (e.g. a client that left the organisation meanwhile).
    if (error instanceof InvalidKeyRequest) return { errors: { form: error.message }, values: submittedValues(formData) };
    throw error;
  }
}

export async function revokeKeyAction(formData: FormData): Promise<void> {
  const session = await authorizeAdminAction(formData);
  const keyId = z.uuid().safeParse(formData.get('keyId'));
  // An unknown, foreign or already revoked key id changes nothing; the list shows the truth.
  if (keyId.success) await revokeOrgApiKey({ userId: session.user.id, orgId: session.membership.orgId }, keyId.data);
  revalidatePath(SETTINGS_HOME);
}
