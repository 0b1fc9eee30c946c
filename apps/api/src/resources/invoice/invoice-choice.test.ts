import { beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '@app/contracts';
import { invoices } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { createContract, createStudent, userWithToken } from '../../test/factories.js';

/** Issue 18 point 2: the choice lists `invoices` and `invoices_credit_notes`, searched and narrowed on the server. */
const t = await setupTestApp();
const student = await createStudent(t.db, { first_name: 'Zoë', last_name: 'Ångström' });
const other = await createStudent(t.db, { first_name: 'Piotr', last_name: 'Nowak' });
const contract = await createContract(t.db, { student_id: student.id });
const otherContract = await createContract(t.db, { student_id: other.id });
let token: string;
beforeAll(async () => {
  token = (await userWithToken(t.app, t.db, 'Reader')).token;
});
const get = (path: string, as = token) => t.http().get(`/api/v1.0${path}`).set('Authorization', `Bearer ${as}`);

const row = (values: Partial<typeof invoices.$inferInsert>) => ({
  contract_id: contract.id,
  year: 1,
  semester: 0,
  amount: '100.00',
  description: 'Participation fee year 1',
  planned_date: '2026-03-01',
  document_type_id: 5,
  document_reference: 'REF',
  ...values,
});
const [inv1, inv2, , otherInv] = await t.db
  .insert(invoices)
  .values([
    row({ number: '2026-00001', invoice_date: '2026-03-01' }),
    row({ number: '2026-00002', invoice_date: '2026-03-01', document_type_id: 3, pro_forma: true, description: 'Registration fee' }),
    row({ description: 'Planned administration fee', document_type_id: 7 }),
    row({ contract_id: otherContract.id, number: '2026-00003', invoice_date: '2026-03-02' }),
  ])
  .returning();
const [creditNote] = await t.db
  .insert(invoices)
  .values(row({ number: 'CN-2026-00001', invoice_date: '2026-03-05', document_type_id: 6, linked_invoice_id: inv1!.id, amount: '100.00', description: 'Cancelled' }))
  .returning();

const ids = (body: { id: number }[]) => body.map((c) => c.id);

describe('choice list invoices', () => {
  it('answers the numbered invoices (no planned ones, no credit notes) in number order, labelled by number, contract and description', async () => {
    const res = await get('/invoices/choice');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([inv1!.id, inv2!.id, otherInv!.id]);
    expect(res.body[0]).toEqual({ id: inv1!.id, name: `2026-00001 · ${contract.application_number} · Participation fee year 1` });
  });

  it('narrows to one contract with contract_id, on /choice, /choice/search and /choice_checksum alike', async () => {
    expect(ids((await get(`/invoices/choice?contract_id=${contract.id}`)).body)).toEqual([inv1!.id, inv2!.id]);
    expect(ids((await get(`/invoices/choice/search?contract_id=${otherContract.id}`)).body)).toEqual([otherInv!.id]);
    const mine = (await get(`/invoices/choice_checksum?contract_id=${contract.id}`)).body.checksum;
    const theirs = (await get(`/invoices/choice_checksum?contract_id=${otherContract.id}`)).body.checksum;
    expect(mine).toMatch(/^[0-9a-f]{32}$/);
    expect(mine).not.toBe(theirs);
  });

  it('searches by number, by application number and by the student name without accents', async () => {
    expect(ids((await get('/invoices/choice?search=2026-00002')).body)).toEqual([inv2!.id]);
    expect(ids((await get(`/invoices/choice/search?search=${otherContract.application_number}`)).body)).toEqual([otherInv!.id]);
    expect(ids((await get('/invoices/choice/search?search=angstrom')).body)).toEqual([inv1!.id, inv2!.id]);
    expect(ids((await get(`/invoices/choice/search?search=nowak&contract_id=${contract.id}`)).body)).toEqual([]);
  });

  it('takes the invoice filter fields with their meaning (document type, open, pro forma)', async () => {
    expect(ids((await get('/invoices/choice?document_type_id=3')).body)).toEqual([inv2!.id]);
    expect(ids((await get('/invoices/choice?pro_forma=true')).body)).toEqual([inv2!.id]);
    // The credit note settles invoice 1 completely: it is no longer open.
    expect(ids((await get('/invoices/choice?open=true')).body)).toEqual([inv2!.id, otherInv!.id]);
    expect(ids((await get(`/invoices/choice?student_id=${other.id}`)).body)).toEqual([otherInv!.id]);
  });

  it('names the held choice first when the search does not find it, and a 304 for an unchanged list', async () => {
    expect(ids((await get(`/invoices/choice/search?search=2026-00003&id=${inv1!.id}`)).body)).toEqual([inv1!.id, otherInv!.id]);
    const first = await get(`/invoices/choice?contract_id=${contract.id}`);
    const again = await get(`/invoices/choice?contract_id=${contract.id}`).set('If-None-Match', first.headers.etag as string);
    expect(again.status).toBe(304);
  });
});

describe('choice list invoices_credit_notes', () => {
  it('answers numbered invoices and credit notes, invoices first, and searches credit notes by number', async () => {
    expect(ids((await get(`/invoices_credit_notes/choice?contract_id=${contract.id}`)).body)).toEqual([inv1!.id, inv2!.id, creditNote!.id]);
    expect(ids((await get('/invoices_credit_notes/choice/search?search=CN-2026')).body)).toEqual([creditNote!.id]);
    expect((await get('/invoices_credit_notes/choice?document_type_id=6')).body).toEqual([
      { id: creditNote!.id, name: `CN-2026-00001 · ${contract.application_number} · Cancelled` },
    ]);
  });
});

describe('invoice choice lists: who and what', () => {
  it('answer every logged-in role, and nobody logged out', async () => {
    for (const { name: role } of ROLES) {
      const { token: roleToken } = await userWithToken(t.app, t.db, role);
      for (const name of ['invoices', 'invoices_credit_notes']) {
        expect((await get(`/${name}/choice?contract_id=${contract.id}`, roleToken)).status, `${role} ${name}`).toBe(200);
        expect((await get(`/${name}/choice/search?search=2026`, roleToken)).status, `${role} ${name}`).toBe(200);
        expect((await get(`/${name}/choice_checksum`, roleToken)).status, `${role} ${name}`).toBe(200);
      }
    }
    expect((await t.http().get('/api/v1.0/invoices/choice')).status).toBe(401);
  });

  it('refuse a bad parameter with a 400 naming it', async () => {
    for (const [query, field] of [
      ['contract_id=abc', 'contract_id'],
      ['contract_id=1.5', 'contract_id'],
      ['open=maybe', 'open'],
      ['id=x', 'id'],
      ['colour=red', 'colour'],
      [`search=${'x'.repeat(101)}`, 'search'],
    ] as const) {
      for (const path of ['/invoices/choice', '/invoices/choice/search', '/invoices_credit_notes/choice_checksum']) {
        const res = await get(`${path}?${query}`);
        expect(res.status, `${path}?${query}`).toBe(400);
        expect(res.body.errors, `${path}?${query}`).toHaveProperty(field);
      }
    }
  });
});
