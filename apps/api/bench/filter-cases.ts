// The requests of `pnpm bench:filters` and of the bench's filter section: every advanced-filter field of the five
// big overviews, one realistic value each, with every sort the view offers (both directions), page 1 — issue 11's
// "any sort of the descriptor, one filter". The values are read from the database: the commonest intake, status,
// program and so on, so that each filter matches many rows, and the middle of each date.
import type pg from 'pg';
import { contractResource, invoicePaymentResource, invoiceResource, scholarshipPaymentResource, studentResource, viewSortKeys, viewsOf } from '@app/contracts';

export async function filterCaseUrls(pool: pg.Pool): Promise<string[]> {
  const one = async (sql: string) => String(Object.values((await pool.query(sql)).rows[0] as object)[0]);
  /** The middle date of a column (a day), or today where no row has one. */
  const middle = async (table: string, column: string) => {
    const day = await one(`select percentile_disc(0.5) within group (order by ${column}::date)::text from ${table}`);
    return day === 'null' ? new Date().toISOString().slice(0, 10) : day;
  };
  /** The value most rows have, as a filter would pick it: `commonest('contracts', 'intake')`. */
  const commonest = (table: string, column: string, where = 'true') =>
    one(`select ${column} from ${table} where ${column} is not null and ${where} group by 1 order by count(*) desc limit 1`);

  // A contract and a student with many rows, and the middle of the dates.
  const contractId = await one('select contract_id from invoices group by 1 order by count(*) desc, 1 limit 1');
  const studentId = await one(`select student_id from contracts where id = ${contractId}`);
  const contractFields = {
    contract_id: contractId,
    student_id: studentId,
    intake: await commonest('contracts', 'intake'),
    application_round: await commonest('contracts', 'application_round'),
    contract_status_id: await commonest('contracts', 'contract_status_id'),
    program_id: await commonest('contracts', 'program_id'),
    instalments: 'true',
  };
  const invoiceFields = {
    ...contractFields,
    email_sent: 'false',
    open: 'true',
    pro_forma: 'true',
    planned_before: await middle('invoices', 'planned_date'),
    expired_after: await middle('invoices', 'expiration_date'),
  };
  // The document type each view's rows have most of (the credit notes' differ from the invoices').
  const documentType = (creditnote: boolean) => commonest('invoices', 'document_type_id', `is_creditnote = ${creditnote}`);

  const filtersOf = {
    students: {
      name: await commonest('students', 'last_name'),
      email_address: 'example',
      address: await commonest('students', 'city'),
      bankinfo_requested_before: await middle('students', 'bankinfo_request_timestamp'),
      bankinfo_updated_before: await middle('students', 'bankinfo_update_timestamp'),
    },
    contracts: { ...invoiceFields, scholarship_id: await commonest('contracts', 'scholarship_id'), active: 'true', document_type_id: await documentType(false) },
    invoices: invoiceFields,
    invoice_payments: {
      contract_id: await one('select contract_id from invoice_payments group by 1 order by count(*) desc, 1 limit 1'),
      email_sent: 'false',
      payment_date_after: await middle('invoice_payments', 'payment_date'),
    },
    scholarship_payments: {
      contract_id: await one('select contract_id from scholarship_payments group by 1 order by count(*) desc, 1 limit 1'),
      planned_before: await middle('scholarship_payments', 'planned_date'),
      exported_after: await middle('scholarship_payments', 'exported_timestamp'),
      ready_for_export: 'true',
      scholarship_payment_type_id: await commonest('scholarship_payments', 'scholarship_payment_type_id'),
      payment_date: await middle('scholarship_payments', 'payment_date'),
      intake: contractFields.intake,
    },
  } satisfies Record<string, Record<string, string>>;

  const urls: string[] = [];
  for (const resource of [studentResource, contractResource, invoiceResource, invoicePaymentResource, scholarshipPaymentResource]) {
    const filters: Record<string, string> = filtersOf[resource.apiPath as keyof typeof filtersOf];
    for (const view of viewsOf(resource)) {
      const fixed = view.fixedFilter ?? {};
      for (const [name, filterValue] of Object.entries(filters)) {
        if (name in fixed) continue;
        const value = name === 'document_type_id' && resource === invoiceResource ? await documentType(fixed.creditnote === 'true') : filterValue;
        for (const field of viewSortKeys(resource, view)) {
          for (const direction of ['asc', 'desc']) {
            urls.push(`/${resource.apiPath}?${new URLSearchParams({ ...fixed, [name]: value, sort: `${field}|${direction}` }).toString()}`);
          }
        }
      }
    }
  }
  return urls;
}
