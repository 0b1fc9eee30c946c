import { z } from 'zod';
import { defineResource } from '../common/resource.js';
import { bic, iban, nonNegativeMoney, requiredMultilineText, requiredText } from '../common/fields.js';

export const UniversitySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  shortname: z.string(),
  payment_holder_name: z.string(),
  payment_holder_iban: z.string(),
  payment_holder_swift: z.string(),
  payment_holder_address: z.string(),
  payment_bank_address: z.string(),
  payment_amount: z.number(),
  edit_timestamp: z.string().nullable(),
});

export const UniversityCreateSchema = z.object({
  name: requiredText('Name', 200),
  shortname: requiredText('Short Name', 50),
  payment_holder_name: requiredText('Payment holder name', 200),
  payment_holder_iban: iban('Payment holder IBAN'),
  payment_holder_swift: bic('Payment holder SWIFT'),
  payment_holder_address: requiredMultilineText('Payment holder address', 500),
  payment_bank_address: requiredMultilineText('Bank address', 500),
  payment_amount: nonNegativeMoney('Payment amount'),
});

export const UniversityUpdateSchema = UniversityCreateSchema.partial().extend({ id: z.number().int().positive() });

export type University = z.infer<typeof UniversitySchema>;

export const universityResource = defineResource({
  key: 'university',
  title: 'University',
  titlePlural: 'Universities',
  apiPath: 'universities',
  routes: { overview: '/universities', detail: '/university' },
  schema: UniversitySchema,
  createSchema: UniversityCreateSchema,
  updateSchema: UniversityUpdateSchema,
  filterSchema: z.object({}),
  sortable: ['name', 'shortname', 'payment_amount', 'edit_timestamp'],
  defaultSort: [{ field: 'name', direction: 'asc' }],
  access: { read: 'reader', write: 'administrator' },
  deletable: true,
  referenceField: 'shortname',
  maskedFields: ['payment_holder_iban'],
  columns: [
    { field: 'name', title: 'Name' },
    { field: 'shortname', title: 'Short Name' },
  ],
});
