// The problems parseQuery lists for a query string, for unit tests of query schemas; a query that is
// accepted fails the test.
import { expect } from 'vitest';
import { ApiError } from '@/lib/contract/errors';
import { parseQuery } from '@/lib/contract/query';

export function queryProblems(schema: Parameters<typeof parseQuery>[1], query: string): { path: string; message: string }[] {
  try {
    parseQuery(new URLSearchParams(query), schema);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('validation_failed');
    return (error as ApiError).errors ?? [];
  }
  throw new Error(`"${query}" was accepted`);
}
