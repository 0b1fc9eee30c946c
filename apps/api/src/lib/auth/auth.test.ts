import { describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import bcrypt from 'bcryptjs';
import { eq } from 'drizzle-orm';
import { sessions, users } from '@app/db';
import { setupTestApp, TEST_JWT_SECRET } from '../../test/app.js';
import { createUser, loginToken, PASSWORD } from '../../test/factories.js';

const t = await setupTestApp();
const accountLimited = await setupTestApp({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_ADDRESS: '100' });
const addressLimited = await setupTestApp({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '100', LOGIN_MAX_FAILURES_PER_ADDRESS: '3' });
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

  it('refuses a deactivated user on their next request', async () => {
    const user = await createUser(t.db);
    const token = await loginToken(t.app, user);
    expect((await me(token)).status).toBe(200);
    await t.db.update(users).set({ usr_active: false }).where(eq(users.id, user.id));
    const res = await me(token);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Your account is deactivated');
  });

  it('refuses a token whose session has expired in the database', async () => {
    const user = await createUser(t.db);
    const token = await loginToken(t.app, user);
    const { sid } = jwt.decode(token) as { sid: string };
    await t.db.update(sessions).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(sessions.id, sid));
    expect((await me(token)).status).toBe(401);
  });
});

describe('login rate limits', () => {
  it('answers 429 after too many failures for one account, even with the right password', async () => {
    const limited = accountLimited;
    const user = await createUser(limited.db);
    for (let i = 0; i < 3; i++) {
      expect((await limited.http().post('/api/v1.0/auth/login').send({ username: user.login, password: 'wrong' })).status).toBe(401);
    }
    const res = await limited.http().post('/api/v1.0/auth/login').send({ username: user.login, password: PASSWORD });
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/Too many failed login attempts/);
    // Another account from the same address is not affected by this account's limit.
    const other = await createUser(limited.db);
    expect((await limited.http().post('/api/v1.0/auth/login').send({ username: other.login, password: PASSWORD })).status).toBe(200);
  });

  it('answers 429 after too many failures from one address across accounts', async () => {
    const limited = addressLimited;
    for (let i = 0; i < 3; i++) {
      expect((await limited.http().post('/api/v1.0/auth/login').send({ username: `guess${i}`, password: 'x' })).status).toBe(401);
    }
    const res = await limited.http().post('/api/v1.0/auth/login').send({ username: 'guess9', password: 'x' });
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/Too many/);
  });
});
