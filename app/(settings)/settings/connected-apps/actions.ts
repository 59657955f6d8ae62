'use server';
// Revoking a connected app. The action checks (Origin, session, CSRF token) run before the form is
// read; a member can revoke only their own grants, an admin any of the organisation's.
import { revalidatePath } from 'next/cache';
import { revokeConnectedApp } from '@/lib/oauth/grants';
import { authorizeAction, isAdmin } from '@/lib/session/current';
import { isPlainText } from '@/lib/text/plain-text';

/** Longer than any grant id the provider mints. */
const GRANT_ID_MAX = 128;

export async function revokeAppAction(formData: FormData): Promise<void> {
  const session = await authorizeAction(formData);
  const grantId = formData.get('grantId');
  // An unknown, foreign or already revoked grant, or a value no grant id can be (a control character
  // would not even reach PostgreSQL's text), changes nothing; the list shows the truth.
  if (session.membership && typeof grantId === 'string' && grantId.length > 0 && grantId.length <= GRANT_ID_MAX && isPlainText(grantId)) {
    await revokeConnectedApp({ userId: session.user.id, orgId: session.membership.orgId, isAdmin: isAdmin(session) }, grantId);
  }
  revalidatePath('/settings/connected-apps');
}
