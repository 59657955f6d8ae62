// The sign-in form's length caps, in a module of their own so that the form (a client component) can
// use them without pulling in the database or argon2. Longer values are refused before anything is
// looked up, counted or hashed (signInFieldErrors in ./sign-in).

/** The longest address SMTP can carry (RFC 5321: a 256-octet path less its angle brackets). */
export const EMAIL_MAX_LENGTH = 254;

/** Argon2's time grows with the input, so a longer password is refused before any hashing. */
export const PASSWORD_MAX_LENGTH = 1024;
