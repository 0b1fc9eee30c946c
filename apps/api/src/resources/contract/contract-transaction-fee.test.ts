import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { documentCounters, invoices } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { binaryParser, createContract, createStudent, userWithToken } from '../../test/factories.js';
import { pdfText } from '../../test/files.js';

const t = await setupTestApp();
let user: Awaited<ReturnType<typeof userWithToken>>;
let reader: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
  reader = await userWithToken(t.app, t.db, 'Reader');
});
const post = (path: string, token = user.token) => t.http().post(`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
const get = (path: string, token = user.token) => t.http().get(`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
const counter = async (year: number) => (await t.db.select().from(documentCounters).where(and(eq(documentCounters.kind, 'invoice'), eq(documentCounters.year, year))))[0]?.last_value ?? 0;

describe('contracts: create transaction fee (issue 13 point 9, spec §7)', () => {
  it('makes a numbered type-9 invoice with its PDF, counted in the contract money', async () => {
    const student = await createStudent(t.db, { first_name: 'Øystein', last_name: 'Nørgaard' });
    const c = await createContract(t.db, { student_id: student.id });
    const res = await post(`/contracts/${c.id}/create_transaction_fee`).send({ invoice_date: '2033-02-01', amount: 12.5 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe('Transaction fee 2033-00001 created');
    const [fee] = await t.db.select().from(invoices).where(eq(invoices.contract_id, c.id));
    expect(fee).toMatchObject({
      number: '2033-00001',
      document_type_id: 9,
      year: 1,
      semester: 0,
      amount: '12.50',
      invoice_date: '2033-02-01',
      expiration_date: '2033-03-03',
      pdf_filename: 'Invoice_2033-00001.pdf',
      document_reference: `${c.application_number}-Y1-T9`,
    });
    const row = (await get(`/contracts/${c.id}`)).body;
    expect(row).toMatchObject({ invoiced_amount: 12.5, to_be_payed_amount: 12.5 });
    const pdf = await post(`/invoices/${fee!.id}/download_pdf`, reader.token).buffer(true).parse(binaryParser);
    const text = pdfText(pdf.body as Buffer);
    expect(text).toContain('2033-00001');
    expect(text).toContain('Øystein Nørgaard');
    expect(text).toContain('€ 12,50');
  });

  it('needs invoice date and amount (400 naming each), takes no number then, and refuses a Reader (403)', async () => {
    const c = await createContract(t.db);
    const before = await counter(2034);
    const missing = await post(`/contracts/${c.id}/create_transaction_fee`).send({});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['amount', 'invoice_date']);
    const bad = await post(`/contracts/${c.id}/create_transaction_fee`).send({ invoice_date: '2034-02-30', amount: 0 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['amount', 'invoice_date']);
    expect((await post(`/contracts/${c.id}/create_transaction_fee`, reader.token).send({ invoice_date: '2034-01-01', amount: 5 })).status).toBe(403);
    expect(await counter(2034)).toBe(before);
    expect(await t.db.select().from(invoices).where(eq(invoices.contract_id, c.id))).toEqual([]);
  });
});

describe('contracts: download numbered invoice details (xlsx)', () => {
  it('names the file by an application number outside ASCII as every download does: the exact name, and a plain one without "?" (decision 060)', async () => {
    const c = await createContract(t.db, { application_number: `Ö-${Date.now()}` });
    const res = await post(`/contracts/${c.id}/download_invoice_details`, reader.token).send({}).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    const plain = c.application_number.replace('Ö', 'O');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Invoice_Details_${plain}.xlsx"; filename*=UTF-8''Invoice_Details_%C3%96${c.application_number.slice(1)}.xlsx`);
  });

  it("lists the contract's numbered invoices and credit notes with numbers as numbers and dates as dates, planned ones left out", async () => {
    const c = await createContract(t.db);
    const fee = await post(`/contracts/${c.id}/create_transaction_fee`).send({ invoice_date: '2035-05-10', amount: 100 });
    expect(fee.status).toBe(200);
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.contract_id, c.id));
    const cn = await post('/invoices').send({ linked_invoice_id: inv!.id, amount: 40.25, description: 'Partly waived' });
    expect(cn.status, cn.text).toBe(201);
    await t.db.insert(invoices).values({ contract_id: c.id, year: 1, semester: 0, amount: '9.99', description: 'Still planned', planned_date: '2035-09-01', document_reference: 'REF' });
    const res = await post(`/contracts/${c.id}/download_invoice_details`, reader.token).send({}).buffer(true).parse(binaryParser);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain(`Invoice_Details_${c.application_number}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.body as never);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Number', 'Document Type', 'Year', 'Semester', 'Description', 'Date', 'Exp. Date', 'Ext. Deadline', 'Amount', 'Amount invoiced', 'Amount paid', 'Amount to be paid', 'Linked Invoice', 'Email Sent']);
    expect(sheet.rowCount).toBe(3);
    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toBe('2035-00001');
    expect(first.getCell(2).value).toBe('Transaction fee');
    // A whole-year document reads as on the screen, not as semester 0.
    expect(first.getCell(4).value).toBe('Whole year');
    expect(first.getCell(6).value).toBeInstanceOf(Date);
    expect((first.getCell(6).value as Date).toISOString().slice(0, 10)).toBe('2035-05-10');
    expect(first.getCell(9).value).toBe(100);
    expect(first.getCell(10).value).toBe(59.75);
    expect(first.getCell(12).value).toBe(59.75);
    const credit = sheet.getRow(3);
    expect(credit.getCell(1).value).toBe('CN-2035-00001');
    expect(credit.getCell(9).value).toBe(40.25);
    expect(credit.getCell(13).value).toBe('2035-00001');
    // The credit note is in its invoice's "Amount invoiced" already (100 − 40.25): its own line adds nothing, and
    // the column adds up to what the contract screen calls its invoiced amount.
    expect(credit.getCell(10).value).toBe(0);
    const column = [2, 3].reduce((sum, r) => sum + Math.round(Number(sheet.getRow(r).getCell(10).value) * 100), 0) / 100;
    const record = await t.http().get(`/api/v1.0/contracts/${c.id}`).set('Authorization', `Bearer ${reader.token}`);
    expect(column).toBe(record.body.invoiced_amount);
  });
});
