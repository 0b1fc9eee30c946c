import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { EVENT_TYPE_IDS, ROLE_IDS } from '@app/contracts';
import { logEvents, users } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { createUser, loginToken, PASSWORD, userWithToken } from '../../test/factories.js';

const t = await setupTestApp();
let admin: Awaited<ReturnType<typeof userWithToken>>;
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token = admin.token) =>
  t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
const login = (username: string, password: string) => t.http().post('/api/v1.0/auth/login').send({ username, password });
const NEW_PASSWORD = 'a brand new passphrase';

beforeAll(async () => {
  admin = await userWithToken(t.app, t.db, 'Administrator');
});

const newUser = (login: string, extra: Record<string, unknown> = {}) => ({
  usr_login_name: login,
  usr_first_name: 'Ada',
  usr_last_name: 'Lovelace',
  usr_role_id: ROLE_IDS.Reader,
  usr_active: true,
  ...extra,
});

describe('users: list and read', () => {
  it('lists users by login name with their role name, never a password', async () => {
    await createUser(t.db, { login: 'aaa_first' });
    await createUser(t.db, { login: 'zzz_last' });
    const res = await api('get', '/users?per_page=200');
    expect(res.status).toBe(200);
    const logins = res.body.data.map((u: { usr_login_name: string }) => u.usr_login_name);
    expect(logins[0]).toBe('aaa_first');
    expect(logins.at(-1)).toBe('zzz_last');
    expect(res.body.data[0]).toMatchObject({ usr_name: 'Test Administrator', userrole_name: 'Administrator', usr_active: true });
    expect(JSON.stringify(res.body)).not.toMatch(/usr_login_password|argon2/);
    expect(JSON.stringify((await api('get', `/users/${admin.id}`)).body)).not.toMatch(/usr_login_password|argon2/);
  });

  it('has no advanced filters', async () => {
    expect((await api('get', '/users?usr_role_id=1')).status).toBe(400);
    expect((await api('get', '/users?search=zzz_last')).body.data).toHaveLength(1);
  });
});

describe('users: create', () => {
  it('creates a user without a password, who cannot log in until one is set', async () => {
    const res = await api('post', '/users').send(newUser('ada'));
    expect(res.status).toBe(201);
    expect((await login('ada', '')).status).toBe(400);
    expect((await login('ada', '!')).status).toBe(401);
    const set = await api('put', `/users/${res.body.id}`).send({ id: res.body.id, usr_login_password: NEW_PASSWORD });
    expect(set.status).toBe(200);
    const ok = await login('ada', NEW_PASSWORD);
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ usr_name: 'Ada Lovelace', userrole_name: 'Reader' });
  });

  it('answers 400 naming every required field', async () => {
    const res = await api('post', '/users').send({});
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['usr_active', 'usr_first_name', 'usr_last_name', 'usr_login_name', 'usr_role_id']);
  });

  it('refuses a short password, naming the field', async () => {
    const res = await api('post', '/users').send(newUser('shorty', { usr_login_password: 'short' }));
    expect(res.status).toBe(400);
    expect(res.body.errors.usr_login_password).toEqual(['Password must be at least 12 characters']);
  });

  it('answers 409 for a login name already taken, in any case', async () => {
    await createUser(t.db, { login: 'Taken_Login' });
    const res = await api('post', '/users').send(newUser('taken_login'));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A User with this Login already exists');
  });
});

describe('users: passwords and sessions', () => {
  it('lets any user set their own password, ends their other sessions and keeps this one', async () => {
    const reader = await createUser(t.db, { role: 'Reader' });
    const other = await loginToken(t.app, reader);
    const current = await loginToken(t.app, reader);
    const res = await api('put', `/users/${reader.id}`, current).send({ id: reader.id, usr_login_password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain(NEW_PASSWORD);
    expect((await api('get', '/auth/me', other)).status).toBe(401);
    expect((await api('get', '/auth/me', current)).status).toBe(200);
    expect((await login(reader.login, PASSWORD)).status).toBe(401);
    expect((await login(reader.login, NEW_PASSWORD)).status).toBe(200);
    const [event] = await t.db
      .select()
      .from(logEvents)
      .where(and(eq(logEvents.record_id, reader.id), eq(logEvents.resource, 'user')));
    expect(event).toMatchObject({
      eventtype_id: EVENT_TYPE_IDS.passwordChange,
      le_message: `Password of User "${reader.login}" changed`,
      usr_id: reader.id,
      changes: { usr_login_password: { old: '***', new: '***' } },
    });
    expect(JSON.stringify(event)).not.toContain(NEW_PASSWORD);
  });

  it('refuses a non-administrator changing anything else, or anyone else, and changes nothing', async () => {
    const user = await userWithToken(t.app, t.db, 'User');
    const victim = await createUser(t.db, { role: 'Reader' });
    const own = await api('put', `/users/${user.id}`, user.token).send({ id: user.id, usr_first_name: 'Changed', usr_role_id: ROLE_IDS.Developer });
    expect(own.status).toBe(403);
    const others = await api('put', `/users/${victim.id}`, user.token).send({ id: victim.id, usr_login_password: NEW_PASSWORD });
    expect(others.status).toBe(403);
    expect((await api('post', '/users', user.token).send(newUser('sneaky'))).status).toBe(403);
    expect((await login(victim.login, PASSWORD)).status).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ usr_first_name: 'Test', usr_role_id: ROLE_IDS.User });
  });

  it('lets an administrator set anyone\'s password, ending all of that user\'s sessions', async () => {
    const reader = await userWithToken(t.app, t.db, 'Reader');
    const res = await api('put', `/users/${reader.id}`).send({ id: reader.id, usr_login_password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect((await api('get', '/auth/me', reader.token)).status).toBe(401);
    expect((await api('get', '/auth/me')).status).toBe(200);
  });

  it('ends a user\'s sessions when deactivated, and refuses deactivating oneself', async () => {
    const reader = await userWithToken(t.app, t.db, 'Reader');
    expect((await api('put', `/users/${reader.id}`).send({ id: reader.id, usr_active: false })).status).toBe(200);
    expect((await api('get', '/auth/me', reader.token)).status).toBe(401);
    const self = await api('put', `/users/${admin.id}`).send({ id: admin.id, usr_active: false });
    expect(self.status).toBe(409);
    expect(self.body.message).toBe('You cannot deactivate your own account');
    expect((await api('put', `/users/${admin.id}`).send({ id: admin.id, usr_role_id: ROLE_IDS.Reader })).status).toBe(409);
  });
});

describe('users: never deleted', () => {
  it('answers 405 with a message and keeps the user', async () => {
    const victim = await createUser(t.db);
    const res = await api('delete', `/users/${victim.id}`);
    expect(res.status).toBe(405);
    expect(res.body.message).toBe('A User can never be deleted');
    expect((await api('get', `/users/${victim.id}`)).status).toBe(200);
  });
});

describe('users choice list', () => {
  it('answers users by name and a checksum that changes with a rename', async () => {
    const before = (await api('get', '/users/choice_checksum')).body.checksum;
    const list = (await api('get', '/users/choice')).body;
    expect(list).toContainEqual({ id: admin.id, name: 'Test Administrator' });
    await api('put', `/users/${admin.id}`).send({ id: admin.id, usr_first_name: 'Renamed' });
    expect((await api('get', '/users/choice_checksum')).body.checksum).not.toBe(before);
  });
});
