import { eq } from 'drizzle-orm';
import { contracts, contractStatuses, countries, programs, students, universities, type DbOrTx } from '@app/db';
import { AppError } from '@app/contracts';

/**
 * What every document and mail about a contract is given (the `student` and `contract` of the templates'
 * samples, lib/templates/registry.ts): the student's name, address and bank account, the contract's reference,
 * program, first university, dates and status.
 */
export async function contractTemplateData(db: DbOrTx, contractId: number) {
  const [d] = await db
    .select({
      first_name: students.first_name,
      last_name: students.last_name,
      email: students.email_address,
      address: students.address,
      zip: students.zip,
      city: students.city,
      country: countries.cntry_name,
      iban: students.payment_bank_iban,
      application_number: contracts.application_number,
      start_date: contracts.start_date,
      end_date: contracts.end_date,
      status: contractStatuses.name,
      program: programs.name,
      university: universities.name,
    })
    .from(contracts)
    .innerJoin(students, eq(students.id, contracts.student_id))
    .innerJoin(countries, eq(countries.id, students.cntry_id))
    .innerJoin(contractStatuses, eq(contractStatuses.id, contracts.contract_status_id))
    .innerJoin(programs, eq(programs.id, contracts.program_id))
    .innerJoin(universities, eq(universities.id, contracts.y1_university_id))
    .where(eq(contracts.id, contractId));
  if (!d) throw new AppError('NOT_FOUND', `Contract ${contractId} not found`);
  return {
    student: {
      name: `${d.first_name} ${d.last_name}`,
      first_name: d.first_name,
      last_name: d.last_name,
      email: d.email.trim(),
      address_lines: [d.address, `${d.zip} ${d.city}`.trim(), d.country].filter((l) => l.trim() !== ''),
      iban: d.iban ?? '',
    },
    contract: {
      reference: d.application_number,
      program: d.program,
      university: d.university,
      start_date: String(d.start_date),
      end_date: String(d.end_date),
      status: d.status,
    },
  };
}
