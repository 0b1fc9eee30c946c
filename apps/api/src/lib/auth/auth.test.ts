import { describe, expect, it, vi } from 'vitest';
import jwt from 'jsonwebtoken';
import bcrypt from 'bcryptjs';
import { and, eq } from 'drizzle-orm';
import { EVENT_TYPE_IDS } from '@app/contracts';
import { countries, logEvents, sessions, users } from '@app/db';
import { setupTestApp, TEST_JWT_SECRET } from '../../test/app.js';
import { createUser, loginToken, PASSWORD, userWithToken } from '../../test/factories.js';

const t = await setupTestApp();
// The test client connects from loopback: with TRUST_PROXY=loopback, X-Forwarded-For names the client address.
const throttled = { TRUST_PROXY: 'loopback', LOGIN_DELAY_SECONDS: '60', LOGIN_MAX_DELAY_MINUTES: '10' };
const accountLimited = await setupTestApp({ ...throttled, LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_ADDRESS: '100' });
const addressLimited = await setupTestApp({ ...throttled, LOGIN_MAX_FAILURES_PER_ACCOUNT: '100', LOGIN_MAX_FAILURES_PER_ADDRESS: '3' });
const login = (username: string, password: string) => t.http().post('/api/v1.0/auth/login').send({ username, password });
const me = (token: string) => t.http().get('/api/v1.0/auth/me').set('Authorization', `Bearer ${token}`);

