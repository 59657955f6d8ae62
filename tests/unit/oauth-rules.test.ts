// The flow's rules that need no server: redirect kinds, client metadata normalisation, the scopes
// taken from what clients send, and where
// sign-in may return to. (The addresses a metadata document may be fetched from: oauth-metadata-fetch.test.ts.)
import { describe, expect, it } from 'vitest';
import { normaliseClientMetadata, offeredScopes, redirectKind, refreshFormWithOfferedScopes, staysOnDevice } from '@/lib/oauth/request-rules';
import { consentUidOf, safeReturnTo, signInPathReturningTo, signInReasonOf } from '@/lib/session/return-to';

describe('redirectKind', () => {
  it.each([
    ['https://claude.ai/api/mcp/auth_callback', 'web'],
    ['https://chatgpt.com/connector/oauth/abc', 'web'],
    ['http://localhost:8787/callback', 'loopback'],
    ['http://127.0.0.1/callback', 'loopback'],
    ['http://[::1]:3000/cb', 'loopback'],
    ['cursor://anysphere.cursor-mcp/oauth/callback', 'app'],
    ['http://client.example/callback', null],
    ['https://localhost/callback', null],
    ['javascript:alert(1)', null],
    ['data:text/html,x', null],
    ['file:///etc/passwd', null],
    ['https://client.example/cb#fragment', null],
    ['not a url', null],
  ])('%s is %s', (uri, kind) => {
    expect(redirectKind(uri)).toBe(kind);
  });

  it('says which redirects stay on this device', () => {
    expect(staysOnDevice('http://127.0.0.1:5000/cb')).toBe(true);
    expect(staysOnDevice('cursor://anysphere.cursor-mcp/oauth/callback')).toBe(true);
    expect(staysOnDevice('https://claude.ai/api/mcp/auth_callback')).toBe(false);
  });
});

describe('normaliseClientMetadata', () => {
  it('tolerates what we do not offer (a device_code grant, private_key_jwt) and drops a registered scope', () => {
    expect(
      normaliseClientMetadata({
        client_id: 'https://vscode.dev/oauth/client-metadata.json',
        redirect_uris: ['http://127.0.0.1:33418/', 'https://vscode.dev/redirect'],
        grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
        token_endpoint_auth_method: 'private_key_jwt',
        scope: '',
      }),
    ).toEqual({
      metadata: {
        client_id: 'https://vscode.dev/oauth/client-metadata.json',
        redirect_uris: ['http://127.0.0.1:33418/', 'https://vscode.dev/redirect'],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      },
    });
  });

  it('keeps a web client web and an explicit application_type as given', () => {
    expect(normaliseClientMetadata({ redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] })).toEqual({ metadata: { redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] } });
    expect(normaliseClientMetadata({ redirect_uris: ['http://localhost:1/cb'], application_type: 'web' })).toEqual({
      metadata: { redirect_uris: ['http://localhost:1/cb'], application_type: 'web' },
    });
  });

  it('refuses missing or unacceptable redirect URIs', () => {
    expect(normaliseClientMetadata({})).toEqual({ error: 'invalid_redirect_uri', error_description: 'redirect_uris must be a non-empty array of URIs' });
    expect(normaliseClientMetadata({ redirect_uris: ['https://ok.example/cb', 'http://evil.example/cb'] })).toEqual({
      error: 'invalid_redirect_uri',
      error_description: 'redirect URI not accepted (https, loopback http or an app scheme only): http://evil.example/cb',
    });
  });
});

describe('offeredScopes', () => {
  it.each([
    ['ads:read openid offline_access', ['ads:read']],
    ['openid', []],
    ['social:read  ads:read web:read', ['ads:read', 'social:read']],
    ['', []],
    [undefined, []],
  ])('%j gives %j', (scope, offered) => {
    expect(offeredScopes(scope)).toEqual(offered);
  });
});

describe('refreshFormWithOfferedScopes', () => {
  it('keeps the offered scopes of a refresh, drops a scope naming none, and leaves other forms as they came', () => {
    expect(refreshFormWithOfferedScopes('grant_type=refresh_token&refresh_token=r&scope=ads%3Aread+openid')).toBe('grant_type=refresh_token&refresh_token=r&scope=ads%3Aread');
    expect(refreshFormWithOfferedScopes('grant_type=refresh_token&refresh_token=r&scope=openid+offline_access')).toBe('grant_type=refresh_token&refresh_token=r');
    const untouched = ['grant_type=refresh_token&refresh_token=r', 'grant_type=authorization_code&code=c&scope=openid&resource=a&resource=b'];
    for (const form of untouched) expect(refreshFormWithOfferedScopes(form)).toBe(form);
  });
});

describe('safeReturnTo', () => {
  it('returns only to a consent screen or a settings page of this app', () => {
    for (const path of ['/consent/abc_DEF-123', '/settings/api-keys', '/settings/connected-apps', '/settings']) expect(safeReturnTo(path)).toBe(path);
    for (const value of [
      '//evil.example/consent/x',
      'https://evil.example/consent/x',
      '/consent/x/../../settings',
      '/consent/',
      '/\\evil.example',
      '//settings/api-keys',
      '/settings/../login',
      '/settings/api-keys?q=1',
      '/settings/api-keys#x',
      '/settingsx',
      '/settings/API-KEYS',
      '/login',
      null,
      undefined,
      ['/consent/x'],
    ]) {
      expect(safeReturnTo(value), String(value)).toBeNull();
    }
  });

  it('builds the sign-in address with the page to return to and why, and reads them back', () => {
    expect(signInPathReturningTo('/consent/abc')).toBe('/login?next=%2Fconsent%2Fabc');
    expect(signInPathReturningTo('/settings/api-keys', 'expired')).toBe('/login?next=%2Fsettings%2Fapi-keys&reason=expired');
    expect(signInPathReturningTo(null, 'expired')).toBe('/login?reason=expired');
    expect(signInPathReturningTo(null)).toBe('/login');
    expect(consentUidOf('/consent/abc_DEF-123')).toBe('abc_DEF-123');
    expect(consentUidOf('/settings/api-keys')).toBeNull();
    expect(consentUidOf(null)).toBeNull();
    expect(signInReasonOf('expired')).toBe('expired');
    expect(signInReasonOf('switch')).toBe('switch');
    for (const value of ['other', '', undefined, ['expired']]) expect(signInReasonOf(value)).toBeNull();
  });
});
