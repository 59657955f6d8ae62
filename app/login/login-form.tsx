'use client';
import { useActionState, useEffect, useState } from 'react';
import { RETURN_TO_FIELD } from '@/lib/session/return-to';
import { EMAIL_MAX_LENGTH } from '@/lib/session/credential-caps';
import { PasswordInput } from './password-input';
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
      {state.retryAfter !== undefined && <Countdown key={state.retryAfter} seconds={state.retryAfter} />}
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
        <PasswordInput id="password" invalid={Boolean(state.fieldErrors?.password)} describedBy={state.fieldErrors?.password ? 'password-error' : undefined} />
        {state.fieldErrors?.password && <p id="password-error" className="field-error">{state.fieldErrors.password}</p>}
      </div>
      <button type="submit" className="button primary" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

/** "14 min 05 s": read out as a duration, where "14:05" would be read as a time of day. */
function duration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return minutes > 0 ? `${minutes} min ${rest} s` : `${seconds % 60} s`;
}

/**
 * The time left before the throttle lets a sign-in through, counting down each second. A timer
 * (role="timer") is not read out on every change; the alert above said how long to wait.
 */
function Countdown({ seconds }: { seconds: number }) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    // From the clock, not by counting ticks: a background tab's timers are slowed down.
    const end = Date.now() + seconds * 1000;
    const timer = setInterval(() => {
      const now = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      setLeft(now);
      if (now === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  return (
    <p className="hint" role="timer">
      {left > 0 ? `You can try again in ${duration(left)}.` : 'You can try again now.'}
    </p>
  );
}
