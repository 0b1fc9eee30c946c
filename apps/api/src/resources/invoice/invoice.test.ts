import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { invoiceResource, todayIn } from '@app/contracts';
import { documentCounters, invoices, storedFiles, templates } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { startTestWorkers, waitForRun } from '../../test/workers.js';
import { crudSuite } from '../../test/crud-suite.js';
import { binaryParser, createContract, createStudent, createStudentsWithContracts, userWithToken } from '../../test/factories.js';
import { pdfText } from '../../test/files.js';
import { ESTIMATE_FROM_ROWS } from '../../lib/crud/crud-service.js';

const t = await setupTestApp();
await startTestWorkers(t);
const student = await createStudent(t.db, { first_name: 'Łukasz', last_name: 'Wiśniewski-Żółć', city: 'Kraków' });
const contract = await createContract(t.db, { student_id: student.id });
let user: Awaited<ReturnType<typeof userWithToken>>;
let reader: Awaited<ReturnType<typeof userWithToken>>;
beforeAll(async () => {
  user = await userWithToken(t.app, t.db, 'User');
  reader = await userWithToken(t.app, t.db, 'Reader');
});
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token = user.token) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);

const valid = (n: number) => ({
  contract_id: contract.id,
  year: 1 + (n % 2),
  semester: n % 3,
  description: `Participation fee ${n}`,
  amount: 1000 + n + 0.25,
  planned_date: '2026-03-01',
});

async function planned(values: Partial<typeof invoices.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(invoices)
    .values({ contract_id: contract.id, year: 1, semester: 0, amount: '1234.56', description: 'Participation fee year 1', planned_date: '2026-03-01', document_type_id: 5, document_reference: values.number ? null : 'REF', ...values })
    .returning();
  return row!;
}
const counter = async (year: number) => (await t.db.select().from(documentCounters).where(and(eq(documentCounters.kind, 'invoice'), eq(documentCounters.year, year))))[0]?.last_value ?? 0;

crudSuite(t, {
  resource: invoiceResource,
  valid,
  invalid: { body: { semester: 3 }, fields: ['contract_id', 'year', 'semester', 'description', 'amount', 'planned_date'] },
  change: { comments: 'Asked for a later date', extended_deadline_date: '2026-05-01' },
  sortBy: ['year', 'planned_date'],
});

