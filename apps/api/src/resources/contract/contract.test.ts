import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { canTransition, contractResource, EVENT_TYPE_IDS, formatDate, todayIn } from '@app/contracts';
import { batchRuns, contracts, logEvents, students } from '@app/db';
import { putAsRead, setupTestApp } from '../../test/app.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';
import { crudSuite } from '../../test/crud-suite.js';
import { binaryParser, createContract, createReferences, createStudent, userWithToken } from '../../test/factories.js';

const t = await setupTestApp();
await startTestWorkers(t);
const refs = await createReferences(t.db);
const student = await createStudent(t.db, { first_name: 'Łukasz', last_name: 'Żeleński' });
let user: Awaited<ReturnType<typeof userWithToken>>;
let admin: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
  admin = await userWithToken(t.app, t.db, 'Administrator');
});
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token = user.token) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

const valid = (n: number) => ({
  student_id: student.id,
  scholarship_id: 1 + (n % 8),
  program_id: refs.program.id,
  intake: 2000 + (n % 50),
  application_round: n % 6,
  application_id: `APP-${n}`,
  y1_university_id: refs.university.id,
  start_date: '2024-09-01',
  end_date: '2026-08-31',
});

crudSuite(t, {
  resource: contractResource,
  valid,
  invalid: { body: { application_round: 6, start_date: '2024-09-01' }, fields: ['student_id', 'scholarship_id', 'program_id', 'intake', 'application_round', 'application_id', 'y1_university_id'] },
  change: { comments: 'Called the student', contract_sent_date: '2024-08-15' },
  sortBy: ['intake', 'application_number'],
});

describe('contracts: creation', () => {
  it('applies the defaults, generates the application number and joins the names', async () => {
    const res = await api('post', '/contracts').send(valid(1));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const row = (await api('get', `/contracts/${res.body.id}`)).body;
    expect(row).toMatchObject({
      active: true,
      bankinfo_required: true,
      check_universityfee_payment: true,
      instalments: false,
      contract_status_id: 1,
      contract_status_name: 'Offer accepted',
      student_name: 'Łukasz Żeleński',
      program_shortname: refs.program.shortname,
      scholarship_code: 'EU-PART',
      invoiced_amount: 0,
      payed_amount: 0,
      to_be_payed_amount: 0,
      planned_amount: 0,
      files: 0,
    });
    expect(row.application_number).toMatch(/^A\d{6}$/);
    expect(Object.keys(row).sort()).toEqual(Object.keys(contractResource.schema.shape).sort());
    const [s] = await t.db.select().from(students).where(eq(students.id, student.id));
    expect(s!.active_contract_id).not.toBeNull();
  });

  it('keeps the application number and status read-only', async () => {
    const c = await createContract(t.db);
    const res = await api('put', `/contracts/${c.id}`).send({ id: c.id, application_number: 'X1', contract_status_id: 5 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['application_number', 'contract_status_id']);
  });

  it('refuses an end date before the start date and a round outside 0–5', async () => {
    const res = await api('post', '/contracts').send({ ...valid(2), end_date: '2024-08-31', application_round: 7 });
    expect(res.status).toBe(400);
    expect(res.body.errors.application_round).toEqual(['Round must be 0 to 5']);
    expect(res.body.errors.end_date).toEqual(['End date cannot be before the start date']);
  });

  it('refuses an end date alone that falls before the stored start date, changing nothing', async () => {
    const c = await createContract(t.db, { start_date: '2025-09-01', end_date: '2027-08-31' });
    const seen = (await api('get', `/contracts/${c.id}`)).body.edit_timestamp as string;
    const res = await api('put', `/contracts/${c.id}`).set('If-Match', seen).send({ id: c.id, end_date: '2025-08-31' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ end_date: ['End date cannot be before the start date'] });
    const same = await api('put', `/contracts/${c.id}`).set('If-Match', seen).send({ id: c.id, end_date: '2025-09-01' });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ start_date: '2025-09-01', end_date: '2025-09-01' });
  });

  it('quick filter finds contracts by application number or by student name, accents and case ignored', async () => {
    const s = await createStudent(t.db, { first_name: 'Ségolène', last_name: 'Quickfinder' });
    const c = await createContract(t.db, { student_id: s.id });
    const ids = async (q: string) => (await api('get', `/contracts?search=${encodeURIComponent(q)}`)).body.data.map((r: { id: number }) => r.id);
    expect(await ids('segolene QUICKFINDER')).toEqual([c.id]);
    expect(await ids(c.application_number.toLowerCase())).toEqual([c.id]);
  });

  it("keeps the student's names on the contract: a renamed student, a contract moved to another student, a direct write", async () => {
    const s = await createStudent(t.db, { first_name: 'Renée', last_name: 'Oldname' });
    const other = await createStudent(t.db, { first_name: 'Øystein', last_name: 'Othername' });
    const c = await createContract(t.db, { student_id: s.id });
    const found = async (q: string) => (await api('get', `/contracts?search=${encodeURIComponent(q)}`)).body.data.map((r: { id: number }) => r.id);
    const names = async () => {
      const row = (await api('get', `/contracts/${c.id}`)).body;
      return [row.first_name, row.last_name, row.student_name];
    };
    expect(await names()).toEqual(['Renée', 'Oldname', 'Renée Oldname']);

    expect((await putAsRead(t, user.token, `/students/${s.id}`, { id: s.id, last_name: 'Newname' })).status).toBe(200);
    expect(await names()).toEqual(['Renée', 'Newname', 'Renée Newname']);
    expect(await found('renee newname')).toEqual([c.id]);
    expect(await found('Oldname')).toEqual([]);

    expect((await putAsRead(t, user.token, `/contracts/${c.id}`, { id: c.id, student_id: other.id })).status).toBe(200);
    expect(await names()).toEqual(['Øystein', 'Othername', 'Øystein Othername']);
    expect(await found('oystein othername')).toEqual([c.id]);
    expect(await found('Newname')).toEqual([]);

    // Whatever writes the names, they are the student's.
    await t.db.update(contracts).set({ first_name: 'Someone', last_name: 'Else' }).where(eq(contracts.id, c.id));
    expect(await names()).toEqual(['Øystein', 'Othername', 'Øystein Othername']);
    // A student that does not exist is still refused by its reference, not by the names.
    const res = await api('post', '/contracts').send({ ...valid(3), student_id: 2_000_000_000 });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(Object.keys(res.body.errors ?? {})).toEqual(['student_id']);
  });

  it('filters by contract, intake, round, status, program, scholarship and student', async () => {
    const other = await createStudent(t.db);
    const a = await createContract(t.db, { student_id: other.id, intake: 2031, application_round: 2 });
    await createContract(t.db, { student_id: other.id, intake: 2031, application_round: 3, contract_status_id: 3 });
    const ids = async (q: string) => (await api('get', `/contracts?${q}&sort=application_number|asc`)).body.data.map((r: { id: number }) => r.id);
    expect(await ids('intake=2031&application_round=2')).toEqual([a.id]);
    expect(await ids(`student_id=${other.id}&contract_status_id=1`)).toEqual([a.id]);
    expect((await ids(`student_id=${other.id}&scholarship_id=1`)).length).toBe(2);
    expect(await ids(`contract_id=${a.id}`)).toEqual([a.id]);
    expect((await api('get', '/contracts?active=maybe')).status).toBe(400);
  });
});

