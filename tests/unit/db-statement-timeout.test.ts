// DATABASE_STATEMENT_TIMEOUT, read as PostgreSQL reads a time setting: the statement timeout and, a
// second above it, the client's own bound on a query (lib/db.ts).
import { describe, expect, it } from 'vitest';
import { statementTimeoutMs } from '@/lib/db';

describe('statementTimeoutMs', () => {
  it('reads a time as PostgreSQL does, in milliseconds without a unit', () => {
    expect(statementTimeoutMs('10s')).toBe(10_000);
    expect(statementTimeoutMs('500ms')).toBe(500);
    expect(statementTimeoutMs('1.5 s')).toBe(1_500);
    expect(statementTimeoutMs('2min')).toBe(120_000);
    expect(statementTimeoutMs('250')).toBe(250);
  });

  it('refuses anything else, and zero, which would leave statements unbounded', () => {
    for (const value of ['0', '0s', '10 seconds', '-1s', 's', '']) {
      expect(() => statementTimeoutMs(value)).toThrow(`DATABASE_STATEMENT_TIMEOUT must be a positive time such as 10s or 500ms, not ${JSON.stringify(value)}`);
    }
  });
});
