// The OAuth interaction cookies' key: shared by every instance, or the start is refused.
import { afterEach, describe, expect, it } from 'vitest';
import { checkCookieSecret, cookieKeys } from '@/lib/oauth/cookie-keys';

const saved = { INSTANCE_ID: process.env.INSTANCE_ID, OAUTH_COOKIE_SECRET: process.env.OAUTH_COOKIE_SECRET };

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('the OAuth cookie secret', () => {
  it('is OAUTH_COOKIE_SECRET when set, else a random key of this process', () => {
    process.env.OAUTH_COOKIE_SECRET = 'shared secret';
    expect(cookieKeys()).toEqual(['shared secret']);
    delete process.env.OAUTH_COOKIE_SECRET;
    const [one] = cookieKeys();
    expect(one).toMatch(/^[\w-]{43}$/);
    expect(cookieKeys()).not.toEqual([one]);
  });

  it('must be set when INSTANCE_ID says several instances serve the app', () => {
    delete process.env.OAUTH_COOKIE_SECRET;
    delete process.env.INSTANCE_ID;
    expect(() => checkCookieSecret()).not.toThrow();
    process.env.INSTANCE_ID = 'app-2';
    expect(() => checkCookieSecret()).toThrow('OAUTH_COOKIE_SECRET is not set, but INSTANCE_ID says several instances serve the app');
    process.env.OAUTH_COOKIE_SECRET = 'shared secret';
    expect(() => checkCookieSecret()).not.toThrow();
  });
});
