// The contract helpers themselves: they accept what the spec allows and reject what it does not.
import { describe, expect, it } from 'vitest';
import { meOperation } from '@/lib/account/operations';
import { ApiError } from '@/lib/contract/errors';
import { problemResponse } from '@/lib/operations/problems';
import { jsonResponse } from '@/lib/rest/responses';
import { expectContract, expectProblem } from '../support/contract';

const me = {
  data: {
    key: { id: 'k1', name: 'n', prefix: 'mk_live_abcd', expiresAt: null },
    org: { id: 'o1', name: 'Org' },
    scopes: ['ads:read'],
    clientIds: null,
  },
  meta: { timezone: 'Asia/Kolkata', syncedAt: null },
};

describe('expectContract', () => {
  it('accepts a body matching the operation schema and returns it', async () => {
    const body = await expectContract(meOperation, jsonResponse(me));
    expect(body).toEqual(me);
  });

  it('rejects an extra key in data, in meta, and a wrong timezone', async () => {
    await expect(expectContract(meOperation, jsonResponse({ ...me, data: { ...me.data, extra: 1 } }))).rejects.toThrow(/OpenAPI schema/);
    await expect(expectContract('getMe', jsonResponse({ ...me, meta: { ...me.meta, page: 1 } }))).rejects.toThrow(/OpenAPI schema/);
    await expect(expectContract('getMe', jsonResponse({ ...me, meta: { timezone: 'UTC', syncedAt: null } }))).rejects.toThrow(/OpenAPI schema/);
  });

  it('rejects a CORS header and a missing Cache-Control', async () => {
    const cors = jsonResponse(me, { 'Access-Control-Allow-Origin': '*' });
    await expect(expectContract(meOperation, cors)).rejects.toThrow();
    await expect(expectContract(meOperation, Response.json(me))).rejects.toThrow();
  });
});

describe('expectProblem', () => {
  it('accepts the registry problem and returns it', async () => {
    const body = await expectProblem(problemResponse(new ApiError('forbidden', 'lacks ads:read')), 403, 'forbidden');
    expect(body.detail).toBe('lacks ads:read');
  });

  it('rejects a wrong status, a wrong code and a 400 without errors[]', async () => {
    await expect(expectProblem(problemResponse(new ApiError('forbidden', 'x')), 404, 'not_found')).rejects.toThrow();
    await expect(expectProblem(problemResponse(new ApiError('validation_failed', 'x')), 400, 'validation_failed')).rejects.toThrow();
  });
});
