import { GENDERS, studentResource } from '@app/contracts';
import { defineFields } from '../../machinery/fields/types';

const GENDER_OPTIONS = GENDERS.map((g) => ({ value: g, label: g }));

const PERSONAL = 'Personal';
const ADDRESS = 'Address';
const HOLDER = 'Payment holder';
const BANK = 'Bank';
const OTHER = 'Other';

/**
 * Every editable field of a student (spec §3), in sections; IBAN and BIC are checked by the create schema.
 * The read-only facts (registration fee, active contract, bank info requests) are shown above the form.
 */
export const studentFields = defineFields(studentResource, [
  { name: 'first_name', label: 'First Name', kind: 'text', group: PERSONAL },
  { name: 'last_name', label: 'Last Name', kind: 'text', group: PERSONAL },
  { name: 'gender', label: 'Gender', kind: 'select', options: GENDER_OPTIONS, group: PERSONAL },
  { name: 'birth_date', label: 'Birth Date', kind: 'date', notAfterToday: true, group: PERSONAL },
  { name: 'email_address', label: 'Email Address', kind: 'email', group: PERSONAL },
  { name: 'phone', label: 'Phone', kind: 'phone', group: PERSONAL },
  { name: 'passport_number', label: 'Passport Number', kind: 'text', group: PERSONAL },
  { name: 'citizenship1_cntry_id', label: 'Citizenship 1', kind: 'select', choices: 'countries', group: PERSONAL },
  { name: 'citizenship2_cntry_id', label: 'Citizenship 2', kind: 'select', choices: 'countries', group: PERSONAL },

  { name: 'address', label: 'Street Address', kind: 'text', group: ADDRESS },
  { name: 'zip', label: 'Postal Code', kind: 'text', group: ADDRESS },
  { name: 'city', label: 'City', kind: 'text', group: ADDRESS },
  { name: 'cntry_id', label: 'Country', kind: 'select', choices: 'countries', group: ADDRESS },

  {
    name: 'payment_holder_first_name',
    label: 'Payment holder first name',
    kind: 'text',
    group: HOLDER,
    description: "Only when the account is not in the student's name: scholarship payments then go to this holder",
  },
  { name: 'payment_holder_last_name', label: 'Payment holder last name', kind: 'text', group: HOLDER },
  { name: 'payment_holder_address', label: 'Payment holder address', kind: 'text', group: HOLDER },
  { name: 'payment_holder_zip_city', label: 'Payment holder postal code and city', kind: 'text', group: HOLDER },
  { name: 'payment_holder_cntry_id', label: 'Payment holder country', kind: 'select', choices: 'countries', group: HOLDER },

  { name: 'payment_bank_iban', label: 'IBAN', kind: 'iban', placeholder: 'e.g. DE89 3704 0044 0532 0130 00', group: BANK },
  { name: 'payment_bank_swift', label: 'BIC / SWIFT', kind: 'text', placeholder: 'e.g. COBADEFFXXX', group: BANK },
  { name: 'payment_bank_name', label: 'Bank name', kind: 'text', group: BANK },
  { name: 'payment_bank_reference', label: 'Bank reference', kind: 'text', group: BANK, description: 'Sent with every scholarship payment to this account' },
  { name: 'payment_bank_address', label: 'Bank address', kind: 'text', group: BANK },
  { name: 'payment_bank_zip_city', label: 'Bank postal code and city', kind: 'text', group: BANK },
  { name: 'payment_bank_cntry_id', label: 'Bank country', kind: 'select', choices: 'countries', group: BANK },
  { name: 'university_payment_reference', label: 'University payment reference', kind: 'text', group: BANK, description: 'Sent with every university fee paid for the student' },

  { name: 'comments', label: 'Comments', kind: 'textarea', span: 2, group: OTHER },
]);
