import { z } from 'zod';
import { defineResource } from '../common/resource.js';
import { requiredText } from '../common/fields.js';

export const ProgramSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  shortname: z.string(),
  edit_timestamp: z.string().nullable(),
});

export const ProgramCreateSchema = z.object({
  name: requiredText('Name', 200),
  shortname: requiredText('Short Name', 50),
});

export const ProgramUpdateSchema = ProgramCreateSchema.partial().extend({ id: z.number().int().positive() });

export type Program = z.infer<typeof ProgramSchema>;

export const programResource = defineResource({
  key: 'program',
  title: 'Program',
  titlePlural: 'Programs',
  apiPath: 'programs',
  routes: { overview: '/programs', detail: '/program' },
  schema: ProgramSchema,
  createSchema: ProgramCreateSchema,
  updateSchema: ProgramUpdateSchema,
  filterSchema: z.object({}),
  sortable: ['name', 'shortname', 'edit_timestamp'],
  defaultSort: [{ field: 'name', direction: 'asc' }],
  access: { read: 'reader', write: 'administrator' },
  deletable: true,
  referenceField: 'shortname',
  columns: [
    { field: 'name', title: 'Name' },
    { field: 'shortname', title: 'Short Name' },
  ],
});
