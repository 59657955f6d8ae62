'use server';
// Key creation, rotation, editing and revocation. Each runs the admin action checks (Origin, session,
// CSRF token, admin role) before reading the form: a member or a forged post changes nothing. Creating,
// rotating and revoking also need a recently proved password (sudo mode: requireRecentSignIn).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { InvalidKeyRequest, isRotationOverlap } from '@/lib/keys/issuing';
import { formArgument, statefulFormArguments } from '@/lib/session/action-arguments';
import { adminActionSession, authorizeAdminAction, requireRecentSignIn, SETTINGS_HOME } from '@/lib/session/current';
import { signInPathReturningTo } from '@/lib/session/return-to';
import { createOrgApiKey, revokeOrgApiKey, rotateOrgApiKey, updateOrgApiKey } from '@/lib/keys/management';
import { parseKeyDetailsForm, parseKeyForm, type KeyDetailsErrors, type KeyFormErrors } from '@/lib/settings/key-form';

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

export async function createKeyAction(previous: unknown, submitted: unknown): Promise<CreateKeyState> {
  const formData = statefulFormArguments('createKeyAction', previous, submitted);
  const session = await adminActionSession(formData);
  if (!session) {
    return {
      errors: { form: 'Your session expired, so the key was not created. Sign in again: what you entered here will be filled in again.' },
      values: submittedValues(formData),
      signInAgain: signInPathReturningTo(SETTINGS_HOME, 'expired'),
    };
  }
  await requireRecentSignIn(session);
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

export async function revokeKeyAction(submitted: unknown): Promise<void> {
  const formData = formArgument('revokeKeyAction', submitted);
  const session = await authorizeAdminAction(formData);
  await requireRecentSignIn(session);
  const keyId = z.uuid().safeParse(formData.get('keyId'));
  // An unknown, foreign or already revoked key id changes nothing; the list shows the truth.
  if (keyId.success) await revokeOrgApiKey({ userId: session.user.id, orgId: session.membership.orgId }, keyId.data);
  revalidatePath(SETTINGS_HOME);
}

export interface RotateKeyState {
  error?: string;
  /** The successor: returned once, shown like a new key. */
  created?: { id: string; name: string; key: string };
}

export async function rotateKeyAction(previous: unknown, submitted: unknown): Promise<RotateKeyState> {
  const formData = statefulFormArguments('rotateKeyAction', previous, submitted);
  const session = await authorizeAdminAction(formData);
  await requireRecentSignIn(session);
  const keyId = z.uuid().safeParse(formData.get('keyId'));
  const overlap = formData.get('overlap');
  if (!isRotationOverlap(overlap)) return { error: 'Choose how long the old key keeps working.' };
  if (!keyId.success) return { error: 'There is no active key to rotate: it may have been revoked, have expired or have retired.' };
  try {
    const rotated = await rotateOrgApiKey({ userId: session.user.id, orgId: session.membership.orgId }, keyId.data, overlap);
    revalidatePath(SETTINGS_HOME);
    return { created: { id: rotated.id, name: rotated.name, key: rotated.key } };
  } catch (error) {
    // Revoked, expired, retired or rotated meanwhile (another tab, another admin), or the cap.
    if (error instanceof InvalidKeyRequest) return { error: error.message };
    throw error;
  }
}

export interface EditKeyState {
  errors?: KeyDetailsErrors & { form?: string };
  /** What was submitted, so that a refused form keeps its input (React resets a form after its action). */
  values?: { name: string; note: string };
  /** Set on each save, so that the dialog closes once per save. */
  savedAt?: number;
}

export async function editKeyAction(previous: unknown, submitted: unknown): Promise<EditKeyState> {
  const formData = statefulFormArguments('editKeyAction', previous, submitted);
  const session = await authorizeAdminAction(formData);
  const keyId = z.uuid().safeParse(formData.get('keyId'));
  const parsed = parseKeyDetailsForm(formData);
  if ('errors' in parsed) return { errors: parsed.errors, values: { name: String(formData.get('name') ?? ''), note: String(formData.get('note') ?? '') } };
  const saved = keyId.success && (await updateOrgApiKey({ userId: session.user.id, orgId: session.membership.orgId }, keyId.data, parsed.change));
  revalidatePath(SETTINGS_HOME);
  return saved ? { savedAt: Date.now() } : { errors: { form: 'There is no such key in your organisation.' } };
}
