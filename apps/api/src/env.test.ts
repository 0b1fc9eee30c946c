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
    // A URL of another database is refused by name too (it passed, and the start failed connecting).
    expect(() => loadEnv({ DATABASE_URL: 'mysql://x@127.0.0.1/db' })).toThrow(/DATABASE_URL must be a postgres:\/\/ URL/);
    expect(loadEnv({ DATABASE_URL: 'postgresql://x@127.0.0.1/db' }).DATABASE_URL).toBe('postgresql://x@127.0.0.1/db');
  });

  it("refuses an office IBAN or BIC that is not valid: students would be told to pay into it, and the bank debit it", () => {
    expect(loadEnv({}).OFFICE_IBAN).toBe('DE26 7005 0000 0000 0246 75');
    expect(loadEnv({ OFFICE_IBAN: 'de89 3704 0044 0532 0130 00', OFFICE_BIC: 'cobadeffxxx' })).toMatchObject({ OFFICE_IBAN: 'de89 3704 0044 0532 0130 00', OFFICE_BIC: 'cobadeffxxx' });
    expect(() => loadEnv({ OFFICE_IBAN: 'DE89 3704 0044 0532 0130 01' })).toThrow(/OFFICE_IBAN: OFFICE_IBAN is not a valid IBAN/);
    expect(() => loadEnv({ OFFICE_BIC: 'COBA DE' })).toThrow(/OFFICE_BIC: OFFICE_BIC is not a valid BIC/);
  });

  it('refuses an APP_TIMEZONE the runtime does not know, at the start rather than at the first date (decision 060)', () => {
    expect(() => loadEnv({ APP_TIMEZONE: 'Europe/Berln' })).toThrow(/APP_TIMEZONE: APP_TIMEZONE must be an IANA time zone such as Europe\/Berlin, not "Europe\/Berln"/);
    expect(() => loadEnv({ APP_TIMEZONE: 'CET+1' })).toThrow(/APP_TIMEZONE/);
    expect(loadEnv({ APP_TIMEZONE: 'America/New_York' }).APP_TIMEZONE).toBe('America/New_York');
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
