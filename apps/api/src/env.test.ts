import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.js';

describe('loadEnv', () => {
  it('applies the defaults', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ PORT: 3000, ADMIN_USERNAME: 'admin', APP_TIMEZONE: 'Europe/Berlin', SESSION_HOURS: 10 });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('treats empty variables as unset', () => {
    const env = loadEnv({ ADMIN_PASSWORD: '', PORT: '' });
    expect(env.PORT).toBe(3000);
    expect(env.ADMIN_PASSWORD).toBeUndefined();
  });

  it('names the bad variable', () => {
    expect(() => loadEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadEnv({ ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD: ADMIN_PASSWORD must be at least 12 characters/);
    expect(() => loadEnv({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
  });

  it('requires JWT_SECRET in production', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET: required when NODE_ENV=production/);
    expect(loadEnv({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).NODE_ENV).toBe('production');
  });

  it('reads TRUST_PROXY as Express does: true/false, a hop count, or addresses', () => {
    expect(loadEnv({}).TRUST_PROXY).toBeUndefined();
    expect(loadEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadEnv({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toBe('loopback, 10.0.0.0/8');
  });
});
