'use server';
// Revoking connected apps. The action checks (Origin, session, CSRF token) run before the form is
// read; a member can revoke only their own grants, an admin any of the organisation's. Like revoking
// a key, it needs a recently proved password (sudo mode: requireRecentSignIn).
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { revokeAllConnectedApps, revokeConnectedApp, type GrantViewer } from '@/lib/oauth/grants';
import { formArgument } from '@/lib/session/action-arguments';
import { authorizeAction, isAdmin, requireRecentSignIn, type CurrentSession } from '@/lib/session/current';

const LIST_PATH = '/settings/connected-apps';

function viewerOf(session: CurrentSession): GrantViewer | null {
  return session.membership ? { userId: session.user.id, orgId: session.membership.orgId, isAdmin: isAdmin(session) } : null;
}

/**
 * Revoke on the list: the row leaves it. An unknown, foreign or already revoked grant, or a value no
 * grant id can be, changes nothing; the list shows the truth.
 */
export async function revokeAppAction(submitted: unknown): Promise<void> {
  const formData = formArgument('revokeAppAction', submitted);
  const session = await authorizeAction(formData);
  await requireRecentSignIn(session);
  const viewer = viewerOf(session);
  const grantId = formData.get('grantId');
  if (viewer && typeof grantId === 'string') await revokeConnectedApp(viewer, grantId);
  revalidatePath(LIST_PATH, 'layout');
}

/** Revoke on an app's page: the page is gone with the grant, so back to the list. */
export async function revokeAppFromDetailAction(submitted: unknown): Promise<void> {
  await revokeAppAction(formArgument('revokeAppFromDetailAction', submitted));
  redirect(LIST_PATH);
}

/** "Revoke all apps": every grant the viewer sees (an admin, the organisation's; a member, their own). */
export async function revokeAllAppsAction(submitted: unknown): Promise<void> {
  const session = await authorizeAction(formArgument('revokeAllAppsAction', submitted));
  await requireRecentSignIn(session);
  const viewer = viewerOf(session);
  if (viewer) await revokeAllConnectedApps(viewer);
  revalidatePath(LIST_PATH, 'layout');
}
