import { universityResource } from '@app/contracts';
import { defineFields } from '../../machinery/fields/types';

export const universityFields = defineFields(universityResource, [
  { name: 'name', label: 'Name', kind: 'text' },
  { name: 'shortname', label: 'Short Name', kind: 'text' },
  { name: 'payment_holder_name', label: 'Payment holder name', kind: 'text' },
  { name: 'payment_holder_iban', label: 'Payment holder IBAN', kind: 'iban', placeholder: 'e.g. DE89 3704 0044 0532 0130 00' },
  { name: 'payment_holder_swift', label: 'Payment holder SWIFT', kind: 'text', placeholder: 'e.g. COBADEFFXXX' },
  { name: 'payment_amount', label: 'Payment amount', kind: 'money' },
  { name: 'payment_holder_address', label: 'Payment holder address', kind: 'textarea' },
  { name: 'payment_bank_address', label: 'Bank address', kind: 'textarea' },
]);
