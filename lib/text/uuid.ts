// The text form of a UUID as PostgreSQL's `uuid` type reads it back: 8-4-4-4-12 hex digits, either
// case, any version. Used where a string may or may not be one of our ids (an id or a platform id, a
// request id, a command-line argument) and must be told apart before it reaches SQL or
// a log. Query parameters use zod's `z.uuid()` instead, which also checks the version and variant.
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
