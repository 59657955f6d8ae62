// The sign-in form's rules before anything is looked up: how an email is normalised for the exact
// lookup, the length caps, and control characters.
import { describe, expect, it } from 'vitest';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '@/lib/session/credential-caps';
import { normaliseEmail, signInFieldErrors } from '@/lib/session/sign-in';

describe('normaliseEmail', () => {
  it('trims and lower-cases, and nothing else: wildcards stay literal characters', () => {
    expect(normaliseEmail('  Admin@Demo.AGENCY \t')).toBe('admin@demo.agency');
    expect(normaliseEmail('%')).toBe('%');
    expect(normaliseEmail('%OTHER%')).toBe('%other%');
    expect(normaliseEmail('Member@demo.agenc_')).toBe('member@demo.agenc_');
    expect(normaliseEmail('a\\%b@x')).toBe('a\\%b@x');
  });
});

describe('signInFieldErrors', () => {
  const email = 'admin@demo.agency';

  it('accepts an email of up to 254 characters (after trimming) and a password of up to 1,024', () => {
    expect(EMAIL_MAX_LENGTH).toBe(254);
    expect(PASSWORD_MAX_LENGTH).toBe(1024);
    const longest = `${'a'.repeat(64)}@${'b'.repeat(254 - 65)}`;
    expect(signInFieldErrors(`  ${longest}  `, 'p'.repeat(1024))).toBeNull();
    expect(signInFieldErrors(email, 'pässwörd with spaces ✓')).toBeNull();
  });

  it('refuses longer values with a message about the field, whatever account they might name', () => {
    expect(signInFieldErrors(`${'a'.repeat(64)}@${'b'.repeat(254 - 64)}`, 'x')).toEqual({ email: 'An email address has at most 254 characters.' });
    expect(signInFieldErrors(email, 'p'.repeat(1025))).toEqual({ password: 'A password has at most 1,024 characters.' });
    expect(signInFieldErrors('e'.repeat(1_000_000), 'p'.repeat(1_000_000))).toEqual({
      email: 'An email address has at most 254 characters.',
      password: 'A password has at most 1,024 characters.',
    });
  });

  it.each(['\u0000', '\u0001', '\t', '\n', '\u007f', '\u0085', '\ud800'])('refuses %j in either field', (character) => {
    expect(signInFieldErrors(`admin${character}@demo.agency`, 'x')).toEqual({ email: 'The email address must not contain control characters.' });
    expect(signInFieldErrors(email, `demo${character}password`)).toEqual({ password: 'The password must not contain control characters.' });
  });

  it('asks for missing fields', () => {
    expect(signInFieldErrors('   ', '')).toEqual({ email: 'Enter your email address.', password: 'Enter your password.' });
  });
});
