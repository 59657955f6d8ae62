// How the cap on an organisation's request log is shared among its credentials: the credentials with
// the most rows give them up first, and one with few keeps them all.
import { describe, expect, it } from 'vitest';
import { rowsKeptPerCredential } from '@/lib/usage/request-log';

describe('rowsKeptPerCredential', () => {
  it('keeps everything when the organisation is within its cap', () => {
    expect(rowsKeptPerCredential([40, 60], 100)).toBeNull();
    expect(rowsKeptPerCredential([], 100)).toBeNull();
  });

  it('cuts the credential with the most rows to what the others leave', () => {
    // One key's burst of 100,000 beside another key's 3 rows: the burst keeps 99,997.
    expect(rowsKeptPerCredential([100_000, 3], 100_000)).toBe(99_997);
    expect(rowsKeptPerCredential([1, 500, 5], 10)).toBe(4);
  });

  it('shares the cap evenly among credentials that are all over their share', () => {
    expect(rowsKeptPerCredential([50, 50, 50], 100)).toBe(33);
  });

  it('keeps at least each credential’s newest row when there are more credentials than the cap', () => {
    expect(rowsKeptPerCredential([5, 5, 5], 2)).toBe(1);
  });
});
