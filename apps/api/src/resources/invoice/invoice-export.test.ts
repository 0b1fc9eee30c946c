import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { invoices } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { binaryParser, createContract, userWithToken } from '../../test/factories.js';

// Export Selection writes the columns and titles of the view exported from, and the selection in the overview's order.
const t = await setupTestApp();
const reader = await userWithToken(t.app, t.db, 'Reader');
const contract = await createContract(t.db);

async function invoice(values: Partial<typeof invoices.$inferInsert>) {
  const [row] = await t.db
    .insert(invoices)
    .values({ contract_id: contract.id, year: 1, semester: 0, amount: '100.00', description: 'Participation fee', planned_date: '2026-03-01', document_type_id: 5, ...values })
    .returning();
  return row!;
}

async function exported(body: object): Promise<unknown[][]> {
  const res = await t
    .http()
    .post('/api/v1.0/invoices/download_report')
    .set('Authorization', `Bearer ${reader.token}`)
    .send(body)
    .buffer(true)
    .parse(binaryParser);
  expect(res.status).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.body as never);
  const rows: unknown[][] = [];
  book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

const first = await invoice({ number: `E-${contract.id}-1`, invoice_date: '2026-01-01' });
const second = await invoice({ number: `E-${contract.id}-2`, invoice_date: '2026-01-02' });
const credit = await invoice({ number: `CN-E-${contract.id}-1`, invoice_date: '2026-01-03', amount: '-25.00', linked_invoice_id: first.id, document_type_id: 6 });
await invoice({ document_reference: `E-${contract.id}-P`, description: 'Planned fee' });

describe('Export Selection of the invoice views', () => {
  it("writes the credit notes' columns with their titles, then the export-only columns", async () => {
    const [header, ...rows] = await exported({ filter: { creditnote: 'true', contract_id: contract.id } });
    expect(header).toEqual([
      'Number', 'Contract', 'Student Name', 'Year', 'Semester', 'Amount credited', 'Amount to be paid', 'Description', 'Date',
      'Exp. Date', 'Ext. Deadline', 'Email Sent', 'Last Edit', 'Comments', 'Document Type', 'Pro Forma',
    ]);
    expect(rows.map((r) => r[0])).toEqual([credit.number]);
  });

  it("writes the planned view's columns, not every invoice column", async () => {
    const [header] = await exported({ filter: { planned: 'true', contract_id: contract.id } });
    expect(header).toEqual(['Reference', 'Contract', 'Student Name', 'Year', 'Semester', 'Amount to be paid', 'Description', 'Planned Date', 'Last Edit', 'Comments', 'Document Type', 'Pro Forma']);
  });

  it("writes selected rows in the overview's sort, with the view's columns", async () => {
    const [header, ...rows] = await exported({ ids: [first.id, second.id], filter: { numbered: 'true', sort: 'number|desc' } });
    expect(header![0]).toBe('Invoice Number');
    expect(rows.map((r) => r[0])).toEqual([second.number, first.number]);
    // Semester 0 reads as on the screen, not as a bare 0 (the year stays a number).
    expect(header![4]).toBe('Semester');
    expect(rows.map((r) => [r[3], r[4]])).toEqual([[1, 'Whole year'], [1, 'Whole year']]);
  });
});
