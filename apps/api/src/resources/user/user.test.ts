import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { EVENT_TYPE_IDS, ROLE_IDS } from '@app/contracts';
import { logEvents, users } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { createUser, loginToken, PASSWORD, userWithToken } from '../../test/factories.js';
import { findActiveUser } from '../../lib/auth/sessions.js';
import { userModule } from './user.router.js';

const t = await setupTestApp();
let admin: Awaited<ReturnType<typeof userWithToken>>;
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token = admin.token) =>
  t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
const login = (username: string, password: string) => t.http().post('/api/v1.0/auth/login').send({ username, password });
const NEW_PASSWORD = 'a brand new passphrase';

/** PUT with If-Match carrying the edit_timestamp the administrator's GET shows. */
async function edit(id: number, changes: Record<string, unknown>, token = admin.token) {
  const read = await api('get', `/users/${id}`);
  return api('put', `/users/${id}`, token).set('If-Match', String(read.body.edit_timestamp)).send({ id, ...changes });
}
const userRow = async (id: number) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!;

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
    const set = await edit(res.body.id, { usr_login_password: NEW_PASSWORD });
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
    const res = await edit(reader.id, { usr_login_password: NEW_PASSWORD }, current);
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
    const own = await edit(user.id, { usr_first_name: 'Changed', usr_role_id: ROLE_IDS.Developer }, user.token);
    expect(own.status).toBe(403);
    const others = await edit(victim.id, { usr_login_password: NEW_PASSWORD }, user.token);
    expect(others.status).toBe(403);
    expect((await api('post', '/users', user.token).send(newUser('sneaky'))).status).toBe(403);
    expect((await login(victim.login, PASSWORD)).status).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ usr_first_name: 'Test', usr_role_id: ROLE_IDS.User });
  });

  it('lets an administrator set anyone\'s password, ending all of that user\'s sessions', async () => {
    const reader = await userWithToken(t.app, t.db, 'Reader');
    const res = await edit(reader.id, { usr_login_password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect((await api('get', '/auth/me', reader.token)).status).toBe(401);
    expect((await api('get', '/auth/me')).status).toBe(200);
  });

  it('ends a user\'s sessions when deactivated, and refuses deactivating oneself', async () => {
    const reader = await userWithToken(t.app, t.db, 'Reader');
    expect((await edit(reader.id, { usr_active: false })).status).toBe(200);
    expect((await api('get', '/auth/me', reader.token)).status).toBe(401);
    const self = await edit(admin.id, { usr_active: false });
    expect(self.status).toBe(409);
    expect(self.body.message).toBe('You cannot deactivate your own account');
    expect((await edit(admin.id, { usr_role_id: ROLE_IDS.Reader })).status).toBe(409);
  });
});

describe('users: Developer accounts are managed by Developers only', () => {
  it('refuses an Administrator creating a Developer, and creates nothing', async () => {
    const res = await api('post', '/users').send(newUser('would_be_dev', { usr_role_id: ROLE_IDS.Developer }));
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Only a Developer may create or change a Developer account');
    expect(await t.db.select().from(users).where(eq(users.usr_login_name, 'would_be_dev'))).toHaveLength(0);
  });

  it('refuses an Administrator raising anyone (themselves included) to Developer', async () => {
    const reader = await createUser(t.db, { role: 'Reader' });
    expect((await edit(reader.id, { usr_role_id: ROLE_IDS.Developer })).status).toBe(403);
    expect((await edit(admin.id, { usr_role_id: ROLE_IDS.Developer })).status).toBe(403);
    expect((await userRow(reader.id)).usr_role_id).toBe(ROLE_IDS.Reader);
    expect((await userRow(admin.id)).usr_role_id).toBe(ROLE_IDS.Administrator);
  });

  it('refuses an Administrator editing, demoting, deactivating or setting the password of a Developer, and changes nothing', async () => {
    const developer = await userWithToken(t.app, t.db, 'Developer');
    const before = await userRow(developer.id);
    for (const changes of [
      { usr_first_name: 'Renamed' },
      { usr_role_id: ROLE_IDS.Reader },
      { usr_active: false },
      { usr_login_password: NEW_PASSWORD },
    ]) {
      const res = await edit(developer.id, changes);
      expect(res.status, JSON.stringify(changes)).toBe(403);
    }
    expect(await userRow(developer.id)).toEqual(before);
    expect((await api('get', '/auth/me', developer.token)).status).toBe(200);
    expect((await login(developer.login, PASSWORD)).status).toBe(200);
  });

  it('lets a Developer create a Developer and set a Developer\'s password', async () => {
    const developer = await userWithToken(t.app, t.db, 'Developer');
    const created = await api('post', '/users', developer.token).send(newUser('new_dev', { usr_role_id: ROLE_IDS.Developer, usr_login_password: NEW_PASSWORD }));
    expect(created.status).toBe(201);
    expect((await edit(created.body.id, { usr_first_name: 'Grace' }, developer.token)).status).toBe(200);
  });
});

