// What OAuth input we take, without a server: parameters (control characters, the length cap, in names
// too), client metadata from JSON text (nesting bounded before parsing; strings, keys and client_name
// checked everywhere in it) and the depth reading itself.
import { describe, expect, it } from 'vitest';
import { OAUTH_INPUT_CAPS, parameterProblem, parseClientMetadata } from '@/lib/oauth/request-rules';
import { jsonDepthWithin } from '@/lib/text/json-depth';

const REDIRECT = 'http://127.0.0.1:1/cb';

describe('parameterProblem', () => {
  it('accepts plain values up to the cap, whatever their script or direction marks', () => {
    expect(parameterProblem(new URLSearchParams({ state: 's'.repeat(OAUTH_INPUT_CAPS.value), login_hint: 'Zürich 東京 \u202E', scope: '' }))).toBeNull();
  });

  it.each([
    ['a NUL', 'state=a%00b', 'state must not contain control characters'],
    ['a line break', 'login_hint=a%0Ab', 'login_hint must not contain control characters'],
    ['a C1 control', 'ui_locales=%C2%85', 'ui_locales must not contain control characters'],
    ['DEL', 'client_id=%7F', 'client_id must not contain control characters'],
    ['a value one over the cap', `state=${'s'.repeat(2049)}`, 'state must be at most 2048 characters long'],
    ['a control in a name', 'st%00ate=1', 'parameter names must be plain text of at most 2048 characters'],
    ['a name over the cap', `${'n'.repeat(2049)}=1`, 'parameter names must be plain text of at most 2048 characters'],
  ])('refuses %s', (_label, query, problem) => {
    expect(parameterProblem(new URLSearchParams(query))).toBe(problem);
  });
});

describe('parseClientMetadata', () => {
  const refused = (description: string) => ({ error: 'invalid_client_metadata', error_description: description });
  const text = (metadata: Record<string, unknown>) => JSON.stringify({ redirect_uris: [REDIRECT], ...metadata });

  it('reads and normalises an acceptable document', () => {
    expect(parseClientMetadata(text({ client_name: 'Claude', client_uri: 'https://claude.ai' }))).toEqual({
      metadata: { redirect_uris: [REDIRECT], client_name: 'Claude', client_uri: 'https://claude.ai', application_type: 'native' },
    });
  });

  it('refuses what is not a JSON object', () => {
    for (const body of ['', 'not json', '[]', 'null', '"text"', '{"a":']) expect(parseClientMetadata(body)).toEqual(refused('client metadata must be a JSON object'));
  });

  it(`bounds nesting at ${OAUTH_INPUT_CAPS.jsonDepth} levels before parsing`, () => {
    const nested = (depth: number) => text({ extra: JSON.parse(`${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}`) as unknown });
    expect(parseClientMetadata(nested(20))).toMatchObject({ metadata: { redirect_uris: [REDIRECT] } });
    expect(parseClientMetadata(nested(21))).toEqual(refused('client metadata must not nest more than 20 levels deep'));
    expect(parseClientMetadata(`{"x":${'['.repeat(20_000)}${']'.repeat(20_000)}}`)).toEqual(refused('client metadata must not nest more than 20 levels deep'));
  });

  it.each([
    ['a NUL', 'a\u0000b'],
    ['a tab', 'a\tb'],
    ['a right-to-left override', 'Backup\u202Etxt.exe'],
    ['a pop directional formatting', 'a\u202Cb'],
    ['a left-to-right isolate', 'a\u2066b'],
    ['a pop directional isolate', 'a\u2069b'],
    ['a left-to-right mark', 'a\u200Eb'],
    ['a zero-width space', 'Cl\u200Baude'],
    ['a line separator', 'Cl\u2028aude'],
    ['a tag character', 'Claude\u{E0041}'],
    ['a soft hyphen', 'Cl\u00ADaude'],
    ['an Arabic letter mark', 'a\u061Cb'],
  ])('refuses %s in client_name and its language variants', (_label, name) => {
    const message = (field: string) => refused(`${field} must not contain control characters or invisible characters (such as text-direction controls or zero-width spaces)`);
    expect(parseClientMetadata(text({ client_name: name }))).toEqual(message('client_name'));
    expect(parseClientMetadata(text({ 'client_name#ar': name }))).toEqual(message('client_name#ar'));
  });

  it('caps client_name at 255 characters and wants it a string', () => {
    expect(parseClientMetadata(text({ client_name: 'n'.repeat(255) }))).toMatchObject({ metadata: { client_name: 'n'.repeat(255) } });
    expect(parseClientMetadata(text({ client_name: 'n'.repeat(256) }))).toEqual(refused('client_name must be at most 255 characters long'));
    expect(parseClientMetadata(text({ client_name: ['a'] }))).toEqual(refused('client_name must be a string'));
  });

  it('refuses control characters and over-long strings anywhere, keys included; direction marks elsewhere are text', () => {
    expect(parseClientMetadata(text({ contacts: ['ok@example.com', 'a\u0000@example.com'] }))).toEqual(refused('contacts must not contain control characters'));
    expect(parseClientMetadata(text({ policy_uri: `https://app.example/${'p'.repeat(2048)}` }))).toEqual(refused('policy_uri must hold strings of at most 2048 characters'));
    expect(parseClientMetadata(text({ jwks: { keys: [{ ['k'.repeat(2049)]: 1 }] } }))).toEqual(refused('the keys in jwks must be plain text of at most 2048 characters'));
    expect(parseClientMetadata(text({ 'x\u0001': 1 }))).toEqual(refused('field names must be plain text of at most 2048 characters'));
    expect(parseClientMetadata(text({ redirect_uris: [`${REDIRECT}\u0000`] }))).toEqual(refused('redirect_uris must not contain control characters'));
    expect(parseClientMetadata(text({ software_id: 'a\u202Eb' }))).toMatchObject({ metadata: { software_id: 'a\u202Eb' } });
  });

  it('leaves redirect URI problems as invalid_redirect_uri', () => {
    expect(parseClientMetadata('{}')).toEqual({ error: 'invalid_redirect_uri', error_description: 'redirect_uris must be a non-empty array of URIs' });
  });
});

describe('jsonDepthWithin', () => {
  it('counts arrays and objects, not brackets in strings or after escaped quotes', () => {
    expect(jsonDepthWithin('1', 0)).toBe(true);
    expect(jsonDepthWithin('{"a":[{"b":[]}]}', 4)).toBe(true);
    expect(jsonDepthWithin('{"a":[{"b":[]}]}', 3)).toBe(false);
    expect(jsonDepthWithin('["[[[[", "\\"[[[", "\\\\", []]', 2)).toBe(true);
    expect(jsonDepthWithin('["\\\\", [[]]]', 2)).toBe(false);
    expect(jsonDepthWithin('[[],[],[],[]]', 2)).toBe(true);
  });
});