describe('contracts: status lifecycle', () => {
  const setStatus = (id: number, status: number) => t.db.update(contracts).set({ contract_status_id: status }).where(eq(contracts.id, id));

  it('allows exactly the transitions of the spec, answering the updated record, and 409 for the rest', async () => {
    const c = await createContract(t.db);
    const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });
    for (let from = 1; from <= 6; from++) {
      for (let to = 1; to <= 6; to++) {
        await setStatus(c.id, from);
        const res = await api('put', `/contracts/${c.id}/update_status`).send({ contract_status_id: to });
        const [row] = await t.db.select().from(contracts).where(eq(contracts.id, c.id));
        if (canTransition(from, to)) {
          expect(res.status, `${from} → ${to}`).toBe(200);
          expect(res.body).toMatchObject({ id: c.id, contract_status_id: to, contract_status_date: today });
          expect(row!.contract_status_id).toBe(to);
        } else {
          expect(res.status, `${from} → ${to}`).toBe(409);
          expect(res.body.message).toMatch(/^A contract with status ".+" cannot change to ".+"$/);
          expect(row!.contract_status_id).toBe(from);
        }
      }
    }
    const events = await t.db.select().from(logEvents).where(and(eq(logEvents.contract_id, c.id), eq(logEvents.eventtype_id, EVENT_TYPE_IDS.statusChange)));
    expect(events).toHaveLength(13);
    expect(events.every((e) => e.student_id === c.student_id && e.usr_id === user.id)).toBe(true);
  });

  it('lets exactly one of two concurrent transitions win', async () => {
    for (let round = 0; round < 5; round++) {
      const c = await createContract(t.db, { contract_status_id: 3 });
      const [a, b] = await Promise.all([
        api('put', `/contracts/${c.id}/update_status`).send({ contract_status_id: 4 }),
        api('put', `/contracts/${c.id}/update_status`).send({ contract_status_id: 5 }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const [row] = await t.db.select().from(contracts).where(eq(contracts.id, c.id));
      expect(row!.contract_status_id).toBe(a.status === 200 ? 4 : 5);
    }
  });

  it('needs User level and a valid status id', async () => {
    const c = await createContract(t.db);
    const reader = await userWithToken(t.app, t.db, 'Reader');
    expect((await api('put', `/contracts/${c.id}/update_status`, reader.token).send({ contract_status_id: 2 })).status).toBe(403);
    expect((await api('put', `/contracts/${c.id}/update_status`).send({ contract_status_id: 9 })).status).toBe(400);
    expect((await api('put', '/contracts/999999/update_status').send({ contract_status_id: 2 })).status).toBe(404);
  });
});

interface BulkBody {
  ids: number[];
  changes: Record<string, unknown>;
  versions?: Record<string, string>;
}

describe('contracts: bulk edit', () => {
  /** Bulk Edit as the web sends it: with the version of each selected contract it loaded. */
  const withVersions = async (body: BulkBody) => {
    if (body.versions) return body;
    const rows = await t.db.select({ id: contracts.id, stamp: contracts.edit_timestamp }).from(contracts).where(inArray(contracts.id, body.ids));
    const stamps = new Map(rows.map((r) => [r.id, r.stamp.toISOString()]));
    // An id that is not there gets any version: its row fails with "not found".
    return { ...body, versions: Object.fromEntries(body.ids.map((id) => [id, stamps.get(id) ?? new Date().toISOString()])) };
  };
  const bulk = async (body: BulkBody, token = admin.token) => {
    const res = await api('post', '/contracts/bulk_edit', token).send(await withVersions(body));
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return waitForRun(t, token, res.body.run_id);
  };

  it('changes the selected contracts row by row, one event each, the end date following the start date', async () => {
    const a = await createContract(t.db);
    const b = await createContract(t.db);
    const run = await bulk({ ids: [a.id, b.id], changes: { contract_sent_date: '2024-07-01', year1_finished: true, start_date: '2024-10-01' } });
    expect(run).toMatchObject({ status: 'finished', total: 2, done: 2, failed: 0, label: 'Bulk Edit' });
    const rows = await t.db.select().from(contracts).where(inArray(contracts.id, [a.id, b.id]));
    for (const row of rows) expect(row).toMatchObject({ contract_sent_date: '2024-07-01', year1_finished: true, start_date: '2024-10-01', end_date: '2026-09-30', edit_user: admin.id });
    const events = await t.db.select().from(logEvents).where(and(inArray(logEvents.contract_id, [a.id, b.id]), eq(logEvents.eventtype_id, EVENT_TYPE_IDS.bulkEdit)));
    expect(events).toHaveLength(2);
  });

  it('refuses a row changed by someone else since it was loaded, and changes the others', async () => {
    const fresh = await createContract(t.db);
    const stale = await createContract(t.db);
    const seen = stale.edit_timestamp.toISOString();
    await api('put', `/contracts/${stale.id}`, user.token).set('If-Match', seen).send({ id: stale.id, comments: 'changed meanwhile' }).expect(200);
    const run = await bulk({
      ids: [fresh.id, stale.id],
      changes: { year2_finished: true },
      versions: { [fresh.id]: fresh.edit_timestamp.toISOString(), [stale.id]: seen },
    });
    expect(run).toMatchObject({ done: 2, failed: 1 });
    const failed = run.rows.find((r) => r.id === stale.id)!;
    expect(failed.message).toMatch(new RegExp(`^Error for ${stale.application_number}: This Contract was changed by .* after you opened it`));
    const [kept] = await t.db.select().from(contracts).where(eq(contracts.id, stale.id));
    expect(kept!.year2_finished).toBe(false);
    const [changed] = await t.db.select().from(contracts).where(eq(contracts.id, fresh.id));
    expect(changed!.year2_finished).toBe(true);
  });

  it('refuses a selection sent without the versions it was loaded at (428) and starts no run', async () => {
    const a = await createContract(t.db);
    const b = await createContract(t.db);
    const runsBefore = await t.db.select({ n: count() }).from(batchRuns);
    const none = await api('post', '/contracts/bulk_edit', admin.token).send({ ids: [a.id, b.id], changes: { year1_finished: true } });
    expect(none.status).toBe(428);
    expect(none.body.message).toMatch(/^versions is required/);
    const partial = await api('post', '/contracts/batch/bulk_edit', admin.token).send({
      ids: [a.id, b.id],
      changes: { year1_finished: true },
      versions: { [a.id]: a.edit_timestamp.toISOString() },
    });
    expect(partial.status).toBe(428);
    expect(partial.body.errors).toEqual({ versions: [`No version for record ${b.id}`] });
    expect(await t.db.select({ n: count() }).from(batchRuns)).toEqual(runsBefore);
    const rows = await t.db.select().from(contracts).where(inArray(contracts.id, [a.id, b.id]));
    expect(rows.map((r) => r.year1_finished)).toEqual([false, false]);
  });

  it('fails the row of an unknown id with its reason and changes the rest', async () => {
    const a = await createContract(t.db);
    const run = await bulk({ ids: [a.id, 999999], changes: { year2_finished: true } });
    expect(run.rows.map((r) => [r.id, r.ok])).toEqual([[a.id, true], [999999, false]]);
    expect(run.rows[1]!.message).toBe('Error for #999999: Contract 999999 not found: it may have been deleted');
    const [row] = await t.db.select().from(contracts).where(eq(contracts.id, a.id));
    expect(row!.year2_finished).toBe(true);
  });

  it('writes nothing when no value differs, and refuses empty changes, other fields, and non-administrators', async () => {
    const a = await createContract(t.db, { contract_sent_date: '2024-05-05' });
    const same = await bulk({ ids: [a.id], changes: { contract_sent_date: '2024-05-05' } });
    expect(same.rows[0]).toMatchObject({ ok: true, message: 'Nothing to change' });
    const [row] = await t.db.select().from(contracts).where(eq(contracts.id, a.id));
    expect(row!.edit_timestamp).toEqual(a.edit_timestamp);
    const empty = await api('post', '/contracts/bulk_edit', admin.token).send(await withVersions({ ids: [a.id], changes: {} }));
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ changes: ['Change at least one field'] });
    const other = await api('post', '/contracts/bulk_edit', admin.token).send(await withVersions({ ids: [a.id], changes: { comments: 'x' } }));
    expect(other.status).toBe(400);
    expect(other.body.errors).toHaveProperty('comments');
    expect((await api('post', '/contracts/bulk_edit').send({ ids: [a.id], changes: { year1_finished: true } })).status).toBe(403);
    expect((await api('post', '/contracts/batch/bulk_edit').send({ ids: [a.id], changes: { year1_finished: true } })).status).toBe(403);
  });
});

