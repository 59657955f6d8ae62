// The key-create CLI's argument handling: clear errors before anything touches the database.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HELP, parseKeyCreateArgs, UsageError } from '@/scripts/key-create';

describe('key:create --help', () => {
  it('prints what the command does and its options, with status 0, and touches no database', () => {
    for (const flag of ['--help', '-h']) {
      // No DATABASE_URL and no demo running: the help needs neither.
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/key-create.ts', flag], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe(`${HELP}\n`);
      expect(run.stdout.split('\n')[0]).toBe('Mints an API key and prints it once (only its SHA-256 is stored), or rotates a live key.');
    }
  });
});

describe('parseKeyCreateArgs', () => {
  it('reads every option', () => {
    expect(
      parseKeyCreateArgs([
        '--org', 'acme', '--scopes', 'ads:read, social:read,ads:read', '--clients', '7d1f3c2e-0000-4000-8000-000000000000',
        '--expires', '2026-12-31', '--name', 'Reporting server',
      ]),
    ).toEqual({
      org: 'acme',
      scopes: ['ads:read', 'social:read'],
      clientIds: ['7d1f3c2e-0000-4000-8000-000000000000'],
      // Valid through the whole of the given day (UTC).
      expiresAt: new Date('2027-01-01T00:00:00Z'),
      name: 'Reporting server',
    });
  });

  it('an expiry on the last day of year 9999 or of a leap February runs to the next midnight', () => {
    expect(parseKeyCreateArgs(['--org', 'acme', '--scopes', 'web:read', '--expires', '9999-12-31']).expiresAt).toEqual(new Date('+010000-01-01T00:00:00Z'));
    expect(parseKeyCreateArgs(['--org', 'acme', '--scopes', 'web:read', '--expires', '2028-02-29']).expiresAt).toEqual(new Date('2028-03-01T00:00:00Z'));
  });

  it('defaults to every client, no expiry and a generic name', () => {
    expect(parseKeyCreateArgs(['--org', 'acme', '--scopes', 'web:read'])).toMatchObject({ clientIds: null, expiresAt: null, name: 'CLI key' });
  });

  it.each([
    [['--scopes', 'ads:read'], /--org is required/],
    [['--org', 'acme'], /--scopes is required/],
    [['--org', 'acme', '--scopes', 'ads:write'], /Unknown scope ads:write/],
    [['--org', 'acme', '--scopes', 'ads:read', '--clients', ''], /at least one client/],
    [['--org', 'acme', '--scopes', 'ads:read', '--clients', 'nope'], /Not a client id/],
    [['--org', 'acme', '--scopes', 'ads:read', '--expires', '2026-02-30'], /YYYY-MM-DD/],
    [['--org', 'acme', '--scopes', 'ads:read', '--bogus'], /Unknown option/],
    [['--org', 'acme', '--scopes', 'ads:read', '--name', 'Backup\u202Etxt.exe'], /^--name: The name must not contain invisible characters, such as text-direction controls/],
    [['--org', 'acme', '--scopes', 'ads:read', '--name', 'Nul\u0000key'], /^--name: The name must not contain control characters/],
    [['--org', 'acme', '--scopes', 'ads:read', '--name', 'k'.repeat(101)], /^--name: At most 100 characters\.$/],
    [['--org', 'acme', '--scopes', 'ads:read', '--name', '  '], /^--name: Give the key a name\.$/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseKeyCreateArgs(argv)).toThrow(UsageError);
    expect(() => parseKeyCreateArgs(argv)).toThrow(message);
  });
});
