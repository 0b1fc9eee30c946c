import { eq, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { STUDENT_BANK_FIELDS, studentResource } from '@app/contracts';
import { contracts, countries, students, users, type Tx } from '@app/db';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern, type Join } from '../../lib/crud/crud-service.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { tableChoices } from '../../lib/crud/choices.js';
import { dayStart } from '../../lib/crud/day.js';
import { nameKeys, nameMatches, nameRank, prefixFirst, shortTextParts, wordsMatch } from '../../lib/search.js';
import { refuseFutureDay } from '../../lib/input.js';

const s = students;
const BANK_FIELDS: ReadonlySet<string> = new Set(STUDENT_BANK_FIELDS);

/**
 * The student's bank information was updated now, by this user: the student's timestamp and user, and each of
 * their contracts' `bankinfo_updated_timestamp` (spec §3) — an edit of the bank fields here, a bank-info import
 * later. The contracts' versions stay: nobody edited them, so nobody's open contract form goes stale.
 */
export async function markBankInfoUpdated(tx: Tx, studentId: number, userId: number): Promise<void> {
  await tx.update(students).set({ bankinfo_update_timestamp: sql`now()`, bankinfo_update_user: userId }).where(eq(students.id, studentId));
  await tx.update(contracts).set({ bankinfo_updated_timestamp: sql`now()` }).where(eq(contracts.student_id, studentId));
}
const country = alias(countries, 'country');
const citizenship1 = alias(countries, 'citizenship1');
const joinCountry: Join = (q) => q.innerJoin(country, eq(country.id, s.cntry_id));
const joinCitizenship: Join = (q) => q.leftJoin(citizenship1, eq(citizenship1.id, s.citizenship1_cntry_id));
const requestUser = alias(users, 'bankinfo_request_by');
const updateUser = alias(users, 'bankinfo_update_by');

export function studentModule(ctx: AppContext): ResourceModule {
  const tz = ctx.env.APP_TIMEZONE;
  const plain = Object.fromEntries(
    (
      [
        'id', 'first_name', 'last_name', 'address', 'zip', 'city', 'cntry_id', 'birth_date', 'gender', 'citizenship1_cntry_id',
        'citizenship2_cntry_id', 'phone', 'email_address', 'passport_number', 'comments', 'registration_fee_payed', 'active_contract_id',
        'payment_holder_first_name', 'payment_holder_last_name', 'payment_holder_address', 'payment_holder_zip_city', 'payment_holder_cntry_id',
        'payment_bank_iban', 'payment_bank_swift', 'payment_bank_reference', 'payment_bank_name', 'payment_bank_address', 'payment_bank_zip_city',
        'payment_bank_cntry_id', 'university_payment_reference', 'bankinfo_request_timestamp', 'bankinfo_update_timestamp', 'edit_timestamp',
      ] as const
    ).map((field) => [field, s[field] as AnyPgColumn]),
  );
  const service = createCrudService(ctx, {
    resource: studentResource,
    table: s,
    columns: {
      ...plain,
      cntry: country.cntry_name,
      citizenship1: citizenship1.cntry_name,
      bankinfo_request_user: requestUser.usr_name,
      bankinfo_update_user: updateUser.usr_name,
    },
    joins: (q) =>
      joinCitizenship(joinCountry(q))
        .leftJoin(requestUser, eq(requestUser.id, s.bankinfo_request_user))
        .leftJoin(updateUser, eq(updateUser.id, s.bankinfo_update_user)),
    // Search and filters are on the student itself; the joins are to-one (country required, the rest optional).
    countJoins: (q) => q,
    sortJoins: { cntry: joinCountry, citizenship1: joinCitizenship },
    neverNull: ['cntry'],
    search: nameMatches,
    searchRank: nameRank,
    searchParts: (term) => shortTextParts(term, [nameMatches(term)], prefixFirst(nameKeys, term)),
    filters: {
      name: (v) => nameMatches(String(v)),
      email_address: (v) => sql`lower(${s.email_address}) like lower(${likePattern(String(v))})`,
      // The stored key `students_address_trgm_idx` indexes (migration 0032).
      address: (v) => wordsMatch(sql`${s.address_key}`, String(v)),
      bankinfo_requested_before: (v) => sql`${s.bankinfo_request_timestamp} < ${dayStart(tz, v)}`,
      bankinfo_updated_before: (v) => sql`${s.bankinfo_update_timestamp} < ${dayStart(tz, v)}`,
    },
    eventLinks: (row) => ({ studentId: Number(row.id) }),
    hooks: {
      // Nobody is born after today: a birth date ahead is a typo (a 400 naming it), checked only when it is set.
      beforeCreate: (_tx, values) => {
        refuseFutureDay(tz, 'birth_date', 'Birth date', values.birth_date);
        return values;
      },
      beforeUpdate: (_tx, changes, current) => {
        if (changes.birth_date !== current.birth_date) refuseFutureDay(tz, 'birth_date', 'Birth date', changes.birth_date);
        return changes;
      },
      afterChange: async (tx, change, actor) => {
        const given = (value: unknown) => value !== null && value !== undefined && value !== '';
        // Bank details given or changed; only emptied is no update of them (decision 054): the contracts'
        // "Bank Updated" would say the data came when it went.
        const bankDetails =
          change.op === 'update'
            ? Object.entries(change.changed).some(([f, c]) => BANK_FIELDS.has(f) && given(c.new))
            : change.op === 'create' && STUDENT_BANK_FIELDS.some((f) => given(change.row[f]));
        if (bankDetails) await markBankInfoUpdated(tx, change.id, actor.user.id);
      },
    },
  });
  return defineModule(ctx, service);
}

export const studentChoices = (ctx: AppContext) =>
  tableChoices(ctx.db, { table: s, id: s.id, label: sql`${s.last_name} || ', ' || ${s.first_name}`, order: [s.last_name, s.first_name], matches: nameMatches });
