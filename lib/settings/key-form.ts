// Reads the "create API key" form into a KeyRequest, with one message per field for the page to show
// next to that field. Expiry is a calendar day: the key stops working at the end of that day (UTC);
// it is a preset (so many days from today) or a day chosen, never one already over.
import { z } from 'zod';
import { SCOPES } from '../contract/scopes';
import { isPlainName, isPlainText } from '../text/plain-text';
import type { KeyRequest } from '../keys/management';

export const KEY_NAME_MAX = 100;
export const KEY_NOTE_MAX = 500;

export type KeyFormField = 'name' | 'scopes' | 'clients' | 'expiresOn';
export type KeyFormErrors = Partial<Record<KeyFormField | 'form', string>>;

/** The expiry choices: no expiry, so many days from today, or the day in `expiresOn`. */
export const EXPIRY_PRESET_DAYS = [30, 90, 365] as const;
export const EXPIRY_CHOICES = ['never', ...EXPIRY_PRESET_DAYS.map(String), 'date'] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

/** Today in UTC as YYYY-MM-DD: the earliest day a key may expire on (the date field's `min`). */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The day `days` after today (UTC), as YYYY-MM-DD. */
export function dayAfter(days: number, now = new Date()): string {
  return todayUtc(new Date(now.getTime() + days * 86_400_000));
}

/** A key's name, from the form or the command line (scripts/key-create.ts). */
export const keyNameSchema = z
  .string()
  // Checked before trimming, so that a line break or tab at either end is refused too, not dropped.
  .refine(isPlainText, 'The name must not contain control characters, such as line breaks or tabs.')
  .refine(isPlainName, 'The name must not contain invisible characters, such as text-direction controls (U+202E), which make it display in another order, or zero-width spaces (U+200B).')
  .trim()
  .min(1, 'Give the key a name.')
  .max(KEY_NAME_MAX, `At most ${KEY_NAME_MAX} characters.`);

/** A key's optional note: plain text under the name rule (no control or invisible characters); empty is none. */
export const keyNoteSchema = z
  .string()
  .refine(isPlainText, 'The note must not contain control characters, such as line breaks or tabs.')
  .refine(isPlainName, 'The note must not contain invisible characters, such as text-direction controls (U+202E), which make it display in another order, or zero-width spaces (U+200B).')
  .trim()
  .max(KEY_NOTE_MAX, `At most ${KEY_NOTE_MAX} characters.`)
  .transform((note) => (note === '' ? null : note));

export type KeyDetailsErrors = Partial<Record<'name' | 'note', string>>;

/** Reads the "edit key" form: a new name and note, with one message per field. */
export function parseKeyDetailsForm(formData: FormData): { change: { name: string; note: string | null } } | { errors: KeyDetailsErrors } {
  const name = keyNameSchema.safeParse(formData.get('name') ?? '');
  const note = keyNoteSchema.safeParse(formData.get('note') ?? '');
  if (name.success && note.success) return { change: { name: name.data, note: note.data } };
  return {
    errors: {
      ...(name.success ? {} : { name: name.error.issues[0]!.message }),
      ...(note.success ? {} : { note: note.error.issues[0]!.message }),
    },
  };
}

const keyFormSchema = z.object({
  name: keyNameSchema,
  scopes: z.array(z.enum(SCOPES, 'Unknown scope.')).min(1, 'Choose at least one scope.'),
  clientAccess: z.enum(['all', 'selected'], 'Choose which clients the key reads.'),
  clients: z.array(z.uuid('Unknown client.')),
  expiry: z.enum(EXPIRY_CHOICES, 'Choose when the key expires.'),
  expiresOn: z.iso.date('Enter a date such as 2026-12-31.').optional(),
});

function endOfDayUtc(day: string): Date {
  return new Date(`${day}T23:59:59.999Z`);
}

export function parseKeyForm(formData: FormData, now = new Date()): { request: KeyRequest } | { errors: KeyFormErrors } {
  const expiry = formData.get('expiry') ?? 'never';
  // The day is read only when "On a day" is chosen: a day left in the hidden field means nothing.
  const expiresOn = expiry === 'date' ? formData.get('expiresOn') : null;
  const input = {
    name: formData.get('name') ?? '',
    scopes: formData.getAll('scopes'),
    clientAccess: formData.get('clientAccess') ?? 'all',
    clients: formData.getAll('clients'),
    expiry,
    expiresOn: typeof expiresOn === 'string' && expiresOn !== '' ? expiresOn : undefined,
  };
  const parsed = keyFormSchema.safeParse(input);
  const errors: KeyFormErrors = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = (issue.path[0] === 'clientAccess' ? 'clients' : issue.path[0] === 'expiry' ? 'expiresOn' : issue.path[0]) as KeyFormField;
    errors[field] ??= issue.message;
  }
  // Checked outside the schema so that it is reported together with every other field's problem.
  if (input.clientAccess === 'selected' && input.clients.length === 0) {
    errors.clients ??= 'Choose at least one client, or allow all clients.';
  }
  if (input.expiry === 'date' && input.expiresOn === undefined) errors.expiresOn ??= 'Choose the day the key expires.';
  if (!parsed.success || Object.keys(errors).length > 0) return { errors };
  const form = parsed.data;
  const expiryDay = form.expiry === 'never' ? null : form.expiry === 'date' ? form.expiresOn! : dayAfter(Number(form.expiry), now);
  const expiresAt = expiryDay ? endOfDayUtc(expiryDay) : null;
  // The date field's `min` stops a past day in the browser; this refuses one posted anyway.
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    return { errors: { expiresOn: 'Choose today or a later day.' } };
  }
  return {
    request: {
      name: form.name,
      scopes: form.scopes,
      clientIds: form.clientAccess === 'selected' ? form.clients : null,
      expiresAt,
    },
  };
}
