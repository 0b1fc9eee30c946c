import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq } from 'drizzle-orm';
import { EVENT_TYPE_IDS, EVENT_TYPES } from '@app/contracts';
import { loggingTypes, logEvents, programs } from '@app/db';
import { putAsRead, setupTestApp } from '../../test/app.js';
import { createContract, createCountry, createStudent, createUser, PASSWORD, userWithToken } from '../../test/factories.js';

const t = await setupTestApp();
let admin: Awaited<ReturnType<typeof userWithToken>>;
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token = admin.token) =>
  t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
const eventsOf = (recordId: number) =>
  t.db.select().from(logEvents).where(eq(logEvents.record_id, recordId)).orderBy(asc(logEvents.id));

beforeAll(async () => {
  admin = await userWithToken(t.app, t.db, 'Administrator');
});

describe('events written with the change', () => {
  it('records create, update (changed fields old → new) and delete of a country, by whom', async () => {
    const created = await api('post', '/countries').send({ cntry_code: 'EVT', cntry_name: 'Eventland' });
    const id = created.body.id as number;
    expect((await putAsRead(t, admin.token, `/countries/${id}`, { id, cntry_name: 'Eventland Two', cntry_code: 'EVT' })).status).toBe(200);
    await api('delete', `/countries/${id}`);
    const events = await eventsOf(id);
    expect(events.map((e) => e.eventtype_id)).toEqual([EVENT_TYPE_IDS.create, EVENT_TYPE_IDS.update, EVENT_TYPE_IDS.delete]);
    expect(events.every((e) => e.usr_id === admin.id && e.resource === 'country')).toBe(true);
    expect(events[0]!.le_message).toBe('Created Country "EVT"');
    // Only the field that really changed is listed (the code was sent unchanged).
    expect(events[1]!.changes).toEqual({ cntry_name: { old: 'Eventland', new: 'Eventland Two' } });
    expect(events[1]!.le_message).toBe('Updated Country "EVT": cntry_name "Eventland" → "Eventland Two"');
    expect(events[2]!.le_message).toBe('Deleted Country "EVT"');
    // What was created and what was deleted stay in the log (decision 036): a deleted record's values are not lost.
    expect(events[0]!.changes).toEqual({ cntry_code: { old: null, new: 'EVT' }, cntry_name: { old: null, new: 'Eventland' } });
    expect(events[2]!.changes).toEqual({ cntry_code: { old: 'EVT', new: null }, cntry_name: { old: 'Eventland Two', new: null } });
  });

  it("keeps a created and a deleted student's bank number masked in the log", async () => {
    const created = await api('post', '/students').send({
      first_name: 'Ada', last_name: 'Log', address: 'Weg 1', zip: '10115', city: 'Berlin', cntry_id: (await createCountry(t.db)).id,
      birth_date: '2000-01-01', email_address: 'ada.log@example.org', payment_bank_iban: 'DE89370400440532013000',
    });
    expect(created.status, created.text).toBe(201);
    expect((await api('delete', `/students/${created.body.id as number}`)).status).toBe(204);
    const [made, gone] = (await eventsOf(created.body.id as number)).filter((e) => e.resource === 'student');
    expect(made!.changes).toMatchObject({ last_name: { old: null, new: 'Log' }, payment_bank_iban: { old: null, new: 'DE89…3000' } });
    expect(gone!.changes).toMatchObject({ last_name: { old: 'Log', new: null }, payment_bank_iban: { old: 'DE89…3000', new: null } });
    expect(JSON.stringify([made!.changes, gone!.changes])).not.toContain('370400440532');
  });

  it('keeps a bank number’s change with its first and last four characters only, and never a password', async () => {
    const student = await createStudent(t.db, { payment_bank_iban: 'DE89370400440532013000' });
    const seen = (await api('get', `/students/${student.id}`)).body.edit_timestamp as string;
    await api('put', `/students/${student.id}`).set('If-Match', seen).send({ id: student.id, payment_bank_iban: 'GB82 WEST 1234 5698 7654 32' }).expect(200);
    const [event] = (await t.db.select().from(logEvents).where(eq(logEvents.student_id, student.id))).filter((e) => e.eventtype_id === EVENT_TYPE_IDS.update);
    expect(event!.changes).toEqual({ payment_bank_iban: { old: 'DE89…3000', new: 'GB82…5432' } });
    expect(event!.le_message).not.toMatch(/370400440532|WEST12345698/);
    const user = await createUser(t.db, { role: 'Reader' });
    const userSeen = (await api('get', `/users/${user.id}`)).body.edit_timestamp as string;
    await api('put', `/users/${user.id}`).set('If-Match', userSeen).send({ id: user.id, usr_login_password: 'a new password that is long' }).expect(200);
    const [changed] = await eventsOf(user.id);
    expect(JSON.stringify(changed)).not.toMatch(/a new password|argon2/);
  });

  it('writes CR, LF, tabs and direction overrides in a name as escapes, never raw', async () => {
    // One-line fields refuse such characters now (decision 060); a name stored before that still has them.
    const forged = 'Forged\r\nDeleted Program "X"\t\u202eevil';
    expect((await api('post', '/programs').send({ name: forged, shortname: 'CTRL0' })).status).toBe(400);
    const [stored] = await t.db.insert(programs).values({ name: forged, shortname: 'CTRL' }).returning({ id: programs.id });
    const programEvents = () => t.db.select().from(logEvents).where(and(eq(logEvents.resource, 'program'), eq(logEvents.record_id, stored!.id))).orderBy(asc(logEvents.id));
    const seen = (await api('get', `/programs/${stored!.id}`)).body.edit_timestamp as string;
    await api('put', `/programs/${stored!.id}`).set('If-Match', seen).send({ id: stored!.id, name: 'Plain \u202e name' }).expect(200);
    const update = (await programEvents()).find((e) => e.eventtype_id === EVENT_TYPE_IDS.update)!;
    expect(update.le_message).toBe('Updated Program "CTRL": name "Forged\\r\\nDeleted Program "X"\\t\\u202eevil" → "Plain \\u202e name"');
    expect(update.le_message).not.toMatch(/[\r\n\t\u202e]/);
  });

  it('answers the events of one record, newest first, for its History', async () => {
    const c = await createCountry(t.db);
    await api('put', `/countries/${c.id}`).set('If-Match', c.edit_timestamp.toISOString()).send({ id: c.id, cntry_name: 'Renamed once' }).expect(200);
    const other = await createCountry(t.db);
    await api('delete', `/countries/${other.id}`).expect(204);
    const res = await api('get', `/logging?resource=country&record_id=${c.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { le_message: string }) => e.le_message)).toEqual([`Updated Country "${c.cntry_code}": cntry_name "${c.cntry_name}" → "Renamed once"`]);
    expect(res.body.data[0].changes).toEqual({ cntry_name: { old: c.cntry_name, new: 'Renamed once' } });
    expect((await api('get', '/logging?record_id=0')).status).toBe(400);
  });

  it("answers a contract's History: its own events and those of its invoices (contract_id); a student's has its contracts' (student_id)", async () => {
    const contract = await createContract(t.db);
    const other = await createContract(t.db);
    const invoice = (contractId: number) => ({ contract_id: contractId, year: 1, semester: 0, description: 'Participation fee', amount: 100, planned_date: '2026-03-01' });
    expect((await putAsRead(t, admin.token, `/contracts/${contract.id}`, { id: contract.id, comments: 'Called the student' })).status).toBe(200);
    const made = await api('post', '/invoices').send(invoice(contract.id)).expect(201);
    await api('post', '/invoices').send(invoice(other.id)).expect(201);
    const res = await api('get', `/logging?contract_id=${contract.id}&sort=le_time|desc`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { le_message: string }) => e.le_message)).toEqual([
      `Created Invoice "${(await api('get', `/invoices/${String(made.body.id)}`)).body.document_reference}"`,
      expect.stringMatching(/^Updated Contract .*comments/),
    ]);
    const ofStudent = await api('get', `/logging?student_id=${contract.student_id}`);
    expect(ofStudent.body.data).toHaveLength(2);
    expect((await api('get', '/logging?contract_id=x')).body.errors).toHaveProperty('contract_id');
  });

  it('writes no event when nothing changed or when the change fails', async () => {
    const c = await createCountry(t.db, { cntry_code: 'NOC', cntry_name: 'Nochange' });
    await createCountry(t.db, { cntry_code: 'TAK' });
    expect((await putAsRead(t, admin.token, `/countries/${c.id}`, { id: c.id, cntry_name: 'Nochange' })).status).toBe(200);
    expect((await putAsRead(t, admin.token, `/countries/${c.id}`, { id: c.id, cntry_code: 'TAK' })).status).toBe(409);
    expect(await eventsOf(c.id)).toEqual([]);
  });

  it('records logins, failed logins and logouts', async () => {
    const user = await createUser(t.db);
    await t.http().post('/api/v1.0/auth/login').send({ username: user.login, password: 'wrong password' });
    const ok = await t.http().post('/api/v1.0/auth/login').send({ username: user.login, password: PASSWORD });
    await t.http().post('/api/v1.0/auth/logout').set('Authorization', `Bearer ${ok.body.token}`);
    const events = await t.db.select().from(logEvents).where(eq(logEvents.usr_id, user.id)).orderBy(asc(logEvents.id));
    expect(events.map((e) => [e.eventtype_id, e.le_message])).toEqual([
      [EVENT_TYPE_IDS.loginFailed, `Failed login as "${user.login}" (wrong password)`],
      [EVENT_TYPE_IDS.login, `Login of "${user.login}"`],
      [EVENT_TYPE_IDS.logout, `Logout of "${user.login}"`],
    ]);
  });

  it('does not write what was typed as the name of a login that is no account: it may be a password (decision 053)', async () => {
    const typed = `Secret-${Date.now()}-pass`;
    expect((await t.http().post('/api/v1.0/auth/login').send({ username: typed, password: 'x' })).status).toBe(401);
    const [failed] = await t.db.select().from(logEvents).where(eq(logEvents.eventtype_id, EVENT_TYPE_IDS.loginFailed)).orderBy(desc(logEvents.id)).limit(1);
    expect(failed!.le_message).toBe(`Failed login with a name that is no account's (${typed.length} characters)`);
    expect(JSON.stringify(await t.db.select().from(logEvents))).not.toContain(typed);
  });
});

describe('GET /logging', () => {
  it('lists events newest first with type and user names', async () => {
    await api('post', '/countries').send({ cntry_code: 'NEW', cntry_name: 'Newest' });
    const res = await api('get', '/logging?per_page=5');
    expect(res.status).toBe(200);
    const [first] = res.body.data;
    expect(first).toMatchObject({ eventtype: 'Create', le_message: 'Created Country "NEW"', usr_name: 'Test Administrator', usr_id: admin.id });
    const times = res.body.data.map((e: { le_time: string }) => e.le_time);
    expect(times).toEqual([...times].sort().reverse());
    const [latest] = await t.db.select().from(logEvents).orderBy(desc(logEvents.le_time), desc(logEvents.id)).limit(1);
    expect(first.id).toBe(latest!.id);
  });

  it('filters by user, event type and event time range', async () => {
    const other = await userWithToken(t.app, t.db, 'Administrator');
    await api('post', '/countries', other.token).send({ cntry_code: 'OTH', cntry_name: 'Other' });
    const byUser = await api('get', `/logging?usr_id=${other.id}`);
    expect(byUser.body.data.map((e: { le_message: string }) => e.le_message)).toEqual(['Created Country "OTH"', `Login of "${other.login}"`]);
    const byType = await api('get', `/logging?usr_id=${other.id}&eventtype_id=${EVENT_TYPE_IDS.login}`);
    expect(byType.body.data).toHaveLength(1);
    const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });
    expect((await api('get', `/logging?usr_id=${other.id}&le_time_from=${today}&le_time_to=${today}`)).body.data).toHaveLength(2);
    expect((await api('get', `/logging?usr_id=${other.id}&le_time_to=2000-01-01`)).body.data).toHaveLength(0);
    expect((await api('get', `/logging?usr_id=${other.id}&le_time_from=2199-12-31`)).body.data).toHaveLength(0);
    const bad = await api('get', '/logging?le_time_from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('le_time_from');
  });

  it('cannot be written through the API, by anyone', async () => {
    const developer = await userWithToken(t.app, t.db, 'Developer');
    const [any] = await t.db.select().from(logEvents).limit(1);
    expect((await api('post', '/logging', developer.token).send({ le_message: 'forged' })).status).toBe(404);
    expect((await api('put', `/logging/${any!.id}`, developer.token).send({ id: any!.id, le_message: 'forged' })).status).toBe(404);
    expect((await api('delete', `/logging/${any!.id}`, developer.token)).status).toBe(404);
    const [same] = await t.db.select().from(logEvents).where(eq(logEvents.id, any!.id));
    expect(same).toEqual(any);
  });
});

