import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { SCHOLARSHIP_PAYMENT_TYPE_UNIVERSITY_FEE } from '@app/contracts';
import { contracts, countries, invoices, scholarshipPayments as sp, scholarshipPaymentTypes, students, universities, type DbOrTx } from '@app/db';
import type { Payee } from './bank-data.js';

/** The bank data a payment's messages name: a university fee's university, else the student whose record holds it. */
export const accountOf = (r: { university_fee: boolean; payee_name: string; student_name: string; payee_iban: string | null; payee_bic: string | null }): Payee => ({
  name: r.university_fee ? r.payee_name : r.student_name,
  holder: r.payee_name,
  iban: r.payee_iban,
  bic: r.payee_bic,
});

/**
 * The payee of each payment and what the bank file and sheets show of it, read in one query (decision 034). A
 * student's payment goes to the account holder the student named (the payment holder fields), else to the
 * student: the bank file names the holder of the account, with the holder's address. A university fee goes to the
 * university's payment holder (its name when no holder is named).
 */
export async function paymentDetails(db: DbOrTx, where: SQL) {
  const isUniversity = sql`${sp.scholarship_payment_type_id} = ${SCHOLARSHIP_PAYMENT_TYPE_UNIVERSITY_FEE}`;
  const s = students;
  const holderNamed = sql`coalesce(nullif(trim(${s.payment_holder_first_name}), ''), nullif(trim(${s.payment_holder_last_name}), '')) is not null`;
  const payee = <T>(university: SQL | AnyPgColumn, holder: SQL | AnyPgColumn, student: SQL | AnyPgColumn) =>
    sql<T>`case when ${isUniversity} then ${university} when ${holderNamed} then ${holder} else ${student} end`;
  // A holder who is the student (the student's own name typed as holder, decision 052) and gave no address of
  // their own is paid at the student's address: the transfer carries an address whenever one is known.
  const holderIsStudentWithoutAddress = sql`lower(concat_ws(' ', nullif(trim(${s.payment_holder_first_name}), ''), nullif(trim(${s.payment_holder_last_name}), ''))) = lower(trim(${s.first_name}) || ' ' || trim(${s.last_name}))
    and nullif(trim(${s.payment_holder_address}), '') is null and nullif(trim(${s.payment_holder_zip_city}), '') is null`;
  const payeeAddress = <T>(university: SQL | AnyPgColumn, holder: SQL | AnyPgColumn, student: SQL | AnyPgColumn) =>
    sql<T>`case when ${isUniversity} then ${university} when ${holderNamed} and not (${holderIsStudentWithoutAddress}) then ${holder} else ${student} end`;
  return db
    .select({
      id: sp.id,
      number: sp.number,
      amount: sql<string>`${sp.amount}::text`,
      payment_date: sp.payment_date,
      planned_date: sp.planned_date,
      period: sp.period,
      description: sp.description,
      type: scholarshipPaymentTypes.name,
      contract: contracts.application_number,
      contract_id: sp.contract_id,
      student_id: contracts.student_id,
      contract_active: contracts.active,
      contract_status_id: contracts.contract_status_id,
      contract_status_date: contracts.contract_status_date,
      contract_start: contracts.start_date,
      contract_end: contracts.end_date,
      contract_universities: sql<number[]>`array_remove(array[${contracts.y1_university_id}, ${contracts.y2_university_id}], null)`,
      scholarship_payment_type_id: sp.scholarship_payment_type_id,
      university_id: sp.university_id,
      student_name: sql<string>`${s.first_name} || ' ' || ${s.last_name}`,
      university: universities.shortname,
      linked_invoice_number: sql<string | null>`(select li.number from ${invoices} li where li.id = ${sp.linked_invoice_id})`,
      exported_timestamp: sp.exported_timestamp,
      university_fee: sql<boolean>`${isUniversity}`,
      payee_name: payee<string>(
        sql`coalesce(nullif(trim(${universities.payment_holder_name}), ''), ${universities.name})`,
        sql`concat_ws(' ', nullif(trim(${s.payment_holder_first_name}), ''), nullif(trim(${s.payment_holder_last_name}), ''))`,
        sql`${s.first_name} || ' ' || ${s.last_name}`,
      ),
      payee_iban: sql<string | null>`case when ${isUniversity} then ${universities.payment_holder_iban} else ${s.payment_bank_iban} end`,
      payee_bic: sql<string | null>`case when ${isUniversity} then ${universities.payment_holder_swift} else ${s.payment_bank_swift} end`,
      payee_street: payeeAddress<string | null>(universities.payment_holder_address, s.payment_holder_address, s.address),
      payee_zip_city: payeeAddress<string | null>(sql`null`, s.payment_holder_zip_city, sql`concat_ws(' ', ${s.zip}, ${s.city})`),
      payee_country: sql<string | null>`(select c.cntry_code from ${countries} c where c.id = ${payeeAddress(sql`null::int`, s.payment_holder_cntry_id, s.cntry_id)})`,
      // The reference the payee asked to see on each transfer: the university's for its student, else the account's.
      reference: sql<string | null>`nullif(trim(case when ${isUniversity} then ${s.university_payment_reference} else ${s.payment_bank_reference} end), '')`,
    })
    .from(sp)
    .innerJoin(contracts, eq(contracts.id, sp.contract_id))
    .innerJoin(s, eq(s.id, contracts.student_id))
    .innerJoin(scholarshipPaymentTypes, eq(scholarshipPaymentTypes.id, sp.scholarship_payment_type_id))
    .leftJoin(universities, eq(universities.id, sp.university_id))
    .where(where)
    .orderBy(asc(sp.number), asc(sp.planned_date), asc(sp.id));
}
export type PaymentDetail = Awaited<ReturnType<typeof paymentDetails>>[number];
