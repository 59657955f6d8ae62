'use client';
import { useActionState } from 'react';
import { RETURN_TO_FIELD } from '@/lib/session/return-to';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '@/lib/session/credential-caps';
import { signInAction, type SignInState } from './actions';

/** `returnTo`: where to go after signing in (already checked by safeReturnTo), else the settings. */
export function LoginForm({ returnTo }: { returnTo: string | null }) {
  const [state, formAction, pending] = useActionState<SignInState, FormData>(signInAction, { email: '' });
  return (
    <form action={formAction} className="stack" noValidate>
      {returnTo && <input type="hidden" name={RETURN_TO_FIELD} value={returnTo} />}
      {state.error && (
        <p className="form-error" role="alert">
          {state.error}
        </p>
      )}
      <div className="field">
        <label htmlFor="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          maxLength={EMAIL_MAX_LENGTH}
          defaultValue={state.email}
          aria-invalid={state.fieldErrors?.email ? true : undefined}
          aria-describedby={state.fieldErrors?.email ? 'email-error' : undefined}
        />
        {state.fieldErrors?.email && <p id="email-error" className="field-error">{state.fieldErrors.email}</p>}
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={PASSWORD_MAX_LENGTH}
          aria-invalid={state.fieldErrors?.password ? true : undefined}
          aria-describedby={state.fieldErrors?.password ? 'password-error' : undefined}
        />
        {state.fieldErrors?.password && <p id="password-error" className="field-error">{state.fieldErrors.password}</p>}
      </div>
      <button type="submit" className="button primary" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
