import { z } from 'zod';
import { defineResource } from '../common/resource.js';
import { requiredText } from '../common/fields.js';

export const CountrySchema = z.object({
  id: z.number().int(),
  cntry_code: z.string(),
  cntry_name: z.string(),
  edit_timestamp: z.string().nullable(),
});

export const CountryCreateSchema = z.object({
  cntry_code: requiredText('Code', 3)
    .regex(/^[A-Za-z]{2,3}$/, 'Code must be 2 or 3 letters')
    .transform((s) => s.toUpperCase()),
  cntry_name: requiredText('Name', 100),
});

export const CountryUpdateSchema = CountryCreateSchema.partial().extend({ id: z.number().int().positive() });

export const CountryFilterSchema = z.object({});

export type Country = z.infer<typeof CountrySchema>;
export type CountryCreate = z.infer<typeof CountryCreateSchema>;
export type CountryUpdate = z.infer<typeof CountryUpdateSchema>;

export const countryResource = defineResource({
  key: 'country',
  title: 'Country',
  titlePlural: 'Countries',
  apiPath: 'countries',
  routes: { overview: '/countries', detail: '/country' },
  schema: CountrySchema,
  createSchema: CountryCreateSchema,
  updateSchema: CountryUpdateSchema,
  filterSchema: CountryFilterSchema,
  sortable: ['cntry_code', 'cntry_name', 'edit_timestamp'],
  defaultSort: [{ field: 'cntry_name', direction: 'asc' }],
  access: { read: 'reader', write: 'administrator' },
  deletable: true,
  referenceField: 'cntry_code',
  columns: [
    { field: 'cntry_code', title: 'Code', width: 120 },
    { field: 'cntry_name', title: 'Name' },
  ],
});
