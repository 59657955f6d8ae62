// Revoke for one connected app, on the list and on the app's page alike: the same words and confirmation.
import { CSRF_FIELD } from '@/lib/session/current';
import { RevokeButton } from '../../_components/revoke-button';

export function RevokeAppButton({ app, action, csrfToken }: { app: { grantId: string; clientName: string }; action: (formData: FormData) => Promise<void>; csrfToken: string }) {
  return (
    <RevokeButton
      id={app.grantId}
      idField="grantId"
      label={`Revoke ${app.clientName}`}
      title={`Revoke “${app.clientName}”?`}
      confirmLabel="Revoke access"
      action={action}
      csrfField={CSRF_FIELD}
      csrfToken={csrfToken}
      resultId="apps-title"
    >
      The app loses access at once: its next request is refused and it must ask for approval again.
    </RevokeButton>
  );
}