describe('contracts: Mark contract sent', () => {
  it('sets the contract sent date to today on one contract, and is refused once it is set', async () => {
    const c = await createContract(t.db);
    const res = await api('post', `/contracts/${c.id}/mark_sent`).send({});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.contract_sent_date).toBe(todayIn(t.ctx.env.APP_TIMEZONE));
    const again = await api('post', `/contracts/${c.id}/mark_sent`).send({});
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`The contract was already marked sent on ${formatDate(res.body.contract_sent_date)}`);
    const events = await t.db.select().from(logEvents).where(eq(logEvents.contract_id, c.id));
    expect(events.map((e) => e.le_message)).toContain(`Mark contract sent: Contract "${c.application_number}" — Contract sent on ${formatDate(res.body.contract_sent_date)}`);
  });

  it('marks a selection as a batch run, each contract once, with an error line for one already sent', async () => {
    const a = await createContract(t.db);
    const b = await createContract(t.db);
    const sent = await createContract(t.db, { contract_sent_date: '2024-01-15' });
    const res = await api('post', '/contracts/batch/mark_sent').send({ ids: [a.id, b.id, sent.id] });
    expect(res.status).toBe(202);
    const run = await waitForRun(t, user.token, res.body.run_id);
    expect(run).toMatchObject({ status: 'finished', total: 3, done: 3, failed: 1, label: 'Mark contract sent' });
    expect(run.rows.find((r) => !r.ok)!.message).toBe(`Error for ${sent.application_number}: The contract was already marked sent on 15-01-2024`);
    const rows = await t.db.select().from(contracts).where(inArray(contracts.id, [a.id, b.id, sent.id]));
    expect(rows.map((r) => r.contract_sent_date).sort()).toEqual(['2024-01-15', todayIn(t.ctx.env.APP_TIMEZONE), todayIn(t.ctx.env.APP_TIMEZONE)]);
  });

  it('is for User level and above', async () => {
    const c = await createContract(t.db);
    const reader = await userWithToken(t.app, t.db, 'Reader');
    expect((await api('post', `/contracts/${c.id}/mark_sent`, reader.token).send({})).status).toBe(403);
    expect((await api('post', '/contracts/batch/mark_sent', reader.token).send({ ids: [c.id] })).status).toBe(403);
  });
});

