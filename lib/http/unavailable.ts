// Which failures are transient (503 `unavailable`) rather than bugs (500 `internal`).
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57014', // query_canceled: a statement ran over statement_timeout (lib/db.ts)
  '25P03', // idle_in_transaction_session_timeout ended the session
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000', // connection_exception
  '08001',
  '08003',
  '08006',
  'P1001', // Prisma: can't reach database server
  'P1002',
  'P2024', // Prisma: timed out fetching a connection from the pool
]);

const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection refused/i,
  // lib/db-answer-bound.ts: the server answered nothing within the client's bound.
  /query read timeout/i,
  // Prisma (P2028): no connection, or no answer to BEGIN, within the transaction's maxWait.
  /unable to start a transaction in the given time/i,
];

export function isUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown[] };
    if (typeof candidate.code === 'string' && TRANSIENT_CODES.has(candidate.code)) return true;
    if (typeof candidate.message === 'string' && TRANSIENT_MESSAGES.some((re) => re.test(candidate.message as string))) return true;
    if (Array.isArray(candidate.errors) && candidate.errors.some((inner) => isUnavailable(inner))) return true;
    current = candidate.cause;
  }
  return false;
}
