// Reads the "create API key" form into a KeyRequest, with one message per field for the page to show
// next to that field. Expiry is a calendar day: the key stops working at the end of that day (UTC).
import { z } from 'zod';
import { SCOPES } from '../auth/scopes';
import type { KeyRequest } from './api-keys';

export const KEY_NAME_MAX = 100;

export type KeyFormField = 'name' | 'scopes' | 'clients' | 'expiresOn';
export type KeyFormErrors = Partial<Record<KeyFormField | 'form', string>>;

const keyFormSchema = z.object({
  name: z.string().trim().min(1, 'Give the key a name.').max(KEY_NAME_MAX, `At most ${KEY_NAME_MAX} characters.`),
  scopes: z.array(z.enum(SCOPES, 'Unknown scope.')).min(1, 'Choose at least one scope.'),
  clientAccess: z.enum(['all', 'selected'], 'Choose which clients the key reads.'),
  clients: z.array(z.uuid('Unknown client.')),
  expiresOn: z.iso.date('Enter a date such as 2026-12-31.').optional(),
});

function endOfDayUtc(day: string): Date {
  return new Date(`${day}T23:59:59.999Z`);
}

export function parseKeyForm(formData: FormData, now = new Date()): { request: KeyRequest } | { errors: KeyFormErrors } {
  const expiresOn = formData.get('expiresOn');
  const input = {
    name: formData.get('name') ?? '',
    scopes: formData.getAll('scopes'),
    clientAccess: formData.get('clientAccess') ?? 'all',
    clients: formData.getAll('clients'),
    expiresOn: typeof expiresOn === 'string' && expiresOn !== '' ? expiresOn : undefined,
  };
  const parsed = keyFormSchema.safeParse(input);
  const errors: KeyFormErrors = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = (issue.path[0] === 'clientAccess' ? 'clients' : issue.path[0]) as KeyFormField;
    errors[field] ??= issue.message;
  }
  // Checked outside the schema so that it is reported together with every other field's problem.
  if (input.clientAccess === 'selected' && input.clients.length === 0) {
    errors.clients ??= 'Choose at least one client, or allow all clients.';
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { errors };
  const form = parsed.data;
  const expiresAt = form.expiresOn ? endOfDayUtc(form.expiresOn) : null;
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