describe('event types', () => {
  it('are seeded exactly as the contracts declare them, and served as the logging_types choice list', async () => {
    const rows = await t.db.select().from(loggingTypes).orderBy(asc(loggingTypes.id));
    expect(rows).toEqual(EVENT_TYPES.map(({ id, name }) => ({ id, name })));
    const choice = await api('get', '/logging_types/choice');
    expect(choice.body).toEqual(rows);
    expect((await api('get', '/logging_types/choice_checksum')).body.checksum).toMatch(/^[0-9a-f]{32}$/);
  });

  it('serves the user roles choice list: the roles the caller may give, Developer to a Developer only (decision 054)', async () => {
    const developer = await userWithToken(t.app, t.db, 'Developer');
    expect((await api('get', '/userroles/choice', developer.token)).body).toEqual([
      { id: 1, name: 'Developer' },
      { id: 2, name: 'Administrator' },
      { id: 3, name: 'User' },
      { id: 4, name: 'Reader' },
    ]);
    expect((await api('get', '/userroles/choice')).body).toEqual([
      { id: 2, name: 'Administrator' },
      { id: 3, name: 'User' },
      { id: 4, name: 'Reader' },
    ]);
    // Each list has its own checksum, so a browser that held the other list reads this one again.
    const [mine, theirs] = await Promise.all([api('get', '/userroles/choice_checksum'), api('get', '/userroles/choice_checksum', developer.token)]);
    expect(mine.body.checksum).not.toBe(theirs.body.checksum);
  });
});
