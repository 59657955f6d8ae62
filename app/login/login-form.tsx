'use client';
import { useActionState } from 'react';
import { signInAction, type SignInState } from './actions';

export function LoginForm() {
  const [state, formAction, pending] = useActionState<SignInState, FormData>(signInAction, { email: '' });
  return (
    <form action={formAction} className="stack" noValidate>
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