describe('users: the last active Developer stays', () => {
  it('refuses removing the last active Developer, even for work begun by a Developer who has since lost the role', async () => {
    await t.db.update(users).set({ usr_active: false }).where(eq(users.usr_role_id, ROLE_IDS.Developer));
    const actor = await createUser(t.db, { role: 'Developer' });
    const last = await createUser(t.db, { role: 'Developer' });
    const actorUser = (await findActiveUser(t.db, actor.id))!;
    await t.db.update(users).set({ usr_active: false }).where(eq(users.id, actor.id));
    const { service } = userModule(t.ctx);
    const version = (await service.get(last.id)).edit_timestamp as Date;
    for (const changes of [{ usr_active: false }, { usr_role_id: ROLE_IDS.Administrator }]) {
      await expect(service.update(last.id, { id: last.id, ...changes }, version.toISOString(), { user: actorUser })).rejects.toMatchObject({
        status: 409,
        message: 'This is the last active Developer: make another user a Developer first',
      });
    }
    expect(await userRow(last.id)).toMatchObject({ usr_active: true, usr_role_id: ROLE_IDS.Developer });
  });

  it('refuses a Developer deactivating or demoting themselves, with a message', async () => {
    const developer = await userWithToken(t.app, t.db, 'Developer');
    const off = await edit(developer.id, { usr_active: false }, developer.token);
    expect(off.status).toBe(409);
    expect(off.body.message).toBe('You cannot deactivate your own account');
    expect((await edit(developer.id, { usr_role_id: ROLE_IDS.Administrator }, developer.token)).status).toBe(409);
    expect(await userRow(developer.id)).toMatchObject({ usr_active: true, usr_role_id: ROLE_IDS.Developer });
  });
});

describe('users: a change of role or state counts from the next request', () => {
  it('a lowered role is refused on the next request, a raised one allowed, with the same token', async () => {
    const user = await userWithToken(t.app, t.db, 'Administrator');
    expect((await api('get', '/users', user.token)).status).toBe(200);
    expect((await edit(user.id, { usr_role_id: ROLE_IDS.Reader })).status).toBe(200);
    expect((await api('post', '/users', user.token).send(newUser('not_any_more'))).status).toBe(403);
    expect((await api('get', '/auth/me', user.token)).body.user.userrole_name).toBe('Reader');
    expect((await edit(user.id, { usr_role_id: ROLE_IDS.Administrator })).status).toBe(200);
    expect((await api('post', '/users', user.token).send(newUser('again_admin'))).status).toBe(201);
  });

  it('a deactivated user is refused on the next request', async () => {
    const user = await userWithToken(t.app, t.db, 'User');
    expect((await edit(user.id, { usr_active: false })).status).toBe(200);
    expect((await api('get', '/auth/me', user.token)).status).toBe(401);
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
    await edit(admin.id, { usr_first_name: 'Renamed' });
    expect((await api('get', '/users/choice_checksum')).body.checksum).not.toBe(before);
  });
});
