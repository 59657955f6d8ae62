// What the fuzz suites share: the seed of a run (FUZZ_SEED, else random; FUZZ_PATH replays one
// counterexample), percent-encoding byte by byte, and hostile values. Raw values are already encoded
// for a query string or form body (or deliberately broken); texts are what a caller means to send.

export const FUZZ_SEED = process.env.FUZZ_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED);
export const FUZZ_PATH = process.env.FUZZ_PATH;
if (!Number.isSafeInteger(FUZZ_SEED)) throw new Error(`FUZZ_SEED must be an integer, got ${process.env.FUZZ_SEED}`);

/** Percent-encodes every UTF-8 byte but the unreserved characters (a lone surrogate becomes U+FFFD's bytes). */
export function encode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /^[A-Za-z0-9\-._~]$/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** C0 controls (NUL, tab, line breaks, escape…), DEL and C1 controls, raw. */
export const CONTROLS = ['%00', '%01', '%07', '%08', '%09', '%0A', '%0D', '%1B', '%1F', '%7F', '%C2%80', '%C2%85', '%C2%9F'];
/** Percent-encoding that is not valid, or valid UTF-8 of nothing printable: the server reads literals or U+FFFD. */
export const BROKEN_ENCODINGS = ['%', '%%', '%zz', '%0', '%G1', '%E2%82', '%ED%A0%80', '%ED%BF%BF', '%C0%80', '%FF', '%FE%FF', '%EF%BF%BE', '%F4%90%80%80'];
/** Unicode's text-direction controls (Bidi_Control), as texts. */
export const DIRECTION_CONTROLS = ['\u061C', '\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
/** Other invisible characters a name a person reads may not hold: zero-width and other format characters, separators, tags. */
export const INVISIBLES = ['\u200B', '\u200C', '\u200D', '\u2060', '\u00AD', '\uFEFF', '\u2028', '\u2029', '\u{E0041}', '\u{E007F}'];
export const TEXTS = [
  "' OR 1=1 --",
  '"; DROP TABLE api_keys; --',
  '%',
  '_',
  '%%',
  '\\',
  '*',
  '.*',
  '$1',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  '[]',
  '{}',
  ' ',
  '😀'.repeat(40),
  'é'.repeat(65),
  'ﷺ',
  'a\u0301',
  '\u202Eevil',
  '\uFEFF',
  '\uFFFD',
];