describe('invoices: planned invoices and their fields', () => {
  it('answers the spec fields, fills the document reference and computes the money in SQL', async () => {
    const res = await api('post', '/invoices').send({ ...valid(1), year: 2, semester: 1, document_type_id: 5, amount: 0.1 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const row = (await api('get', `/invoices/${res.body.id}`)).body;
    expect(Object.keys(row).sort()).toEqual(Object.keys(invoiceResource.schema.shape).sort());
    expect(row).toMatchObject({
      document_reference: `${contract.application_number}-Y2-S1-T5`,
      number: null,
      contract: contract.application_number,
      student_name: 'Łukasz Wiśniewski-Żółć',
      amount: 0.1,
      total_amount: 0.1,
      to_be_payed_amount: 0.1,
      payed_amount: 0,
      document_type: 'Participation fee',
      is_locked: false,
      is_creditnote: false,
      is_expired: false,
      pro_forma: false,
    });
    const [stored] = await t.db.select({ amount: invoices.amount }).from(invoices).where(eq(invoices.id, res.body.id));
    expect(stored!.amount).toBe('0.10');
  });

  it('names each missing required field with a 400 (spec §5), a planned date included', async () => {
    const res = await api('post', '/invoices').send({ contract_id: contract.id, year: 1, semester: 0, description: 'x', amount: 5 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['planned_date']);
    const cents = await api('post', '/invoices').send({ ...valid(2), amount: 1.005, document_type_id: 2 });
    expect(cents.status).toBe(400);
    expect(Object.keys(cents.body.errors).sort()).toEqual(['amount', 'document_type_id']);
    const unknown = await api('post', '/invoices').send({ ...valid(3), contract_id: 999999 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.contract_id).toBeDefined();
    // Nothing below 0 can ever be invoiced: a planned invoice of -1 is refused when it is planned, not when numbered.
    const negative = await api('post', '/invoices').send({ ...valid(5), amount: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.errors).toEqual({ amount: ['Amount cannot be negative'] });
    expect((await api('post', '/invoices').send({ ...valid(6), amount: 0 })).status).toBe(201);
  });

  it('keeps contract, year and semester as created (409 naming the field)', async () => {
    const p = await planned();
    const other = await createContract(t.db);
    const res = await api('put', `/invoices/${p.id}`).set('If-Match', p.edit_timestamp.toISOString()).send({ id: p.id, contract_id: other.id });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^contract_id cannot be changed/);
  });

  it('refuses writes to a Reader (403)', async () => {
    expect((await api('post', '/invoices', reader.token).send(valid(4))).status).toBe(403);
    const p = await planned();
    expect((await api('post', `/invoices/${p.id}/create_pdf`, reader.token).send({})).status).toBe(403);
    expect((await api('post', '/invoices/batch/create_pdf', reader.token).send({ ids: [p.id] })).status).toBe(403);
  });

  it('offers the document type choice lists', async () => {
    const inv = await api('get', '/document_types_invoices/choice');
    expect(inv.body.map((c: { id: number }) => c.id)).toEqual([1, 3, 5, 7, 9]);
    const cn = await api('get', '/document_types_creditnotes/choice', reader.token);
    expect(cn.body).toEqual([
      { id: 2, name: 'Credit note for invoice' },
      { id: 4, name: 'Registration fee cancellation' },
      { id: 6, name: 'Credit note for participation fee' },
      { id: 8, name: 'Credit note for administration fee' },
      { id: 10, name: 'Credit note for transaction fee' },
    ]);
  });
});

describe('invoices: views and the advanced filter', () => {
  it('separates planned, numbered and credit notes by their flags', async () => {
    const c = await createContract(t.db, { intake: 2041 });
    const p = await planned({ contract_id: c.id });
    const n = await planned({ contract_id: c.id, number: 'T-2099-00001', invoice_date: '2026-01-10', expiration_date: '2026-02-09' });
    const note = await planned({ contract_id: c.id, number: 'CN-T-2099-00001', invoice_date: '2026-01-20', document_type_id: 6, linked_invoice_id: n.id, amount: '234.56' });
    const ids = async (q: string) => (await api('get', `/invoices?contract_id=${c.id}&${q}`)).body.data.map((r: { id: number }) => r.id);
    expect(await ids('planned=true')).toEqual([p.id]);
    expect(await ids('numbered=true')).toEqual([n.id]);
    expect(await ids('creditnote=true')).toEqual([note.id]);
    const numbered = (await api('get', `/invoices/${n.id}`)).body;
    expect(numbered).toMatchObject({ total_amount: 1000, to_be_payed_amount: 1000, credit_note: 'CN-T-2099-00001', is_locked: true, is_expired: true });
    expect((await api('get', `/invoices/${note.id}`)).body.linked_invoice_number).toBe('T-2099-00001');
    expect(await ids('intake=2041&open=true')).toEqual([n.id]);
    expect(await ids('expired_after=2026-02-01')).toEqual([n.id]);
    expect(await ids('planned_before=2026-03-02&planned=true')).toEqual([p.id]);
    expect((await ids('document_type_id=6')).length).toBe(1);
    expect((await ids('email_sent=true')).length).toBe(0);
    expect((await ids('pro_forma=false')).length).toBe(3);
    expect((await api('get', '/invoices?planned_before=yesterday')).status).toBe(400);
    expect((await api('get', '/invoices?open=maybe')).status).toBe(400);
  });

  it('filters by the contract fields: student, round, status, instalments, program', async () => {
    const s = await createStudent(t.db);
    const c = await createContract(t.db, { student_id: s.id, application_round: 4, contract_status_id: 3, instalments: true });
    const p = await planned({ contract_id: c.id });
    const ids = async (q: string) => (await api('get', `/invoices?${q}`)).body.data.map((r: { id: number }) => r.id);
    expect(await ids(`student_id=${s.id}&application_round=4&contract_status_id=3&instalments=true&program_id=${c.program_id}`)).toEqual([p.id]);
    expect(await ids(`student_id=${s.id}&instalments=false`)).toEqual([]);
    expect(await ids(`search=${encodeURIComponent(c.application_number)}`)).toEqual([p.id]);
  });

  it('finds invoices by their contract\'s intake, which they copy and follow when it changes (0028)', async () => {
    const [c, other] = [await createContract(t.db, { intake: 2042 }), await createContract(t.db, { intake: 2042 })];
    const p = await planned({ contract_id: c.id });
    const n = await planned({ contract_id: c.id, number: 'INTAKE-2042-1', invoice_date: '2026-01-10' });
    const ids = async (q: string) => (await api('get', `/invoices?${q}`)).body.data.map((r: { id: number }) => r.id);
    expect(await ids('intake=2042&planned=true')).toEqual([p.id]);
    expect(await ids('intake=2042&numbered=true')).toEqual([n.id]);
    // The contract moves to another intake: its invoices with it, whoever changed it (here SQL, past the API).
    await t.db.execute(sql`update contracts set intake = 2043 where id = ${c.id}`);
    expect(await ids('intake=2042')).toEqual([]);
    expect(await ids('intake=2043&sort=number|asc')).toEqual([n.id, p.id]);
    // An invoice moved to another contract takes that one's intake; one that writes an intake of its own is corrected.
    await t.db.update(invoices).set({ contract_id: other.id }).where(eq(invoices.id, p.id));
    await t.db.update(invoices).set({ intake: 1999 }).where(eq(invoices.id, n.id));
    expect(await ids('intake=2042')).toEqual([p.id]);
    expect(await ids('intake=2043')).toEqual([n.id]);
  });
});

describe('invoices: the quick filter', () => {
  it('shows the numbers that start with the text first, then the other matches in the list\'s order', async () => {
    const c = await createContract(t.db);
    const n = await planned({ contract_id: c.id, number: 'QF-2099-00001', invoice_date: '2026-01-10' });
    const note = await planned({ contract_id: c.id, number: 'CN-QF-2099-00001', invoice_date: '2026-01-20', document_type_id: 6, linked_invoice_id: n.id, amount: '1.00' });
    const later = await planned({ contract_id: c.id, number: 'QF-2099-00002', invoice_date: '2026-01-10' });
    const found = async (q: string) => (await api('get', `/invoices?${q}`)).body.data.map((r: { id: number }) => r.id);
    expect(await found('search=qf-2099&sort=number|asc')).toEqual([n.id, later.id, note.id]);
    expect(await found('search=qf-2099&sort=number|desc')).toEqual([later.id, n.id, note.id]);
    // Found by the contract's application number, all of them alike: in the list's order.
    expect(await found(`search=${c.application_number}&sort=number|asc`)).toEqual([note.id, n.id, later.id]);
  });

  it('finds every page in every sort as the whole list orders it: own number and reference, the contracts\' invoices, ranked', async () => {
    // The text's first word starts some numbers: those of the student's contracts come first, found through
    // the contracts; the other contract's is not found at all.
    const zora = await createStudent(t.db, { first_name: 'Zora', last_name: 'Pagefind' });
    const [c1, c2] = [await createContract(t.db, { student_id: zora.id }), await createContract(t.db, { student_id: zora.id })];
    const c3 = await createContract(t.db);
    const numbered = (contractId: number, number: string, k: number) =>
      planned({ contract_id: contractId, number, invoice_date: `2026-01-${10 + k}`, amount: `${100 + ((k * 7) % 5)}.00`, year: 1 + (k % 2), semester: k % 3 });
    const p9 = await numbered(c1!.id, 'PAGEFIND-9', 1);
    const p3 = await numbered(c2!.id, 'PAGEFIND-3', 2);
    const [f2, f4, f1, f3] = [await numbered(c1!.id, 'PF-2', 3), await numbered(c1!.id, 'PF-4', 4), await numbered(c2!.id, 'PF-1', 5), await numbered(c2!.id, 'PF-3', 6)];
    const x = await numbered(c3.id, 'X-PAGEFIND ZORA', 7);
    const [r1, r2] = [await planned({ contract_id: c1!.id, document_reference: 'PAGEFIND-R1' }), await planned({ contract_id: c3.id, document_reference: 'REF pagefind zora' })];
    // By number: those that start with the text, then the others, then the planned ones (no number) by id.
    const expected = [p3, p9, f1, f2, f3, f4, x, r1, r2].map((r) => r.id);
    await numbered(c3.id, 'PAGEFIND-1', 8);
    const get = (query: string) => api('get', `/invoices?search=Pagefind%20Zora&${query}`);
    const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((r) => r.id);

    const byNumber = await get('sort=number|asc&per_page=200');
    expect(ids(byNumber)).toEqual(expected);
    expect(byNumber.body.links.pagination).toMatchObject({ total: expected.length });
    expect(byNumber.body.links.pagination).not.toHaveProperty('estimated');
    for (const field of invoiceResource.sortable) {
      for (const direction of ['asc', 'desc']) {
        const all = await get(`sort=${field}|${direction}&per_page=200`);
        expect(all.status, `${field} ${direction}: ${all.text}`).toBe(200);
        expect([...ids(all)].sort(), `${field} ${direction}`).toEqual([...expected].sort());
        expect([...ids(all).slice(0, 2)].sort(), `${field} ${direction}: numbers that start with the text first`).toEqual([p3.id, p9.id].sort());
        for (const page of [2, 3]) {
          const part = await get(`sort=${field}|${direction}&per_page=3&page=${page}`);
          expect(ids(part), `${field} ${direction} page ${page}`).toEqual(ids(all).slice((page - 1) * 3, page * 3));
        }
      }
    }
  });

  it('finds with one letter (too short for the trigram indexes) the rows the filter means, paged as the whole list orders it', async () => {
    const quinn = await createStudent(t.db, { first_name: 'Quinn', last_name: 'Shortfind' });
    const c = await createContract(t.db, { student_id: quinn.id });
    for (let k = 1; k <= 4; k++) await planned({ contract_id: c.id, number: `SF-2099-0000${k}`, invoice_date: `2026-02-0${k}` });
    await planned({ contract_id: (await createContract(t.db)).id, number: 'SQ-2099-00001', invoice_date: '2026-02-09' });
    const meant = await t.db.execute<{ id: number }>(sql`
      select i.id from invoices i
      where i.number is not null and not i.is_creditnote
        and (i.number ilike '%q%' or i.document_reference ilike '%q%'
          or i.contract_id in (select id from contracts where name_key like '%q%' or application_number ilike '%q%'))`);
    const expected = meant.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    expect(expected.length).toBeGreaterThanOrEqual(5);
    expect(expected.length).toBeLessThanOrEqual(200);
    const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((r) => r.id);
    for (const sort of ['number|asc', 'invoice_date|desc']) {
      const all = await api('get', `/invoices?numbered=true&search=q&sort=${sort}&per_page=200`);
      expect(all.status, all.text).toBe(200);
      expect([...ids(all)].sort((a, b) => a - b), sort).toEqual(expected);
      for (const page of [1, 2]) {
        const part = await api('get', `/invoices?numbered=true&search=q&sort=${sort}&per_page=2&page=${page}`);
        expect(ids(part), `${sort} page ${page}`).toEqual(ids(all).slice((page - 1) * 2, page * 2));
      }
    }
  });

  it("counts a search that finds many invoices by the planner's estimate, marked; exactly on request and when it finds few", async () => {
    // 1,500 students of that name with a contract and ten numbered invoices each: spread as real data is, so the
    // planner's estimate of the contracts' invoices is close (all of one contract would be estimated at a few hundred).
    const rows = 15_000;
    const contractIds = await createStudentsWithContracts(t.db, {
      count: rows / 10,
      firstName: sql`'Estelle'`,
      lastName: sql`'Countmany ' || n`,
      email: 'estelle@example.org',
      applicationPrefix: 'MANY-',
    });
    await t.db.execute(sql`
      insert into invoices (contract_id, year, semester, amount, description, planned_date, invoice_date, document_type_id, number)
      select c.id, 1, 0, 10.00, 'Many', '2026-03-01', '2026-03-01', 5, 'MANY-' || lpad((row_number() over ())::text, 6, '0')
      from unnest(${sql.param(contractIds)}::int[]) c(id) cross join generate_series(1, 10) k`);
    await t.db.execute(sql`analyze invoices`);

    const estimated = (await api('get', '/invoices?numbered=true&search=Countmany')).body;
    expect(estimated.data).toHaveLength(50);
    expect(estimated.links.pagination.estimated).toBe(true);
    expect(estimated.links.pagination.total).toBeGreaterThanOrEqual(ESTIMATE_FROM_ROWS);
    expect(Math.abs(estimated.links.pagination.total - rows) / rows).toBeLessThan(0.5);

    const exact = (await api('get', '/invoices?numbered=true&search=Countmany&count=exact')).body.links.pagination;
    expect(exact).toMatchObject({ total: rows });
    expect(exact).not.toHaveProperty('estimated');
    const last = (await api('get', `/invoices?numbered=true&search=Countmany&per_page=160&page=${Math.ceil(rows / 160)}`)).body.links.pagination;
    expect(last).toMatchObject({ total: rows, to: rows });
    expect(last).not.toHaveProperty('estimated');
    // A search that finds few is counted.
    const few = (await api('get', '/invoices?numbered=true&search=MANY-00001')).body.links.pagination;
    expect(few).toMatchObject({ total: 10 });
    expect(few).not.toHaveProperty('estimated');
  });
});

describe('invoices: the views page by keyset (decision 017)', () => {
  type Page = { data: { id: number }[]; links: { next?: string; prev?: string } };
  let c: Awaited<ReturnType<typeof createContract>>;
  beforeAll(async () => {
    c = await createContract(t.db);
    // Seven of each kind, made out of order; references shared in pairs, so ties on the reference fall across page borders.
    for (let k = 0; k < 7; k++) {
      await planned({ contract_id: c.id, document_reference: `KEYSET-${(k * 3) % 4}` });
      const n = await planned({ contract_id: c.id, number: `KS-${(k * 7) % 10}${k}`, invoice_date: '2026-01-10' });
      await planned({ contract_id: c.id, number: `CN-KS-${(k * 3) % 10}${k}`, invoice_date: '2026-01-20', document_type_id: 6, linked_invoice_id: n.id, amount: '1.00' });
    }
  });
  const get = async (query: string): Promise<Page> => {
    const res = await api('get', `/invoices?contract_id=${c.id}&${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body as Page;
  };
  const ids = (page: Page) => page.data.map((r) => r.id);

  it.each([
    'planned=true&sort=document_reference|asc',
    'planned=true&sort=document_reference|desc',
    'planned=true&sort=number|asc',
    'planned=true&sort=number|desc',
    'numbered=true&sort=number|asc',
    'numbered=true&sort=number|desc',
    'creditnote=true&sort=number|asc',
    'creditnote=true&sort=number|desc',
  ])('%s: Next and Previous page lead to the rows of the numbered pages', async (view) => {
    const all = ids(await get(`${view}&per_page=100`));
    expect(all).toHaveLength(7);
    let page = await get(`${view}&per_page=2&page=1`);
    const walked = ids(page);
    for (let n = 2; n <= 4; n++) {
      expect(page.links.next, `${view} page ${n - 1}`).toMatch(/^after:\d+$/);
      const next = await get(`${view}&per_page=2&page=${n}&cursor=${page.links.next}`);
      expect(ids(next)).toEqual(ids(await get(`${view}&per_page=2&page=${n}`)));
      walked.push(...ids(next));
      page = next;
    }
    expect(walked).toEqual(all);
    expect(page.links.next).toBeUndefined();
    const back = await get(`${view}&per_page=2&page=3&cursor=${page.links.prev}`);
    expect(ids(back)).toEqual(ids(await get(`${view}&per_page=2&page=3`)));
  });

  it('orders the planned invoices "by number", which none of them has, by id in the direction asked; by reference when no sort is asked', async () => {
    const byId = ids(await get('planned=true&per_page=100&sort=document_reference|asc')).sort((a, b) => a - b);
    expect(ids(await get('planned=true&per_page=100&sort=number|asc'))).toEqual(byId);
    expect(ids(await get('planned=true&per_page=100&sort=number|desc'))).toEqual([...byId].reverse());
    // Asked for without a sort, the planned invoices come in their view's order: by reference.
    const byReference = ids(await get('planned=true&per_page=100&sort=document_reference|asc'));
    expect(byReference).not.toEqual(byId);
    expect(ids(await get('planned=true&per_page=100'))).toEqual(byReference);
    // With a second key the number still orders nothing: the year, then the id.
    expect(ids(await get('planned=true&per_page=100&sort=number|desc,year|desc'))).toEqual([...byId].reverse());
  });

  it('gives no cursor where the sort key may be empty: all invoices, or those not numbered, by number', async () => {
    for (const list of ['sort=number|asc', 'numbered=false&sort=number|asc', 'sort=document_reference|asc']) {
      const page = await get(`${list}&per_page=2&page=2`);
      expect(page.data, list).toHaveLength(2);
      expect(page.links, list).not.toHaveProperty('next');
      expect(page.links, list).not.toHaveProperty('prev');
    }
  });

  it('cannot store a credit note without a number, nor a planned invoice without a reference', async () => {
    const other = await createContract(t.db);
    const insert = (values: string) =>
      t.pool.query(`insert into invoices (contract_id, year, semester, amount, description, document_type_id, number, invoice_date, document_reference)
        values (${other.id}, 1, 0, 1.00, 'Keyset', ${values})`);
    await expect(insert(`6, null, '2026-01-20', 'REF'`)).rejects.toMatchObject({ constraint: 'invoices_creditnote_number_check' });
    await expect(insert(`5, null, null, null`)).rejects.toMatchObject({ constraint: 'invoices_planned_reference_check' });
    // A numbered invoice and a credit note need no reference.
    await insert(`5, 'KS-NOREF', '2026-01-20', null`);
    await insert(`6, 'CN-KS-NOREF', '2026-01-20', null`);
  });
});

describe('invoices: create invoice (create_pdf)', () => {
  it('numbers, dates and stores the PDF in one go; the invoice is then locked', async () => {
    const p = await planned({ description: 'Participation fee year 1 — Größe' });
    const res = await api('post', `/invoices/${p.id}/create_pdf`).send({ invoice_date: '2030-03-05' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ number: '2030-00001', invoice_date: '2030-03-05', expiration_date: '2030-04-04', pdf_filename: 'Invoice_2030-00001.pdf', is_locked: true });
    const pdf = await api('post', `/invoices/${p.id}/download_pdf`, reader.token).buffer(true).parse(binaryParser);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toMatch(/application\/pdf/);
    const [row] = await t.db.select({ file: invoices.pdf_file_id }).from(invoices).where(eq(invoices.id, p.id));
    const [file] = await t.db.select().from(storedFiles).where(eq(storedFiles.id, row!.file!));
    expect(Buffer.compare(pdf.body as Buffer, file!.content as Buffer)).toBe(0);
    const text = pdfText(pdf.body as Buffer);
    expect(text).toContain('2030-00001');
    expect(text).toContain('Łukasz Wiśniewski-Żółć');
    expect(text).toContain('€ 1.234,56');
    expect(text).toContain('05-03-2030');
  });

  it('a pro forma registration fee is titled a pro forma invoice on its PDF, an ordinary invoice is not (decision 055)', async () => {
    const fee = await planned({ description: 'Registration fee', document_type_id: 3, pro_forma: true });
    expect((await api('post', `/invoices/${fee.id}/create_pdf`).send({ invoice_date: '2030-06-01' })).status).toBe(200);
    const proForma = pdfText((await api('post', `/invoices/${fee.id}/download_pdf`, reader.token).buffer(true).parse(binaryParser)).body as Buffer).replace(/\s+/g, ' ');
    expect(proForma).toMatch(/Pro forma invoice 2030-\d{5}/);
    expect(proForma).toContain('(pro forma: the registration fee, asked for before the contract starts)');
    const ordinary = await planned();
    expect((await api('post', `/invoices/${ordinary.id}/create_pdf`).send({ invoice_date: '2030-06-01' })).status).toBe(200);
    const text = pdfText((await api('post', `/invoices/${ordinary.id}/download_pdf`, reader.token).buffer(true).parse(binaryParser)).body as Buffer);
    expect(text).toMatch(/Invoice 2030-\d{5}/);
    expect(text).not.toContain('ro forma');
  });

  it('dates the invoice today in the office time zone when no date is given', async () => {
    const p = await planned();
    const res = await api('post', `/invoices/${p.id}/create_pdf`).send({});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const today = todayIn(t.ctx.env.APP_TIMEZONE);
    expect(res.body.invoice_date).toBe(today);
    expect(res.body.number).toMatch(new RegExp(`^${today.slice(0, 4)}-\\d{5}$`));
  });

  it('refuses a bad date with a 400 naming it, and a second call with a 409', async () => {
    const p = await planned();
    const bad = await api('post', `/invoices/${p.id}/create_pdf`).send({ invoice_date: '2030-02-30' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['invoice_date']);
    expect((await api('post', `/invoices/${p.id}/create_pdf`).send({ invoice_date: '2030-06-01' })).status).toBe(200);
    const again = await api('post', `/invoices/${p.id}/create_pdf`).send({ invoice_date: '2030-06-01' });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already numbered/);
  });

  it('numbers an invoice once when two calls come at once', async () => {
    const p = await planned();
    const before = await counter(2031);
    const answers = await Promise.all([0, 1].map(() => api('post', `/invoices/${p.id}/create_pdf`).send({ invoice_date: '2031-01-15' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await counter(2031)).toBe(before + 1);
    const files = await t.db.select({ n: count() }).from(storedFiles).where(eq(storedFiles.filename, `Invoice_2031-${String(before + 1).padStart(5, '0')}.pdf`));
    expect(files[0]!.n).toBe(1);
  });

  it('gives 50 invoices created at once 50 contiguous numbers', async () => {
    const rows = await Promise.all(Array.from({ length: 50 }, () => planned()));
    const answers = await Promise.all(rows.map((r) => api('post', `/invoices/${r.id}/create_pdf`).send({ invoice_date: '2032-07-01' })));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const numbers = answers.map((a) => a.body.number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, k) => `2032-${String(k + 1).padStart(5, '0')}`));
  });

  it('gives the number back when the work after taking it fails', async () => {
    const p = await planned();
    const before = await counter(2033);
    // Another document already holds the number this call would take: the update fails after the number was taken.
    await planned({ number: `2033-${String(before + 1).padStart(5, '0')}`, invoice_date: '2033-01-01' });
    const filesBefore = (await t.db.select({ n: count() }).from(storedFiles))[0]!.n;
    const res = await api('post', `/invoices/${p.id}/create_pdf`).send({ invoice_date: '2033-02-01' });
    expect(res.status).toBe(409);
    expect(await counter(2033)).toBe(before);
    expect((await t.db.select({ n: count() }).from(storedFiles))[0]!.n).toBe(filesBefore);
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, p.id));
    expect(row).toMatchObject({ number: null, invoice_date: null, pdf_file_id: null });
  });

  it('numbers no invoice of 0 or less: 409 with the reason, no number taken', async () => {
    const before = await counter(2038);
    for (const amount of ['0.00', '-250.00']) {
      const p = await planned({ amount });
      const res = await api('post', `/invoices/${p.id}/create_pdf`).send({ invoice_date: '2038-01-10' });
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/^Only an amount above 0 can be invoiced: this invoice is over € -?\d+,00$/);
    }
    expect(await counter(2038)).toBe(before);
  });

  it('download_pdf answers 409 with a message before a PDF exists', async () => {
    const p = await planned();
    const res = await api('post', `/invoices/${p.id}/download_pdf`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('No PDF has been created for this invoice yet');
  });

  it('batch Create Invoice: the dry run numbers nothing and answers the total; the run numbers each row as the preview showed', async () => {
    const rows = [];
    for (const amount of ['100.10', '200.20', '1.00', '2.00', '3.00', '4.00', '5.00', '6.00']) rows.push(await planned({ amount }));
    const done = await planned({ number: '2034-99999', invoice_date: '2034-01-01' });
    const ids = [...rows.map((r) => r.id), done.id];
    const before = await counter(2034);
    const preview = await api('post', '/invoices/batch/create_pdf').send({ ids, dry_run: true, invoice_date: '2034-05-01' });
    expect(preview.status, JSON.stringify(preview.body)).toBe(202);
    const dry = await waitForRun(t, user.token, preview.body.run_id);
    expect(dry).toMatchObject({ status: 'finished', dry_run: true, total: 9, failed: 1, amount: 321.3, label: 'Create Invoice' });
    expect(dry.rows.find((r) => !r.ok)!.message).toBe('Error for 2034-99999: Invoice 2034-99999 is already numbered');
    expect(await counter(2034)).toBe(before);
    const stillPlanned = await t.db.select({ n: count() }).from(invoices).where(and(inArray(invoices.id, rows.map((r) => r.id)), eq(invoices.document_type_id, 5)));
    expect(stillPlanned[0]!.n).toBe(8);
    expect((await t.db.select().from(invoices).where(inArray(invoices.id, rows.map((r) => r.id)))).every((r) => r.number === null)).toBe(true);
    const real = await api('post', '/invoices/batch/create_pdf').send({ ids, invoice_date: '2034-05-01' });
    const run = await waitForRun(t, user.token, real.body.run_id);
    expect(run).toMatchObject({ status: 'finished', total: 9, failed: 1 });
    // The preview showed the numbers one after the other in row order (each preview row is rolled back; decision
    // 040), and the run, worked by two job workers, gives each row the number its preview showed (decision 051).
    const expected = rows.map((_, k) => `Invoice 2034-${String(before + k + 1).padStart(5, '0')} of 01-05-2034`);
    expect(dry.rows.filter((r) => r.ok).map((r) => r.message)).toEqual(expected);
    expect(run.rows.filter((r) => r.ok).map((r) => r.message)).toEqual(expected);
    const numbered = await t.db.select({ id: invoices.id, number: invoices.number }).from(invoices).where(inArray(invoices.id, rows.map((r) => r.id)));
    expect(rows.map((r) => numbered.find((n) => n.id === r.id)!.number)).toEqual(rows.map((_, k) => `2034-${String(before + k + 1).padStart(5, '0')}`));
  });

  it("batch Create Invoice: a preview refuses the rows the invoice template fails on, as the run does, and keeps no PDF (decision 063)", async () => {
    // An uploaded template that fails on the data of invoices over € 150 only.
    await t.db
      .insert(templates)
      .values({ internalname: 'invoice_pdf', content: 'title: Invoice {{ invoice.number }}\n--- intro ---\n{% if invoice.total > 150 %}{{ invoice.no_such_field }}{% endif %}Please pay.', filename: 'partly.liquid' });
    try {
      const cheap = await planned({ amount: '100.00' });
      const dear = await planned({ amount: '200.00' });
      const ids = [cheap.id, dear.id];
      const before = await counter(2039);
      const filesBefore = (await t.db.select({ n: count() }).from(storedFiles))[0]!.n;
      const preview = await api('post', '/invoices/batch/create_pdf').send({ ids, dry_run: true, invoice_date: '2039-03-01' });
      const dry = await waitForRun(t, user.token, preview.body.run_id);
      expect(dry).toMatchObject({ status: 'finished', dry_run: true, total: 2, failed: 1, amount: 100 });
      const refusal = /the uploaded template invoice_pdf does not render \(line 3: undefined variable: invoice\.no_such_field/;
      expect(dry.rows.find((r) => !r.ok)!.message).toMatch(refusal);
      expect(dry.rows.find((r) => r.ok)!.message).toBe(`Invoice 2039-${String(before + 1).padStart(5, '0')} of 01-03-2039`);
      expect(await counter(2039)).toBe(before);
      expect((await t.db.select({ n: count() }).from(storedFiles))[0]!.n).toBe(filesBefore);
      const real = await api('post', '/invoices/batch/create_pdf').send({ ids, invoice_date: '2039-03-01' });
      const run = await waitForRun(t, user.token, real.body.run_id);
      expect(run).toMatchObject({ status: 'finished', total: 2, failed: 1 });
      expect(run.rows.find((r) => !r.ok)!.message).toMatch(refusal);
      const [numbered] = await t.db.select({ number: invoices.number }).from(invoices).where(eq(invoices.id, cheap.id));
      expect(numbered!.number).toBe(`2039-${String(before + 1).padStart(5, '0')}`);
      const pdf = await api('post', `/invoices/${cheap.id}/download_pdf`).buffer(true).parse(binaryParser);
      expect(pdfText(pdf.body as Buffer)).toContain('Please pay.');
    } finally {
      await t.db.delete(templates).where(eq(templates.internalname, 'invoice_pdf'));
    }
  });
});

describe('invoices: only a contract that still takes invoices is invoiced (decision 035)', () => {
  it('numbers nothing for a contract that is not active or whose offer was rejected, and says why; the number is not taken', async () => {
    const inactive = await createContract(t.db, { student_id: student.id, active: false });
    const rejected = await createContract(t.db, { student_id: student.id, contract_status_id: 2, contract_status_date: '2036-01-10' });
    const before = await counter(2036);
    const a = await api('post', `/invoices/${(await planned({ contract_id: inactive.id })).id}/create_pdf`).send({ invoice_date: '2036-02-01' });
    expect([a.status, a.body.message]).toEqual([409, `No invoice: Contract ${inactive.application_number} is not active`]);
    const b = await api('post', `/invoices/${(await planned({ contract_id: rejected.id })).id}/create_pdf`).send({ invoice_date: '2036-02-01' });
    expect([b.status, b.body.message]).toEqual([409, `No invoice: The offer of contract ${rejected.application_number} was rejected`]);
    expect(await counter(2036)).toBe(before);
  });

  it('after a drop-out invoices the fees that fell due up to that day, and refuses the later ones in Create Invoice', async () => {
    const c = await createContract(t.db, { student_id: student.id, contract_status_id: 6, contract_status_date: '2037-01-31' });
    const due = await planned({ contract_id: c.id, planned_date: '2037-01-15' });
    const later = await planned({ contract_id: c.id, planned_date: '2037-09-01', year: 2 });
    const started = await api('post', '/invoices/batch/create_pdf').send({ ids: [due.id, later.id], invoice_date: '2037-02-01' });
    const run = await waitForRun(t, user.token, started.body.run_id);
    expect(run).toMatchObject({ status: 'finished', total: 2, failed: 1 });
    expect(run.rows.find((r) => !r.ok)!.message).toMatch(
      new RegExp(`: No invoice: The student of contract ${c.application_number} dropped out on 31-01-2037, before it was due \\(01-09-2037\\)$`),
    );
    const rows = await t.db.select({ id: invoices.id, number: invoices.number }).from(invoices).where(inArray(invoices.id, [due.id, later.id]));
    expect(rows.find((r) => r.id === due.id)!.number).toMatch(/^2037-\d{5}$/);
    expect(rows.find((r) => r.id === later.id)!.number).toBeNull();
  });
});

describe('invoices: locking (DESIGN §11)', () => {
  it('freezes amount, type, description and pro forma of a numbered invoice (409) and keeps comments and deadline editable', async () => {
    const p = await planned();
    const numbered = (await api('post', `/invoices/${p.id}/create_pdf`).send({ invoice_date: '2035-01-10' })).body;
    for (const change of [{ amount: 1 }, { description: 'Changed' }, { document_type_id: 7 }, { pro_forma: true }]) {
      const res = await api('put', `/invoices/${p.id}`).set('If-Match', numbered.edit_timestamp).send({ id: p.id, ...change });
      expect(res.status, JSON.stringify(change)).toBe(409);
      expect(res.body.message).toContain(`Invoice ${numbered.number} is numbered`);
    }
    const ok = await api('put', `/invoices/${p.id}`).set('If-Match', numbered.edit_timestamp).send({ id: p.id, comments: 'Student called', extended_deadline_date: '2035-03-01' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ comments: 'Student called', extended_deadline_date: '2035-03-01', amount: 1234.56 });
  });

  it('refuses an extended deadline before the expiration date (400 naming it), alone and in Bulk Edit', async () => {
    const p = await planned();
    const numbered = (await api('post', `/invoices/${p.id}/create_pdf`).send({ invoice_date: '2035-04-01' })).body;
    const res = await api('put', `/invoices/${p.id}`).set('If-Match', numbered.edit_timestamp).send({ id: p.id, extended_deadline_date: '2035-04-30' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ extended_deadline_date: ['The extended deadline cannot be before the expiration date (01-05-2035)'] });
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const bulk = await api('post', '/invoices/bulk_edit', admin.token).send({ ids: [p.id], versions: { [p.id]: numbered.edit_timestamp }, changes: { extended_deadline_date: '2000-01-01' } });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(202);
    const run = await waitForRun(t, admin.token, bulk.body.run_id);
    expect(run.rows.map((r) => r.message)).toEqual([`Error for ${numbered.number} REF: extended_deadline_date: The extended deadline cannot be before the expiration date (01-05-2035)`]);
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, p.id));
    expect(row!.extended_deadline_date).toBeNull();
    const ok = await api('put', `/invoices/${p.id}`).set('If-Match', numbered.edit_timestamp).send({ id: p.id, extended_deadline_date: '2035-05-01' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('refuses to delete a numbered invoice (409 with the reason) and deletes a planned one', async () => {
    const p = await planned();
    const numbered = (await api('post', `/invoices/${p.id}/create_pdf`).send({ invoice_date: '2035-02-10' })).body;
    const res = await api('delete', `/invoices/${p.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(`Invoice ${numbered.number} is numbered and cannot be deleted: correct it with a credit note`);
    const q = await planned();
    expect((await api('delete', `/invoices/${q.id}`)).status).toBe(204);
  });

  it('lets a planned invoice change its amount and type, and its reference follows the type', async () => {
    const p = await planned();
    const res = await api('put', `/invoices/${p.id}`).set('If-Match', p.edit_timestamp.toISOString()).send({ id: p.id, amount: 99.99, document_type_id: 7 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ amount: 99.99, document_type_id: 7, document_reference: `${contract.application_number}-Y1-T7` });
  });
});

describe('invoices: exports and bulk edit (spec §2 overview extras)', () => {
  const sheetRows = async (buffer: Buffer) => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(buffer as never);
    const rows: unknown[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  };

  it('Export Selection and Export Open Invoices answer xlsx with numbers as numbers', async () => {
    const c = await createContract(t.db);
    const p = await planned({ contract_id: c.id });
    const open = await planned({ contract_id: c.id, number: `X-${c.id}-1`, invoice_date: '2026-01-01', expiration_date: '2026-01-31', amount: '10.50' });
    const selection = await api('post', '/invoices/download_report', reader.token).send({ ids: [p.id, open.id] }).buffer(true).parse(binaryParser);
    expect(selection.status).toBe(200);
    const rows = await sheetRows(selection.body as Buffer);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('Amount');
    expect(rows.slice(1).flat()).toContain(10.5);
    const openOnly = await api('post', '/invoices/download_report_open', reader.token).send({ filter: { contract_id: c.id } }).buffer(true).parse(binaryParser);
    expect(openOnly.status).toBe(200);
    const openRows = await sheetRows(openOnly.body as Buffer);
    expect(openRows).toHaveLength(2);
    expect(openRows[1]).toContain(`X-${c.id}-1`);
  });

  it('Bulk Edit is for Administrators, refuses an empty change, and refuses a frozen field row by row', async () => {
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const p = await planned();
    const n = await planned({ number: `B-${p.id}`, invoice_date: '2026-01-01' });
    const versions = { [p.id]: p.edit_timestamp.toISOString(), [n.id]: n.edit_timestamp.toISOString() };
    expect((await api('post', '/invoices/bulk_edit').send({ ids: [p.id], versions, changes: { comments: 'x' } })).status).toBe(403);
    expect((await api('post', '/invoices/bulk_edit', admin.token).send({ ids: [p.id], versions, changes: {} })).status).toBe(400);
    expect((await api('post', '/invoices/bulk_edit', admin.token).send({ ids: [p.id], versions, changes: { amount: 1 } })).status).toBe(400);
    const res = await api('post', '/invoices/bulk_edit', admin.token).send({ ids: [p.id, n.id], versions, changes: { planned_date: '2026-04-01', comments: 'Moved' } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const run = await waitForRun(t, admin.token, res.body.run_id);
    expect(run).toMatchObject({ done: 2, failed: 1 });
    expect(run.rows.find((r) => !r.ok)!.message).toMatch(/^Error for B-\d+: planned_date cannot be changed: Invoice B-\d+ is numbered/);
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, p.id));
    expect(row).toMatchObject({ planned_date: '2026-04-01', comments: 'Moved' });
  });
});
