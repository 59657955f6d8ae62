// What the request log keeps of a request's address: nothing that looks like a credential, and the
// API's own parameters (dates, UUIDs, names) as they were sent.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { allOperations } from '@/lib/operations/registry';
import { looksLikeCredential } from '@/lib/text/credential-redaction';
import { redactUrl } from '@/lib/usage/request-log-redaction';

const KEY = `mk_live_${'A1b2C3d4E5'.repeat(4)}abc`;

/** A character as `%XX`, as a client may write any character of a path. */
const percentEncoded = (character: string) => `%${character.charCodeAt(0).toString(16).padStart(2, '0')}`;

describe('redactUrl', () => {
  it('keeps the API’s own parameters: dates, client UUIDs, levels, searches, limits', () => {
    const url = 'http://localhost/api/v1/ads/entities?client=4f0c2a5e-9d1b-4c3a-8e7f-0a1b2c3d4e5f,5a6b7c8d-1e2f-4a3b-9c8d-7e6f5a4b3c2d&from=2026-06-01&to=2026-06-30&level=ad&search=summer+sale&limit=50';
    expect(redactUrl(url)).toEqual({
      path: '/api/v1/ads/entities',
      query: 'client=4f0c2a5e-9d1b-4c3a-8e7f-0a1b2c3d4e5f%2C5a6b7c8d-1e2f-4a3b-9c8d-7e6f5a4b3c2d&from=2026-06-01&to=2026-06-30&level=ad&search=summer+sale&limit=50',
    });
  });

  it('replaces a key, a token or a JWT wherever it is: a value, a parameter’s name, a path segment', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhYmMifQ.c2lnbmF0dXJl';
    const opaque = 'Zx9_kP2-qR7sT4uV1wX8yA3bC6dE0fG5hJ2kL9mN4pQ';
    const url = `http://localhost/api/v1/${KEY}/${opaque}?q=${KEY}&${KEY}=1&access_token=abc&apiKey=short&password=p&x=${jwt}&from=2026-06-01`;
    const { path, query } = redactUrl(url);
    expect(path).toBe('/api/v1/REDACTED/REDACTED');
    expect(query).toBe('q=REDACTED&REDACTED=REDACTED&access_token=REDACTED&apiKey=REDACTED&password=REDACTED&x=REDACTED&from=2026-06-01');
    for (const secret of [KEY, jwt, opaque, 'abc', 'short']) expect(`${path}?${query}`).not.toContain(secret);
  });

  it('cuts a long path and query to a bound', () => {
    const { path, query } = redactUrl(`http://localhost/${'a/'.repeat(1_000)}?${'b=1&'.repeat(1_000)}`);
    expect(path.length).toBe(512);
    expect(query.length).toBe(1_024);
  });

  it('takes no parameter name of the API for a credential’s, and no valid value of one for a credential', () => {
    for (const operation of allOperations()) {
      const schema = z.toJSONSchema(operation.query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> };
      for (const name of Object.keys(schema.properties ?? {})) {
        expect(redactUrl(`http://localhost/x?${name}=2026-06-01`).query, `${operation.id} ${name}`).toBe(`${name}=2026-06-01`);
      }
    }
    expect(looksLikeCredential('4f0c2a5e-9d1b-4c3a-8e7f-0a1b2c3d4e5f')).toBe(false);
    // The price of catching unknown token formats, and secrets split in pieces: a search of 32 or more
    // letters and digits in all, spaces or not, is taken for one too; a shorter one is kept.
    expect(looksLikeCredential('black-friday-campaign-2026-summer')).toBe(true);
    expect(looksLikeCredential('black friday campaign 2026 summer sale')).toBe(true);
    expect(looksLikeCredential('black friday 2026')).toBe(false);
  });

  describe('looks for a secret in the decoded text, whatever separates its pieces', () => {
    const secret = KEY.slice('mk_live_'.length);
    const [head, tail] = [secret.slice(0, 20), secret.slice(20)];

    it.each([
      ['a `+` (read as a space)', `q=${head}+${tail}`],
      ['an encoded comma', `q=${head}%2C${tail}`],
      ['an encoded space and a comma', `q=${head}%20,${tail}`],
      ['several separators, the key prefix split too', `q=mk%2Cli+ve_${head}+${tail}`],
    ])('a key split by %s in a query value', (_, query) => {
      expect(redactUrl(`http://localhost/api/v1/me?${query}&from=2026-06-01`).query).toBe('q=REDACTED&from=2026-06-01');
    });

    it.each([
      ['every character percent-encoded', [...KEY].map(percentEncoded).join('')],
      ['every eighth character percent-encoded', [...KEY].map((c, i) => (i % 8 === 0 ? percentEncoded(c) : c)).join('')],
      ['a secret split by an encoded space', `${head}%20${tail}`],
    ])('a key with %s in a path segment', (_, segment) => {
      expect(redactUrl(`http://localhost/api/v1/${segment}/overview`).path).toBe('/api/v1/REDACTED/overview');
    });

    it('keeps a path segment whose percent-encoding does not decode, as it came, when it holds nothing secret', () => {
      expect(redactUrl('http://localhost/api/v1/%E0%A4%A/overview').path).toBe('/api/v1/%E0%A4%A/overview');
    });
  });

  it.each(['pwd', 'pass', 'user_pwd', 'PASS', 'passphrase'])('replaces every value of a parameter named %s', (name) => {
    expect(redactUrl(`http://localhost/api/v1/me?${name}=hunter2&from=2026-06-01`).query).toBe(`${name}=REDACTED&from=2026-06-01`);
  });
});
