import { PASSWORD_MAX_LENGTH } from '@/lib/session/credential-caps';

/** The password box of the sign-in form and of sudo mode's confirmation: the same cap and autofill hint. */
export function PasswordInput({ id, invalid, describedBy }: { id: string; invalid: boolean; describedBy?: string }) {
  return (
    <input
      id={id}
      name="password"
      type="password"
      autoComplete="current-password"
      required
      maxLength={PASSWORD_MAX_LENGTH}
      aria-invalid={invalid ? true : undefined}
      aria-describedby={describedBy}
    />
  );
}
