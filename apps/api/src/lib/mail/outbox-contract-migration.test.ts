import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { connect, invoicePayments, invoices } from '@app/db';
import { createContract } from '../../test/factories.js';
import { databaseAtMigration } from '../../test/migrations.js';

const database = await databaseAtMigration('0036_short_names_unique_without_case');
const handle = connect(database.url, { max: 2 });
const client = new pg.Client({ connectionString: database.url });
await client.connect();
afterAll(async () => {
  await client.end();
  await handle.close();
});

describe('migration 0037 (the contract of each mail, decision 045)', () => {
  it('gives each mail queued before the contract of the record it is about; a mail about a deleted record or about none has none', async () => {
    const [c1, c2] = [await createContract(handle.db), await createContract(handle.db)];
    const [invoice] = await handle.db
      .insert(invoices)
      .values({ contract_id: c2.id, year: 1, semester: 0, amount: '100.00', description: 'Fee', number: 'M-2026-00001', invoice_date: '2026-03-01', document_type_id: 5 })
      .returning();
    const [payment] = await handle.db.insert(invoicePayments).values({ number: 'MP2026-00001', invoice_id: invoice!.id, payment_date: '2026-03-02', amount_paid: '50.00' }).returning();
    const mails: [string | null, number | null][] = [
      ['contract', c1.id],
      ['invoice', invoice!.id],
      ['invoice_payment', payment!.id],
      ['invoice_payment', payment!.id + 1000],
      ['emailSettings', 1],
      [null, null],
    ];
    const ids: number[] = [];
    for (const [resource, recordId] of mails) {
      const { rows } = await client.query<{ id: number }>(`insert into outbox (recipient, subject, text_body, resource, record_id) values ('a@example.org', 'S', 'T', $1, $2) returning id`, [
        resource,
        recordId,
      ]);
      ids.push(rows[0]!.id);
    }

    await database.migrateToLatest();

    const { rows } = await client.query<{ id: number; contract_id: number | null }>('select id, contract_id from outbox order by id');
    expect(rows.map((r) => r.contract_id)).toEqual([c1.id, c2.id, c2.id, null, null, null]);
    expect(rows.map((r) => r.id)).toEqual(ids);
    // A contract deleted later leaves its mails in the outbox, without the contract.
    await client.query('delete from contracts where id = $1', [c1.id]);
    const { rows: kept } = await client.query<{ contract_id: number | null }>('select contract_id from outbox where id = $1', [ids[0]]);
    expect(kept).toEqual([{ contract_id: null }]);
  });
});