describe('POST /auth/login', () => {
  it('answers the user and a token, and sets an HttpOnly SameSite=Strict cookie', async () => {
    const user = await createUser(t.db, { role: 'User' });
    const res = await login(user.login, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, usr_login_name: user.login, userrole_name: 'User', usr_active: true });
    expect(res.body.user).not.toHaveProperty('usr_login_password');
    expect(JSON.stringify(res.body)).not.toContain('argon2');
    expect(typeof res.body.token).toBe('string');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
  });

  it('accepts the login name in any letter case', async () => {
    const user = await createUser(t.db, { login: `MixedCase_${Date.now()}` });
    expect((await login(user.login.toLowerCase(), PASSWORD)).status).toBe(200);
  });

  it('answers 401 with a message for a wrong password or an unknown login, alike', async () => {
    const user = await createUser(t.db);
    const wrong = await login(user.login, 'not the password');
    const unknown = await login('nobody_here', 'whatever');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Wrong username or password' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('answers 400 naming the missing field', async () => {
    const res = await t.http().post('/api/v1.0/auth/login').send({ username: 'someone' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty('password');
  });

  it('refuses a deactivated account', async () => {
    const user = await createUser(t.db, { active: false });
    expect((await login(user.login, PASSWORD)).status).toBe(401);
  });

  it('stores argon2id hashes with the OWASP parameters', async () => {
    const user = await createUser(t.db);
    const [row] = await t.db.select({ hash: users.usr_login_password }).from(users).where(eq(users.id, user.id));
    expect(row!.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('verifies a legacy bcrypt hash and re-hashes it as argon2id', async () => {
    const user = await createUser(t.db, { passwordHash: await bcrypt.hash(PASSWORD, 4) });
    expect((await login(user.login, PASSWORD)).status).toBe(200);
    const [row] = await t.db.select({ hash: users.usr_login_password }).from(users).where(eq(users.id, user.id));
    expect(row!.hash).toMatch(/^\$argon2id\$/);
    expect((await login(user.login, PASSWORD)).status).toBe(200);
  });
});

describe('session tokens', () => {
  it('GET /auth/me answers the user for the cookie and for a bearer token', async () => {
    const user = await createUser(t.db, { role: 'Reader' });
    const res = await login(user.login, PASSWORD);
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    const byCookie = await t.http().get('/api/v1.0/auth/me').set('Cookie', cookie);
    expect(byCookie.status).toBe(200);
    expect(byCookie.body.user).toMatchObject({ id: user.id, userrole_name: 'Reader' });
    expect((await me(res.body.token)).body.user.id).toBe(user.id);
  });

  it('answers 401 JSON without a token', async () => {
    const res = await t.http().get('/api/v1.0/auth/me');
    expect(res.status).toBe(401);
    expect(res.type).toBe('application/json');
    expect(res.body.message).toBe('You are not logged in');
  });

  it('refuses an expired token', async () => {
    const user = await createUser(t.db);
    const token = await loginToken(t.app, user);
    const claims = jwt.decode(token) as { sid: string; sub: string };
    const expired = jwt.sign({ sid: claims.sid, exp: Math.floor(Date.now() / 1000) - 60 }, TEST_JWT_SECRET, { subject: claims.sub });
    expect((await me(expired)).status).toBe(401);
  });

  it('refuses a correctly signed token without exp (one that would never expire)', async () => {
    const user = await createUser(t.db);
    const claims = jwt.decode(await loginToken(t.app, user)) as { sid: string; sub: string };
    const forever = jwt.sign({ sid: claims.sid }, TEST_JWT_SECRET, { subject: claims.sub, algorithm: 'HS256' });
    const res = await me(forever);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Your session is not valid. Please log in again');
  });

  it('refuses a tampered token (claims changed, signature kept)', async () => {
    const admin = await createUser(t.db);
    const reader = await createUser(t.db, { role: 'Reader' });
    const token = await loginToken(t.app, reader);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: String(admin.id) })).toString('base64url');
    expect((await me(`${header}.${forged}.${signature}`)).status).toBe(401);
  });

  it('refuses an alg:none token', async () => {
    const user = await createUser(t.db);
    const token = await loginToken(t.app, user);
    const claims = jwt.decode(token) as object;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    expect((await me(none)).status).toBe(401);
  });

  it('refuses a token signed with another secret', async () => {
    const user = await createUser(t.db);
    const claims = jwt.decode(await loginToken(t.app, user)) as { sid: string; sub: string };
    const other = jwt.sign({ sid: claims.sid }, 'another-secret-that-is-long-enough-0123456789', { subject: claims.sub });
    expect((await me(other)).status).toBe(401);
  });

  it('refuses garbage in the cookie', async () => {
    const res = await t.http().get('/api/v1.0/auth/me').set('Cookie', 'session=not.a.token');
    expect(res.status).toBe(401);
  });

  it('refuses a logged-out token, and logout clears the cookie', async () => {
    const user = await createUser(t.db);
    const token = await loginToken(t.app, user);
    const out = await t.http().post('/api/v1.0/auth/logout').set('Authorization', `Bearer ${token}`);
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/session=;/);
    const after = await me(token);
    expect(after.status).toBe(401);
    expect(after.body.message).toMatch(/session has ended/);
  });

  it('logout ends every session of the user on the server, not only the one that logged out', async () => {
    const user = await createUser(t.db);
    const first = await loginToken(t.app, user);
    const second = await loginToken(t.app, user);
    const bystander = await userWithToken(t.app, t.db, 'Reader');
    expect((await t.http().post('/api/v1.0/auth/logout').set('Authorization', `Bearer ${first}`)).status).toBe(204);
    expect((await me(first)).status).toBe(401);
    expect((await me(second)).status).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.user_id, user.id))).toHaveLength(0);
    expect((await me(bystander.token)).status).toBe(200);
  });

  it('refuses a deactivated user on their next request', async () => {
    const user = await createUser(t.db);
    const token = await loginToken(t.app, user);
    expect((await me(token)).status).toBe(200);
    await t.db.update(users).set({ usr_active: false }).where(eq(users.id, user.id));
    const res = await me(token);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Your account is deactivated');
  });

  it('refuses a call from a page showing another user than the session (X-User-Id): another tab logged in since; nothing is done', async () => {
    const shown = await userWithToken(t.app, t.db, 'Administrator');
    const now = await userWithToken(t.app, t.db, 'Administrator');
    await t.db.update(users).set({ usr_first_name: 'Bob', usr_last_name: 'Other' }).where(eq(users.id, now.id));
    const as = (method: 'get' | 'post', path: string, expected: number) =>
      t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${now.token}`).set('X-User-Id', String(expected));
    const refused = await as('post', '/countries', shown.id).send({ cntry_code: 'XU', cntry_name: 'Made in the wrong name' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'You are logged in as Bob Other now (in another tab or window of this browser), not as the user this page shows. Nothing was changed: reload the page to go on as Bob Other.',
    );
    expect(await t.db.select().from(countries).where(eq(countries.cntry_code, 'XU'))).toEqual([]);
    expect((await as('post', '/countries', now.id).send({ cntry_code: 'XU', cntry_name: 'Made by the one logged in' })).status).toBe(201);
  });

  it('refuses a token whose session has expired in the database', async () => {
    const user = await createUser(t.db);
    const token = await loginToken(t.app, user);
    const { sid } = jwt.decode(token) as { sid: string };
    await t.db.update(sessions).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(sessions.id, sid));
    expect((await me(token)).status).toBe(401);
  });
});

describe('login throttling', () => {
  const from = (limited: typeof t, address: string, body: object) =>
    limited.http().post('/api/v1.0/auth/login').set('X-Forwarded-For', address).send(body);

  it('delays an account from one address after too many wrong passwords, even for the right one, with Retry-After', async () => {
    const user = await createUser(accountLimited.db);
    for (let i = 0; i < 3; i++) expect((await from(accountLimited, '203.0.113.1', { username: user.login, password: 'wrong' })).status).toBe(401);
    const res = await from(accountLimited, '203.0.113.1', { username: user.login.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.body.message).toBe('Too many failed login attempts. Try again in 60 seconds.');
    // Another account from the same address is not affected.
    const other = await createUser(accountLimited.db);
    expect((await from(accountLimited, '203.0.113.1', { username: other.login, password: PASSWORD })).status).toBe(200);
  });

  it("a stranger's failures from another address do not delay the real user", async () => {
    const user = await createUser(accountLimited.db);
    for (let i = 0; i < 5; i++) await from(accountLimited, '198.51.100.66', { username: user.login, password: 'guess' });
    expect((await from(accountLimited, '198.51.100.66', { username: user.login, password: PASSWORD })).status).toBe(429);
    expect((await from(accountLimited, '192.0.2.10', { username: user.login, password: PASSWORD })).status).toBe(200);
  });

  it('counts neither malformed bodies (400) nor successful logins', async () => {
    const user = await createUser(accountLimited.db);
    for (let i = 0; i < 5; i++) {
      expect((await from(accountLimited, '203.0.113.2', { username: user.login })).status).toBe(400);
      expect((await from(accountLimited, '203.0.113.2', { username: user.login, password: 12345 })).status).toBe(400);
    }
    for (let i = 0; i < 2; i++) expect((await from(accountLimited, '203.0.113.2', { username: user.login, password: 'wrong' })).status).toBe(401);
    expect((await from(accountLimited, '203.0.113.2', { username: user.login, password: PASSWORD })).status).toBe(200);
    // The success wiped the two failures: three more are free again.
    for (let i = 0; i < 2; i++) expect((await from(accountLimited, '203.0.113.2', { username: user.login, password: 'wrong' })).status).toBe(401);
    expect((await from(accountLimited, '203.0.113.2', { username: user.login, password: PASSWORD })).status).toBe(200);
  });

  it('checks no more passwords sent at once than one after the other: the right one among them is not let through (decision 053)', async () => {
    const user = await createUser(accountLimited.db);
    const wrong = Array.from({ length: 11 }, (_, i) => from(accountLimited, '203.0.113.7', { username: user.login, password: `wrong ${i}` }));
    const right = from(accountLimited, '203.0.113.7', { username: user.login, password: PASSWORD });
    const answers = (await Promise.all([...wrong, right])).map((r) => r.status);
    // Three failures are free (the account limit here): at most three passwords are checked, the rest wait.
    expect(answers.filter((s) => s === 401 || s === 200).length).toBeLessThanOrEqual(3);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThanOrEqual(9);
    if (answers.at(-1) === 200) expect(answers.filter((s) => s === 401).length).toBeLessThanOrEqual(2);
    expect((await from(accountLimited, '203.0.113.7', { username: user.login, password: PASSWORD })).status).toBe(answers.at(-1) === 200 ? 200 : 429);
  });

  it('delays one address guessing across many accounts, and only that address', async () => {
    for (let i = 0; i < 3; i++) expect((await from(addressLimited, '203.0.113.3', { username: `guess${i}`, password: 'x' })).status).toBe(401);
    const res = await from(addressLimited, '203.0.113.3', { username: 'guess9', password: 'x' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from(addressLimited, '203.0.113.4', { username: 'guess9', password: 'x' })).status).toBe(401);
  });
});

describe('refused requests in the event log', () => {
  const refusals = (userId: number | null) =>
    t.db
      .select()
      .from(logEvents)
      .where(and(eq(logEvents.eventtype_id, EVENT_TYPE_IDS.accessRefused), userId === null ? undefined : eq(logEvents.usr_id, userId)));

  it('records a 403 once per user, route and minute, however often it is repeated', async () => {
    const reader = await userWithToken(t.app, t.db, 'Reader');
    for (let i = 0; i < 5; i++) {
      const res = await t.http().post('/api/v1.0/users').set('Authorization', `Bearer ${reader.token}`).send({});
      expect(res.status).toBe(403);
    }
    await vi.waitFor(async () => expect(await refusals(reader.id)).toHaveLength(1));
    const [event] = await refusals(reader.id);
    expect(event!.le_message).toBe(`Access refused (403) to "${reader.login}": POST /api/v1.0/users`);
    // Another route is another event; the same route again is not.
    expect((await t.http().post('/api/v1.0/countries').set('Authorization', `Bearer ${reader.token}`).send({})).status).toBe(403);
    await vi.waitFor(async () => expect(await refusals(reader.id)).toHaveLength(2));
    await t.http().post('/api/v1.0/users').set('Authorization', `Bearer ${reader.token}`).send({});
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await refusals(reader.id)).toHaveLength(2);
  });

  it('records a 401 for a token that is no longer valid, but not a request without any token', async () => {
    const user = await createUser(t.db);
    const token = await loginToken(t.app, user);
    await t.http().post('/api/v1.0/auth/logout').set('Authorization', `Bearer ${token}`);
    const marker = `/api/v1.0/students?page=1`;
    expect((await t.http().get(marker)).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await refusals(null)).filter((e) => e.le_message.includes('GET /api/v1.0/students'))).toHaveLength(0);
    expect((await t.http().get(marker).set('Authorization', `Bearer ${token}`)).status).toBe(401);
    await vi.waitFor(async () => {
      const events = (await refusals(null)).filter((e) => e.le_message.includes('GET /api/v1.0/students'));
      expect(events).toHaveLength(1);
      expect(events[0]!.le_message).toMatch(/^Access refused \(401\) from .*: GET \/api\/v1.0\/students \(Your session has ended/);
      expect(events[0]!.usr_id).toBeNull();
    });
  });
});