describe('contracts: rules of the record', () => {
  it('fills the end date from the start date when a script leaves it out', async () => {
    const res = await api('post', '/contracts').send({ ...valid(77), end_date: undefined, start_date: '2025-02-01' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await api('get', `/contracts/${res.body.id}`)).body.end_date).toBe('2027-01-31');
  });

  it('keeps the application ID of a contract from DreamApply read-only, with the reason', async () => {
    const c = await createContract(t.db, { da_application_id: 'DA-123' });
    const res = await putAsRead(t, user.token, `/contracts/${c.id}`, { id: c.id, application_id: 'HAND-EDITED' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('application_id cannot be changed: This contract came from DreamApply: its application ID links it to the application');
    expect((await putAsRead(t, user.token, `/contracts/${c.id}`, { id: c.id, comments: 'still editable' })).status).toBe(200);
  });

  it('refuses to delete a contract that still has documents, saying so', async () => {
    const c = await createContract(t.db);
    await api('post', '/contract_files').send({ contract_id: c.id, filename: 'agreement.pdf' }).expect(201);
    const res = await api('delete', `/contracts/${c.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This contract has 1 document(s): delete them first');
    expect((await api('get', `/contracts/${c.id}`)).status).toBe(200);
  });
});

describe('contracts: Contracts.xlsx', () => {
  it('streams the contracts of the current filter with the overview columns', async () => {
    const s = await createStudent(t.db, { first_name: '=cmd|', last_name: 'Report' });
    const c = await createContract(t.db, { student_id: s.id, intake: 2044, contract_sent_date: '2024-06-30' });
    const res = await api('post', '/contracts/download_report').send({ filter: { intake: 2044 } }).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/Contracts\.xlsx/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.body as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(1).getCell(1).value).toBe('Application Number');
    expect(sheet.getRow(2).getCell(1).value).toBe(c.application_number);
    expect(sheet.getRow(2).getCell(2).value).toBe('=cmd| Report');
    expect(sheet.getRow(2).getCell(2).formula).toBeUndefined();
    expect(sheet.getRow(2).getCell(3).value).toBe('Offer accepted');
    expect(sheet.getRow(2).getCell(10).value).toEqual(new Date('2024-06-30T00:00:00Z'));
  });
});

describe('contract choice lists', () => {
  it('answers statuses, rounds, intakes, file types, contracts and students', async () => {
    const get = async (name: string) => (await api('get', `/${name}/choice`)).body;
    expect((await get('contract_status')).map((c: { name: string }) => c.name)).toEqual(['Offer accepted', 'Offer rejected', 'Enrolled', 'On a break', 'Graduated', 'Dropped out']);
    expect((await get('contracts_round')).map((c: { id: number }) => c.id)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(await get('contracts_intake')).toContainEqual({ id: '2024', name: '2024' });
    expect(await get('contracts_year')).toContainEqual({ id: '2024', name: '2024' });
    expect((await get('file_types'))[0]).toEqual({ id: 1, name: 'Contract' });
    expect(await get('students')).toContainEqual({ id: student.id, name: 'Żeleński, Łukasz' });
    expect((await get('contracts')).length).toBeGreaterThan(0);
  });

  it('lists every intake and start year once, in order, as DISTINCT finds them; a new one changes the checksum', async () => {
    const get = async (name: string) => (await api('get', `/${name}/choice`)).body as { id: string; name: string }[];
    const checksum = async (name: string) => (await api('get', `/${name}/choice_checksum`)).body.checksum as string;
    const distinct = async (expression: string) =>
      (await t.db.execute<{ v: number }>(sql.raw(`select distinct ${expression} as v from contracts where ${expression} is not null order by 1`))).rows.map((r) => String(r.v));
    const before = { intake: await checksum('contracts_intake'), year: await checksum('contracts_year') };
    // Years apart, a start date on the last day of a year and on the first of the next: both years are listed.
    await createContract(t.db, { intake: 2091, start_date: '2091-12-31', end_date: '2093-08-31' });
    await createContract(t.db, { intake: 2089, start_date: '2092-01-01', end_date: '2093-08-31' });
    expect((await get('contracts_intake')).map((c) => c.id)).toEqual(await distinct('intake'));
    expect((await get('contracts_year')).map((c) => c.id)).toEqual(await distinct('extract(year from start_date)::int'));
    expect((await get('contracts_year')).map((c) => c.name)).toEqual(expect.arrayContaining(['2091', '2092']));
    expect(await checksum('contracts_intake')).not.toBe(before.intake);
    expect(await checksum('contracts_year')).not.toBe(before.year);
  });
});
