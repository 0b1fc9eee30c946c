import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { countries } from '@app/db';
import { setupTestApp } from './test/app.js';
import { createCountry, userWithToken } from './test/factories.js';

// An office in New York (APP_TIMEZONE): every time the server names, and the zone it tells the web, are New York's
// (decision 060). Five hours behind UTC in winter.
const t = await setupTestApp({ APP_TIMEZONE: 'America/New_York' });
const admin = await userWithToken(t.app, t.db, 'Administrator');
const api = (method: 'get' | 'put' | 'delete', path: string) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${admin.token}`);

describe('the office time zone (APP_TIMEZONE)', () => {
  it('is told to the web with the user, at login and by /auth/me', async () => {
    expect((await api('get', '/auth/me')).body.timezone).toBe('America/New_York');
    const login = await t.http().post('/api/v1.0/auth/login').send({ username: admin.login, password: admin.password });
    expect(login.body).toMatchObject({ timezone: 'America/New_York', user: { id: admin.id } });
  });

  it("names the time of another user's change on the office's clock, for a stale save and a stale delete", async () => {
    const c = await createCountry(t.db);
    const seen = c.edit_timestamp.toISOString();
    // Changed by someone else at 15:30 UTC on 10 January: 10:30 in New York.
    await t.db.update(countries).set({ cntry_name: 'Changed meanwhile', edit_timestamp: new Date('2026-01-10T15:30:00Z') }).where(eq(countries.id, c.id));
    const put = await api('put', `/countries/${c.id}`).set('If-Match', seen).send({ id: c.id, cntry_name: 'Mine' });
    expect(put.status).toBe(409);
    expect(put.body.message).toContain(' at 10-01-2026 10:30 after you opened it');
    const del = await api('delete', `/countries/${c.id}`).set('If-Match', seen);
    expect(del.status).toBe(409);
    expect(del.body.message).toContain(' at 10-01-2026 10:30 after you opened it');
  });
});
