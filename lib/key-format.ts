// What an API key looks like: a fixed prefix and 43 base64url characters (32 random bytes). Kept apart,
// without imports, so that the production server's own code (lib/telemetry, which Node runs as it is)
// can tell a key too.
export const KEY_PREFIX = 'mk_live_';
export const KEY_PATTERN = /^mk_live_[A-Za-z0-9_-]{43}$/;
